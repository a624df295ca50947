"""Pooling: max_pool2d (MaxPool2DWithIndicesBackward0), avg_pool2d (AvgPool2DBackward0) and adaptive_avg_pool2d;
the 1-d pools are the 2-d ones of an unsqueezed input, as torch runs them. Their windows are the convolution's
(conv.py)."""
import itertools

import numpy as np

from .. import dtypes, memory
from .conv import size_of, windows, zeros_for
from .padding import tuple_text
from .table import OPS, Spelling, composite, op


def pool_shape(size, kernel, stride, padding, dilation, ceil_mode):
    """ATen's pooling_output_shape: with ceil_mode a last window may start past the end, but not in the padding
    of the far side."""
    span = dilation * (kernel - 1) + 1
    out = (size + 2 * padding - span + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def _extra(shape, out, kernel, stride, padding, dilation):
    """How far past the padded input the last windows reach (ceil_mode)."""
    return tuple(max(0, (o - 1) * s + d * (k - 1) + 1 - (n + 2 * p))
                 for n, o, k, s, p, d in zip(shape, out, kernel, stride, padding, dilation))


def _planes(fn):
    """A pool's numpy function on (N, C, H, W) arrays, taking (C, H, W) ones too (as ATen's pools do)."""
    def on_planes(x, *args, **kwargs):
        if x.ndim == 4:
            return fn(x, *args, **kwargs)
        args = tuple(a[None] if isinstance(a, np.ndarray) else a for a in args)
        return fn(x[None], *args, **kwargs)[0]

    return on_planes


@_planes
def _max_pool_indices(x, kernel_size, stride, padding, dilation, ceil_mode):
    """Where each window's max is, as a flat index into its input plane: the first max in the window's order, or
    the last NaN (ATen: `val > max || isnan(val)`)."""
    out = [pool_shape(n, k, s, p, d, ceil_mode)
           for n, k, s, p, d in zip(x.shape[2:], kernel_size, stride, padding, dilation)]
    extra = _extra(x.shape[2:], out, kernel_size, stride, padding, dilation)
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    win = windows(x, kernel_size, stride, padding, dilation, fill=fill, extra=extra)
    flat = win.reshape(*win.shape[:4], -1)
    pick = np.argmax(flat, axis=-1)
    if x.dtype.kind == "f":
        nan = np.isnan(flat)
        last_nan = flat.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
        pick = np.where(nan.any(axis=-1), last_nan, pick)
    kh, kw = np.unravel_index(pick, kernel_size)
    rows = np.arange(out[0])[:, None] * stride[0] - padding[0] + kh * dilation[0]
    cols = np.arange(out[1])[None, :] * stride[1] - padding[1] + kw * dilation[1]
    return (rows * x.shape[3] + cols).astype(np.int64)


def _max_pool_values(x, kernel_size, stride, padding, dilation, ceil_mode, result1):
    planes = x.reshape(*x.shape[:-2], -1)
    idx = result1._data
    return memory.like_input(np.take_along_axis(planes, idx.reshape(*idx.shape[:-2], -1), axis=-1).reshape(idx.shape),
                             x)


def _max_pool_backward(g, x, indices):
    if x.ndim == 3:
        return _max_pool_backward(g[None], x[None], indices[None])[0]
    shape = x.shape
    out = np.zeros((*shape[:2], shape[2] * shape[3]), dtype=g.dtype)
    n, c = np.indices(indices.shape[:2], sparse=True)
    np.add.at(out, (n[..., None, None], c[..., None, None], indices), g)
    return memory.like_input(out.reshape(shape), x)


def _max_pool_take(n, g):
    idx = n.attrs["indices"]
    planes = g.reshape(g.shape[0], g.shape[1], -1)
    b, c = np.indices(idx.shape[:2], sparse=True)
    return planes._op("index", key=(b[..., None, None], c[..., None, None], idx))


def _pool_default(key):
    return {"stride": (), "padding": (0, 0), "dilation": (1, 1), "ceil_mode": False, "divisor_override": None}[key]


def _pool_label(word, keys):
    def label(s, a):
        args = [f"{key}={tuple_text(a[key]) if isinstance(a[key], tuple) else a[key]}" for key in keys
                if a[key] != _pool_default(key)]
        if a.get("count_include_pad") is False:
            args.append("count_include_pad=False")
        return f"{word}({s[0]}, {tuple_text(a['kernel_size'])}{''.join(', ' + x for x in args)})"

    return label


_MAX_KEYS = ("stride", "padding", "dilation", "ceil_mode")
op("max_pool2d", "MaxPool2DWithIndicesBackward0", ("self",), _max_pool_values,
   ("grad to the max of each window",
    lambda n, g: g._op("max_pool2d_backward", n["self"], indices=n.attrs["result1"]._data)),
   saves={0: ("self", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "result1")},
   spell=Spelling(function="max_pool2d", functional="max_pool2d", out=False, name=_pool_label("max_pool2d", _MAX_KEYS)),
   bind=False)
op("max_pool2d_backward", "MaxPool2DWithIndicesBackwardBackward0", ("grad", "self"), _max_pool_backward,
   ("grad at each window's max", _max_pool_take), ("0", lambda n, v: zeros_for(n, 1, v)))


def _avg_divisors(shape, out, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """What ATen divides each window's sum by: divisor_override, else the window's size clipped to the padded
    input (count_include_pad) or to the input."""
    if divisor_override is not None:
        return np.full(out, divisor_override, np.int64)
    return window_sizes(shape, out, kernel_size, stride, padding, count_include_pad)


def _int_divide(total, divisors):
    """C++'s integer division, which truncates toward zero (numpy's // floors)."""
    q = total // divisors
    return np.where((total % divisors != 0) & ((total < 0) != (divisors < 0)), q + 1, q).astype(total.dtype)


def window_sizes(shape, out, kernel_size, stride, padding, count_include_pad):
    """How many elements each window covers: of the padded input (count_include_pad) or of the input; never past
    the padded input's end, where a ceil_mode window may reach."""
    k = len(shape)
    ones = np.pad(np.ones(shape, np.int64), [(p, p) for p in padding], constant_values=1 if count_include_pad else 0)
    extra = _extra(shape, out, kernel_size, stride, padding, (1,) * k)
    ones = np.pad(ones, [(0, e) for e in extra])
    win = windows(ones[None, None], kernel_size, stride, (0,) * k, (1,) * k)
    return win.sum(axis=tuple(range(-k, 0)))[0, 0]


@_planes
def _avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """ATen's cpu_avg_pool: each window summed in its order in the input's dtype, then divided."""
    stride = stride or kernel_size
    out = [pool_shape(n, k, s, p, 1, ceil_mode) for n, k, s, p in zip(x.shape[2:], kernel_size, stride, padding)]
    extra = _extra(x.shape[2:], out, kernel_size, stride, padding, (1, 1))
    win = windows(x, kernel_size, stride, padding, (1, 1), extra=extra)
    total = np.zeros(win.shape[:4], x.dtype)
    for i, j in itertools.product(*map(range, kernel_size)):
        total += win[..., i, j]
    divisors = _avg_divisors(x.shape[2:], out, kernel_size, stride, padding, ceil_mode, count_include_pad,
                             divisor_override)
    if x.dtype.kind != "f":
        return _int_divide(total, divisors)
    return total / divisors.astype(x.dtype)


@_planes
def _avg_pool_backward_planes(x, g, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    shape = x.shape
    stride = stride or kernel_size
    divisors = _avg_divisors(shape[2:], g.shape[2:], kernel_size, stride, padding, ceil_mode, count_include_pad,
                             divisor_override)
    share = g / divisors.astype(g.dtype)
    full = [n + 2 * p + e for n, p, e in
            zip(shape[2:], padding, _extra(shape[2:], g.shape[2:], kernel_size, stride, padding, (1, 1)))]
    out = np.zeros((*shape[:2], *full), g.dtype)
    # ATen adds each output's share into its window, output by output: an input element gets its shares in the
    # order of the outputs, which is the kernel offsets' order reversed
    for i, j in reversed(list(itertools.product(*map(range, kernel_size)))):
        out[:, :, i:i + stride[0] * (g.shape[2] - 1) + 1:stride[0], j:j + stride[1] * (g.shape[3] - 1) + 1:stride[1]] \
            += share
    return memory.like_input(out[:, :, padding[0]:padding[0] + shape[2], padding[1]:padding[1] + shape[3]], x)


_AVG_ATTRS = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override")
op("avg_pool2d", "AvgPool2DBackward0", ("self",), _avg_pool,
   ("grad shared evenly over each window",
    lambda n, g: g._op("avg_pool2d_backward", n["self"], **{k: n.attrs[k] for k in _AVG_ATTRS})),
   saves={0: ("self", *_AVG_ATTRS)},
   spell=Spelling(functional="avg_pool2d",
                  name=_pool_label("avg_pool2d", ("stride", "padding", "ceil_mode", "divisor_override"))),
   bind=False)
def _avg_pool_backward(g, x, **attrs):
    return _avg_pool_backward_planes(x, g, **attrs)


op("avg_pool2d_backward", "AvgPool2DBackwardBackward0", ("grad", "self"), _avg_pool_backward,
   ("the window mean of grad", lambda n, g: g._op("avg_pool2d", **{k: n.attrs[k] for k in _AVG_ATTRS})),
   ("0", lambda n, v: zeros_for(n, 1, v)))


def _pool_args(kernel_size, stride, padding, dilation):
    """The sizes as pairs; stride () where it was not given (the kernel's, as the node keeps it)."""
    kernel_size = _pair(kernel_size, 2)
    stride = () if stride is None or len(_pair(stride, 2)) == 0 else _pair(stride, 2)
    return kernel_size, stride, _pair(padding, 2), _pair(dilation, 2)


def _pair(value, k):
    if isinstance(value, int):
        return (value,) * k
    value = tuple(int(v) for v in value)
    return value * k if len(value) == 1 else value


def checked_pool_shape(size, kernel, stride, padding, dilation, ceil_mode):
    """ATen's pooling_output_shape, with its checks of one dim's stride and padding."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if padding < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {padding}")
    if padding > int(((kernel - 1) * dilation + 1) / 2):
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={padding}, "
                           f"kernel_size={kernel} and dilation={dilation}")
    return pool_shape(size, kernel, stride, padding, dilation, ceil_mode)


def _pool_check(input, kernel_size, stride, padding, dilation, ceil_mode, name="max_pool2d"):  # noqa: A002
    """ATen's max_pool2d_with_indices and avg_pool2d meta checks, then pool2d_shape_check."""
    if name == "max_pool2d" and input.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if input.dim() < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-input.dim()}, {input.dim() - 1}], "
                         "but got -3)")
    out = [checked_pool_shape(n, kk, s, p, d, ceil_mode)
           for n, kk, s, p, d in zip(input.shape[-2:], kernel_size, stride or kernel_size, padding, dilation)]
    (kh, kw), (dh, dw), (ph, pw) = kernel_size, stride or kernel_size, dilation
    if kh <= 0 or kw <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {dh} dW: {dw}")
    if ph <= 0 or pw <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {ph} dilationW: {pw}")
    shape, nd = input.shape, input.dim()
    if not ((nd == 3 and shape[0] and shape[1] and shape[2]) or (nd == 4 and shape[1] and shape[2] and shape[3])):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{size_of(input)}")
    if any(o < 1 for o in out):
        c, h, w = input.shape[-3:]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
                           "Output size is too small")


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):  # noqa: A002
    kernel_size, stride, padding, dilation = _pool_args(kernel_size, stride, padding, dilation)
    _pool_check(input, kernel_size, stride, padding, dilation, ceil_mode)
    x = input
    where = _max_pool_indices(x._data, kernel_size, stride or kernel_size, padding, dilation, ceil_mode)
    indices = x._new(memory.like_input(where, x._data), dtypes.int64)
    attrs = {"kernel_size": kernel_size, "stride": stride, "padding": padding, "dilation": dilation,
             "ceil_mode": bool(ceil_mode), "result1": indices}
    values = x._apply(OPS["max_pool2d"], (x,), attrs, x.dtype)
    return (values, indices) if return_indices else values


@composite(Spelling(function="max_pool2d", functional="max_pool2d", out=False))
def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,  # noqa: A002
               return_indices=False):
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def _check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode):  # noqa: A002
    """ATen's check_max_pool1d (the path without indices)."""
    (k,), (p,), (d,) = _pair(kernel_size, 1), _pair(padding, 1), _pair(dilation, 1)
    s = k if stride is None or len(_pair(stride, 1)) == 0 else _pair(stride, 1)[0]
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    out = checked_pool_shape(input.shape[-1], k, s, p, d, ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")


@composite(Spelling(function="max_pool1d", functional="max_pool1d", out=False))
def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,  # noqa: A002
               return_indices=False):
    nd, shape = input.dim(), input.shape
    if return_indices:  # ATen's max_pool1d_with_indices
        if nd not in (2, 3):
            raise RuntimeError(f"Expected 2 to 3 dimensions, but got {nd}-dimensional tensor for argument #1 'self' "
                               "(while checking arguments for max_pool1d)")
    else:
        if not ((nd == 2 and shape[0] and shape[1]) or (nd == 3 and shape[1] and shape[2])):
            raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                               f"input, but got:{size_of(input)}")
        _check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)
    stride = kernel_size if stride is None or len(_pair(stride, 1)) == 0 else stride
    out = _max_pool(input.unsqueeze(-2), (1, *_pair(kernel_size, 1)), (1, *_pair(stride, 1)),
                    (0, *_pair(padding, 1)), (1, *_pair(dilation, 1)), ceil_mode, return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def _avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):  # noqa: A002
    kernel_size, stride, padding, _ = _pool_args(kernel_size, stride, padding, 1)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _pool_check(input, kernel_size, stride, padding, (1, 1), ceil_mode, "avg_pool2d")
    attrs = {"kernel_size": kernel_size, "stride": stride, "padding": padding, "ceil_mode": bool(ceil_mode),
             "count_include_pad": bool(count_include_pad), "divisor_override": divisor_override}
    return input._apply(OPS["avg_pool2d"], (input,), attrs, input.dtype)


@composite(Spelling(functional="avg_pool2d", functional_out=True))
def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,  # noqa: A002
               divisor_override=None):
    return _avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


@composite(Spelling(function="avg_pool1d", functional="avg_pool1d", out=False))
def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):  # noqa: A002
    stride = kernel_size if stride is None or len(_pair(stride, 1)) == 0 else stride
    out = _avg_pool2d(input.unsqueeze(-2), (1, *_pair(kernel_size, 1)), (1, *_pair(stride, 1)),
                      (0, *_pair(padding, 1)), ceil_mode, count_include_pad, None)
    return out.squeeze(-2)



# --- adaptive average pooling -----------------------------------------------------------------------------
def _adaptive_bounds(size, out):
    """The input rows (or columns) output cell i averages: ⌊i·size/out⌋ up to ⌈(i+1)·size/out⌉."""
    return [((i * size) // out, -(-((i + 1) * size) // out)) for i in range(out)]


def _adaptive_avg(a, output_size):
    """ATen's cpu_adaptive_avg_pool2d: each cell's inputs summed in order, then divided by its height and width."""
    (oh, ow), (H, W) = output_size, a.shape[-2:]
    out = np.empty(a.shape[:-2] + (oh, ow), a.dtype)
    t = a.dtype.type
    for i, (h0, h1) in enumerate(_adaptive_bounds(H, oh)):
        for j, (w0, w1) in enumerate(_adaptive_bounds(W, ow)):
            region = a[..., h0:h1, w0:w1].reshape(a.shape[:-2] + ((h1 - h0) * (w1 - w0),))
            total = np.cumsum(region, axis=-1, dtype=a.dtype)[..., -1] if region.shape[-1] else np.zeros(
                region.shape[:-1], a.dtype)
            out[..., i, j] = total / t(h1 - h0) / t(w1 - w0)
    return out


def _adaptive_spread(g, self, output_size):
    """ATen's adaptive_avg_pool2d backward: each cell's grad / its height / its width, added to its inputs."""
    (oh, ow), (H, W) = output_size, self.shape[-2:]
    out = np.zeros(self.shape, g.dtype)
    t = g.dtype.type
    for i, (h0, h1) in enumerate(_adaptive_bounds(H, oh)):
        for j, (w0, w1) in enumerate(_adaptive_bounds(W, ow)):
            out[..., h0:h1, w0:w1] += (g[..., i, j] / t(h1 - h0) / t(w1 - w0))[..., None, None]
    return out


op("adaptive_avg_pool2d_backward", "AdaptiveAvgPool2DBackwardBackward0", ("grad_output", "self"),
   _adaptive_spread,
   ("each cell's average of grad", lambda n, g: g._op("adaptive_avg_pool2d", output_size=n.attrs["output_size"])),
   ("0", lambda n, g: g * 0), saves={1: ("self",)})


def _adaptive_avg_grad(n, g):
    return g._op("adaptive_avg_pool2d_backward", n["self"], output_size=tuple(g.shape[-2:]))


op("adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", ("self",), _adaptive_avg,
   ("grad / (cell height · width), spread over each cell's inputs", _adaptive_avg_grad), saves={0: ("self",)},
   bind=False, spell=Spelling(functional="adaptive_avg_pool2d",
                              name=lambda s, a: f"adaptive_avg_pool2d({s[0]}, {tuple(a['output_size'])})"))


def list_with_default(output_size, shape):
    """torch.nn.modules.utils._list_with_default: an int stays; None entries take the input's trailing sizes."""
    if isinstance(output_size, int):
        return output_size
    if len(shape) <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    tail = shape[len(shape) - len(output_size):]
    return tuple(d if v is None else int(v) for v, d in zip(output_size, tail))


def adaptive_size(name, output_size, k):
    """ATen's adaptive_avg_pool{k}d checks of output_size (an int is k of it, as the binding makes it)."""
    size = (output_size,) * k if isinstance(output_size, int) else tuple(output_size)
    if len(size) != k:
        raise RuntimeError(f"{name}: output_size must be {k}")
    if any(s < 0 for s in size):
        shown = f"{size[0]}, {size[1]}" if k == 2 else f"{size[0]}, {size[1]},{size[2]}"
        raise RuntimeError(f"{name}: elements of output_size must be greater than or equal to 0 but received "
                           f"{{{shown}}}")
    return size


@composite(Spelling(functional="adaptive_avg_pool2d"))
def adaptive_avg_pool2d(input, output_size):  # noqa: A002
    """F.adaptive_avg_pool2d: a mean over the last two dims when the output is 1×1 (as ATen does it), else
    each output cell the average of its region."""
    size = adaptive_size("adaptive_avg_pool2d", list_with_default(output_size, tuple(input.shape)), 2)
    if size == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    for d in range(1, input.dim()):
        if input.shape[d] == 0:
            raise RuntimeError("adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(input.shape)} with dimension {d} being empty")
    return input._apply(OPS["adaptive_avg_pool2d"], (input,), {"output_size": size}, input.dtype)
