"""torch._segment_reduce: a reduction over consecutive segments along one axis, given by their lengths or offsets
(ATen's segment_reduce CPU kernels, element by element in order; the backward is an op whose own derivative is
not implemented, as torch's)."""
import math

import numpy as np

from .table import OPS, Spelling, op

_REDUCTIONS = ("max", "mean", "min", "sum", "prod")


def _layout(shape, axis, lengths, offsets):
    """(outer, segment count, inner) sizes and each segment's (start, end) per outer index."""
    outer, inner = math.prod(shape[:axis]), math.prod(shape[axis + 1:])
    if offsets is not None:
        o = offsets.reshape(outer, -1).astype(np.int64)
        bounds = [list(zip(row[:-1], row[1:])) for row in o]
    else:
        lens = lengths.reshape(outer, -1).astype(np.int64)
        bounds = []
        for row in lens:
            ends = np.cumsum(row)
            bounds.append(list(zip(ends - row, ends)))
    return outer, len(bounds[0]) if bounds else 0, inner, bounds


def _segment_reduce(data, reduce, lengths, offsets, axis, initial):
    shape = data.shape
    outer, count, inner, bounds = _layout(shape, axis, lengths, offsets)
    rows = data.reshape(outer, shape[axis], inner)
    out = np.empty((outer, count, inner), data.dtype)
    start_value = {"max": -np.inf, "min": np.inf, "prod": 1}.get(reduce, 0) if initial is None else initial
    for o in range(outer):
        for s, (lo, hi) in enumerate(bounds[o]):
            acc = np.full(inner, start_value, data.dtype)
            for j in range(lo, hi):
                x = rows[o, j]
                if reduce == "max":
                    acc = np.where(np.isnan(x), x, np.maximum(acc, x))
                elif reduce == "min":
                    acc = np.where(np.isnan(x), x, np.minimum(acc, x))
                elif reduce == "prod":
                    acc = acc * x
                else:
                    acc = acc + x
            if reduce == "mean":
                if hi == lo and initial is None:
                    acc = np.full(inner, np.nan, data.dtype)
                elif hi > lo:
                    acc = np.where(np.isnan(acc), acc, acc / data.dtype.type(hi - lo))
            out[o, s] = acc
    return out.reshape(shape[:axis] + (count,) + shape[axis + 1:])


def _segment_reduce_backward(grad, output, data, reduce, lengths, offsets, axis, initial):
    """ATen's _segment_reduce_backward kernel: max/min give the grad to each element equal to the result (or nan),
    split evenly among ties where positive; mean the grad over the length; prod the grad · result / x (the
    product of the others where x is 0 or nan)."""
    shape = data.shape
    outer, count, inner, bounds = _layout(shape, axis, lengths, offsets)
    rows = data.reshape(outer, shape[axis], inner)
    g = grad.reshape(outer, count, inner)
    res = output.reshape(outer, count, inner)
    out = np.zeros_like(rows)
    first = data.dtype.type(1 if initial is None else initial)
    for o in range(outer):
        for s, (lo, hi) in enumerate(bounds[o]):
            for k in range(inner):
                gv, rv = g[o, s, k], res[o, s, k]
                if reduce in ("max", "min"):
                    hits = [j for j in range(lo, hi) if np.isnan(rows[o, j, k]) or rows[o, j, k] == rv]
                    for j in hits:
                        out[o, j, k] = gv
                    if len(hits) > 1:
                        for j in hits:
                            if out[o, j, k] > 0:
                                out[o, j, k] = out[o, j, k] / data.dtype.type(len(hits))
                elif reduce == "mean":
                    for j in range(lo, hi):
                        out[o, j, k] = gv / data.dtype.type(hi - lo)
                elif reduce == "sum":
                    for j in range(lo, hi):
                        out[o, j, k] = gv
                else:
                    scaled = gv * rv
                    for j in range(lo, hi):
                        x = rows[o, j, k]
                        if np.isnan(x) or x == 0:
                            others = first
                            for m in range(lo, hi):
                                if m != j:
                                    others = others * rows[o, m, k]
                            out[o, j, k] = gv * others
                        else:
                            out[o, j, k] = scaled / x
    return out.reshape(shape)


def _bind_segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, dim=0, unsafe=False,
                         initial=None, **refused):
    """(torch's keyword is axis; the engine's functions take numpy's axis= as dim=, as they do everywhere)"""
    for name in refused:  # torch's parser names the function by its ATen name
        raise TypeError(f"segment_reduce() got an unexpected keyword argument '{name}'")
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    axis = data._dim(dim)
    attrs = {"reduce": reduce, "lengths": lengths, "offsets": offsets, "axis": axis, "initial": initial}
    return OPS["_segment_reduce"], (data,), attrs, data.dtype


def _segments_numel(arrays, attrs):
    shape, axis = arrays[0].shape, attrs["axis"]
    given = attrs["lengths"] if attrs["lengths"] is not None else attrs["offsets"]
    count = given.shape[-1] - (attrs["lengths"] is None)
    return math.prod(shape[:axis]) * count * math.prod(shape[axis + 1:])


def _forward(data, reduce, lengths, offsets, axis, initial):
    return _segment_reduce(data, reduce, None if lengths is None else lengths._data,
                           None if offsets is None else offsets._data, axis, initial)


def _data_grad(n, g):
    a = n.attrs
    return g._apply(OPS["_segment_reduce_backward"], (g, n["result"], n["data"]), dict(a), g.dtype)


def _backward(grad, output, data, reduce, lengths, offsets, axis, initial):
    return _segment_reduce_backward(grad, output, data, reduce, None if lengths is None else lengths._data,
                                    None if offsets is None else offsets._data, axis, initial)


def _not_implemented(n, g):
    raise RuntimeError("derivative for aten::_segment_reduce_backward is not implemented")


op("_segment_reduce", "SegmentReduceBackward0", ("data",), _forward,
   ("max/min: grad to the elements equal to the result (ties share it); mean: grad / length; sum: grad; "
    "prod: grad · result / data", _data_grad),
   saves={0: ("axis", "data", "initial", "lengths", "offsets", "reduce", "result")},
   spell=Spelling(function="_segment_reduce", out=False), bind=_bind_segment_reduce, numel=_segments_numel)
op("_segment_reduce_backward", "NotImplemented", ("grad", "output", "data"), _backward,
   ("not implemented", _not_implemented), ("not implemented", _not_implemented), ("not implemented", _not_implemented),
   bind=False)
