"""Counts and positions, with no grad: searchsorted, bucketize, histc, histogram, histogramdd, bincount, isin."""

import numpy as np

from .. import dtypes, kernels
from .statistics import returned
from .table import Spelling, composite


# --- searchsorted, bucketize, histc, bincount, isin: counts and positions (no grad) -----------------------------
def _int_result(self, array, out_int32):
    dtype = dtypes.int32 if out_int32 else dtypes.int64
    return self._new(np.asarray(array).astype(dtype.np), dtype)


def _search(seq, values, right):
    side = "right" if right else "left"
    if seq.ndim <= 1:
        return np.searchsorted(seq, values, side=side)
    if seq.size == 0 or values.size == 0:
        return np.zeros(values.shape, np.int64)
    rows_s = seq.reshape(-1, seq.shape[-1])
    rows_v = values.reshape(-1, values.shape[-1])
    out = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(rows_s, rows_v)]) if rows_s.shape[0] else \
        np.zeros(rows_v.shape, np.int64)
    return out.reshape(values.shape)


@composite(Spelling(function="searchsorted"))
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):  # noqa: A002
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    seq = sorted_sequence._data
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, -1)
    scalar = not hasattr(input, "_data")
    values = np.asarray(input, dtype=seq.dtype) if scalar else input._data
    if seq.ndim > 1 and (scalar or values.shape[:-1] != seq.shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           "dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor {list(seq.shape)} and input value tensor {list(np.shape(values))}")
    return _int_result(sorted_sequence, _search(seq, values, right), out_int32)


@composite(Spelling(method="bucketize", function="bucketize"))
def bucketize(self, boundaries, *, out_int32=False, right=False):
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    data = self._data if hasattr(self, "_data") else np.asarray(self)
    host = self if hasattr(self, "_data") else boundaries
    return _int_result(host, np.searchsorted(boundaries._data, data, side="right" if right else "left"), out_int32)


@composite(Spelling(method="histc", function="histc"))
def histc(self, bins=100, min=0, max=0):  # noqa: A002 - torch's names
    if not self.dtype.is_floating_point:
        kernel = "linspace_cpu" if self.dtype is dtypes.bool else "histogram_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{self.dtype.type_name}'")
    if bins <= 0:
        raise RuntimeError("torch.histc: bins must be > 0, but got " + str(bins) + " for bins")
    data = self._data.reshape(-1)
    lo, hi = float(min), float(max)
    if lo == hi and data.size:
        finite = data[np.isfinite(data)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (lo, hi)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise RuntimeError(f"torch.histc: max must be larger than min, but got min {min} and max {max}")
    keep = data[(data >= lo) & (data <= hi)].astype(np.float64)
    pos = ((keep - lo) * bins / (hi - lo)).astype(np.int64)
    pos = np.minimum(pos, bins - 1)
    out = np.bincount(pos.astype(np.intp), minlength=bins).astype(self.dtype.np)
    return self._new(out, self.dtype)


# --- histogram, histogramdd: ATen's histogramdd_cpu over the input's rows (M, N) -----------------------------
def _outer_edges(rows, counts, range_):
    """(leftmost, rightmost) edge per dim: the range given, else each column's min and max (0 and 1 when there
    are no rows), widened by 0.5 each way where they meet."""
    n = rows.shape[1]
    if range_ is not None:
        if len(range_) != 2 * n:
            raise RuntimeError(f"torch.histogramdd: for a {n}-dimensional histogram range should have {2 * n} "
                               "elements, "
                               f"but got {len(range_)}")
        left, right = [float(r) for r in range_[0::2]], [float(r) for r in range_[1::2]]
    elif rows.shape[0]:
        left, right = [float(v) for v in rows.min(0)], [float(v) for v in rows.max(0)]
    else:
        left, right = [0.0] * n, [1.0] * n
    for d in range(n):
        if not (np.isfinite(left[d]) and np.isfinite(right[d])):
            raise RuntimeError(f"torch.histogramdd: dimension {d}'s range [{left[d]:g}, {right[d]:g}] is not finite")
        if left[d] > right[d]:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {left[d]:g} max "
                               f"{right[d]:g} for "
                               f"dimension {d}")
        if left[d] == right[d]:
            left[d], right[d] = left[d] - 0.5, right[d] + 0.5
    return left, right


def _histogramdd(self, bins, range_, weight, density, name):
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{self.dtype.type_name}'")
    n = self.shape[-1] if self.dim() else 1
    rows = self._data.reshape(-1, n)
    if hasattr(bins, "__len__") and bins and all(hasattr(b, "_data") for b in bins):
        edges = [b._data.reshape(-1).astype(self.dtype.np) for b in bins]
    else:
        counts = [int(bins)] * n if not hasattr(bins, "__len__") else [int(b) for b in bins]
        if len(counts) != n:
            raise RuntimeError(f"{name}: The size of bins must be equal to the innermost dimension of the input.")
        left, right = _outer_edges(rows, counts, range_)
        edges = [kernels.linspace(lo, hi, c + 1, self.dtype.np) for lo, hi, c in zip(left, right, counts)]
    if len(edges) != n:
        raise RuntimeError(f"{name}: The size of bins must be equal to the innermost dimension of the input.")
    hist = np.zeros(tuple(len(e) - 1 for e in edges), self.dtype.np)
    keep = np.ones(rows.shape[0], bool)
    where = []
    for d, e in enumerate(edges):
        col = rows[:, d]
        keep &= (col >= e[0]) & (col <= e[-1])
        pos = np.searchsorted(e, col, side="right") - 1
        where.append(np.minimum(pos, len(e) - 2))  # the rightmost edge closes the last bin
    w = np.ones(rows.shape[0], self.dtype.np) if weight is None else weight._data.reshape(-1).astype(self.dtype.np)
    np.add.at(hist, tuple(p[keep] for p in where), w[keep])
    if density:
        hist = hist / kernels.sum(hist, axis=None) if hist.size else hist
        for d, e in enumerate(edges):
            shape = [1] * len(edges)
            shape[d] = len(e) - 1
            hist = hist / np.diff(e).reshape(shape)
        hist = hist.astype(self.dtype.np)
    return self._new(np.ascontiguousarray(hist), self.dtype), [self._new(e.copy(), self.dtype) for e in edges]


@composite(Spelling(method="histogram", function="histogram"))
def histogram(self, bins=100, *, range=None, weight=None, density=False):  # noqa: A002 - torch's names
    """The histogram of all the input's values (bins: a count of equal bins, or their edges) and its edges."""
    if weight is not None and weight.shape != self.shape:
        raise RuntimeError("histogram: if weight tensor is provided it should have the same shape as the input "
                           "tensor excluding its innermost dimension")
    flat = self.reshape(-1, 1)
    hist, edges = _histogramdd(flat, [bins] if hasattr(bins, "_data") else bins, range, weight, density,
                               "histogram")
    return returned("histogram", ("hist", "bin_edges"))(hist, edges[0])


@composite(Spelling(function="histogramdd", out=False))
def histogramdd(input, bins=10, *, range=None, weight=None, density=False):  # noqa: A002 - torch's names
    """The N-dimensional histogram of the input's rows (its last dim holds the N coordinates) and its edges."""
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    hist, edges = _histogramdd(input, bins, range, weight, density, "histogramdd")
    return returned("histogramdd", ("hist", "bin_edges"))(hist, tuple(edges))


@composite(Spelling(method="bincount", function="bincount", out=False))
def bincount(self, weights=None, minlength=0):
    if self.dtype.is_floating_point or self.dtype is dtypes.bool:
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{self.dtype.type_name}'")
    if self.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    data = self._data.astype(np.int64)
    if (data < 0).any():
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is None:
        return self._new(np.bincount(data.astype(np.intp), minlength=minlength).astype(np.int64), dtypes.int64)
    if weights.shape != self.shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    dtype = weights.dtype if weights.dtype.is_floating_point else dtypes.float64
    counts = np.bincount(data.astype(np.intp), weights=weights._data.astype(np.float64), minlength=minlength)
    return self._new(counts.astype(dtype.np), dtype)


@composite(Spelling(function="isin"))
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    host = elements if hasattr(elements, "_data") else test_elements
    a = elements._data if hasattr(elements, "_data") else np.asarray(elements)
    b = test_elements._data if hasattr(test_elements, "_data") else np.asarray(test_elements)
    return host._new(np.asarray(np.isin(a, b, invert=invert)), dtypes.bool)
