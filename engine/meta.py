"""The 'meta' device: tensors with a shape and a dtype but no data, as torch has them (`torch.empty(3,
device='meta')`, `x.to('meta')`, `model.to('meta')`, the base model of torch.func's ensembling recipe).

A meta tensor holds a read-only array of zeros that takes no memory (one element, broadcast to its shape), so
ops run on it as on any tensor (their results' shapes, dtypes and graph are torch's) and their results are made
meta again. What would read its numbers (`.item()`, `.tolist()`, `.numpy()`, a copy to the CPU) fails with torch's
texts, and an op mixing it with a CPU tensor of one or more dims fails as torch's device check does.
"""
import numpy as np

from . import backward, devices, dispatch, dtypes
from .ops import OPS
from .tensor import Tensor

META = devices.device("meta")
NO_DATA = "Cannot copy out of meta tensor; no data!"
NO_ITEM = "Tensor.item() cannot be called on meta tensors"
_BUSY = [False]  # the hook is running the op itself


class MetaTensor(Tensor):
    __slots__ = ()

    @property
    def device(self):
        return META

    @property
    def is_meta(self):
        return True

    def item(self):
        raise RuntimeError(NO_ITEM)

    __bool__ = __index__ = item  # float() and int() warn as on the CPU first (Tensor._scalar), then call item

    def tolist(self):
        raise NotImplementedError(NO_DATA)

    def numpy(self, *, force=False):
        raise TypeError("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host "
                        "memory first.")

    def __array__(self, dtype=None, copy=None):
        return self.numpy()

    def cpu(self, memory_format=None):
        raise NotImplementedError(NO_DATA)

    def to(self, *args, **kwargs):
        for a in (*args, kwargs.get("device")):
            if devices.is_device(a) and devices.device(a).type != "meta":
                raise NotImplementedError(NO_DATA)
        return Tensor.to(self, *args, **kwargs)

    def __repr__(self, *, tensor_contents=None):
        parts = ["...", "device='meta'", f"size={tuple(self.shape)}"]
        if self.dtype is not dtypes.DEFAULT[0]:
            parts.append(f"dtype=torch.{self.dtype.name}")
        fn = self.grad_fn
        if fn is not None:
            parts.append(f"grad_fn=<{type(fn).__name__}>")
        elif self.requires_grad:
            parts.append("requires_grad=True")
        prefix = "Parameter containing:\n" if any(c.__name__ == "Parameter" for c in type(self).__mro__) else ""
        return prefix + f"tensor({', '.join(parts)})"

    __str__ = __repr__

    def __format__(self, spec):
        return format(str(self), spec)

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            new = Tensor._make(self._data, self.dtype, self._requires_grad)
            new.__class__ = type(self)
            memo[id(self)] = new
        return memo[id(self)]


_CLASSES = {Tensor: MetaTensor}


def _meta_class(cls):
    """A tensor class on the meta device: a Parameter stays a Parameter."""
    if issubclass(cls, MetaTensor):
        return cls
    if cls not in _CLASSES:
        _CLASSES[cls] = type(cls.__name__, (MetaTensor, cls), {"__slots__": ()})
    return _CLASSES[cls]


def off_meta_class(cls):
    """The class a meta tensor's class stands for on the CPU (MetaTensor: Tensor; a meta Parameter: Parameter)."""
    return next((plain for plain, on_meta in _CLASSES.items() if on_meta is cls), Tensor)


def stub(shape, dtype):
    return np.broadcast_to(np.zeros((), dtype=dtype.np), tuple(shape))


def placed(t):
    """t moved onto the meta device in place (its data dropped, its class a meta one), and returned."""
    if isinstance(t, (tuple, list)):
        return type(t)(placed(x) for x in t)
    if not isinstance(t, Tensor):
        return t
    t._data = stub(t._data.shape, t.dtype)
    t.__class__ = _meta_class(type(t))
    if (_hook, _inplace_hook) not in dispatch.HOOKS:  # from the first meta tensor on, ops check for them
        dispatch.HOOKS.insert(0, (_hook, _inplace_hook))
    return t


def _to_meta(t, dtype):
    """x.to('meta'): a copy on the meta device (ToCopyBackward0), or x itself when it is there with that dtype."""
    if isinstance(t, MetaTensor) and dtype is t.dtype:
        return t
    out = dispatch.apply(OPS["to_copy"], (t,), {"dtype": dtype.np, "src_dtype": t.dtype}, dtype)
    return out if isinstance(out, MetaTensor) else placed(out)


devices.MOVES["meta"] = _to_meta


def is_meta(where):
    return where is not None and devices.device(where).type == "meta"


def _tensors(inputs):
    """The tensors among inputs and the lists in them, each distinct list walked once (`[row] * 1000` holds one
    list, not a thousand), without recursion."""
    out, seen, todo = [], set(), [iter(inputs)]
    while todo:
        for x in todo[-1]:
            if isinstance(x, Tensor):
                out.append(x)
            elif isinstance(x, (list, tuple)) and id(x) not in seen:
                seen.add(id(x))
                todo.append(iter(x))
                break
        else:
            todo.pop()
    return out


_SELF_LAST = frozenset(("addmm", "addmv", "addbmm", "baddbmm", "addr"))  # torch checks the matrices first


def _check(tensors, op=None):
    first = tensors[1] if op is not None and op.name in _SELF_LAST and len(tensors) > 1 else tensors[0]
    expected = "meta" if isinstance(first, MetaTensor) else "cpu"
    for x in tensors:
        where = "meta" if isinstance(x, MetaTensor) else "cpu"
        if where != expected and x.dim():
            if backward._tasks:  # a meta grad reaching the CPU tensors it came from
                raise NotImplementedError(NO_DATA)
            raise RuntimeError(f"Tensor on device {where} is not on the expected device {expected}!")


def _hook(op, inputs, attrs, dtype):
    if _BUSY[0]:
        return NotImplemented
    tensors = _tensors(inputs)
    if not any(isinstance(x, MetaTensor) for x in tensors):
        return NotImplemented
    _check(tensors, op)
    _BUSY[0] = True
    try:
        return placed(dispatch.apply(op, inputs, attrs, dtype))
    finally:
        _BUSY[0] = False


def _inplace_hook(op, t, others, attrs, result):
    if _BUSY[0]:
        return NotImplemented
    tensors = [t, *_tensors(others)]
    if not any(isinstance(x, MetaTensor) for x in tensors):
        return NotImplemented
    _check(tensors)
    if not isinstance(t, MetaTensor):
        raise RuntimeError(f"Tensor on device meta is not on the expected device {t.device}!")
    t._data = np.zeros(t._data.shape, dtype=t._data.dtype)  # written, then dropped again
    _BUSY[0] = True
    try:
        dispatch.inplace(op, t, others, attrs, result)
    finally:
        _BUSY[0] = False
    t._data = stub(t._data.shape, t.dtype)
    return t
