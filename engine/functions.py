"""torch.* functions that are not factories: pointwise, reductions, matmul, joins, where."""
import collections

import numpy as np

from . import dtypes
from ._tensor import _TYPE_NAMES, Tensor
from .dispatch import apply, result_dtype
from .ops import OPS

_return_types = {}


def _named(name):
    if name not in _return_types:
        cls = collections.namedtuple(name, ["values", "indices"])
        cls.__repr__ = lambda self: (
            f"torch.return_types.{name}(\nvalues={self.values!r},\nindices={self.indices!r})"
        )
        _return_types[name] = cls
    return _return_types[name]


def _as_tensor(x):
    from .factories import tensor

    return x if isinstance(x, Tensor) else tensor(x)


def exp(x):
    return x.exp()


def log(x):
    return x.log()


def sin(x):
    return x.sin()


def cos(x):
    return x.cos()


def tanh(x):
    return x.tanh()


def sigmoid(x):
    return x.sigmoid()


def relu(x):
    return x.relu()


def sqrt(x):
    return x.sqrt()


def abs(x):  # noqa: A001 - torch.abs
    return x.abs()


def neg(x):
    return -x


def pow(x, exponent):  # noqa: A001 - torch.pow
    if not isinstance(x, Tensor):
        return exponent.__rpow__(x)
    return x.pow(exponent)


def square(x):
    return x.pow(2)


def reciprocal(x):
    return x.reciprocal()


def add(x, other, alpha=1):
    return _as_tensor(x).add(other, alpha=alpha)


def sub(x, other, alpha=1):
    return _as_tensor(x).sub(other, alpha=alpha)


def mul(x, other):
    return _as_tensor(x) * other


def div(x, other):
    return _as_tensor(x) / other


def clamp(x, min=None, max=None):  # noqa: A002
    return x.clamp(min, max)


clip = clamp


def sum(x, dim=None, keepdim=False, dtype=None):  # noqa: A001 - torch.sum
    return x.sum(dim, keepdim, dtype=dtype)


def mean(x, dim=None, keepdim=False):
    return x.mean(dim, keepdim)


def maximum(x, other):
    return apply(OPS["maximum"], (x, other))


def minimum(x, other):
    return apply(OPS["minimum"], (x, other))


def max(x, dim=None, keepdim=False):  # noqa: A001 - torch.max
    if isinstance(dim, Tensor):
        return maximum(x, dim)
    return _minmax(x, dim, keepdim, "max")


def min(x, dim=None, keepdim=False):  # noqa: A001 - torch.min
    if isinstance(dim, Tensor):
        return minimum(x, dim)
    return _minmax(x, dim, keepdim, "min")


def argmax(x, dim=None, keepdim=False):
    return x.argmax(dim, keepdim)


def argmin(x, dim=None, keepdim=False):
    return x.argmin(dim, keepdim)


def _minmax(x, dim, keepdim, which):
    if dim is None:
        if x.numel() == 0:
            raise RuntimeError(
                f"{which}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        return apply(OPS[which], (x,), dtype=x.dtype)
    d = x._dim(dim)
    arg = np.argmax if which == "max" else np.argmin
    data = x._data if x._data.ndim else x._data.reshape(1)
    idx = arg(data, axis=d)
    if keepdim and x._data.ndim:
        idx = np.expand_dims(idx, d)
    idx = np.asarray(idx, dtype=np.int64)
    values = apply(OPS[which + "_dim"], (x,), {"dim": d, "keepdim": keepdim, "indices": idx}, dtype=x.dtype)
    return _named(which)(values, Tensor._make(idx, dtypes.int64))


def _scatter_dim(g, indices, dim, keepdim, shape):
    """The grad of a max/min along dim: g placed at the chosen index of each row, zeros elsewhere."""
    idx = indices if keepdim else np.expand_dims(indices, dim)
    grid = np.indices(idx.shape, sparse=True)
    key = tuple(idx if d == dim else grid[d] for d in range(len(shape)))
    if not keepdim:
        g = g.unsqueeze(dim)
    return apply(OPS["embed"], (g,), {"shape": shape, "key": key})


_C_TYPES = {"float32": "float", "float64": "double", "int64": "long int", "bool": "bool"}


def _same_dtype(a, b, style):
    if a.dtype is not b.dtype:
        if style == "mm":
            raise RuntimeError(
                f"expected m1 and m2 to have the same dtype, but got: {_C_TYPES[a.dtype.name]} != "
                f"{_C_TYPES[b.dtype.name]}"
            )
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {_TYPE_NAMES[a.dtype.name]} and "
            f"{_TYPE_NAMES[b.dtype.name]}"
        )


def _check_mm(a, b):
    if a.dim() != 2:
        raise RuntimeError("self must be a matrix")
    if b.dim() != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and {b.shape[0]}x{b.shape[1]})"
        )


def mm(a, b):
    _check_mm(a, b)
    _same_dtype(a, b, "mm")
    return apply(OPS["mm"], (a, b))


def addmm(bias, a, b):
    _check_mm(a, b)
    _same_dtype(a, b, "addmm")
    return apply(OPS["addmm"], (bias, a, b))


def bmm(a, b):
    if a.dim() != 3 or b.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if a.dim() != 3 else "batch2 must be a 3D tensor")
    if b.shape[0] != a.shape[0] or b.shape[1] != a.shape[2]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, {a.shape[2]}] "
            f"but got: [{b.shape[0]}, {b.shape[1]}]."
        )
    _same_dtype(a, b, "mm")
    return apply(OPS["bmm"], (a, b))


def mv(a, v):
    if a.shape[1] != v.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), vec ({v.shape[0]})"
        )
    _same_dtype(a, v, "mm")
    return apply(OPS["mv"], (a, v))


def matmul(a, b):
    a, b = _as_tensor(a), _as_tensor(b)
    da, db = a.dim(), b.dim()
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )
    if da == 1 and db == 1:
        if a.shape[0] != b.shape[0]:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to have the "
                f"same number of elements, but got {a.shape[0]} and {b.shape[0]} elements respectively"
            )
        return apply(OPS["dot"], (a, b))
    if da == 2 and db == 1:
        return mv(a, b)
    if da == 1 and db == 2:
        out = mm(a.unsqueeze(0), b)
        return apply(OPS["squeeze_"], (out,), {"dim": 0})
    if da == 2 and db == 2:
        return mm(a, b)
    if db <= 2:
        # (…, n, k) @ (k, m): fold the batch into rows, as PyTorch does
        k = a.shape[-1]
        folded = a.reshape(-1, k)
        out = mv(folded, b) if db == 1 else mm(folded, b)
        shape = a.shape[:-1] + ((b.shape[1],) if db == 2 else ())
        return apply(OPS["unsafe_view"], (out,), {"shape": shape})
    # batched @ batched: broadcast the batch dims, then bmm
    a2 = a.unsqueeze(0) if da == 1 else a
    b2 = b.unsqueeze(-1) if db == 1 else b
    batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    a3 = a2.expand(batch + a2.shape[-2:]).reshape(-1, *a2.shape[-2:])
    b3 = b2.expand(batch + b2.shape[-2:]).reshape(-1, *b2.shape[-2:])
    out = bmm(a3, b3)
    shape = batch + ((a2.shape[-2],) if da > 1 else ()) + ((b2.shape[-1],) if db > 1 else ())
    return apply(OPS["unsafe_view"], (out,), {"shape": shape})


def dot(a, b):
    return a.dot(b)


def _join_dtype(tensors):
    return result_dtype(tensors)


def stack(tensors, dim=0):
    tensors = [_as_tensor(t) for t in tensors]
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape = tensors[0].shape
    for i, t in enumerate(tensors):
        if t.shape != shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(shape)} at entry 0 and "
                f"{list(t.shape)} at entry {i}"
            )
    d = tensors[0]._dim(dim, tensors[0].dim() + 1)
    return apply(OPS["stack"], tuple(tensors), {"dim": d}, dtype=_join_dtype(tensors))


def cat(tensors, dim=0):
    tensors = [_as_tensor(t) for t in tensors]
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t.dim() == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    d = tensors[0]._dim(dim)
    ref = tensors[0].shape
    for i, t in enumerate(tensors):
        if t.dim() != len(ref):
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {len(ref)} and {t.dim()}"
            )
        for j in range(len(ref)):
            if j != d and t.shape[j] != ref[j]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {ref[j]} but got "
                    f"size {t.shape[j]} for tensor number {i} in the list."
                )
    return apply(OPS["cat"], tuple(tensors), {"dim": d}, dtype=_join_dtype(tensors))


concat = cat


def where(condition, x=None, y=None):
    if x is None and y is None:
        return tuple(Tensor._make(np.asarray(i, dtype=np.int64), dtypes.int64) for i in np.nonzero(condition._data))
    if condition.dtype is not dtypes.bool:
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            + condition._type_desc().split("Tensor")[0].split(".")[1]
        )
    cond = condition._data
    dtype = result_dtype((x, y))
    return apply(OPS["where"], (x, y), {"condition": cond, "condition_tensor": condition}, dtype=dtype)


def flatten(x, start_dim=0, end_dim=-1):
    return x.flatten(start_dim, end_dim)


def reshape(x, shape):
    return x.reshape(shape)


def transpose(x, dim0, dim1):
    return x.transpose(dim0, dim1)


def t(x):
    return x.t()


def permute(x, dims):
    return x.permute(dims)


def unsqueeze(x, dim):
    return x.unsqueeze(dim)


def squeeze(x, dim=None):
    return x.squeeze(dim)


def clone(x):
    return x.clone()


def detach(x):
    return x.detach()


def numel(x):
    return x.numel()


def is_tensor(x):
    return isinstance(x, Tensor)


def allclose(a, b, rtol=1e-05, atol=1e-08):
    return a.allclose(b, rtol, atol)


def equal(a, b):
    return a.equal(b)


def tan(x):
    return x.tan()


def rsqrt(x):
    return x.rsqrt()


def log1p(x):
    return x.log1p()


def expm1(x):
    return x.expm1()


def floor(x):
    return x.floor()


def ceil(x):
    return x.ceil()


def round(x):  # noqa: A001 - torch.round
    return x.round()


def isnan(x):
    return x.isnan()


def isinf(x):
    return x.isinf()


def outer(x, vec2):
    return x.outer(vec2)


def cumsum(x, dim):
    return x.cumsum(dim)


def logsumexp(x, dim, keepdim=False):
    return x.logsumexp(dim, keepdim)


def var(x, dim=None, unbiased=True, keepdim=False, correction=None):
    return x.var(dim, unbiased, keepdim, correction=correction)


def std(x, dim=None, unbiased=True, keepdim=False, correction=None):
    return x.std(dim, unbiased, keepdim, correction=correction)


def norm(x, p=2, dim=None, keepdim=False):
    return x.norm(p, dim, keepdim)


def masked_fill(x, mask, value):
    return x.masked_fill(mask, value)


def softmax(x, dim):
    return x.softmax(dim)


def log_softmax(x, dim):
    return x.log_softmax(dim)
