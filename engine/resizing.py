"""Tensor.resize_, resize_as_ and as_strided_: a tensor given new sizes (and strides) over its storage, in place.
The storage is the memory the tensor's array lies in, from its storage offset on; growing past it moves the tensor
to a new storage holding the old one's values first (the rest, uninitialized in torch, is zeros here). Tensors
that viewed the old storage keep viewing it (torch's would follow the storage to its new memory), and a view cannot
grow past its storage here."""
import numpy as np

from . import memory
from .ops import OPS
from .tensor import Size, Tensor

RESIZE_REQUIRES_GRAD = "cannot resize variables that require grad"


def _storage_from_start(t):
    """A flat view of the memory t's array lies in, from t's storage position 0 on (None if it is not one block)."""
    root = t._data
    while True:
        above = root.base
        if not isinstance(above, np.ndarray):  # numpy's as_strided keeps its array behind a holder of the interface
            above = getattr(above, "base", None)
        if not isinstance(above, np.ndarray):
            break
        root = above
    if not root.flags.c_contiguous:
        return None
    flat = root.reshape(-1)
    item = t._data.itemsize
    here = t._data.__array_interface__["data"][0] - t.storage_offset() * item
    start = (here - flat.__array_interface__["data"][0]) // item
    return flat[start:] if 0 <= start <= flat.size else None


def _sizes(args, name):
    sizes = tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list, Size)) else tuple(args)
    for s in sizes:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"{name}(): argument 'size' must be tuple of ints, but found element of type "
                            f"{type(s).__name__} at pos {sizes.index(s)}")
    if any(s < 0 for s in sizes):  # c10's numel, multiplying them as unsigned
        raise RuntimeError("numel: integer multiplication overflow")
    return tuple(int(s) for s in sizes)


def _geometry(t, sizes, strides, offset):
    """t's array set to (sizes, strides) from storage position `offset`, the storage grown where it must be."""
    need = offset + (1 + sum((n - 1) * s for n, s in zip(sizes, strides)) if 0 not in sizes else 0)
    flat = _storage_from_start(t)
    if flat is None or flat.size < need:
        if t._base is not None:
            raise NotImplementedError("resizing a view past its storage: the engine cannot move the storage its base "
                                      "shares")
        grown = np.zeros(need, dtype=t._data.dtype)
        if flat is not None:
            grown[:min(flat.size, need)] = flat[:need]
        flat = grown
    item = flat.itemsize
    t._data = np.lib.stride_tricks.as_strided(flat[offset:], sizes, tuple(s * item for s in strides))


def resize_(self, *size, memory_format=None):
    sizes = _sizes(size, "resize_")
    if self.requires_grad:
        raise RuntimeError(RESIZE_REQUIRES_GRAD)
    fmt = memory.format_for(memory_format, len(sizes), preserve=False)
    if sizes != tuple(self.shape) or fmt is not None:
        _geometry(self, sizes, memory.format_strides(sizes, fmt), self.storage_offset())
        self._bump()
    return self


def resize_as_(self, the_template, *, memory_format=None):
    return resize_(self, tuple(the_template.shape), memory_format=memory_format)


def as_strided_(self, size, stride, storage_offset=None):
    """self becomes a view of its storage with the geometry given (torch's self is a view afterwards too)."""
    sizes, strides = tuple(size), tuple(stride)
    if len(sizes) != len(strides):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in strides):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got strides: "
                           f"{list(strides)}")
    if self.requires_grad:
        raise NotImplementedError("as_strided_ of a tensor that requires grad: the engine records no node for it")
    offset = self.storage_offset() if storage_offset is None else storage_offset
    flat = _storage_from_start(self)
    need = 0 if 0 in sizes else offset + 1 + sum((n - 1) * s for n, s in zip(sizes, strides))
    if flat is None or need > flat.size:
        item = self._data.itemsize
        raise RuntimeError(f"setStorage: sizes {list(sizes)}, strides {list(strides)}, storage offset {offset}, and "
                           f"itemsize {item} requiring a storage size of {need * item} are out of bounds for storage "
                           f"of size {(0 if flat is None else flat.size) * item}")
    base = self._base
    if base is None:
        base = Tensor._make(flat, self.dtype)
        base._vbox = self._vbox
    attrs = {"size": sizes, "stride": strides, "storage_offset": offset, "start": 0,
             "into": ((flat.size,), (1,), 0), "storage": flat.size}
    _geometry(self, sizes, strides, offset)
    self._make_view_of(base, OPS["as_strided_view"], attrs)
    self._bump()
    return self


Tensor.resize_ = resize_
Tensor.resize_as_ = resize_as_
Tensor.as_strided_ = as_strided_
