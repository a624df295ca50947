"""The pools that pooling.py does not have: max_pool3d (MaxPool3DWithIndicesBackward0), avg_pool3d
(AvgPool3DBackward0), adaptive_avg_pool3d (AdaptiveAvgPool3DBackward0), adaptive_max_pool2d/3d
(AdaptiveMax…Backward0) and max_unpool2d/3d (MaxUnpool…Backward0), written for any number of spatial dims over
the convolution's windows."""
import itertools
import math

import numpy as np

from .. import memory
from .conv import windows, zeros_for
from .pooling import _extra, _int_divide, pool_shape, window_sizes
from .table import OPS, Spelling, op


def _batched(fn, k):
    """A pool's numpy function on (N, C, *k dims) arrays, taking (C, *k dims) ones too."""
    def on(x, *args, **kwargs):
        if x.ndim == k + 2:
            return fn(x, *args, **kwargs)
        args = tuple(a[None] if isinstance(a, np.ndarray) else a for a in args)
        return fn(x[None], *args, **kwargs)[0]

    return on


def _flat_index(coords, shape):
    """Row-major flat indices into the spatial dims from per-dim coordinates."""
    flat = 0
    for c, n in zip(coords, shape):
        flat = flat * n + c
    return flat


# --- max_pool3d ---------------------------------------------------------------------------------------------
def max_pool_indices(x, kernel_size, stride, padding, dilation, ceil_mode):
    """Where each window's max is, as a flat index into its input's spatial dims: the first max in the window's
    order, or the last NaN (ATen: `val > max || isnan(val)`)."""
    k = len(kernel_size)
    spatial = x.shape[2:]
    out = [pool_shape(n, kk, s, p, d, ceil_mode)
           for n, kk, s, p, d in zip(spatial, kernel_size, stride, padding, dilation)]
    extra = _extra(spatial, out, kernel_size, stride, padding, dilation)
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    win = windows(x, kernel_size, stride, padding, dilation, fill=fill, extra=extra)
    flat = win.reshape(*win.shape[:2 + k], -1)
    pick = np.argmax(flat, axis=-1)
    if x.dtype.kind == "f":
        nan = np.isnan(flat)
        last_nan = flat.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
        pick = np.where(nan.any(axis=-1), last_nan, pick)
    offsets = np.unravel_index(pick, kernel_size)
    coords = []
    for d in range(k):
        base = np.arange(out[d]).reshape((-1,) + (1,) * (k - 1 - d)) * stride[d] - padding[d]
        coords.append(base + offsets[d] * dilation[d])
    return _flat_index(coords, spatial).astype(np.int64)


def _label(word, keys):
    defaults = {"stride": (), "padding": (0, 0, 0), "dilation": (1, 1, 1), "ceil_mode": False,
                "count_include_pad": True, "divisor_override": None}

    def label(s, a):
        args = "".join(f", {key}={a[key]!r}" for key in keys if a[key] != defaults[key])
        return f"{word}({s[0]}, {a['kernel_size']}{args})"

    return label


def _gather(x, idx):
    planes = x.reshape(*x.shape[:2], -1)
    return np.take_along_axis(planes, idx.reshape(*idx.shape[:2], -1), axis=-1).reshape(idx.shape)


def _values(x, result1, **_):
    return _batched(_gather, 3)(x, result1._data)


_MAX_SAVES = ("self", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "result1")


def _max_grad(backward):
    return lambda n, g: g._op(backward, n["self"], indices=n.attrs["result1"]._data, k=3)


op("max_pool3d", "MaxPool3DWithIndicesBackward0", ("self",), _values,
   ("grad to the max of each window", _max_grad("max_pool3d_backward")), saves={0: _MAX_SAVES}, bind=False,
   numel=lambda arrays, attrs: attrs["result1"]._data.size,
   spell=Spelling(functional="max_pool3d", name=_label("max_pool3d", ("stride", "padding", "dilation", "ceil_mode"))))
op("max_pool3d_backward", "MaxPool3DWithIndicesBackwardBackward0", ("grad", "self"),
   lambda g, x, indices, k: _spread_at(g, x, indices, k), ("grad at each window's max", lambda n, g: _take_at(n, g)),
   ("0", lambda n, v: zeros_for(n, 1, v)))


# --- avg_pool3d ---------------------------------------------------------------------------------------------
def _divisors(spatial, out, kernel_size, stride, padding, count_include_pad, divisor_override):
    if divisor_override is not None:
        return np.full(out, divisor_override, np.int64)
    return window_sizes(spatial, out, kernel_size, stride, padding, count_include_pad)


def _avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """ATen's cpu_avg_pool: each window summed in its order in the input's dtype, then divided."""
    k = len(kernel_size)
    stride = stride or kernel_size
    spatial = x.shape[2:]
    out = [pool_shape(n, kk, s, p, 1, ceil_mode) for n, kk, s, p in zip(spatial, kernel_size, stride, padding)]
    win = windows(x, kernel_size, stride, padding, (1,) * k, extra=_extra(spatial, out, kernel_size, stride,
                                                                        padding, (1,) * k))
    total = np.zeros(win.shape[:2 + k], x.dtype)
    for offset in itertools.product(*map(range, kernel_size)):
        total += win[(Ellipsis, *offset)]
    divisors = _divisors(spatial, out, kernel_size, stride, padding, count_include_pad, divisor_override)
    if x.dtype.kind != "f":
        return _int_divide(total, divisors)
    return total / divisors.astype(x.dtype)


def _avg_pool_backward(g, x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    k = len(kernel_size)
    stride = stride or kernel_size
    spatial, out = x.shape[2:], g.shape[2:]
    share = g / _divisors(spatial, out, kernel_size, stride, padding, count_include_pad,
                          divisor_override).astype(g.dtype)
    extra = _extra(spatial, out, kernel_size, stride, padding, (1,) * k)
    full = np.zeros((*x.shape[:2], *(n + 2 * p + e for n, p, e in zip(spatial, padding, extra))), g.dtype)
    for offset in reversed(list(itertools.product(*map(range, kernel_size)))):
        region = tuple(slice(o, o + s * (m - 1) + 1, s) for o, s, m in zip(offset, stride, out))
        full[(slice(None), slice(None), *region)] += share
    return memory.like_input(full[(slice(None), slice(None), *(slice(p, p + n) for p, n in zip(padding, spatial)))],
                             x)


_AVG_ATTRS = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override")


def _avg_attrs(n):
    return {key: n.attrs[key] for key in _AVG_ATTRS}


op("avg_pool3d", "AvgPool3DBackward0", ("self",),
   lambda x, **a: _batched(_avg_pool, 3)(x, **a),
   ("grad shared evenly over each window", lambda n, g: g._op("avg_pool3d_backward", n["self"], **_avg_attrs(n))),
   saves={0: ("self", *_AVG_ATTRS)}, bind=False,
   spell=Spelling(functional="avg_pool3d", name=_label("avg_pool3d", ("stride", "padding", "ceil_mode",
                                                                       "count_include_pad", "divisor_override"))))
op("avg_pool3d_backward", "AvgPool3DBackwardBackward0", ("grad", "self"),
   lambda g, x, **a: _batched(lambda gg, xx: _avg_pool_backward(gg, xx, **a), 3)(g, x) if g.ndim == 4
   else _avg_pool_backward(g, x, **a),
   ("the window mean of grad", lambda n, g: g._op("avg_pool3d", **_avg_attrs(n))),
   ("0", lambda n, v: zeros_for(n, 1, v)))


# --- adaptive pools -----------------------------------------------------------------------------------------
def _bounds(size, out):
    return [((i * size) // out, -(-((i + 1) * size) // out)) for i in range(out)]


def _cells(spatial, output_size):
    """Each output cell's index and the slices of the input it pools."""
    per_dim = [list(enumerate(_bounds(n, o))) for n, o in zip(spatial, output_size)]
    for combo in itertools.product(*per_dim):
        yield tuple(i for i, _ in combo), tuple(slice(a, b) for _, (a, b) in combo)


def _adaptive_avg(a, output_size):
    k = len(output_size)
    spatial = a.shape[-k:]
    out = np.empty(a.shape[:-k] + tuple(output_size), a.dtype)
    t = a.dtype.type
    for idx, region in _cells(spatial, output_size):
        part = a[(Ellipsis, *region)].reshape(a.shape[:-k] + (math.prod(s.stop - s.start for s in region),))
        total = np.cumsum(part, axis=-1, dtype=a.dtype)[..., -1]
        value = total
        for s in region:
            value = value / t(s.stop - s.start)
        out[(Ellipsis, *idx)] = value
    return out


def _adaptive_avg_spread(g, x, output_size):
    k = len(output_size)
    out = np.zeros(x.shape, g.dtype)
    t = g.dtype.type
    for idx, region in _cells(x.shape[-k:], output_size):
        value = g[(Ellipsis, *idx)]
        for s in region:
            value = value / t(s.stop - s.start)
        out[(Ellipsis, *region)] += value[(Ellipsis,) + (None,) * k]
    return out


op("adaptive_avg_pool3d", "AdaptiveAvgPool3DBackward0", ("self",), _adaptive_avg,
   ("grad / (cell size), spread over each cell's inputs",
    lambda n, g: g._op("adaptive_avg_pool3d_backward", n["self"], output_size=tuple(g.shape[-3:]))),
   saves={0: ("self",)}, bind=False,
   spell=Spelling(functional="adaptive_avg_pool3d",
                  name=lambda s, a: f"adaptive_avg_pool3d({s[0]}, {tuple(a['output_size'])})"))
op("adaptive_avg_pool3d_backward", "AdaptiveAvgPool3DBackwardBackward0", ("grad_output", "self"),
   _adaptive_avg_spread,
   ("each cell's average of grad", lambda n, g: g._op("adaptive_avg_pool3d", output_size=n.attrs["output_size"])),
   ("0", lambda n, g: g * 0), saves={1: ("self",)})


def adaptive_max_indices(a, output_size):
    """Each cell's max (the first, or the last NaN) as a flat index into the spatial dims."""
    k = len(output_size)
    spatial = a.shape[-k:]
    idx_out = np.empty(a.shape[:-k] + tuple(output_size), np.int64)
    for idx, region in _cells(spatial, output_size):
        part = a[(Ellipsis, *region)].reshape(a.shape[:-k] + (math.prod(s.stop - s.start for s in region),))
        pick = np.argmax(part, axis=-1)
        if a.dtype.kind == "f":
            nan = np.isnan(part)
            last = part.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
            pick = np.where(nan.any(axis=-1), last, pick)
        local = np.unravel_index(pick, tuple(s.stop - s.start for s in region))
        idx_out[(Ellipsis, *idx)] = _flat_index([c + s.start for c, s in zip(local, region)], spatial)
    return idx_out


def _adaptive_max_values(x, result1, output_size):
    k = len(output_size)
    planes = x.reshape(x.shape[:-k] + (-1,))
    idx = result1._data
    return np.take_along_axis(planes, idx.reshape(idx.shape[:-k] + (-1,)), axis=-1).reshape(idx.shape)


def _spread_at(g, x, indices, k):
    """grad added at each cell's max (its flat index into the last k dims)."""
    lead = x.ndim - k
    flat_out = np.zeros(x.shape[:lead] + (math.prod(x.shape[lead:]),), g.dtype)
    flat_idx = indices.reshape(indices.shape[:lead] + (-1,))
    lead_idx = np.indices(flat_idx.shape[:-1], sparse=True)
    np.add.at(flat_out, (*(i[..., None] for i in lead_idx), flat_idx), g.reshape(flat_idx.shape))
    return flat_out.reshape(x.shape)


def _take_at(n, g):
    idx, k = n.attrs["indices"], n.attrs["k"]
    lead = g.dim() - k
    planes = g.reshape(*g.shape[:lead], -1)
    flat_idx = np.ascontiguousarray(idx).reshape(idx.shape[:lead] + (-1,))  # a row-major grad, as ATen's gather
    lead_idx = np.indices(flat_idx.shape[:-1], sparse=True)
    return planes._op("index", key=(*(i[..., None] for i in lead_idx), flat_idx)).reshape(*idx.shape)


for _k in (2, 3):
    op(f"adaptive_max_pool{_k}d", f"AdaptiveMaxPool{_k}DBackward0", ("self",), _adaptive_max_values,
       ("grad to each cell's max", lambda n, g, k=_k: g._op(f"adaptive_max_pool{k}d_backward", n["self"],
                                                            indices=n.attrs["result1"]._data, k=k)),
       saves={0: ("self", "result1")}, bind=False,
       spell=Spelling(functional=f"adaptive_max_pool{_k}d",
                      name=lambda s, a, k=_k: f"adaptive_max_pool{k}d({s[0]}, {tuple(a['output_size'])})"))
    op(f"adaptive_max_pool{_k}d_backward", f"AdaptiveMaxPool{_k}DBackwardBackward0", ("grad", "self"),
       lambda g, x, indices, k: _spread_at(g, x, indices, k), ("grad at each cell's max", _take_at),
       ("0", lambda n, v: zeros_for(n, 1, v)))


# --- max_unpool2d/3d --------------------------------------------------------------------------------------------
def _unpool(x, indices, output_size):
    """Each input value written at its index into the zeroed output's last k dims (ATen's loop: the last wins)."""
    k = len(output_size)
    lead = x.shape[:x.ndim - k]
    flat_out = np.zeros(lead + (math.prod(output_size),), x.dtype)
    flat_idx = indices._data.reshape(lead + (-1,))
    lead_idx = np.indices(flat_idx.shape[:-1], sparse=True)
    flat_out[(*(i[..., None] for i in lead_idx), flat_idx)] = x.reshape(flat_idx.shape)
    return memory.like_input(flat_out.reshape(lead + tuple(output_size)), x)


def _unpool_grad(n, g):
    idx, k = n.attrs["indices"]._data, len(n.attrs["output_size"])
    lead = g.dim() - k
    planes = g.reshape(*g.shape[:lead], -1)
    flat_idx = np.ascontiguousarray(idx).reshape(idx.shape[:lead] + (-1,))  # a row-major grad, as ATen's gather
    lead_idx = np.indices(flat_idx.shape[:-1], sparse=True)
    return planes._op("index", key=(*(i[..., None] for i in lead_idx), flat_idx)).reshape(*idx.shape)


def _bind_unpool(k):
    def bind(self, indices, output_size, stride=None, padding=None):
        name = f"max_unpooling{k}d_forward_out_cpu()" if k == 3 else "max_unpooling2d_forward_out_cpu()"
        if indices.dtype.name != "int64":
            raise RuntimeError(f"elements in indices should be type int64 but got: {indices.dtype.type_name}")
        if len(output_size) != k:
            raise RuntimeError(("There should be exactly two elements (height, width) in output_size, but got "
                                if k == 2 else "There should be exactly three elements (depth, height, width) in "
                                "output_size, but got ") + f"{len(output_size)} elements.")
        if self.dim() not in (k + 1, k + 2):
            raise RuntimeError(f"Input to max_unpooling{k}d should be a {k + 1}d or {k + 2}d Tensor, but got a tensor "
                               f"with {self.dim()} dimensions.")
        if self.shape != indices.shape:
            raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({list(self.shape)}) "
                               f"but got indices tensor with shape: {list(indices.shape)}")
        for i in range(1, self.dim()):
            if self.shape[i] <= 0:
                raise RuntimeError(f"{name}: Expected input to have non-zero size for non-batch dimensions, but got "
                                   f"{list(self.shape)} with dimension {i} being empty.")
        size = math.prod(output_size)
        bad = indices._data[(indices._data < 0) | (indices._data >= size)]
        if bad.size:
            sizes = "x".join(map(str, output_size))
            raise RuntimeError(f"Found an invalid max index: {int(bad.reshape(-1)[0])} (output volumes are of size "
                               f"{sizes}")
        attrs = {"indices": indices, "output_size": tuple(int(v) for v in output_size)}
        if k == 3:
            attrs.update(stride=tuple(stride), padding=tuple(padding))
        return OPS[f"max_unpool{k}d"], (self,), attrs, None

    return bind


for _k in (2, 3):
    op(f"max_unpool{_k}d", f"MaxUnpool{_k}DBackward0", ("self",),
       lambda x, indices, output_size, **_: _unpool(x, indices, output_size),
       ("grad at each input's index", _unpool_grad), saves={0: ("indices",)}, bind=_bind_unpool(_k),
       numel=lambda arrays, attrs: math.prod(arrays[0].shape[:arrays[0].ndim - len(attrs["output_size"])])
       * math.prod(attrs["output_size"]))
