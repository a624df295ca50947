"""What a program reads of a tensor's memory: x.data_ptr(), x.untyped_storage() (its data_ptr and nbytes), the
deprecated x.storage(), element_size/itemsize/nbytes, share_memory_/is_shared, pin_memory (refused without an
accelerator, as torch's CPU build refuses it), apply_/map_ (a Python callable per element) and x.new(…).

A tensor's storage is the numpy array that owns its memory: views of it (slices, transposes, detach) share it, and
their data_ptr is the storage's plus their offset in bytes, as in torch.
"""
import warnings
import weakref

import numpy as np

from . import devices, dtypes, factories, memory, messages
from .tensor import Size, Tensor

TYPED_STORAGE_DEPRECATED = (
    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage class. "
    "This should only matter to you if you are using storages directly.  To access UntypedStorage directly, use "
    "tensor.untyped_storage() instead of tensor.storage()")
NO_ACCELERATOR = "Cannot access accelerator device when none is available."
_SHARED = weakref.WeakValueDictionary()  # id -> the owning arrays of storages moved to shared memory


def _owner(array):
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def _address(array):
    return array.__array_interface__["data"][0] if array.size else 0


class UntypedStorage:
    """A tensor's bytes: x.untyped_storage().data_ptr(), .nbytes(), len(), .tolist() (the bytes), .is_shared()."""

    __slots__ = ("_array",)

    def __init__(self, array):
        self._array = array

    device = property(lambda self: devices.CPU)

    def data_ptr(self):
        return _address(self._array)

    def nbytes(self):
        return self._array.nbytes

    size = nbytes
    __len__ = nbytes

    def element_size(self):
        return 1

    def tolist(self):
        return list(np.ascontiguousarray(self._array).view(np.uint8).reshape(-1).tolist())

    def is_shared(self):
        return _SHARED.get(id(self._array)) is self._array

    def share_memory_(self):
        _SHARED[id(self._array)] = self._array
        return self


class TypedStorage(UntypedStorage):
    """x.storage() (deprecated in torch, with its warning): the storage counted in elements of x's dtype."""

    __slots__ = ("dtype",)

    def __init__(self, array, dtype):
        super().__init__(array)
        self.dtype = dtype

    def size(self):
        return self._array.nbytes // self.dtype.np.itemsize

    __len__ = size

    def element_size(self):
        return self.dtype.itemsize

    def tolist(self):
        return np.ascontiguousarray(self._array).reshape(-1).tolist()

    def untyped(self):
        return UntypedStorage(self._array)


def data_ptr(self):
    return _address(memory.place(self))


def is_set_to(self, tensor):
    """Whether tensor is self's very view: the same storage, offset, sizes and strides (torch's is_set_to)."""
    owner = _owner(memory.place(self))
    return (owner is _owner(memory.place(tensor)) and self.is_conj() == tensor.is_conj() and owner.nbytes > 0
            and data_ptr(self) == data_ptr(tensor)
            and self.shape == tensor.shape and self.stride() == tensor.stride())


def untyped_storage(self):
    return UntypedStorage(_owner(memory.place(self)))


def storage(self):
    if TYPED_STORAGE_DEPRECATED not in messages.WARNED_ONCE:  # once, set_warn_always or not (torch's own flag)
        messages.WARNED_ONCE[TYPED_STORAGE_DEPRECATED] = True
        warnings.warn(TYPED_STORAGE_DEPRECATED, UserWarning, stacklevel=2)
    return TypedStorage(_owner(memory.place(self)), self.dtype)


def element_size(self):
    return self.dtype.itemsize


def share_memory_(self):
    untyped_storage(self).share_memory_()
    return self


def is_shared(self):
    return untyped_storage(self).is_shared()


def pin_memory(self, device=None):
    raise RuntimeError(NO_ACCELERATOR)


def is_pinned(self, device=None):
    return False


def _writable(self, name):
    if self.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead.")


def apply_(self, callable):  # noqa: A002 - torch's argument name
    """Each element replaced by callable(element), in place (CPU only in torch; its version unchanged, as there)."""
    _writable(self, "apply_")
    for cell in np.nditer(self._data, op_flags=["readwrite"]):
        cell[...] = callable(cell.item())
    return self


def map_(self, tensor, callable):  # noqa: A002
    """Each element replaced by callable(element, tensor's element there), tensor broadcast to self's shape."""
    _writable(self, "map_")
    other = np.broadcast_to(tensor._data, self._data.shape)
    for cell, o in np.nditer([self._data, other], op_flags=[["readwrite"], ["readonly"]]):
        cell[...] = callable(cell.item(), o.item())
    return self


def new(self, *args, device=None):
    """x.new(…): the legacy constructor of x's dtype: new(sizes…), new(size), new(data), new(tensor) (an alias)."""
    if len(args) == 1 and isinstance(args[0], Tensor):
        return args[0].detach() if args[0].dtype is self.dtype else args[0].to(self.dtype)
    if not args or all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return factories.empty(*args, dtype=self.dtype) if args else factories.empty(0, dtype=self.dtype)
    if len(args) == 1 and isinstance(args[0], Size):
        return factories.empty(args[0], dtype=self.dtype)
    if len(args) == 1:
        return factories.tensor(args[0], dtype=self.dtype)
    raise TypeError("new() received an invalid combination of arguments")


for _fn in (data_ptr, is_set_to, untyped_storage, storage, element_size, share_memory_, is_shared, pin_memory,
            is_pinned, apply_, map_, new):
    setattr(Tensor, _fn.__name__, _fn)
Tensor.const_data_ptr = data_ptr
Tensor.itemsize = property(element_size)
Tensor.nbytes = property(lambda self: self._data.size * self.dtype.itemsize)


ASARRAY_REQUIRES_GRAD = ("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of False. "
                         "Pass requires_grad=False explicitly to get the old behavior and silence this warning.")
UNWRITABLE_BUFFER = (
    "The given buffer is not writable, and PyTorch does not support non-writable tensors. This means you can write "
    "to the underlying (supposedly non-writable) buffer using the tensor. You may want to copy the buffer to protect "
    "its data or make it writable before converting it to a tensor. This type of warning will be suppressed for the "
    "rest of this program.")


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None):
    """obj as a tensor, sharing its memory where it can: a tensor itself (or its copy: copy=True, or another dtype),
    a numpy array's memory; a sequence or number is always copied (copy=False refuses it)."""
    devices.check(device)
    if isinstance(obj, np.generic):  # a numpy scalar keeps its dtype, as an array of it would
        obj = np.asarray(obj)
    if isinstance(obj, Tensor):
        if requires_grad is None:
            if obj.requires_grad:
                messages.warn_once(ASARRAY_REQUIRES_GRAD)
            requires_grad = obj.requires_grad
        wrong_dtype = dtype is not None and dtype is not obj.dtype
        if copy or (copy is None and wrong_dtype):
            result = obj.to(dtype) if wrong_dtype else obj.clone()
        elif wrong_dtype:
            raise ValueError(f"can't alias tensor with dtype '{obj.dtype.type_name}' into dtype "
                             f"'{dtype.type_name}'.")
        else:
            result = obj
    elif isinstance(obj, np.ndarray):
        own = dtypes.from_numpy(obj.dtype)
        if copy is False and dtype is not None and dtype is not own:
            raise ValueError(f"can't alias tensor with dtype '{own.type_name}' into dtype '{dtype.type_name}'.")
        if copy or (dtype is not None and dtype is not own):
            result = factories.tensor(obj, dtype)
        else:
            result = factories.from_numpy(obj)
    else:
        if copy is False:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        result = factories.tensor(obj, dtype)
    if requires_grad:
        if not result.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        result.requires_grad_(True)
    elif result.requires_grad:  # requires_grad=False: cut from the graph, the aliased tensor too (as torch does)
        result.grad_fn = None
        result._requires_grad = False
    return result


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-d tensor over a Python buffer's memory (bytes, bytearray, array.array, memoryview): writes show through."""
    view = memoryview(buffer)
    length, size = view.nbytes, dtype.np.itemsize
    if length <= 0 and count == 0 or length == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if offset < 0 or offset >= length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
                         f"({length} bytes) minus 1")
    if count < 0:
        if (length - offset) % size:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a "
                             f"multiple of element size ({size})")
        count = (length - offset) // size
    elif offset + count * size > length:
        raise ValueError(f"requested buffer length ({count} * {size} bytes) after offset ({offset} bytes) must not "
                         f"be greater than actual buffer length ({length} bytes)")
    if view.readonly:
        messages.warn_once(UNWRITABLE_BUFFER)
    data = np.frombuffer(buffer, dtype=dtype.np, count=count, offset=offset)
    return Tensor._make(data, dtype, requires_grad)
