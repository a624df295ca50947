"""torch.autograd.Variable, the pre-0.4 wrapper: today `Variable(t, requires_grad=...)` makes a tensor sharing t's
data (as t.detach() does) and every tensor is a Variable."""
import warnings

import numpy as np

from .. import dtypes, messages
from ..tensor import Tensor


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                          UserWarning, stacklevel=2)
        if data is None:
            return Tensor._make(np.empty((0,), dtype=np.float32), dtypes.float32)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError(messages.INT_REQUIRES_GRAD)
        t = data.detach()
        if requires_grad:
            t.requires_grad = True
        return t
