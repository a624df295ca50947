"""Making tensors: torch.tensor, ones, zeros, full, empty, *_like, arange, linspace (the random ones: random.py)."""
import builtins
import math
import operator
import warnings

import numpy as np

from . import devices, dtypes, kernels, memory, messages, meta, methods, observe, sizes, tensor_data
from .ops import shape_args
from .size_arguments import checked_sizes
from .tensor import Tensor


def _finish(data, dtype, requires_grad):
    if requires_grad and not dtype._grads:
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
    if meta.is_meta(device):
        return meta.placed(tensor(data, dtype, requires_grad))
    dtypes.given(dtype, "tensor")
    devices.check(device)
    return _from_data(data, dtype, requires_grad, stacklevel=3)


def _from_data(data, dtype, requires_grad, stacklevel):
    """torch.tensor's reading of `data` (stacklevel: of the program's line, for the warnings)."""
    if isinstance(data, (np.ndarray, np.generic)):  # a numpy scalar is read as a 0-dim array of its dtype
        _check_numpy_strides(data)
        dtype = dtype or dtypes.from_numpy(data.dtype)
        arr = np.array(data, dtype=dtype.np)
    else:
        if isinstance(data, Tensor):
            warnings.warn(messages.TENSOR_FROM_TENSOR, UserWarning, stacklevel=stacklevel)
            dtype = dtype or data.dtype
        if observe._observers:  # before any walk: lists nested through shared references can be huge
            observe.emit("on_alloc", sizes.nested_numel(data))
        tensor_data.first_sizes(data)
        dtype = dtype or tensor_data.infer_dtype(data)
        arrays = []
        plain = tensor_data.plain(data, arrays=arrays)
        tensor_data.check_ragged(plain)
        if arrays:
            messages.warn_once(messages.TENSOR_FROM_NDARRAYS, stacklevel=stacklevel)
        try:
            arr = np.array(plain, dtype=dtype.np)
        except TypeError as e:
            if "complex" not in str(e):
                raise
            raise TypeError("must be real number, not complex") from None
    return _finish(memory.flushed(arr), dtype, requires_grad)


def as_tensor(data, dtype=None, device=None):
    dtypes.given(dtype, "as_tensor")
    devices.check(device)
    if isinstance(data, Tensor) and (dtype is None or dtype is data.dtype):
        return data
    if isinstance(data, np.ndarray) and not meta.is_meta(device):  # torch reads it as from_numpy does
        shared = from_numpy(data)
        return shared if dtype is None or dtype is shared.dtype else shared.to(dtype)
    return tensor(data, dtype, device=device)


def _check_numpy_strides(arr):
    if isinstance(arr, np.ndarray) and any(s < 0 for s in arr.strides):
        raise ValueError(messages.NEGATIVE_NUMPY_STRIDES)


def from_numpy(arr):
    _check_numpy_strides(arr)
    return _finish(np.asarray(arr), dtypes.from_numpy(arr.dtype), False)  # the same memory, as a plain array


def _filled(value, size, dtype, requires_grad):
    shape = _alloc(shape_args(size))
    dtype = dtype or dtypes.DEFAULT[0]
    return _finish(np.full(shape, value, dtype=dtype.np), dtype, requires_grad)


def _sized(name, shape, size):
    """A factory's shape, given positionally or as size=."""
    if size is None:
        checked_sizes(name, shape)
        return shape
    if shape:
        raise TypeError(f"{name}() received an invalid combination of arguments - got both a positional size and "
                        "size=")
    checked_sizes(name, (), size)
    return (size,)


def _check_layout(layout):
    if layout is not None and layout is not dtypes.strided:
        raise NotImplementedError(f"layout={layout!r}: the engine's tensors are strided")


_check_format = memory.format_for


def _made(name, result, out):
    return result if out is None else methods._written_out(name, result, out)


def _out_dtype(dtype, out, default=None):
    if dtype is None and out is not None:
        return out.dtype
    return dtype or default


def _fill(name, value, shape, size, out, dtype, layout, device, requires_grad):
    dtypes.given(dtype, name)
    on_meta = _place(device)
    _check_layout(layout)
    result = _made(name, _filled(value, _sized(name, shape, size), _out_dtype(dtype, out), requires_grad), out)
    return meta.placed(result) if on_meta else result


def _place(device):
    """Whether a factory makes its tensor on the meta device (else the CPU: another device fails as torch's CPU
    build does)."""
    if meta.is_meta(device):
        return True
    devices.check(device)
    return False


def ones(*shape, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    return _fill("ones", 1, shape, size, out, dtype, layout, device, requires_grad)


def zeros(*shape, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    return _fill("zeros", 0, shape, size, out, dtype, layout, device, requires_grad)


def empty(*shape, size=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          memory_format=None):
    """Uninitialised in torch; zeros here."""
    fmt = _check_format(memory_format, len(shape_args(_sized("empty", shape, size))), preserve=False)
    result = _fill("empty", 0, shape, size, out, dtype, layout, device, requires_grad)
    if fmt is not None and out is None:
        result._data = memory.laid_out(result._data, fmt)
    return result


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False):
    """Uninitialised (zeros here), dense, its dims laid out in memory in the order physical_layout gives."""
    dtypes.given(dtype, "empty_permuted")
    devices.check(device)
    _check_layout(layout)
    size, order = tuple(size), tuple(physical_layout)
    if len(order) != len(size):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the physical_layout; i.e. "
                           f"len(size) = {len(size)} is not equal to len(physical_layout) = {len(order)}")
    for i, d in enumerate(order):
        if not 0 <= d < len(size):
            raise RuntimeError(f"Dimension out of range (expected to be between 0 and {len(size) - 1}, but got {d} at "
                               f"index {i}).  NB: negative dims not currently supported; file an issue if you want it.")
    if len(set(order)) != len(order):
        raise RuntimeError("Duplicate dim not allowed")
    result = _filled(0, tuple(size[d] for d in order), dtype, requires_grad)
    result._data = result._data.transpose(np.argsort(order))
    return result


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False):
    """Uninitialised (zeros here), with the strides asked for (in elements), over the memory they reach."""
    dtypes.given(dtype, "empty_strided")
    devices.check(device)
    _check_layout(layout)
    return _strided(tuple(size), tuple(stride), dtype or dtypes.DEFAULT[0], requires_grad)


def _strided(size, stride, dtype, requires_grad):
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of strides "
                           f"({len(stride)})")
    _alloc(size)
    extent = 0 if 0 in size else 1 + sum((n - 1) * st for n, st in zip(size, stride))
    buffer = np.zeros(extent, dtype.np)
    data = np.lib.stride_tricks.as_strided(buffer, size, tuple(st * buffer.itemsize for st in stride))
    return _finish(data, dtype, requires_grad)


def _scalar_dtype(value):
    """The dtype torch.full and scalar_tensor give a Python number: bool, int64 or the default float."""
    if isinstance(value, Tensor):
        value = value.item()
    if isinstance(value, (bool, np.bool_)):
        return dtypes.bool
    if isinstance(value, (int, np.integer)):
        return dtypes.int64
    if isinstance(value, (complex, np.complexfloating)):
        return dtypes.default_complex()
    return dtypes.DEFAULT[0]


def _size_arg(name, size):
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    checked_sizes(name, (size,))
    return tuple(size)


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    if meta.is_meta(device):
        return meta.placed(full(size, fill_value, out=out, dtype=dtype, layout=layout, requires_grad=requires_grad))
    dtypes.given(dtype, "full")
    devices.check(device)
    _check_layout(layout)
    dtype = _out_dtype(dtype, out, None) or _scalar_dtype(fill_value)
    return _made("full", _filled(_number(fill_value), _size_arg("full", size), dtype, requires_grad), out)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, requires_grad=False):
    messages.check_signatures("scalar_tensor", (f"(Number s, *, {OPTIONS})",), (s,), {})
    dtypes.given(dtype, "scalar_tensor")
    devices.check(device)
    _check_layout(layout)
    return _filled(_number(s), (), dtype or dtypes.DEFAULT[0], requires_grad)


def _number(value):
    return value.item() if isinstance(value, (Tensor, np.generic)) else value


def _like(name, value, t, dtype, layout, device, requires_grad, memory_format):
    if meta.is_meta(device) or (device is None and t.is_meta):
        return meta.placed(_like(name, value, t, dtype, layout, "cpu", requires_grad, memory_format))
    dtypes.given(dtype, name)
    devices.check(device)
    _check_layout(layout)
    fmt = _check_format(memory_format, t.dim(), preserve=True)
    result = _filled(value, t.shape, dtype or t.dtype, requires_grad)
    if fmt is not None:
        result._data = memory.laid_out(result._data, fmt)
    elif memory.is_dense(t._data):  # preserved: a dense input's strides exactly (those of its size-1 dims too)
        if memory.strides(t._data) != memory.strides(result._data):
            result._data = memory.with_strides(result._data, memory.strides(t._data))
    else:  # the input's order of strides, made dense
        result._data = np.full_like(t._data, value, dtype=result._data.dtype)
    return result


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like("ones_like", 1, input, dtype, layout, device, requires_grad, memory_format)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like("zeros_like", 0, input, dtype, layout, device, requires_grad, memory_format)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    """Uninitialised in torch; zeros here."""
    return _like("empty_like", 0, input, dtype, layout, device, requires_grad, memory_format)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like("full_like", _number(fill_value), input, dtype, layout, device, requires_grad, memory_format)


def _is_float(v):
    if isinstance(v, Tensor):
        return v.dtype.is_floating_point
    return isinstance(v, (float, np.floating))


OPTIONS = ("torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False")
_ARANGE = (f"(Number end, *, Tensor out = None, {OPTIONS})", f"(Number start, Number end, *, {OPTIONS})",
           f"(Number start, Number end, Number step = 1, *, Tensor out = None, {OPTIONS})")
_EYE = (f"(int n, *, Tensor out = None, {OPTIONS})", f"(int n, int m, *, Tensor out = None, {OPTIONS})")
_STEP = object()


def arange(start=0, end=None, step=_STEP, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    given = (start,) if end is None else (start, end) if step is _STEP else (start, end, step)
    messages.check_signatures("arange", _ARANGE, given, {})
    step = 1 if step is _STEP else step
    if meta.is_meta(device):
        return meta.placed(arange(start, end, step, out=out, dtype=dtype, layout=layout, requires_grad=requires_grad))
    dtypes.given(dtype, "arange")
    devices.check(device)
    _check_layout(layout)
    if end is None:
        start, end = 0, start
    floating = any(_is_float(v) for v in (start, end, step))
    start, end, step = _number(start), _number(end), _number(step)
    dtype = _out_dtype(dtype, out, dtypes.DEFAULT[0] if floating else dtypes.int64)
    if dtype.is_complex:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{dtype.type_name}'")
    if dtype.is_floating_point or not all(math.isfinite(v) for v in (start, end, step)):
        first, last, by = float(start), float(end), float(step)
    else:
        first, last, by = (math.trunc(v) for v in (start, end, step))
    if float(step) == 0:
        raise RuntimeError("step must be nonzero")
    if by == 0:  # a fractional step of an integer arange
        raise ValueError("step must be nonzero")
    if not (math.isfinite(first) and math.isfinite(last)):
        raise RuntimeError(f"unsupported range: {first:g} -> {last:g}")
    if not ((by > 0 and last >= first) or (by < 0 and last <= first)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype.is_floating_point:
        n = kernels.ranges.arange_size(start, end, step)
        _alloc((n,))
        data = kernels.arange(start, end, step, dtype.np)
    else:
        sign = (by > 0) - (by < 0)
        n = builtins.max(0, (last - first + by - sign) // by)
        _alloc((n,))
        data = first + by * np.arange(n, dtype=np.int64)
    result = _finish(np.asarray(data, dtype=dtype.np), dtype, requires_grad)
    if out is None or out.numel() == n:
        return _made("arange", result, out)
    warnings.warn(f"The number of elements in the out tensor of shape {list(out.shape)} is {out.numel()} which does "
                  f"not match the computed number of elements {n}. Note that this may occur as a result of rounding "
                  f"error. The out tensor will be resized to a tensor of shape ({n},).", UserWarning, stacklevel=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # arange's own warning above replaces the resize warning of out=
        return _made("arange", result, out)


_RANGE_OVERLOADS = ("Tensor start, Tensor end", "Number start, Tensor end", "Tensor start, Number end",
                    "Number start, Number end")
_RANGE_KEYWORDS = ("*, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = "
                   "None, bool pin_memory = False, bool requires_grad = False")


def _range_args(name, start, end, steps, base=None):
    """linspace's and logspace's arguments checked as torch's parser and kernel check them."""
    if not isinstance(steps, (int, np.integer, Tensor)) or isinstance(steps, bool):
        got = ", ".join("Tensor" if isinstance(a, Tensor) else type(a).__name__
                        for a in (start, end, steps, *(() if base is None else (base,))))
        extra = "" if name == "linspace" else "float base = 10.0, "
        lines = "".join(f" * ({o}, int steps, {extra}{_RANGE_KEYWORDS})\n" for o in _RANGE_OVERLOADS)
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one "
                        f"of:\n{lines}")
    if isinstance(start, Tensor) and start.dim() or isinstance(end, Tensor) and end.dim():
        raise RuntimeError(f"{name} only supports 0-dimensional start and end tensors, but got start with "
                           f"{start.dim() if isinstance(start, Tensor) else 0} dimension(s) and end with "
                           f"{end.dim() if isinstance(end, Tensor) else 0} dimension(s).")
    return _steps(steps)


def _complex_ends(start, end):
    return any(isinstance(x, complex) or isinstance(x, Tensor) and x.dtype.is_complex for x in (start, end))


def _range_dtype(name, start, end, dtype, out):
    """linspace's and logspace's dtype: a complex start or end makes the default complex dtype, which a real dtype
    given cannot hold."""
    if _complex_ends(start, end):
        inferred = dtypes.default_complex()
        if dtype is not None and not dtype.is_complex:
            raise RuntimeError(f"torch.{name}(): inferred dtype {inferred.c_name} can't be safely cast to passed "
                               f"dtype {dtype.type_name}")
        return _out_dtype(dtype, out, inferred)
    return _out_dtype(dtype, out, dtypes.DEFAULT[0])


def _steps(steps):
    steps = _number(steps)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return int(steps)


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    dtypes.given(dtype, "linspace")
    devices.check(device)
    _check_layout(layout)
    dtype = _range_dtype("linspace", start, end, dtype, out)
    steps = _range_args("linspace", start, end, steps)
    _alloc((steps,))
    values = kernels.linspace(_number(start), _number(end), steps,
                              (dtype if _complex_ends(start, end) else dtypes.to_real(dtype)).np)
    result = _finish(np.asarray(values, dtype.np), dtype, requires_grad)
    return _made("linspace", result, out)


def logspace(start, end, steps, base=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    dtypes.given(dtype, "logspace")
    devices.check(device)
    _check_layout(layout)
    dtype = _range_dtype("logspace", start, end, dtype, out)
    steps = _range_args("logspace", start, end, steps, base)
    _alloc((steps,))
    data = kernels.logspace(_number(start), _number(end), steps, 10.0 if base is None else float(base), dtype.np)
    return _made("logspace", _finish(data, dtype, requires_grad), out)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    messages.check_signatures("eye", _EYE, (n,) if m is None else (n, m), {})
    n, m = operator.index(n), None if m is None else operator.index(m)
    dtypes.given(dtype, "eye")
    devices.check(device)
    _check_layout(layout)
    dtype = _out_dtype(dtype, out, dtypes.DEFAULT[0])
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    m = n if m is None else m
    _alloc((n, m))
    return _made("eye", _finish(np.eye(n, m, dtype=dtype.np), dtype, requires_grad), out)


# --- Tensor.new_*: a new tensor of self's dtype (and device), never a Parameter --------------------------------
def _new_sized(name, self, value, size, dtype, layout, device, requires_grad):
    dtypes.given(dtype, name)
    devices.check(device)
    _check_layout(layout)
    return _filled(value, size, dtype or self.dtype, requires_grad)


def new_zeros(self, *size, dtype=None, layout=None, device=None, requires_grad=False):
    return _new_sized("new_zeros", self, 0, size, dtype, layout, device, requires_grad)


def new_ones(self, *size, dtype=None, layout=None, device=None, requires_grad=False):
    return _new_sized("new_ones", self, 1, size, dtype, layout, device, requires_grad)


def new_empty(self, *size, dtype=None, layout=None, device=None, requires_grad=False):
    """Uninitialised in torch; zeros here."""
    return _new_sized("new_empty", self, 0, size, dtype, layout, device, requires_grad)


def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, requires_grad=False):
    """Uninitialised in torch; zeros here."""
    dtypes.given(dtype, "new_empty_strided")
    devices.check(device)
    _check_layout(layout)
    return _strided(tuple(size), tuple(stride), dtype or self.dtype, requires_grad)


def new_full(self, size, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False):
    return _new_sized("new_full", self, _number(fill_value), (_size_arg("new_full", size),), dtype, layout, device,
                      requires_grad)


def new_tensor(self, data, *, dtype=None, layout=None, device=None, requires_grad=False):
    dtypes.given(dtype, "new_tensor")
    devices.check(device)
    _check_layout(layout)
    dtype = dtype or self.dtype
    if isinstance(data, Tensor):
        warnings.warn(messages.NEW_TENSOR_FROM_TENSOR, UserWarning, stacklevel=2)
        return _finish(data._data.astype(dtype.np, copy=True), dtype, requires_grad)
    return tensor(data, dtype=dtype, requires_grad=requires_grad)


for _f in (new_zeros, new_ones, new_empty, new_empty_strided, new_full, new_tensor):
    _f.__qualname__ = f"Tensor.{_f.__name__}"
    setattr(Tensor, _f.__name__, _f)
