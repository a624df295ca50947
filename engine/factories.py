"""Making tensors: torch.tensor, ones, zeros, full, empty, *_like, arange, linspace (the random ones: random.py)."""
import builtins
import math
import warnings

import numpy as np

from . import devices, dispatch, dtypes, kernels, messages, observe
from .ops import shape_args
from .tensor import Tensor


def _infer_dtype(data):
    """PyTorch's choice for Python data: any float -> float32, else any int -> int64, else bool."""
    kinds = set()

    def walk(x):
        if isinstance(x, Tensor):
            kinds.add("f" if x.dtype.is_floating_point else ("b" if x.dtype is dtypes.bool else "i"))
        elif isinstance(x, (list, tuple)):
            for i in x:
                walk(i)
        elif isinstance(x, (bool, np.bool_)):
            kinds.add("b")
        elif isinstance(x, (int, np.integer)):
            kinds.add("i")
        elif isinstance(x, (float, np.floating)):
            kinds.add("f")
        else:
            raise TypeError(f"Could not infer dtype of {type(x).__name__}")

    walk(data)
    if "f" in kinds or not kinds:
        return dtypes.float32
    return dtypes.int64 if "i" in kinds else dtypes.bool


def _plain(data):
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (list, tuple)):
        return [_plain(x) for x in data]
    return data


def _check_ragged(data, dim=0):
    if not isinstance(data, list) or not data:
        return
    first = data[0]
    n = len(first) if isinstance(first, (list, tuple)) else None
    for item in data:
        m = len(item) if isinstance(item, (list, tuple)) else None
        if m != n:
            if n is None:
                raise TypeError(f"must be real number, not {type(item).__name__}")
            if m is None:
                raise TypeError("not a sequence")
            raise ValueError(f"expected sequence of length {n} at dim {dim + 1} (got {m})")
    if n is not None:
        for item in data:
            _check_ragged(list(item), dim + 1)


def _finish(data, dtype, requires_grad):
    if requires_grad and not dtype.is_floating_point:
        raise RuntimeError(messages.INT_REQUIRES_GRAD)
    t = Tensor._make(data, dtype, bool(requires_grad))
    if observe._observers:
        observe.emit("on_tensor", t)
    return t


def _alloc(shape):
    n = 1
    for s in shape:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(shape)}")
        n *= s
    if observe._observers:
        observe.emit("on_alloc", n)
    return shape


def tensor(data, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "tensor")
    devices.check(device)
    if isinstance(data, np.ndarray):
        dtype = dtype or dtypes.from_numpy(data.dtype)
        arr = np.array(data, dtype=dtype.np)
    else:
        if isinstance(data, Tensor):
            warnings.warn(messages.TENSOR_FROM_TENSOR, UserWarning, stacklevel=2)
            dtype = dtype or data.dtype
        if observe._observers:  # before any walk: lists nested through shared references can be huge
            observe.emit("on_alloc", dispatch.nested_numel(data))
        dtype = dtype or _infer_dtype(data)
        plain = _plain(data)
        _check_ragged(plain)
        arr = np.array(plain, dtype=dtype.np)
    return _finish(arr, dtype, requires_grad)


def as_tensor(data, dtype=None, device=None):
    dtypes.given(dtype, "as_tensor")
    devices.check(device)
    if isinstance(data, Tensor) and (dtype is None or dtype is data.dtype):
        return data
    return tensor(data, dtype, device=device)


def from_numpy(arr):
    return _finish(np.asarray(arr), dtypes.from_numpy(arr.dtype), False)  # the same memory, as a plain array


def _filled(value, size, dtype, requires_grad):
    shape = _alloc(shape_args(size))
    dtype = dtype or dtypes.float32
    return _finish(np.full(shape, value, dtype=dtype.np), dtype, requires_grad)


def _sized(name, shape, size):
    """A factory's shape, given positionally or as size=."""
    if size is None:
        return shape
    if shape:
        raise TypeError(f"{name}() received an invalid combination of arguments - got both a positional size and "
                        "size=")
    return (size,)


def ones(*shape, size=None, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "ones")
    devices.check(device)
    return _filled(1, _sized("ones", shape, size), dtype, requires_grad)


def zeros(*shape, size=None, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "zeros")
    devices.check(device)
    return _filled(0, _sized("zeros", shape, size), dtype, requires_grad)


def empty(*shape, size=None, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "empty")
    devices.check(device)
    return _filled(0, _sized("empty", shape, size), dtype, requires_grad)


def full(size, fill_value, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "full")
    devices.check(device)
    if dtype is None:
        dtype = _infer_dtype(fill_value)
    return _filled(fill_value, (size,) if isinstance(size, int) else tuple(size), dtype, requires_grad)


def ones_like(t, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "ones_like")
    devices.check(device)
    return _filled(1, t.shape, dtype or t.dtype, requires_grad)


def zeros_like(t, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "zeros_like")
    devices.check(device)
    return _filled(0, t.shape, dtype or t.dtype, requires_grad)


def empty_like(t, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "empty_like")
    devices.check(device)
    return _filled(0, t.shape, dtype or t.dtype, requires_grad)


def full_like(t, fill_value, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "full_like")
    devices.check(device)
    return _filled(fill_value, t.shape, dtype or t.dtype, requires_grad)


def arange(start, end=None, step=1, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "arange")
    devices.check(device)
    if end is None:
        start, end = 0, start
    if dtype is None:
        is_int = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (start, end, step))
        dtype = dtypes.int64 if is_int else dtypes.float32
    n = builtins.max(0, math.ceil((end - start) / step))
    _alloc((n,))
    data = kernels.arange(start, end, step, dtype.np) if dtype.is_floating_point else np.arange(start, end, step)
    return _finish(np.asarray(data, dtype=dtype.np), dtype, requires_grad)


def linspace(start, end, steps, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "linspace")
    devices.check(device)
    dtype = dtype or dtypes.float32
    _alloc((steps,))
    return _finish(kernels.linspace(start, end, steps, dtype.np), dtype, requires_grad)


def eye(n, m=None, dtype=None, requires_grad=False, device=None):
    dtypes.given(dtype, "eye")
    devices.check(device)
    dtype = dtype or dtypes.float32
    _alloc((n, m or n))
    return _finish(np.eye(n, m, dtype=dtype.np), dtype, requires_grad)


def _legacy(dtype, name):
    """torch.Tensor(...) and the typed constructors (torch.FloatTensor, …): from data, or uninitialised from
    sizes (zeros here; torch leaves whatever was in memory)."""

    def make(*args, device=None):
        devices.check(device)
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0].dtype is not dtype:
                raise TypeError(f"expected {dtype.type_name} (got {args[0].dtype.type_name})")
            return args[0]
        if args and all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
            return _filled(0, args, dtype, False)
        if len(args) == 1 and not isinstance(args[0], (int, float, bool)):
            return tensor(args[0], dtype)
        if not args:
            return _finish(np.zeros((0,), dtype.np), dtype, False)
        raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")

    make.__name__ = make.__qualname__ = name
    return make


_legacy_tensor = _legacy(dtypes.float32, "Tensor")
Tensor.__new__ = staticmethod(lambda cls, *args, **kwargs: _legacy_tensor(*args, **kwargs) if cls is Tensor
                              else object.__new__(cls))
FloatTensor = _legacy(dtypes.float32, "FloatTensor")
DoubleTensor = _legacy(dtypes.float64, "DoubleTensor")
LongTensor = _legacy(dtypes.int64, "LongTensor")
IntTensor = _legacy(dtypes.int32, "IntTensor")
BoolTensor = _legacy(dtypes.bool, "BoolTensor")
