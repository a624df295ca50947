"""numpy's functions tutorials use beyond numpy_view.py's basics, each with how big its result is (charged before
numpy makes it), and numpy's print options for the run (the runner puts numpy's back after it)."""
from __future__ import annotations

import math
import operator

import numpy as np

from .arrays import broadcast_numel


def shape_numel(shape):
    return math.prod(shape) if isinstance(shape, (tuple, list)) else operator.index(shape)


# Functions whose result is no bigger than their inputs together, besides NO_BIGGER's.
NO_BIGGER_TOGETHER = """column_stack row_stack dstack hsplit vsplit dsplit swapaxes moveaxis rollaxis
    roll take take_along_axis flatnonzero searchsorted intersect1d union1d setdiff1d setxor1d isin partition
    argpartition diff trapezoid nanmean nanstd nanvar nansum nanprod nanmax nanmin nanargmax nanargmin nanmedian
    flipud fliplr rot90 nan_to_num sinc real imag conj conjugate angle atleast_1d atleast_2d atleast_3d cumulative_sum
    polyfit interp digitize isscalar iscomplexobj isrealobj select piecewise lexsort fix
    cross""".split()
UFUNCS_MORE = "logaddexp logaddexp2 heaviside".split()


def _pad_numel(array, pad_width, *_, **__):
    shape = np.shape(array)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (len(shape), 2)) if shape else ()
    return math.prod(n + int(w[0]) + int(w[1]) for n, w in zip(shape, widths))


def _quantile_numel(a, q, axis=None, *_, **__):
    shape = np.shape(a)
    kept = 1 if axis is None or not shape else math.prod(shape) // max(1, math.prod(
        shape[d] for d in ((axis,) if isinstance(axis, int) else axis)))
    return np.size(q) * kept


def _rows_squared(m, *_, **kwargs):
    rows = np.shape(m)[0] if np.ndim(m) == 2 and kwargs.get("rowvar", True) else (
        np.shape(m)[-1] if np.ndim(m) == 2 else 1)
    return rows * rows


MORE_SIZES = {
    "pad": _pad_numel, "percentile": _quantile_numel, "quantile": _quantile_numel,
    "corrcoef": _rows_squared, "cov": _rows_squared,
    "argwhere": lambda a, *_, **__: np.size(a) * max(1, np.ndim(a)),
    "gradient": lambda f, *_, **__: np.size(f) * max(1, np.ndim(f)),
    "kron": lambda a, b, *_, **__: np.size(a) * np.size(b),
    "convolve": lambda a, v, *_, **__: np.size(a) + np.size(v),
    "correlate": lambda a, v, *_, **__: np.size(a) + np.size(v),
    "inner": lambda a, b, *_, **__: np.size(a) * np.size(b), "polyval": lambda p, x, *_, **__: np.size(x),
    "logspace": lambda start, stop, num=50, *_, **__: operator.index(num),
    "geomspace": lambda start, stop, num=50, *_, **__: operator.index(num),
    "broadcast_to": lambda array, shape, *_, **__: shape_numel(shape),
    "broadcast_arrays": lambda *args, **__: broadcast_numel([a for a in args if np.ndim(a)]) * len(args),
    "unravel_index": lambda indices, shape, *_, **__: np.size(indices) * len(tuple(shape)),
    "ravel_multi_index": lambda multi_index, dims, *_, **__: np.size(multi_index[0]) if multi_index else 0,
    "triu_indices": lambda n, k=0, m=None, **__: operator.index(n) * operator.index(n if m is None else m) * 2,
    "tril_indices": lambda n, k=0, m=None, **__: operator.index(n) * operator.index(n if m is None else m) * 2,
    "diag_indices": lambda n, ndim=2, **__: operator.index(n) * operator.index(ndim),
    "indices": lambda dimensions, *_, **__: math.prod(dimensions) * len(tuple(dimensions)),
    "fill_diagonal": lambda a, val, *_, **__: 0,
    **{name: (lambda *args, **kwargs: 0) for name in NO_BIGGER_TOGETHER},
}


MAX_THRESHOLD = 1_000_000  # np.set_printoptions(threshold=sys.maxsize): whole arrays, up to what the output takes


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None, nanstr=None,
                     infstr=None, sign=None, floatmode=None, *, legacy=None):
    """numpy's print options, for the run (the runner puts numpy's back after it); no formatter functions."""
    if threshold is not None:
        threshold = min(operator.index(threshold), MAX_THRESHOLD)
    np.set_printoptions(precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth,
                        suppress=suppress, nanstr=nanstr, infstr=infstr, sign=sign, floatmode=floatmode,
                        legacy=legacy)


def get_printoptions():
    return {k: v for k, v in np.get_printoptions().items() if k != "override_repr"}


class printoptions:  # noqa: N801 - numpy's name
    """`with np.printoptions(precision=3):` the options set inside, as they were after."""

    __slots__ = ("_options", "_saved")

    def __init__(self, *args, **kwargs):
        object.__setattr__(self, "_options", (args, kwargs))

    def __enter__(self):
        object.__setattr__(self, "_saved", np.get_printoptions())
        set_printoptions(*self._options[0], **self._options[1])
        return get_printoptions()

    def __exit__(self, *exc):
        np.set_printoptions(**self._saved)
        return False
