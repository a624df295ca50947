from .. import dispatch, factories, messages, observe
from ..printing import format_tensor
from ..tensor import Tensor
from ..torch_names import TorchClass


class Parameter(Tensor):
    """A leaf tensor that a Module registers as a learnable parameter."""

    __slots__ = ()
    _torch_name = "torch.nn.parameter.Parameter"

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = factories.empty(0)
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError(messages.INT_REQUIRES_GRAD)
        p = cls._make(data._data, data.dtype, bool(requires_grad))
        p._vbox = data._vbox
        if observe._observers:
            observe.emit("on_tensor", p)
        return p

    def __init__(self, data=None, requires_grad=True):
        pass

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.data.clone(), self._requires_grad)
        return memo[id(self)]

    def __repr__(self):
        suffixes = ["requires_grad=True"] if self._requires_grad else []
        return "Parameter containing:\n" + format_tensor(self._data, self.dtype.name, suffixes)

    __str__ = __repr__


SHAPE_UNKNOWN = ("Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
                 "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call "
                 "`forward` to initialize the parameters before accessing their attributes.")
USED = ("Attempted to use an uninitialized parameter in {}. This error happens when you are using a `LazyModule` or "
        "explicitly manipulating `torch.nn.parameter.UninitializedParameter` objects. When using LazyModules Call "
        "`forward` with a dummy batch to initialize the parameters before calling torch functions")


def _refuse_uninitialized(op, inputs, attrs, dtype):
    """dispatch's hook from a program's first uninitialized tensor on: an op given one fails as torch's
    __torch_function__ of the mixin does, naming the Tensor method."""
    for x in inputs:
        if isinstance(x, UninitializedTensorMixin):
            spell = op.spelling
            name = spell.method[0] if spell is not None and spell.method else op.name
            raise ValueError(USED.format(f"<method '{name}' of 'torch._C.TensorBase' objects>"))
    return NotImplemented


def _refuse_uninitialized_inplace(op, t, others, attrs, result):
    return _refuse_uninitialized(op, (t, *others), attrs, None)


def _watch():
    if (_refuse_uninitialized, _refuse_uninitialized_inplace) not in dispatch.HOOKS:
        dispatch.HOOKS.insert(0, (_refuse_uninitialized, _refuse_uninitialized_inplace))


class UninitializedTensorMixin:
    """A lazy module's tensor before its first input, as torch's mixin of that name: no shape yet. `materialize`
    gives it one in place (an optimizer made before the first call holds this very object) and turns it into
    `cls_to_become`."""

    __slots__ = ()
    cls_to_become = None

    def __init__(self, *args, **kwargs):
        pass

    @property
    def shape(self):
        raise RuntimeError(SHAPE_UNKNOWN)

    def numel(self):
        raise ValueError(USED.format("<method 'numel' of 'torch._C.TensorBase' objects>"))

    def dim(self):
        raise ValueError(USED.format("<method 'dim' of 'torch._C.TensorBase' objects>"))

    def materialize(self, shape, device=None, dtype=None):
        self.data = factories.empty(*shape, dtype=dtype or self.dtype)
        self.__class__ = self.cls_to_become

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self._requires_grad, dtype=self.dtype)
        return memo[id(self)]

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __str__ = __repr__


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        _watch()
        return Parameter.__new__(cls, factories.empty(0, dtype=dtype), requires_grad)


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A lazy module's buffer (running statistics): never requires grad."""

    __slots__ = ()
    cls_to_become = Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        _watch()
        data = factories.empty(0, dtype=dtype)
        return cls._make(data._data, data.dtype, False)


class _BufferMeta(TorchClass):
    """isinstance(t, Buffer): a tensor that nn.Buffer marked (torch's Buffer is such a mark, not a class of
    tensors)."""

    def __instancecheck__(cls, instance):
        return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)


class Buffer(Tensor, metaclass=_BufferMeta):
    """nn.Buffer(data, persistent=True): data detached, which a Module registers as a buffer when assigned."""

    _torch_name = "torch.nn.parameter.Buffer"

    def __new__(cls, data=None, *, persistent=True):
        t = (factories.empty(0) if data is None else data).detach().requires_grad_(
            False if data is None else data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t
