"""The LU factorization: torch.linalg.lu_factor(_ex), lu, lu_solve, and torch.lu, lu_unpack, lu_solve, with ATen's
derivatives (FunctionsManual.cpp: linalg_lu_backward, lu_factor_ex_backward, lu_unpack_backward,
linalg_lu_solve_LU).

The factorization is LAPACK getrf's partial pivoting (the first row of largest |value| in each column becomes the
pivot), eliminated here in float64 and rounded once to the input's dtype, so it does not depend on the LAPACK
numpy links. The permutation, pivots and `info` are not differentiable; L and U share one node."""
import numpy as np

from .. import dtypes, memory, messages
from .decompositions import check_float
from .matrix_functions import _solve_triangular
from .statistics import returned
from .table import OPS, Spelling, composite, op, result_dtype

LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be removed in "
    "a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced with\nLU, pivots = "
    "torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, compute_pivots, "
    "get_infos=True)\nshould be replaced with\nLU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)")
LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future PyTorch "
    "release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\n"
    "should be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)")


# --- the factorization, in numpy ------------------------------------------------------------------------------------
def factor(a):
    """(LU in float64, pivots as 1-based int32, info as int32) of a batch of m×n matrices, as getrf gives them."""
    m, n = a.shape[-2:]
    batch = int(np.prod(a.shape[:-2], dtype=np.int64))
    lu = np.array(a, dtype=np.float64).reshape((batch, m, n))
    k = min(m, n)
    pivots = np.zeros((batch, k), dtype=np.int32)
    info = np.zeros(batch, dtype=np.int32)
    rows = np.arange(batch)
    for j in range(k):
        p = j + np.argmax(np.abs(lu[:, j:, j]), axis=1) if m else np.full(batch, j)
        pivots[:, j] = p + 1
        top = lu[rows, j].copy()
        lu[rows, j] = lu[rows, p]
        lu[rows, p] = top
        pivot = lu[:, j, j]
        zero = pivot == 0
        info = np.where((info == 0) & zero, j + 1, info).astype(np.int32)
        lu[:, j + 1:, j] /= np.where(zero, 1.0, pivot)[:, None]
        lu[:, j + 1:, j + 1:] -= lu[:, j + 1:, j:j + 1] * lu[:, j:j + 1, j + 1:]
    shape = a.shape[:-2]
    return lu.reshape(a.shape), pivots.reshape(shape + (k,)), info.reshape(shape)


def permutation(pivots, m, dtype):
    """P (m×m) with A = P L U, from LAPACK's row swaps (row i swapped with row pivots[i] − 1, in order)."""
    batch, k = int(np.prod(pivots.shape[:-1], dtype=np.int64)), pivots.shape[-1]
    piv = np.asarray(pivots).reshape((batch, k)).astype(np.int64) - 1
    perm = np.tile(np.arange(m), (batch, 1))
    rows = np.arange(batch)
    for i in range(k):
        target = piv[:, i]
        here = perm[:, i].copy()
        perm[:, i] = perm[rows, target]
        perm[rows, target] = here
    P = np.zeros((batch, m, m), dtype=dtype)
    P[rows[:, None], perm, np.arange(m)[None, :]] = 1
    return P.reshape(tuple(pivots.shape[:-1]) + (m, m))


def _unpacked(lu, dtype=None):
    """L (m×k, unit lower) and U (k×n, upper) of a packed LU, row-major as lu_unpack makes them."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    L = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
    U = np.triu(lu[..., :k, :])
    dtype = dtype or lu.dtype
    return np.ascontiguousarray(L, dtype=dtype), np.ascontiguousarray(U, dtype=dtype)


def _check_matrix(A, fname):
    if A.dim() < 2:
        raise RuntimeError(f"{fname}: Expected tensor with 2 or more dimensions. Got size: {list(A.shape)} instead")
    if not A.dtype.is_floating_point:
        raise NotImplementedError(f'"lu_cpu" not implemented for \'{A.dtype.type_name}\'')


def _check_pivot(pivot, fname):
    if not pivot:
        raise RuntimeError(f"{fname}: LU without pivoting is not implemented on the CPU")


def _constant(like, array, dtype):
    return type(like)._make(array, dtype)


# --- linalg_lu_backward --------------------------------------------------------------------------------------------
def _triangular(A, B, *, upper, left=True, unitriangular=False):
    return A._op("linalg_solve_triangular", B, upper=upper, left=left, unitriangular=unitriangular)


def _cat(a, b, dim):
    return a._op("cat", b, dim=dim)


def lu_backward(gL, gU, P, L, U):
    """ATen's linalg_lu_backward (pivot=True): gA = P L⁻ᴴ [(Lᴴ gL)∘1_L + (gU Uᴴ)∘1_U] U⁻ᴴ for a square A, with the
    extra columns (wide) or rows (tall) of L and U for a rectangular one."""
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        gA = L.mT.matmul(gL).tril(-1) if gL is not None else None
        if gU is not None:
            part = gU.matmul(U.mT).triu()
            gA = part if gA is None else gA + part
        gA = _triangular(U.mT, gA, upper=False, left=False)
        gA = _triangular(L.mT, gA, upper=True, unitriangular=True)
        return P.matmul(gA)
    if m < n:
        U1, U2 = U.narrow(-1, 0, k), U.narrow(-1, k, n - k)
        gA = L.mT.matmul(gL) if gL is not None else None
        if gU is not None:
            part = gU.triu().matmul(U.mT)
            gA = -part if gA is None else gA - part
        gA = _triangular(U1.mT, gA.tril(-1), upper=False, left=False)
        if gU is not None:
            gA = _cat(gA + gU.narrow(-1, 0, k).triu(), gU.narrow(-1, k, n - k), -1)
        gA = _triangular(L.mT, gA, upper=True, unitriangular=True)
        if gU is None:
            gA = _cat(gA, U2 * 0, -1)
        return P.matmul(gA)
    L1, L2 = L.narrow(-2, 0, k), L.narrow(-2, k, m - k)
    gA = gU.matmul(U.mT) if gU is not None else None
    if gL is not None:
        gL = gL.tril(-1)
        part = L.mT.matmul(gL)
        gA = -part if gA is None else gA - part
    gA = _triangular(L1.mT, gA.triu(), upper=True, unitriangular=True)
    if gL is not None:
        gA = _cat(gA + gL.narrow(-2, 0, k).tril(-1), gL.narrow(-2, k, m - k), -2)
    gA = _triangular(U.mT, gA, upper=False, left=False)
    if gL is None:
        gA = _cat(gA, L2 * 0, -2)
    return P.matmul(gA)


# --- linalg.lu_factor, lu_factor_ex, torch.lu -----------------------------------------------------------------------
def _lu_factor_forward(a, pivots=None, pivot=True):
    return memory.column_major(factor(a)[0], a.dtype)


def _lu_factor_grad(n, g):
    """ATen's lu_factor_ex_backward: L's and U's grads are the grad's lower and upper parts."""
    LU, pivots = n["result"], n.attrs["pivots"]
    k = min(LU.shape[-2:])
    P, L, U = lu_unpack(LU, pivots)
    return lu_backward(g.narrow(-1, 0, k), g.narrow(-2, 0, k), P, L, U)


op("linalg_lu_factor_ex", "LinalgLuFactorExBackward0", ("A",), _lu_factor_forward,
   ("P L⁻ᵀ [(Lᵀ gL)∘1_L + (gU Uᵀ)∘1_U] U⁻ᵀ", _lu_factor_grad), saves={0: ("pivot", "result", "pivots")},
   bind=False, spell=Spelling(name=lambda s, a: f"torch.linalg.lu_factor_ex({s[0]}).LU"))


def _factored(A, fname):
    _check_matrix(A, fname)
    lu, pivots, info = factor(A._data)
    pivots_t = _constant(A, pivots, dtypes.int32)
    LU = A._apply(OPS["linalg_lu_factor_ex"], (A,), {"pivot": True, "pivots": pivots_t}, None)
    return LU, pivots_t, _constant(A, info, dtypes.int32)


@composite(Spelling(linalg="lu_factor_ex"))
def lu_factor_ex(A, *, pivot=True, check_errors=False):
    _check_pivot(pivot, "linalg.lu_factor_ex")
    return returned("linalg_lu_factor_ex", ["LU", "pivots", "info"])(*_factored(A, "torch.lu_factor_ex"))


def _raise_singular(info, fname):
    flat = info._data.reshape(-1)
    for i, v in enumerate(flat):
        if v > 0:
            prefix = f"(Batch element {i}): " if info.dim() else ""
            raise RuntimeError(f"{fname}: {prefix}U[{v},{v}] is zero and using it on lu_solve would result in a "
                               "division by zero. If you still want to perform the factorization, consider calling "
                               "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


@composite(Spelling(linalg="lu_factor"))
def lu_factor(A, *, pivot=True):
    _check_pivot(pivot, "linalg.lu_factor")
    LU, pivots, info = _factored(A, "torch.lu_factor")
    _raise_singular(info, "torch.linalg.lu_factor")
    return returned("linalg_lu_factor", ["LU", "pivots"])(LU, pivots)


@composite(Spelling(method="lu", function="lu"))
def lu(A, pivot=True, get_infos=False):
    """torch.lu (torch/functional.py): torch._lu_with_info, which is linalg.lu_factor_ex."""
    messages.warn_once(LU_DEPRECATED, stacklevel=4)
    _check_pivot(pivot, "linalg.lu_factor_ex")
    LU, pivots, info = _factored(A, "torch.lu_factor")
    if get_infos:
        return returned("_lu_with_info", ["LU", "pivots", "info"])(LU, pivots, info)
    _raise_singular(info, "torch.linalg.lu_factor_ex")
    return LU, pivots


# --- torch.lu_unpack ------------------------------------------------------------------------------------------------
def _lu_unpack_forward(lu, pivots=None, unpack_data=True):
    if not unpack_data:
        return np.zeros((0,), lu.dtype), np.zeros((0,), lu.dtype)
    return _unpacked(lu)


def _zeros(like, shape):
    return type(like)._make(np.zeros(tuple(shape), like.dtype.np), like.dtype)


def _lu_unpack_grad(n, grads):
    """ATen's lu_unpack_backward: L's strictly lower part and U's upper part, placed in the packed matrix."""
    gL, gU = grads
    m, n_ = n._shapes[0][-2:]
    k = min(m, n_)
    total = None
    if gL is not None:
        total = gL.tril(-1)
        if n_ > k:
            total = _cat(total, _zeros(total, tuple(total.shape[:-1]) + (n_ - k,)), -1)
    if gU is not None:
        up = gU.triu()
        if m > k:
            up = _cat(up, _zeros(up, tuple(up.shape[:-2]) + (m - k, n_)), -2)
        total = up if total is None else total + up
    return total


op("lu_unpack", "LuUnpackBackward0", ("LU_data",), _lu_unpack_forward,
   ("grad_L's strict lower part + grad_U's upper part", _lu_unpack_grad), several=True,
   bind=False,
   spell=Spelling(name=lambda s, a: f"torch.lu_unpack({s[0]}, …)[{1 + a.get('output', 0)}]"))


@composite(Spelling(function="lu_unpack"))
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):  # noqa: N803 - torch's names
    if LU_pivots.dtype is not dtypes.int32 or not LU_pivots.is_contiguous():
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
                           "Note: this function is intended to be used with the output produced by "
                           "torch.linalg.lu_factor")
    if LU_data.dim() < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(LU_data.shape)} instead")
    m = LU_data.shape[-2]
    L, U = LU_data._apply(OPS["lu_unpack"], (LU_data,), {"pivots": LU_pivots, "unpack_data": bool(unpack_data)},
                          None)
    if unpack_pivots:
        P = _constant(LU_data, permutation(LU_pivots._data, m, LU_data.dtype.np), LU_data.dtype)
    else:
        P = _constant(LU_data, np.zeros((0,), LU_data.dtype.np), LU_data.dtype)
    return returned("lu_unpack", ["P", "L", "U"])(P, L, U)


# --- torch.linalg.lu ------------------------------------------------------------------------------------------------
def _lu_forward(a, pivot=True):
    lu = factor(a)[0]
    return _unpacked(lu, a.dtype)


def _lu_grad(n, grads):
    A = n["A"]
    L, U = A._op("linalg_lu", pivot=True)
    _, pivots, _ = factor(A._data)
    P = _constant(A, permutation(pivots, A.shape[-2], A.dtype.np), A.dtype)
    return lu_backward(grads[0], grads[1], P, L, U)


op("linalg_lu", "LinalgLuBackward0", ("A",), _lu_forward, ("P L⁻ᵀ [(Lᵀ gL)∘1_L + (gU Uᵀ)∘1_U] U⁻ᵀ", _lu_grad),
   several=True, saves={0: ("A", "pivot")}, bind=False,
   spell=Spelling(name=lambda s, a: f"torch.linalg.lu({s[0]})[{1 + a.get('output', 0)}]"))


@composite(Spelling(linalg="lu"))
def linalg_lu(A, *, pivot=True):
    _check_matrix(A, "linalg.lu")
    _check_pivot(pivot, "linalg.lu")
    _, pivots, _ = factor(A._data)
    P = _constant(A, permutation(pivots, A.shape[-2], A.dtype.np), A.dtype)
    L, U = A._apply(OPS["linalg_lu"], (A,), {"pivot": True}, None)
    return returned("linalg_lu", ["P", "L", "U"])(P, L, U)


# --- linalg.lu_solve, torch.lu_solve --------------------------------------------------------------------------------
def _lu_solve_forward(lu, b, pivots=None, left=True, adjoint=False):
    """X with op(A) X = B (left) or X op(A) = B, A = P L U, op(A) = Aᴴ for adjoint."""
    dtype = np.result_type(lu.dtype, b.dtype)
    m = lu.shape[-1]
    L, U = _unpacked(np.asarray(lu, np.float64))
    P = permutation(pivots._data, m, np.float64)
    B = np.asarray(b, np.float64)
    if not left:  # X A = B  ⇔  Aᴴ Xᴴ = Bᴴ
        B = np.swapaxes(B, -1, -2)
        adjoint = not adjoint
    if not adjoint:  # A X = B: X = U⁻¹ L⁻¹ Pᵀ B
        Y = _solve_triangular(L, np.swapaxes(P, -1, -2) @ B, upper=False, unitriangular=True)
        X = _solve_triangular(U, np.asarray(Y, np.float64), upper=True)
    else:  # Aᴴ X = B: X = P L⁻ᴴ U⁻ᴴ B
        Y = _solve_triangular(np.swapaxes(U, -1, -2), B, upper=False)
        X = P @ np.asarray(_solve_triangular(np.swapaxes(L, -1, -2), np.asarray(Y, np.float64), upper=True,
                                             unitriangular=True), np.float64)
    X = np.asarray(X, np.float64)
    if not left:
        X = np.swapaxes(X, -1, -2)
        return memory.with_strides(X.astype(dtype), memory.contiguous_strides(X.shape))
    return memory.column_major(X, dtype)


def _lu_solve_LU_grad(n, g):  # noqa: N802
    """ATen's linalg_lu_solve_LU."""
    LU, X, pivots = n["LU"], n["result"], n.attrs["pivots"]
    left, adjoint = n.attrs.get("left", True), n.attrs.get("adjoint", False)
    P, L, U = lu_unpack(LU, pivots)
    if left != adjoint:
        gR = _triangular(U.mT, -((g if left else g.mT).matmul(X.mT if left else X)), upper=False)
        gL = _triangular(L.mT, gR.matmul(U.mT), upper=True, unitriangular=True).tril(-1)
        gLU = gL + gR.triu()
    else:
        gR = -(P.mT.matmul(X if left else X.mT).matmul(g.mT if left else g).matmul(P))
        gR = _triangular(L.mT, gR, upper=True, left=False, unitriangular=True)
        gU = _triangular(U.mT, L.mT.matmul(gR), upper=False, left=False).triu()
        gLU = gR.tril(-1) + gU
    return _sum_to(gLU, n._shapes[0])


def _lu_solve_B_grad(n, g):  # noqa: N802
    attrs = n.attrs
    gB = n["LU"]._op("linalg_lu_solve", g, pivots=attrs["pivots"], left=attrs.get("left", True),
                     adjoint=not attrs.get("adjoint", False))
    return _sum_to(gB, n._shapes[1])


def _sum_to(t, shape):
    return t if tuple(t.shape) == tuple(shape) else t.sum_to_size(shape)


op("linalg_lu_solve", "LinalgLuSolveBackward0", ("LU", "B"), _lu_solve_forward,
   ("ATen's linalg_lu_solve_LU", _lu_solve_LU_grad), ("lu_solve(LU, pivots, grad, adjoint=not adjoint)",
                                                       _lu_solve_B_grad),
   saves={0: ("LU", "pivots", "result", "left", "adjoint"), 1: ("LU", "pivots", "left", "adjoint")}, bind=False,
   spell=Spelling(name=lambda s, a: f"torch.linalg.lu_solve({s[0]}, …, {s[1]}, left={a.get('left', True)}, "
                                    f"adjoint={a.get('adjoint', False)})"))


def _bind_lu_solve(LU, pivots, B, left, adjoint):  # noqa: N803
    check_float(LU, "linalg.lu_solve")
    if B.dim() < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    if LU.dim() < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor LU must have at least 2 dimensions.")
    n = LU.shape[-1]
    if LU.shape[-2] != n:
        raise RuntimeError(f"linalg.lu_solve: A must be batches of square matrices, but they are {LU.shape[-2]} by "
                           f"{n} matrices")
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    if LU.dtype is not B.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
                           f"{LU.dtype.type_name} and B of type {B.dtype.type_name} instead")
    if pivots.dtype is not dtypes.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    batch = tuple(np.broadcast_shapes(tuple(LU.shape[:-2]), tuple(B.shape[:-2])))
    if tuple(pivots.shape[:-1]) != tuple(LU.shape[:-2]):
        pivots = pivots.expand(*batch, pivots.shape[-1])
    attrs = {"pivots": pivots, "left": bool(left), "adjoint": bool(adjoint)}
    return OPS["linalg_lu_solve"], (LU, B), attrs, result_dtype((LU, B))


@composite(Spelling(linalg="lu_solve"))
def linalg_lu_solve(LU, pivots, B, *, left=True, adjoint=False):  # noqa: N803
    return LU._apply(*_bind_lu_solve(LU, pivots, B, left, adjoint))


@composite(Spelling(method="lu_solve", function="lu_solve"))
def lu_solve(input, LU_data, LU_pivots):  # noqa: A002, N803
    messages.warn_once(LU_SOLVE_DEPRECATED, stacklevel=4)
    return LU_data._apply(*_bind_lu_solve(LU_data, LU_pivots, input, True, False))
