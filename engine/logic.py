"""Comparisons and logic: results without grad (bool tensors, or Python bools), so they are not ops of the table.
Each is declared once here with its Tensor method, dunder and torch function names."""
import numpy as np

from . import dispatch, dtypes
from .methods import _with_out, accepting_aliases
from .tensor import Tensor

FUNCTIONS = {}  # torch.<name>


def _compare(fn):
    def compare(self, other):
        b = other._data if isinstance(other, Tensor) else other
        try:
            return Tensor._make(np.asarray(fn(self._data, b)), dtypes.bool)
        except ValueError as e:
            raise dispatch.shape_error(e, [self._data, np.asarray(b)]) from None

    return compare


def _logical(logical, bitwise):
    """`&`, `|`, `^`: logical on bools (a bool tensor), bitwise on integers (an int64 tensor)."""
    def op(self, other):
        b = other._data if isinstance(other, Tensor) else other
        both_bool = self.dtype is dtypes.bool and (np.asarray(b).dtype == bool)
        try:
            out = (logical if both_bool else bitwise)(self._data, b)
        except ValueError as e:
            raise dispatch.shape_error(e, [self._data, np.asarray(b)]) from None
        return Tensor._make(np.asarray(out, dtype=bool if both_bool else np.int64), dtypes.bool if both_bool
                            else dtypes.int64)

    return op


def _unary(fn, dtype=dtypes.bool):
    return lambda self: Tensor._make(np.asarray(fn(self._data)), dtype)


def _any_all(fn):
    """x.all() / x.any(), or along dim (an int or a tuple of ints), keeping it if keepdim."""
    def reduce(self, dim=None, keepdim=False):
        if dim is None:
            return Tensor._make(np.asarray(fn(self._data)), dtypes.bool)
        axes = tuple(self._dim(d) for d in (dim if isinstance(dim, (tuple, list)) else (dim,)))
        if self._data.ndim == 0:
            axes = None
        return Tensor._make(np.asarray(fn(self._data, axis=axes, keepdims=keepdim)), dtypes.bool)

    return reduce


def _equal(self, other):
    return self.shape == other.shape and bool(np.array_equal(self._data, other._data))


def _allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _invert(self):
    return Tensor._make(~self._data, self.dtype)


# (names: Tensor methods, and torch functions of the same names; dunder; implementation)
DECLARED = [
    (("eq",), "__eq__", _compare(np.equal)),
    (("ne", "not_equal"), "__ne__", _compare(np.not_equal)),
    (("lt", "less"), "__lt__", _compare(np.less)),
    (("le", "less_equal"), "__le__", _compare(np.less_equal)),
    (("gt", "greater"), "__gt__", _compare(np.greater)),
    (("ge", "greater_equal"), "__ge__", _compare(np.greater_equal)),
    ((), "__and__", _logical(np.logical_and, np.bitwise_and)),
    ((), "__or__", _logical(np.logical_or, np.bitwise_or)),
    ((), "__xor__", _logical(np.logical_xor, np.bitwise_xor)),
    (("logical_and",), None, _compare(np.logical_and)),
    (("logical_or",), None, _compare(np.logical_or)),
    (("logical_xor",), None, _compare(np.logical_xor)),
    (("logical_not",), None, _unary(np.logical_not)),
    (("bitwise_not",), "__invert__", _invert),
    (("isnan",), None, _unary(np.isnan)),
    (("isinf",), None, _unary(np.isinf)),
    (("isfinite",), None, _unary(np.isfinite)),
    (("all",), None, _any_all(np.all)),
    (("any",), None, _any_all(np.any)),
    (("equal",), None, _equal),
    (("allclose",), None, _allclose),
]

for _names, _dunder, _fn in DECLARED:
    _fn = accepting_aliases(_fn)
    for _name in _names:
        setattr(Tensor, _name, _fn)
        FUNCTIONS[_name] = _with_out(_fn, _name) if _name in ("all", "any") else _fn
    if _dunder:
        setattr(Tensor, _dunder, _fn)
