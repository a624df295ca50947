"""Copies and casts: clone, contiguous, to (dtype, device, memory format), the dtype methods (float, double, …),
type/type_as, cpu/cuda; each a new tensor, with the node PyTorch gives it."""


import numpy as np

from .. import devices, dtypes, memory, messages
from .table import OPS, Spelling, composite, is_tensor, method, op


# --- copies and casts ---------------------------------------------------------------------------------
def _check_rank(self, fmt):
    if fmt is memory.channels_last and self._data.ndim != 4:
        raise RuntimeError("required rank 4 tensor to use channels_last format")
    if fmt is memory.channels_last_3d and self._data.ndim != 5:
        raise RuntimeError("required rank 5 tensor to use channels_last_3d format")


def _bind_clone(self, *, memory_format=memory.preserve_format):
    memory.check_format(memory_format, "clone")
    _check_rank(self, memory_format)
    attrs = {} if memory_format is memory.preserve_format else {"memory_format": memory_format}
    return OPS["clone"], (self,), attrs, None


def _clone(a, memory_format=memory.preserve_format):
    return memory.in_format(a, memory_format)


op("clone", "CloneBackward0", ("self",), _clone, ("grad", lambda n, g: g), spell=method("clone", out=False),
   bind=_bind_clone)


@composite(Spelling(method="contiguous"))
def contiguous(self, memory_format=memory.contiguous_format):
    if memory_format is memory.contiguous_format:
        return self if self.is_contiguous() else self.clone(memory_format=memory_format)
    memory.check_format(memory_format, "contiguous")
    if self.is_contiguous(memory_format):
        return self
    if memory_format is memory.preserve_format:
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    return self.clone(memory_format=memory_format)


def _cast_to(a, dtype, src_dtype, memory_format=None):
    if isinstance(dtype, dtypes.dtype):  # the torch dtype (its array's numpy dtype: bfloat16's is float32)
        dtype = dtype.np
    if a.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        messages.warn_once(messages.COMPLEX_TO_REAL)
        a = a.real
    return memory.laid_out(a.astype(dtype), memory_format)


def _dtype_of(given):
    return given if isinstance(given, dtypes.dtype) else dtypes.from_numpy(given)


def _to_copy_grad(n, g):
    src = n.attrs["src_dtype"]
    return g.real.to(src) if g.dtype.is_complex and not src.is_complex else g.to(src)


op("to_copy", "ToCopyBackward0", ("self",), _cast_to,
   ("grad cast back", _to_copy_grad),
   spell=Spelling(method="to", name=lambda s, a: f"{s[0]}.to({_dtype_of(a['dtype'])!r})"), bind=False)


def _to_args(self, args, kwargs):
    """Tensor.to's three signatures: (device=None, dtype=None, non_blocking=False, copy=False), (dtype,
    non_blocking=False, copy=False), (other, non_blocking=False, copy=False); memory_format= keyword in all."""
    args = list(args)
    device = dtype = None
    if args and isinstance(args[0], dtypes.dtype):
        dtype = args.pop(0)
    elif args and is_tensor(args[0]):
        dtype = args.pop(0).dtype
    else:
        if args and (args[0] is None or devices.is_device(args[0])):
            device = args.pop(0)
        if args and (args[0] is None or isinstance(args[0], dtypes.dtype)):
            dtype = args.pop(0)
    flags = dict(zip(("non_blocking", "copy"), args))
    if len(args) > 2 or any(not isinstance(v, bool) for v in flags.values()):
        raise TypeError("to() received an invalid combination of arguments")
    for name in kwargs:
        if name not in ("device", "dtype", "non_blocking", "copy", "memory_format") or name in flags:
            raise TypeError(f"to() got an unexpected keyword argument '{name}'")
    device = kwargs.get("device", device)
    dtype = kwargs.get("dtype", dtype)
    flags.update({k: kwargs[k] for k in ("non_blocking", "copy") if k in kwargs})
    return device, dtype, flags.get("copy", False), kwargs.get("memory_format")


@composite(Spelling(method="to"))
def to(self, *args, **kwargs):
    """x.to(dtype), x.to(device), x.to(device, dtype), x.to(other), with copy= and memory_format=: a device other
    than the CPU fails as in torch's CPU build."""
    device, dtype, copy, memory_format = _to_args(self, args, kwargs)
    move = devices.MOVES.get(devices.device(device).type) if device is not None else None
    if move is not None:
        return move(self, dtype or self.dtype)
    devices.check(device)
    fmt = memory.format_for(memory_format, self._data.ndim, preserve=True)
    if dtype is None:
        dtype = self.dtype
    elif not isinstance(dtype, dtypes.dtype):  # an object posing as a dtype: refused before numpy reads it
        raise TypeError(f"argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
    if dtype is self.dtype and not copy and (fmt is None or memory.is_contiguous(self._data, fmt)):
        return self
    attrs = {"dtype": dtype, "src_dtype": self.dtype}
    if fmt is not None:
        attrs["memory_format"] = fmt
    return self._apply(OPS["to_copy"], (self,), attrs, dtype)


def _cast(name, dtype):
    def cast(self, *args, memory_format=None):
        if args:
            raise TypeError(f"{name}() takes 0 positional arguments but {len(args)} "
                            f"{'was' if len(args) == 1 else 'were'} given")
        return self.to(dtype, memory_format=memory_format)

    cast.__name__ = name
    composite(Spelling(method=name))(cast)


for _name, _dtype in (("float", dtypes.float32), ("double", dtypes.float64), ("half", dtypes.float16),
                      ("bfloat16", dtypes.bfloat16), ("chalf", dtypes.complex32),
                      ("long", dtypes.int64), ("int", dtypes.int32), ("short", dtypes.int16), ("char", dtypes.int8),
                      ("byte", dtypes.uint8), ("bool", dtypes.bool), ("cfloat", dtypes.complex64),
                      ("cdouble", dtypes.complex128)):
    _cast(_name, _dtype)


_TYPE_NAMES = {f"torch.{d.type_name}Tensor": d for d in dtypes._ALL.values()}


@composite(Spelling(method="type"))
def tensor_type(self, dtype=None, non_blocking=False, **kwargs):
    """x.type() names the tensor type ('torch.FloatTensor'); x.type(dtype or a type's name) casts."""
    if dtype is None:
        return f"torch.{self.dtype.type_name}Tensor"
    if isinstance(dtype, str):
        if dtype not in _TYPE_NAMES:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = _TYPE_NAMES[dtype]
    elif not isinstance(dtype, dtypes.dtype) and getattr(dtype, "__name__", "").endswith("Tensor"):
        dtype = _TYPE_NAMES[f"torch.{dtype.__name__}"]
    return self.to(dtype)


@composite(Spelling(method="type_as"))
def type_as(self, other):
    return self.type(other.type())


@composite(Spelling(method="cpu"))
def cpu(self):
    return self


@composite(Spelling(method="cuda"))
def cuda(self, device=None, non_blocking=False):
    return self.to(devices.device("cuda" if device is None else device))
