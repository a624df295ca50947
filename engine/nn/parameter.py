from .. import factories, messages, observe
from ..printing import format_tensor
from ..tensor import Tensor


class Parameter(Tensor):
    """A leaf tensor that a Module registers as a learnable parameter."""

    __slots__ = ()

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
