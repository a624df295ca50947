"""Convolutions: conv1d/2d/3d and their transposes (one op, as ATen's `convolution`, whose node is
ConvolutionBackward0); the pools, which share its windows, are in pooling.py.

The forwards work on numpy windows of the padded input (N, C, *out, *kernel); float32 products are summed in
float64 and rounded once (ATen's oneDNN kernels block the sums their own way: the results agree within ulps)."""
import itertools

import numpy as np

from .. import messages
from .padding import pad, tuple_text
from .table import OPS, Spelling, composite, op


# --- windows -------------------------------------------------------------------------------------------
def windows(x, kernel, stride, padding, dilation, fill=0, extra=None):
    """x (N, C, *spatial), padded by `padding` of `fill` on both sides (and `extra` more on the far side), as
    its windows (N, C, *out, *kernel): a view where nothing is padded."""
    k = len(kernel)
    extra = extra or (0,) * k
    if any(padding) or any(extra):
        x = np.pad(x, [(0, 0), (0, 0)] + [(p, p + e) for p, e in zip(padding, extra)], constant_values=fill)
    span = tuple(d * (n - 1) + 1 for n, d in zip(kernel, dilation))
    w = np.lib.stride_tricks.sliding_window_view(x, span, axis=tuple(range(2, 2 + k)))
    return w[(slice(None), slice(None), *(slice(None, None, s) for s in stride),
              *(slice(None, None, d) for d in dilation))]


def _wide(a):
    """float32 summed in float64 (rounded once at the end); other dtypes as they are."""
    return a.astype(np.float64) if a.dtype == np.float32 else a


def _conv(x, w, stride, padding, dilation, groups):
    """out[n, o, p] = Σ_c,k x[n, c, p·stride + k·dilation − padding] · w[o, c, k], per group."""
    k = w.ndim - 2
    win = windows(_wide(x), w.shape[2:], stride, padding, dilation)
    n, c = x.shape[:2]
    per_in, per_out = c // groups, w.shape[0] // groups
    parts = []
    for g in range(groups):
        part = np.tensordot(win[:, g * per_in:(g + 1) * per_in], _wide(w[g * per_out:(g + 1) * per_out]),
                            axes=([1, *range(2 + k, 2 + 2 * k)], [1, *range(2, 2 + k)]))
        parts.append(np.moveaxis(part, -1, 1))  # (N, *out, O/g) -> (N, O/g, *out)
    return np.concatenate(parts, axis=1) if groups > 1 else parts[0]


def _conv_transpose(x, w, stride, padding, dilation, groups, shape):
    """The adjoint of _conv: each input element adds its value times the kernel into the output window it
    would have been computed from."""
    k = w.ndim - 2
    per_in, per_out = x.shape[1] // groups, w.shape[1]
    kernel = w.shape[2:]
    full = tuple(s + 2 * p for s, p in zip(shape[2:], padding))
    out = np.zeros((x.shape[0], per_out * groups, *full), dtype=np.result_type(_wide(x), _wide(w)))
    for g in range(groups):
        cols = np.tensordot(_wide(x[:, g * per_in:(g + 1) * per_in]), _wide(w[g * per_in:(g + 1) * per_in]),
                            axes=([1], [0]))  # (N, *in, O/g, *kernel)
        target = out[:, g * per_out:(g + 1) * per_out]
        for offset in itertools.product(*map(range, kernel)):
            region = tuple(slice(o * d, o * d + s * (n - 1) + 1, s)
                           for o, d, s, n in zip(offset, dilation, stride, x.shape[2:]))
            target[(slice(None), slice(None), *region)] += np.moveaxis(cols[(Ellipsis, *offset)], k + 1, 1)
    return out[(slice(None), slice(None), *(slice(p, p + s) for p, s in zip(padding, shape[2:])))]


def _conv_weight(x, g, stride, padding, dilation, groups, shape):
    """The weight's grad of out = _conv(x, w): Σ over the batch and the output positions of grad · window."""
    k = len(shape) - 2
    win = windows(_wide(x), shape[2:], stride, padding, dilation)
    win = win[(slice(None), slice(None), *(slice(0, n) for n in g.shape[2:]))]  # x longer by an output_padding
    per_in, per_out = x.shape[1] // groups, shape[0] // groups
    parts = [np.tensordot(_wide(g[:, i * per_out:(i + 1) * per_out]), win[:, i * per_in:(i + 1) * per_in],
                          axes=([0, *range(2, 2 + k)], [0, *range(2, 2 + k)])) for i in range(groups)]
    return np.concatenate(parts, axis=0) if groups > 1 else parts[0]


# --- convolution ---------------------------------------------------------------------------------------
def _convolution(x, w, b, stride, padding, dilation, transposed, output_padding, groups, bias_sym_sizes_opt,
                 shape):
    out = (_conv_transpose(x, w, stride, padding, dilation, groups, shape) if transposed
           else _conv(x, w, stride, padding, dilation, groups))
    if b.size:
        out = out + _wide(b).reshape((1, -1) + (1,) * (x.ndim - 2))
    out = np.array(out, dtype=x.dtype, order="C")  # torch's result is a new C-contiguous tensor
    # the double backward of a transposed convolution with output_padding ≥ stride convolves a longer grad: ATen
    # narrows the result
    return out[(slice(None), slice(None), *(slice(0, n) for n in shape[2:]))] if out.shape != tuple(shape) else out


def conv_shape(x_shape, w_shape, stride, padding, dilation, transposed, output_padding, groups):
    """The result's shape: for a convolution ⌊(in + 2·padding − dilation·(k − 1) − 1) / stride⌋ + 1 per dim, for
    a transposed one (in − 1)·stride − 2·padding + dilation·(k − 1) + output_padding + 1."""
    if transposed:
        sizes = ((n - 1) * s - 2 * p + d * (k - 1) + op + 1
                 for n, s, p, d, k, op in zip(x_shape[2:], stride, padding, dilation, w_shape[2:], output_padding))
        return (x_shape[0], w_shape[1] * groups, *sizes)
    sizes = ((n + 2 * p - d * (k - 1) - 1) // s + 1
             for n, s, p, d, k in zip(x_shape[2:], stride, padding, dilation, w_shape[2:]))
    return (x_shape[0], w_shape[0], *sizes)


def _no_bias(t):
    """Where torch passes an undefined bias: an empty tensor that needs no grad (the node's edge is None)."""
    return t._new(np.zeros(0, t.dtype.np), t.dtype)


def _input_grad(n, g):
    """grad through the adjoint convolution: a transposed one for a convolution, a plain one for a transposed."""
    a = n.attrs
    out_pad = a["output_padding"]
    if not a["transposed"]:
        out_pad = tuple((i + 2 * p - d * (k - 1) - 1) % s for i, p, d, k, s in
                        zip(n._shapes[0][2:], a["padding"], a["dilation"], n._shapes[1][2:], a["stride"]))
    return g._op("convolution_input", n["weight"], stride=a["stride"], padding=a["padding"], dilation=a["dilation"],
                 groups=a["groups"], transposed=a["transposed"], output_padding=out_pad, shape=tuple(n._shapes[0]))


def _weight_grad(n, g):
    a = n.attrs
    x, grad = (n["input"], g) if not a["transposed"] else (g, n["input"])
    return x._op("convolution_weight", grad, stride=a["stride"], padding=a["padding"], dilation=a["dilation"],
                 groups=a["groups"], shape=tuple(n._shapes[1]))


def _bias_grad(n, g):
    """Σ grad, by ATen's one ConvolutionBackwardBackward0, whose inputs are the grad and the saved input and
    weight (so that under create_graph it needs grad when they do, as torch's does)."""
    saved = [n[name] if name in n._saved else _no_bias(g) for name in ("input", "weight")]
    return g._op("convolution_bias", *saved)


def zeros_for(n, i, v):
    return v._new(np.zeros(n._shapes[i], v.dtype.np), v.dtype)


def _conv_label(s, a):
    k = len(a["stride"])
    word = f"conv_transpose{k}d" if a["transposed"] else f"conv{k}d"
    bias = f", {s[2]}" if a["bias_sym_sizes_opt"] != (0,) else ""
    ones, zeros = (1,) * k, (0,) * k
    extra = [f"{name}={tuple_text(a[name])}" for name, default in
             (("stride", ones), ("padding", zeros), ("output_padding", zeros), ("dilation", ones))
             if a[name] != default and (name != "output_padding" or a["transposed"])]
    if a["groups"] != 1:
        extra.append(f"groups={a['groups']}")
    return f"{word}({s[0]}, {s[1]}{bias}{''.join(', ' + e for e in extra)})"


_CONV_ATTRS = ("stride", "padding", "dilation", "transposed", "output_padding", "groups")
_CONV_WORDS = tuple(f"conv{k}d" for k in (1, 2, 3)) + tuple(f"conv_transpose{k}d" for k in (1, 2, 3))
op("convolution", "ConvolutionBackward0", ("input", "weight", "bias"), _convolution,
   ("conv_transpose(grad, weight)", _input_grad),
   ("Σ grad · the input's windows", _weight_grad),
   ("Σ grad over the batch and the positions", _bias_grad),
   saves={0: ("input", "weight", *_CONV_ATTRS), 1: ("input", "weight", *_CONV_ATTRS), 2: ("bias_sym_sizes_opt",)},
   spell=Spelling(functional=_CONV_WORDS, name=_conv_label), bind=False)


op("convolution_bias", "ConvolutionBackwardBackward0", ("grad", "input", "weight"),
   lambda g, x, w: np.sum(_wide(g), axis=(0, *range(2, g.ndim))).astype(g.dtype, copy=False),
   ("grad spread over the batch and the positions",
    lambda n, v: v.view(1, -1, *(1,) * (len(n._shapes[0]) - 2)).expand(*n._shapes[0])),
   ("undefined (no grad)", lambda n, v: None), ("undefined (no grad)", lambda n, v: None))


def _conv_input(g, w, stride, padding, dilation, groups, transposed, output_padding, shape):
    """The input's grad of a convolution (transposed: of a transposed one)."""
    if transposed:  # an output_padding of stride or more made the output longer than this input: cut back
        out = _conv(g, w, stride, padding, dilation, groups)
        out = out[(slice(None), slice(None), *(slice(0, n) for n in shape[2:]))]
    else:
        out = _conv_transpose(g, w, stride, padding, dilation, groups, shape)
    return np.array(out, dtype=g.dtype, order="C")  # a new array: torch's strides on its size-1 dims too


def _conv_input_grads(n, v, which):
    """convolution_input(grad, weight) is bilinear: for grad its adjoint is the forward convolution of v, for
    weight the weight's grad of that convolution."""
    a = n.attrs
    common = {"stride": a["stride"], "padding": a["padding"], "dilation": a["dilation"], "groups": a["groups"]}
    if which == "grad":
        return v._op("convolution", n["weight"], _no_bias(v), transposed=a["transposed"],
                     output_padding=a["output_padding"] if a["transposed"] else (0,) * len(a["stride"]),
                     bias_sym_sizes_opt=(0,), shape=tuple(n._shapes[0]), **common)
    x, g = (v, n["grad"]) if not a["transposed"] else (n["grad"], v)
    return x._op("convolution_weight", g, shape=tuple(n._shapes[1]), double=True, **common)


op("convolution_input", "ConvolutionBackwardBackward0", ("grad", "weight"), _conv_input,
   ("convolution(v, weight)", lambda n, v: _conv_input_grads(n, v, "grad")),
   ("Σ v · grad's windows", lambda n, v: _conv_input_grads(n, v, "weight")),
   saves={0: ("weight",), 1: ("grad",)})


def _conv_weight_grads(n, v, which):
    """convolution_weight(x, grad) is bilinear: its grad for x is a transposed convolution of grad by v, for grad
    the convolution of x by v."""
    a = n.attrs
    x_shape, g_shape = n._shapes
    common = {"stride": a["stride"], "padding": a["padding"], "dilation": a["dilation"], "groups": a["groups"]}
    if which == "input":
        out_pad = tuple((i + 2 * p - d * (k - 1) - 1) % s for i, p, d, k, s in
                        zip(x_shape[2:], a["padding"], a["dilation"], v.shape[2:], a["stride"]))
        return n["grad"]._op("convolution", v, _no_bias(v), transposed=True, output_padding=out_pad,
                             bias_sym_sizes_opt=(0,), shape=tuple(x_shape), **common)
    return n["input"]._op("convolution", v, _no_bias(v), transposed=False, output_padding=(0,) * len(a["stride"]),
                          bias_sym_sizes_opt=(0,), shape=tuple(g_shape), **common)


def _weight_grad_array(x, g, stride, padding, dilation, groups, shape, double=False):
    """The weight's grad, contiguous; double: laid out as ATen's _convolution_double_backward leaves it, the
    convolution of the transposed batches (in channels first, sized by the whole windows) transposed back and
    narrowed to the weight's size."""
    out = _conv_weight(x, g, stride, padding, dilation, groups, shape)
    if not double:
        return np.ascontiguousarray(out, dtype=x.dtype)
    whole = [(n + 2 * p - s * (m - 1) - 1) // d + 1
             for n, m, p, s, d in zip(x.shape[2:], g.shape[2:], padding, stride, dilation)]
    buf = np.zeros((shape[1], shape[0], *(max(w, k) for w, k in zip(whole, shape[2:]))), x.dtype)
    laid = np.swapaxes(buf, 0, 1)[(slice(None), slice(None), *(slice(0, k) for k in shape[2:]))]
    laid[...] = out
    return laid


op("convolution_weight", "ConvolutionBackwardBackward0", ("input", "grad"), _weight_grad_array,
   ("conv_transpose(grad, v)", lambda n, v: _conv_weight_grads(n, v, "input")),
   ("conv(input, v)", lambda n, v: _conv_weight_grads(n, v, "grad")),
   saves={0: ("grad",), 1: ("input",)})


def _int_tuple(name, value, k):
    """A size argument as k ints: one int for all dims, or a list of 1 or k (ATen's expand_param_if_needed)."""
    if isinstance(value, int):
        return (value,) * k
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * k
    if len(value) != k:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {k} values to match the "
                           f"convolution dimensions, but got {name}=[{', '.join(map(str, value))}]")
    return value


def size_of(t):
    return "[" + ", ".join(map(str, t.shape)) + "]"


def _same_padding(weight, dilation, stride):
    """padding='same': ATen pads (dilation·(k − 1)) / 2 on each side; an odd total needs one more on the far
    side, which it pads explicitly first (with its warning)."""
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    totals = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    if any(t % 2 for t in totals):
        messages.warn_once("Using padding='same' with even kernel lengths and odd dilation may require a "
                           "zero-padded copy of the input be created", stacklevel=6)
    return tuple(t // 2 for t in totals), tuple(t % 2 for t in totals)


def convolution(name, k, input, weight, bias, stride, padding, dilation, groups,  # noqa: A002
                transposed=False, output_padding=0):
    """F.conv{k}d and F.conv_transpose{k}d: an unbatched input gets a batch dim of 1 and loses it after, as
    torch's conv functions do."""
    if input.dim() not in (k + 1, k + 2):
        raise RuntimeError(f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to {name}, but got input of "
                           f"size: {size_of(input)}")
    batched = input.dim() == k + 2
    if not batched:
        input = input.unsqueeze(0)  # noqa: A001
    # torch's IntArrayRef[k] arguments take an int for all k dims
    stride, dilation, output_padding = ((v,) * k if isinstance(v, int) else v
                                        for v in (stride, dilation, output_padding))
    padding = (padding,) * k if isinstance(padding, int) else padding
    out = _convolution_call(input, weight, bias, stride, padding, dilation, groups, transposed, output_padding)
    return out if batched else out.squeeze(0)


def _convolution_call(input, weight, bias, stride, padding, dilation, groups, transposed, output_padding):  # noqa: A002
    k = weight.dim() - 2
    if k <= 0:
        raise RuntimeError("weight should have at least three dimensions")
    if padding == "same" and groups > 0 and input.dim() != k + 2:  # ATen's convolution_same checks this first
        raise RuntimeError(f"Expected {k + 2}-dimensional input for {k + 2}-dimensional weight{size_of(weight)}, but "
                           f"got {input.dim()}-dimensional input of size {size_of(input)} instead")
    stride = _int_tuple("stride", stride, k)
    dilation = _int_tuple("dilation", dilation, k)
    far = (0,) * k
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0,) * k
        elif padding == "same":
            padding, far = _same_padding(weight, dilation, stride)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    padding = _int_tuple("padding", padding, k)
    output_padding = _int_tuple("output_padding", output_padding, k)
    _check(input, weight, bias, stride, padding, dilation, groups, transposed, output_padding)
    if any(far):
        input = pad(input, tuple(x for f in reversed(far) for x in (0, f)))  # noqa: A001 - the last dim first
    attrs = {"stride": stride, "padding": padding, "dilation": dilation, "transposed": bool(transposed),
             "output_padding": output_padding, "groups": groups,
             "bias_sym_sizes_opt": (0,) if bias is None else tuple(bias.shape)}
    attrs["shape"] = conv_shape(input.shape, weight.shape, stride, padding, dilation, transposed, output_padding,
                                groups)
    return input._apply(OPS["convolution"], (input, weight, _no_bias(input) if bias is None else bias), attrs,
                        input.dtype)


def _check(input, weight, bias, stride, padding, dilation, groups, transposed, output_padding):  # noqa: A002
    """ATen's checks, in its order, with its messages."""
    k = weight.dim() - 2
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if input.dim() != k + 2:
        raise RuntimeError(f"Expected {k + 2}-dimensional input for {k + 2}-dimensional weight {size_of(weight)}, but "
                           f"got {input.dim()}-dimensional input of size {size_of(input)} instead")
    w0 = weight.shape[0]
    if w0 < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {size_of(weight)} instead")
    if w0 % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{size_of(weight)}] instead")
    channels = input.shape[1]
    if not transposed:
        if channels != weight.shape[1] * groups:
            raise RuntimeError(f"Given groups={groups}, weight of size {size_of(weight)}, expected input"
                               f"{size_of(input)} to have {weight.shape[1] * groups} channels, but got {channels} "
                               "channels instead")
        out_channels = w0
    else:
        if channels != w0:
            raise RuntimeError(f"Given transposed=1, weight of size {size_of(weight)}, expected input{size_of(input)} "
                               f"to have {w0} channels, but got {channels} channels instead")
        out_channels = weight.shape[1] * groups
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != out_channels):
        raise RuntimeError(f"Given {'transposed=1, ' if transposed else ''}weight of size {size_of(weight)}, expected "
                           f"bias to be 1-dimensional with {out_channels} elements, but got bias of size "
                           f"{size_of(bias)} instead")
    if not transposed:
        padded = [n + 2 * p for n, p in zip(input.shape[2:], padding)]
        spans = [d * (n - 1) + 1 for n, d in zip(weight.shape[2:], dilation)]
        if any(p < s for p, s in zip(padded, spans)):
            raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                               f"size: ({' x '.join(map(str, spans))}). Kernel size can't be greater than actual "
                               "input size")
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({input.dtype.c_name}) and bias type ({bias.dtype.c_name}) should be the "
                           "same")
    if weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.type_name} but found {weight.dtype.type_name}")


def _conv_function(k, transposed):
    name = f"conv_transpose{k}d" if transposed else f"conv{k}d"
    if transposed:
        def conv(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):  # noqa: A002
            return convolution(name, k, input, weight, bias, stride, padding, dilation, groups, True, output_padding)
    else:
        def conv(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
            return convolution(name, k, input, weight, bias, stride, padding, dilation, groups)
    conv.__name__ = conv.__qualname__ = name
    return composite(Spelling(function=name, functional=name, out=False))(conv)


for _k in (1, 2, 3):
    _conv_function(_k, False)
    _conv_function(_k, True)
