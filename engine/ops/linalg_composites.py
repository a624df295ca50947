"""The matrix functions torch builds from other ops: the *_ex forms, matrix_power, multi_dot, chain_matmul, vecdot,
matrix_norm, norm, cond, kron, tensordot, inner, vander, tensorinv, tensorsolve, matrix_rank, …; their nodes are
those of the ops they are made of, as in torch."""
import math

import numpy as np

from .. import dtypes, messages
from .decompositions import _LinAlgError, check_float, check_square, potf2
from .matrix_functions import _constant
from .pointwise import bind_where
from .reductions import INF
from .statistics import returned
from .table import OPS, Spelling, composite


# --- composites of torch.linalg ------------------------------------------------------------------------------------
def _info(A, batch):
    return type(A)._make(np.zeros(tuple(A.shape[:batch]), dtype=np.int32), dtypes.int32)


@composite(Spelling(linalg="inv_ex", out=False))
def inv_ex(A, *, check_errors=False):
    return returned("linalg_inv_ex", ("inverse", "info"))(A._apply(*OPS["linalg_inv"].bind(A)), _info(A, -2))


@composite(Spelling(linalg="solve_ex", out=False))
def solve_ex(A, B, *, left=True, check_errors=False):
    return returned("linalg_solve_ex", ("result", "info"))(A._apply(*_bind_solve_parts(A, B, left)), _info(A, -2))


def _bind_solve_parts(A, B, left):
    op_, inputs, attrs, dtype = OPS["linalg_solve"].bind(A, B, left=left)
    return op_, inputs, attrs, dtype


@composite(Spelling(linalg="cholesky_ex", out=False))
def cholesky_ex(A, *, upper=False, check_errors=False):
    """A matrix that is not positive-definite gives LAPACK's partial factor (without a node) and its info."""
    result = returned("linalg_cholesky_ex", ("L", "info"))
    check_square(A, "linalg.cholesky_ex")
    a = np.array(A._data, dtype=np.float64)
    flat = a.reshape((math.prod(a.shape[:-2]),) + a.shape[-2:])
    info = np.array([potf2(np.array(m)) for m in flat], dtype=np.int32)
    if info.any() and check_errors:
        i = int(np.flatnonzero(info)[0])
        prefix = f"(Batch element {i}): " if a.ndim > 2 else ""
        raise _LinAlgError(f"linalg.cholesky_ex: {prefix}The factorization could not be completed because the input "
                           f"is not positive-definite (the leading minor of order {info[i]} is not positive-definite).")
    if not info.any():
        return result(A._apply(*OPS["linalg_cholesky"].bind(A, upper=upper)), _info(A, -2))
    for m in flat:
        potf2(m)
    L = np.tril(a)
    return result(type(A)._make(np.swapaxes(L, -1, -2) if upper else L, A.dtype),
                  type(A)._make(info.reshape(a.shape[:-2]), dtypes.int32))


@composite(Spelling(linalg="svdvals"))
def svdvals(A, *, driver=None):
    return A._apply(*OPS["linalg_svd"].bind(A, False, driver=driver))[1]


@composite(Spelling(linalg="eigvalsh"))
def eigvalsh(A, UPLO="L"):  # noqa: N803 - torch's name
    return A._apply(*OPS["linalg_eigh"].bind(A, UPLO))[0]


@composite(Spelling(method="logdet", function="logdet"))
def logdet(input):  # noqa: A002
    """torch.logdet: slogdet's log|det|, nan where det < 0."""
    check_square(input, "logdet")
    sign, logabsdet = input._apply(*OPS["linalg_slogdet"].bind(input))
    return logabsdet._apply(*bind_where(sign == -1, float("nan"), logabsdet))


@composite(Spelling(method="matrix_power", function="matrix_power", linalg="matrix_power"))
def matrix_power(A, n):
    """ATen's linalg_matrix_power: by repeated squaring, A⁻¹'s for a negative n."""
    check_square(A, "linalg.matrix_power")
    if n == 0:  # a copy of A overwritten by the identity: CopyBackwards, no grad to A
        return A.clone().copy_(_constant(A, np.broadcast_to(np.eye(A.shape[-1]), tuple(A.shape))))
    if n == -1:
        return A.inverse()
    a = A.inverse() if n < 0 else A
    n = abs(n)
    if n == 1:
        return a.clone()
    if n == 2:
        return a.matmul(a)
    if n == 3:
        return a.matmul(a).matmul(a)
    z = result = None
    while n > 0:
        z = a if z is None else z.matmul(z)
        if n & 1:
            result = z if result is None else result.matmul(z)
        n >>= 1
    return result


def _amax(x, dim, keepdim=False):
    """amax where the engine has it (torch's node, AmaxBackward0), else the values of max along dim."""
    if hasattr(x, "amax"):
        return x.amax(dim, keepdim=keepdim)
    return x.max(dim, keepdim=keepdim)[0]


def _amin(x, dim, keepdim=False):
    if hasattr(x, "amin"):
        return x.amin(dim, keepdim=keepdim)
    return x.min(dim, keepdim=keepdim)[0]


@composite(Spelling(linalg="matrix_norm"))
def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002
    """ATen's linalg_matrix_norm: fro as vector_norm over the two dims; nuc, ±2 from the singular values; ±1, ±inf
    as the max (min) of the absolute column (row) sums."""
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    check_float(A, "linalg.matrix_norm")
    d0, d1 = (d % A.dim() for d in dim)
    if ord == "fro":
        return A._apply(*OPS["vector_norm"].bind(A, 2, (d0, d1), keepdim, dtype=dtype))
    if ord == "nuc" or ord in (2, -2):
        order = [d for d in range(A.dim()) if d not in (d0, d1)] + [d0, d1]
        s = svdvals(A.permute(*order))
        out = s.sum(-1) if ord == "nuc" else _amax(s, -1) if ord == 2 else _amin(s, -1)
        if keepdim:
            out = out.unsqueeze(-1).unsqueeze(-1).permute(*np.argsort(order).tolist())
        return out
    if ord not in (1, -1, INF, -INF):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if ord in (INF, -INF):
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:  # the sums' dim d0 is gone
        d1 -= 1
    sums = A._apply(*OPS["vector_norm"].bind(A, 1.0, (d0,), keepdim, dtype=dtype))
    return _amax(sums, d1, keepdim) if ord > 0 else _amin(sums, d1, keepdim)


@composite(Spelling(linalg="norm"))
def linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """ATen's linalg_norm: a matrix norm for a string ord or two dims (or a matrix and an ord), else a vector
    norm (over all elements when neither ord nor dim is given)."""
    if dim is not None and not isinstance(dim, int):
        dim = tuple(dim)
    if isinstance(ord, str) or (isinstance(dim, tuple) and len(dim) == 2) or (dim is None and ord is not None
                                                                              and A.dim() == 2):
        if dim is None and A.dim() != 2:
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                               f"{A.dim()}D.")
        return matrix_norm(A, "fro" if ord is None else ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    if dim is None and ord is not None and A.dim() != 1:
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                           f"{A.dim()}D.")
    return A._apply(*OPS["vector_norm"].bind(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype))


@composite(Spelling(method="norm", function="norm"))
def norm(input, p="fro", dim=None, keepdim=False, dtype=None):  # noqa: A002
    """torch.norm (torch/functional.py): 'fro' and numbers as linalg.vector_norm, 'nuc' as linalg.matrix_norm."""
    if isinstance(dim, int):
        dim = (dim,)
    if p == "nuc":
        return matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim, dtype=dtype)
    if p == "fro" and dim is not None and len(dim) > 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    return input._apply(*OPS["norm"].bind(input, p, dim, keepdim, dtype))


@composite(Spelling(linalg="cond"))
def cond(A, p=None):
    """ATen's linalg_cond for p = None, 2, −2: the ratio of the extreme singular values."""
    if p not in (None, 2, -2):
        return matrix_norm(A, p) * matrix_norm(A.inverse(), p)
    s = svdvals(A)
    n = s.shape[-1]
    first, last = s.narrow(-1, 0, 1), s.narrow(-1, n - 1, 1)
    return (last / first if p == -2 else first / last).squeeze(-1)


@composite(Spelling(linalg="vecdot"))
def vecdot(x, y, *, dim=-1):
    if x.dim() == 1 and y.dim() == 1 and dim in (0, -1):  # ATen: vdot for two vectors
        return x.vdot(y)
    return (x * y).sum(dim)


@composite(Spelling(linalg="diagonal", out=False))
def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return A.diagonal(offset, dim1, dim2)


@composite(Spelling(linalg="multi_dot"))
def multi_dot(tensors):
    """ATen's linalg_multi_dot: a 1-d first (last) tensor as a row (column), the chain multiplied in the order
    of fewest multiplications, the result viewed to drop those dims."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first_1d, last_1d = tensors[0].dim() == 1, tensors[-1].dim() == 1
    mats = ([tensors[0].unsqueeze(0)] if first_1d else [tensors[0]]) + tensors[1:-1] + (
        [tensors[-1].unsqueeze(-1)] if last_1d else [tensors[-1]])
    for i, t in enumerate(mats):
        if t.dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    out_shape = ([] if first_1d else [mats[0].shape[0]]) + ([] if last_1d else [mats[-1].shape[1]])
    if len(mats) == 2:
        result = mats[0].mm(mats[1])
    else:
        result = _chain(mats, _order(mats), 0, len(mats) - 1)
    return result.view(*out_shape) if out_shape else result.view(())


def _order(mats):
    """The matrix-chain dynamic programme: the split of every sub-chain that costs fewest multiplications."""
    p = [m.shape[0] for m in mats] + [mats[-1].shape[1]]
    n = len(mats)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(mats, split, i, j):
    if i == j:
        return mats[i]
    k = split[i][j]
    return _chain(mats, split, i, k).mm(_chain(mats, split, k + 1, j))


@composite(Spelling(function="chain_matmul"))
def chain_matmul(*matrices):
    messages.warn_once("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                       "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
                       "multiple parameters.", stacklevel=3)
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    if len(matrices) == 1:
        return matrices[0].clone()
    return multi_dot(matrices)


@composite(Spelling(function="tensordot"))
def tensordot(a, b, dims=2):
    """ATen's tensordot: a size-1 contracted dim summed away on the other side, a's contracted dims moved last,
    b's first, one mm, the result reshaped."""
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        dims_a, dims_b = list(range(a.dim() - dims, a.dim())), list(range(dims))
    else:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    given_a, given_b = list(dims_a), list(dims_b)
    dims_a = [d % a.dim() for d in dims_a]
    dims_b = [d % b.dim() for d in dims_b]
    size = 1
    for da, db in zip(dims_a, dims_b):
        sa, sb = a.shape[da], b.shape[db]
        if sb == 1:
            a = a.sum(da, keepdim=True)
        elif sa == 1:
            b = b.sum(db, keepdim=True)
        elif sa != sb:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {sa} in dim {da} and "
                               f"second has size {sb} in dim {db}")
        else:
            size *= sa
    free_a = [d for d in range(a.dim()) if d not in dims_a]
    free_b = [d for d in range(b.dim()) if d not in dims_b]
    left = a.permute(*free_a, *given_a).reshape(math.prod(a.shape[d] for d in free_a), size)
    right = b.permute(*given_b, *free_b).reshape(size, math.prod(b.shape[d] for d in free_b))
    return left.mm(right).reshape(tuple(a.shape[d] for d in free_a) + tuple(b.shape[d] for d in free_b))


@composite(Spelling(method="inner", function="inner"))
def inner(input, other):  # noqa: A002
    if input.dim() == 0 or other.dim() == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(input.shape)} and {list(other.shape)}")
    return tensordot(input, other, ([-1], [-1]))


@composite(Spelling(method="kron", function="kron"))
def kron(input, other):  # noqa: A002
    """ATen's kron: the inputs' dims interleaved, one broadcast product, an unsafe view to the result's shape."""
    nd = max(input.dim(), other.dim())
    a = input if input.dim() == nd else input.reshape(*([1] * (nd - input.dim())), *input.shape)
    b = other if other.dim() == nd else other.reshape(*([1] * (nd - other.dim())), *other.shape)
    a_shape, b_shape = [], []
    for i in range(nd):
        a_shape += [a.shape[i], 1]
        b_shape += [1, b.shape[i]]
    product = a._op("unsafe_view", shape=tuple(a_shape)) * b._op("unsafe_view", shape=tuple(b_shape))
    return product._op("unsafe_view", shape=tuple(a.shape[i] * b.shape[i] for i in range(nd)))


@composite(Spelling(linalg="vander"))
def vander(x, N=None):  # noqa: N803 - torch's name
    """ATen's linalg_vander: columns x⁰ … x^(N−1), as a cumulative product after a column of ones."""
    x = x.unsqueeze(-1) if x.dim() == 0 else x
    n = x.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = x.unsqueeze(-1).expand(*x.shape, n - 1).cumprod(-1)
    ones = _constant(powers, np.ones(tuple(x.shape) + (1,)))
    return ones._op("cat", powers, dim=x.dim())


@composite(Spelling(linalg="tensorinv"))
def tensorinv(A, ind=2):
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows, cols = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    return A.reshape(math.prod(rows), math.prod(cols)).inverse().reshape(*cols, *rows)


@composite(Spelling(linalg="tensorsolve"))
def tensorsolve(A, B, dims=None):
    if dims is not None:
        keep = [d for d in range(A.dim()) if d not in [x % A.dim() for x in dims]]
        A = A.permute(*keep, *[x % A.dim() for x in dims])
    rest = tuple(A.shape[B.dim():])
    square = A.reshape(B.numel(), math.prod(rest))
    return square._apply(*OPS["linalg_solve"].bind(square, B.reshape(B.numel()))).view(*rest)


@composite(Spelling(linalg="matrix_rank"))
def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None):
    """The number of singular values above max(atol, rtol · σ_max) (rtol: eps · max(m, n) unless atol > 0 is
    given): an int64 tensor, without grad."""
    a = A._data.astype(np.float64)
    s = np.abs(np.linalg.eigvalsh(a)) if hermitian else np.linalg.svd(a, compute_uv=False)
    if hermitian:
        s = -np.sort(-s, axis=-1)
    if tol is not None:
        atol, rtol = tol, 0.0
    atol_v = np.asarray(getattr(atol, "_data", 0.0 if atol is None else atol), dtype=np.float64)
    if rtol is None:
        rtol = np.finfo(A.dtype.np).eps * max(A.shape[-2:]) if atol is None or np.all(atol_v <= 0) else 0.0
    rtol_v = np.asarray(getattr(rtol, "_data", rtol), dtype=np.float64)
    smax = s[..., 0] if s.shape[-1] else np.zeros(s.shape[:-1])
    limit = np.maximum(atol_v, rtol_v * smax)
    return type(A)._make(np.sum(s > limit[..., None], axis=-1).astype(np.int64), dtypes.int64)
