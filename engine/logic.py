"""Comparisons and logic: results without grad (bool tensors, or Python bools), so they are not ops of the table.
Each is declared once here with its Tensor method, dunder and torch function names."""
import functools

import numpy as np

from . import dispatch, dtypes, meta
from .methods import _with_out as with_out
from .methods import accepting_aliases
from .ops.complex_refusals import ordered
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


def _isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    if self.dtype is not other.dtype:
        raise RuntimeError(f"{self.dtype.type_name} did not match {other.dtype.type_name}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol:g}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol:g}")
    a, b = self._data, other._data
    if a.dtype == bool:
        return Tensor._make(np.asarray(a == b), dtypes.bool)
    with np.errstate(all="ignore"):
        close = (a == b) | (np.isfinite(a) & np.isfinite(b) & (np.abs(a - b) <= atol + rtol * np.abs(b)))
        if equal_nan:
            close = close | (np.isnan(a) & np.isnan(b))
    return Tensor._make(np.asarray(close), dtypes.bool)


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
    if self.dtype.is_floating_point:
        raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for '{self.dtype.type_name}'")
    return Tensor._make(~self._data, self.dtype)


def _invert_operator(self):
    if self.dtype.is_floating_point:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return _invert(self)


# (names: Tensor methods, and torch functions of the same names; dunder; implementation)
DECLARED = [
    ((), "__eq__", _compare(np.equal)),  # eq, lt, … by name: engine/ops/compare.py
    ((), "__ne__", _compare(np.not_equal)),
    ((), "__lt__", _compare(ordered(np.less, "lt"))),
    ((), "__le__", _compare(ordered(np.less_equal, "le"))),
    ((), "__gt__", _compare(ordered(np.greater, "gt"))),
    ((), "__ge__", _compare(ordered(np.greater_equal, "ge"))),
    (("logical_and",), None, _compare(np.logical_and)),
    (("logical_or",), None, _compare(np.logical_or)),
    (("logical_xor",), None, _compare(np.logical_xor)),
    (("logical_not",), None, _unary(np.logical_not)),
    (("bitwise_not",), None, _invert),
    ((), "__invert__", _invert_operator),
    (("isnan",), None, _unary(np.isnan)),
    (("isinf",), None, _unary(np.isinf)),
    (("isfinite",), None, _unary(np.isfinite)),
    (("isposinf",), None, _unary(np.isposinf)),
    (("isneginf",), None, _unary(np.isneginf)),
    (("isreal",), None, _unary(lambda a: a.imag == 0 if a.dtype.kind == "c" else np.ones(a.shape, bool))),
    (("signbit",), None, _unary(np.signbit)),
    (("isclose",), None, _isclose),
    (("all",), None, _any_all(np.all)),
    (("any",), None, _any_all(np.any)),
    (("equal",), None, _equal),
    (("allclose",), None, _allclose),
]

# the functions that write their result in place (x.logical_and_(y)) and into out= (torch.isnan(x, out=t))
IN_PLACE = frozenset(["logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_not"])
TENSORS_ONLY = frozenset(["logical_and", "logical_or", "logical_xor", "isclose"])  # no Number overloads
NO_OUT = frozenset(["equal", "allclose", "isnan", "isinf", "isfinite", "isreal", "isclose"])


def _in_place(fn, name):
    """x.<name>_(…): the result written into x, cast to its dtype; x keeps its grad_fn (PyTorch records no node
    for these)."""
    def inplace(self, *args, **kwargs):
        result = fn(self, *args, **kwargs)
        if result.shape != self.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(result.shape)}")
        dispatch.check_inplace(self)
        np.copyto(self._data, dtypes.stored(self.dtype, result._data), casting="unsafe")
        self._bump()
        return self

    inplace.__name__ = name + "_"
    return inplace


def _tensors_only(fn, name, function):
    """fn refusing anything but a tensor for self (the torch function's input) and other, with torch's text: the
    method counts other as position 1, the function as 2."""
    def call(self, other, *args, **kwargs):
        for i, (param, x) in enumerate((("input", self), ("other", other))[1 - function:]):
            if not isinstance(x, Tensor):
                raise TypeError(f"{name}(): argument '{param}' (position {i + 1}) must be Tensor, not "
                                f"{type(x).__name__}")
        return fn(self, other, *args, **kwargs)

    return call


def _on_meta(fn, name):
    """fn on meta tensors: a result of its shape on the meta device, and torch's error where it reads numbers."""
    @functools.wraps(fn)
    def call(self, *args, **kwargs):
        if not (isinstance(self, meta.MetaTensor) or (args and isinstance(args[0], meta.MetaTensor))):
            return fn(self, *args, **kwargs)
        if name in ("equal", "allclose"):
            raise RuntimeError(meta.NO_ITEM)
        return meta.placed(fn(self, *args, **kwargs))

    return call


for _names, _dunder, _fn in DECLARED:
    if _names:
        _fn.__name__ = _fn.__qualname__ = _names[0]
    _fn = accepting_aliases(_on_meta(_fn, _names[0] if _names else _dunder))
    for _name in _names:
        _method = _function = _fn
        if _name in TENSORS_ONLY:
            _method, _function = _tensors_only(_fn, _name, False), _tensors_only(_fn, _name, True)
        setattr(Tensor, _name, _method)
        FUNCTIONS[_name] = _function if _name in NO_OUT else with_out(_function, _name)
        if _name in IN_PLACE:
            setattr(Tensor, _name + "_", _in_place(_fn, _name))
    if _dunder:
        setattr(Tensor, _dunder, _fn)

Tensor.__rdiv__ = Tensor.__rtruediv__
