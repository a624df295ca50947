"""torch.* functions that are not one op's spelling (those are derived from the op table: engine/methods.py)."""
import numpy as np

from . import dispatch, dtypes, methods
from .ops.pointwise import bind_where
from .tensor import Size, Tensor


def where(condition, input=None, other=None, *, out=None):  # noqa: A002 - PyTorch's argument names
    """torch.where(condition, x, y) picks from x where condition, else from y; torch.where(condition) is
    condition's nonzero indices, one tensor per dim."""
    if input is None and other is None:
        return tuple(Tensor._make(np.asarray(i, dtype=np.int64), dtypes.int64) for i in np.nonzero(condition._data))
    result = dispatch.apply(*bind_where(condition, input, other))
    if out is None:
        return result
    if isinstance(out, Tensor) and out.dtype is not result.dtype:
        raise RuntimeError(f"Expected out type to be {result.dtype.type_name} but got {out.dtype.type_name}")
    return methods._written_out("where", result, out)


def is_tensor(x):
    return isinstance(x, Tensor)


def is_floating_point(input):  # noqa: A002
    return input.is_floating_point()


def is_signed(input):  # noqa: A002
    return input.is_signed()


def is_complex(input):  # noqa: A002
    return input.is_complex()


def numel(x):
    return x.numel()


def detach(x):
    return x.detach()


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to, checked from the last dim as torch._refs._broadcast_shapes checks."""
    shapes = [(s,) if _is_int(s) else s for s in shapes if s is not None]
    for shape in shapes:
        if not isinstance(shape, (tuple, list)):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape}")
    common = [1] * max((len(shape) for shape in shapes), default=0)
    for i, shape in enumerate(shapes):
        for k in range(-1, -1 - len(shape), -1):
            if shape[k] == common[k]:
                continue
            if common[k] == 1:
                if shape[k] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[k] = shape[k]
            if shape[k] != 1 and common[k] != shape[k]:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[k]} at {k}! Mismatching "
                                   f"argument at index {i} had {shape}; but expected shape should be broadcastable "
                                   f"to {common}")
    return Size(common)


def _is_int(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, Tensor)


def _triangle_indices(name, lower):
    def indices(row, col, offset=0, *, dtype=None, device=None, layout=None, requires_grad=False):
        dtype = dtypes.int64 if dtype is None else dtype
        if dtype not in (dtypes.int64, dtypes.int32):
            raise NotImplementedError(f"\"{name}\" not implemented for '{dtype.type_name}'")
        r, c = np.indices((max(row, 0), max(col, 0)))
        keep = (c - r <= offset) if lower else (c - r >= offset)
        return Tensor._make(np.stack([r[keep], c[keep]]).astype(dtype.np).reshape(2, -1), dtype)

    indices.__name__ = name
    return indices


tril_indices = _triangle_indices("tril_indices", True)
triu_indices = _triangle_indices("triu_indices", False)


def is_nonzero(input):  # noqa: A002
    return input.is_nonzero()


def is_same_size(input, other):  # noqa: A002
    return input.is_same_size(other)


def is_conj(input):  # noqa: A002
    return input.is_conj()


def is_neg(input):  # noqa: A002
    return input.is_neg()


def is_inference(input):  # noqa: A002
    return input.is_inference()


def get_device(input):  # noqa: A002
    return input.get_device()


def detach_(input):  # noqa: A002
    return input.detach_()


def square_(input):  # noqa: A002
    return input.square_()


def _operand(x):
    """(dtype, weight) as dtypes.promote weighs it: a tensor with dims, a 0-dim one, a Python number."""
    if isinstance(x, Tensor):
        return x.dtype, 2 if x.dim() else 1
    if isinstance(x, bool):
        return dtypes.bool, 0
    if isinstance(x, int):
        return dtypes.int64, 0
    if isinstance(x, float):
        return dtypes.DEFAULT[0], 0
    raise TypeError(f"result_type() received an invalid combination of arguments - got ({type(x).__name__})")


def result_type(tensor, other):
    return dtypes.promote([_operand(tensor), _operand(other)])


def promote_types(type1, type2):
    return dtypes.promote([(type1, 2), (type2, 2)])


def can_cast(from_, to):
    """False where the cast loses a kind: float to integer or bool, integer to bool (torch's canCast)."""
    if from_.is_floating_point and not to.is_floating_point:
        return False
    return not (to is dtypes.bool and from_ is not dtypes.bool)
