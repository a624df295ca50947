"""torch.* functions that are not one op's spelling (those are derived from the op table: engine/methods.py)."""
import numpy as np

from . import dispatch, dtypes
from .ops.pointwise import bind_where
from .tensor import Tensor


def where(condition, input=None, other=None):  # noqa: A002 - PyTorch's argument names
    """torch.where(condition, x, y) picks from x where condition, else from y; torch.where(condition) is
    condition's nonzero indices, one tensor per dim."""
    if input is None and other is None:
        return tuple(Tensor._make(np.asarray(i, dtype=np.int64), dtypes.int64) for i in np.nonzero(condition._data))
    return dispatch.apply(*bind_where(condition, input, other))


def is_tensor(x):
    return isinstance(x, Tensor)


def is_floating_point(input):  # noqa: A002
    return input.is_floating_point()


def numel(x):
    return x.numel()


def detach(x):
    return x.detach()
