"""The numpy arrays a program holds: every one is an `ndarray` of this module (a subclass of numpy's that shares
the memory), which sizes what numpy is about to make before it makes it (broadcasting, `outer`, matrix
products, fancy indexing, `repeat`, `take`) and refuses object dtypes (numpy runs Python code and recurses in C
on those). `tensor.numpy()`, the numpy view's functions and the methods of numpy's objects hand out only these
(runtime.Runtime.attr sees to the methods).

What is not covered: a numpy scalar (`a[0]`, `a.sum()`) combined with a Python list nested through shared
references (`np.float32(1) + [[row] * 1000] * 1000`) is converted by numpy unsized; the wall stops it.
"""
from __future__ import annotations

import math

import numpy as np

from ..sizes import broadcast_shape, index_numel, nested_numel
from ..torch_names import TorchClass
from .budget import budget_now
from .errors import GuardError, program_line

# What a program may call or read on numpy's arrays and scalars (read-only attributes included); the rest
# (`resize`, `setfield`, `getfield`, `byteswap`, `dumps`, `partition`, `choose`, ...) is refused.
ARRAY_ATTRIBUTES = frozenset("""all any argmax argmin argsort astype clip conj conjugate copy cumprod cumsum
    diagonal dot fill flatten item max mean min nonzero prod ravel repeat reshape round sort squeeze std sum
    swapaxes take tolist trace transpose var view shape ndim size dtype T real imag itemsize nbytes flat base
    is_integer as_integer_ratio coords index""".split())

_FLOATS = frozenset([np.dtype(np.float32), np.dtype(np.float64)])


def refuse(reason):
    budget_now().stop(GuardError(reason, program_line()))


def charge(n):
    budget_now().on_alloc(int(n))


def no_object(value):
    """Refuses value if it names or holds an object dtype (a dtype, a type, a string numpy reads as one)."""
    try:
        if isinstance(value, np.ndarray):
            bad = value.dtype.kind == "O"
        elif isinstance(value, (np.dtype, type, str)):
            bad = np.dtype(value).kind == "O"
        else:
            return value
    except (TypeError, ValueError):
        return value
    if bad:
        refuse("numpy arrays of Python objects (dtype=object) are not available")
    return value


def plain(value):
    """What numpy itself is given: the plain array behind one of ours, a list once sized, anything else as is."""
    if isinstance(value, ndarray):
        return _base(value)
    if isinstance(value, (list, tuple)):
        charge(nested_numel(value))
    return no_object(value)


_NUMBERS = (bool, int, float, complex, np.generic)


def operand(value):
    """An operand of a ufunc: an array (one of ours, plain, or made of a list once sized) or a number."""
    if isinstance(value, ndarray):
        return _base(value)
    if isinstance(value, (list, tuple)):
        charge(nested_numel(value))
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        return no_object(value)
    if not isinstance(value, _NUMBERS):
        refuse(f"numpy's functions take numbers, lists and arrays here, not {type(value).__name__}")
    return value


def as_array(value):
    """One of ours for a plain numpy array (the same memory), and inside tuples and lists; else value."""
    kind = type(value)
    if kind is np.ndarray:
        no_object(value)
        return value.view(ndarray)
    if kind is tuple or kind is list:
        return kind(as_array(v) for v in value)
    return value


def returning_arrays(method):
    """A numpy method whose results are handed to the program as arrays of ours."""
    def call(*args, **kwargs):
        return as_array(method(*args, **kwargs))

    return call


def broadcast_numel(values):
    """Elements of the result of broadcasting values together (lists sized by `plain` already)."""
    try:
        return math.prod(broadcast_shape([np.shape(v) for v in values]))
    except ValueError:
        return 0  # numpy refuses them itself


def matmul_numel(a, b):
    """Elements and multiply-adds of `a @ b` (0, 0 if numpy will refuse the shapes)."""
    a, b = np.shape(a), np.shape(b)
    if not a or not b:
        return 0, 0
    a2, b2 = (1, *a) if len(a) == 1 else a, (*b, 1) if len(b) == 1 else b
    try:
        batch = math.prod(broadcast_shape([a2[:-2], b2[:-2]]))
    except ValueError:
        return 0, 0
    numel = batch * a2[-2] * b2[-1]
    return numel, numel * a2[-1]


def check_work(work, dtype):
    if np.dtype(dtype) not in _FLOATS:
        budget_now().on_work(work)


class ndarray(np.ndarray, metaclass=TorchClass):
    """numpy's ndarray as a program holds it (see the module's docstring)."""

    __slots__ = ()
    _torch_name = "numpy.ndarray"

    def __getattr__(self, name):  # (only for what the array has not: worded as numpy's own type words it)
        raise AttributeError(f"'numpy.ndarray' object has no attribute '{name}'")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(operand(x) for x in inputs)  # (Python numbers stay numbers: numpy's promotion needs them)
        if "out" in kwargs:
            kwargs["out"] = tuple(operand(x) for x in kwargs["out"])
        for key in ("dtype", "signature"):
            no_object(kwargs.get(key))
        if method == "__call__" and ufunc is np.matmul and len(inputs) == 2:
            numel, work = matmul_numel(*inputs)
            charge(numel)
            check_work(work, np.result_type(*inputs))
        elif method == "__call__":
            charge(broadcast_numel(inputs))
        elif method == "outer":
            charge(math.prod(np.size(x) for x in inputs))
        else:  # reduce, accumulate, reduceat, at: no bigger than their input
            charge(np.size(inputs[0]))
        return as_array(getattr(ufunc, method)(*inputs, **kwargs))

    def __getitem__(self, key):
        base = _base(self)
        if _advanced(key):
            key = tuple(plain(k) for k in key) if isinstance(key, tuple) else plain(key)
            charge(index_numel(base.shape, key))
        return as_array(base[key])

    def __setitem__(self, key, value):
        base = _base(self)
        if _advanced(key):
            key = tuple(plain(k) for k in key) if isinstance(key, tuple) else plain(key)
            charge(index_numel(base.shape, key))
        base[key] = plain(value)

    def __repr__(self):
        return repr(_base(self))

    def __str__(self):
        return str(_base(self))

    def __format__(self, spec):
        return format(_base(self), spec)

    def astype(self, dtype, *args, **kwargs):
        no_object(dtype)
        charge(self.size)
        return as_array(_base(self).astype(dtype, *args, **kwargs))

    def view(self, *args, **kwargs):
        for arg in (*args, *kwargs.values()):
            if not (isinstance(arg, type) and issubclass(arg, np.ndarray)):
                no_object(arg)
        return np.ndarray.view(self, *args, **kwargs)

    def repeat(self, repeats, axis=None):
        counts = np.asarray(plain(repeats))
        along = self.size if axis is None else self.shape[axis]
        total = int(counts.sum()) if counts.ndim else int(counts) * along
        charge(total * (self.size // along if along else 0) if axis is not None else total)
        return as_array(_base(self).repeat(counts, axis))

    def take(self, indices, axis=None, *args, **kwargs):
        indices = plain(indices)
        rest = 1 if axis is None else self.size // max(self.shape[axis], 1)
        charge(np.size(indices) * rest)
        return as_array(_base(self).take(indices, axis, *args, **kwargs))

    def dot(self, other, *args, **kwargs):
        other = plain(other)
        if self.ndim and np.ndim(other):
            numel, work = matmul_numel(self, other)
            charge(numel if self.ndim <= 2 and np.ndim(other) <= 2 else self.size * np.size(other))
            check_work(work, np.result_type(self, other))
        else:
            charge(max(self.size, np.size(other)))
        return as_array(_base(self).dot(other, *args, **kwargs))

    def resize(self, *args, **kwargs):
        refuse("numpy's ndarray.resize() is not available; use reshape or the tensor's methods")


def _base(array):
    """The plain numpy array behind one of ours (the same memory)."""
    return np.ndarray.view(array, np.ndarray)


def _advanced(key):
    keys = key if isinstance(key, tuple) else (key,)
    return any(not (k is None or k is Ellipsis or isinstance(k, (slice, int, np.integer)))
               or isinstance(k, bool) for k in keys)
