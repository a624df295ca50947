"""torch.linalg's factorizations and what is built on them: det, slogdet, inv, solve, cholesky, qr, svd, eigh,
with ATen's derivatives (FunctionsManual.cpp: linalg_det_backward, svd_backward, eigh's linalg_eig_backward,
linalg_qr_backward, cholesky_backward, …), written with Tensor methods so that create_graph differentiates them
again.

The forwards run in float64 (numpy.linalg) and round once to the input's dtype, so a result does not depend on the
LAPACK numpy links. The signs of eigenvectors and singular vectors are LAPACK's convention (numpy's and torch's
agree for the factorizations here), and are only defined up to sign in any case: compare what does not depend on
them. Ops with several outputs (slogdet, qr, svd, eigh) recompute the factorization in their derivative."""
import numpy as np

from .. import dtypes, grad_mode, memory
from .products import _exclusive_products
from .table import OPS, Spelling, op, result_dtype


# --- checks, with torch's messages ----------------------------------------------------------------------------
def check_float(A, fname):
    if not A.dtype.is_floating_point:
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. Got {A.dtype.type_name}")


def check_square(A, fname, what="A", dtype=True):
    if A.dim() < 2:
        raise RuntimeError(f"{fname}: The input tensor {what} must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{fname}: {what} must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")
    if dtype:
        check_float(A, fname)


def _f64(a):
    return np.asarray(a, dtype=np.float64)


def _batches(a):
    """The matrices of a batch, in order (torch names an element of a batch by its number in its errors)."""
    return list(a.reshape((-1,) + a.shape[-2:]))


def _zero_pivot(m):
    """LAPACK getrf's partial-pivoting LU: the 1-based index of the first exactly zero pivot, or 0."""
    u = m.copy()
    n = u.shape[0]
    for k in range(n):
        p = k + int(np.argmax(np.abs(u[k:, k])))
        if u[p, k] == 0:
            return k + 1
        u[[k, p]] = u[[p, k]]
        u[k + 1:, k:] -= np.outer(u[k + 1:, k] / u[k, k], u[k, k:])
    return 0


class _LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError (torch._C._LinAlgError): what a factorization or solve that fails raises."""


def _singular_error(a, fname, text):
    for i, m in enumerate(_batches(a)):
        k = _zero_pivot(m)
        if k:
            prefix = f"({'Batch element ' + str(i)}): " if a.ndim > 2 else ""
            return _LinAlgError(f"{fname}: {prefix}{text(k)}")
    return None


def _labelled(fn, *keys):
    """The label of an output of torch.linalg.<fn>, which returns several: the call, indexed by the output."""
    def label(slots, attrs):
        args = ", ".join([slots[0]] + [f"{k}={attrs[k]!r}" for k in keys if k in attrs])
        return f"torch.linalg.{fn}({args})" + (f"[{attrs['output']}]" if "output" in attrs else "")

    return label


# --- det, slogdet ----------------------------------------------------------------------------------------------
def _bind_det(A):
    check_square(A, "linalg.det")
    return OPS["linalg_det"], (A,), None, None


def _det_grad(n, g):
    """ATen's linalg_det_backward: gA = det · grad · A⁻ᵀ solved from Aᵀ X = diag; under create_graph, where
    |det| < 100 eps, the singular formula U diag(∂ prod(S)) Vh (times det U det Vh), which needs no
    inverse; a batch mixing both is assembled with index_put. A 1×1 matrix's grad is grad, an empty one's zeros."""
    A = n["A"]
    if A.numel() == 0:
        return type(A)._make(np.zeros(A.shape, A.dtype.np), A.dtype)
    size = A.shape[-1]
    if size == 1:
        return g.unsqueeze(-1).unsqueeze(-1).expand(*A.shape)
    det = n["result"]
    d = _diagonal_matrix((g * det).unsqueeze(-1).expand(*det.shape, size))
    if not grad_mode.is_grad_enabled():
        # ATen's first-order path: a solve with the LU, its zero pivots nudged to eps; where det is 0 that solves
        # for a zero right-hand side, so the grad is 0 (the singular formula is for create_graph only)
        mask = det._data != 0
        ret = type(A)._make(np.zeros(A.shape, A.dtype.np), A.dtype)
        if mask.all():
            return A.mT._op("linalg_solve", d)
        if not mask.any():
            return ret
        keep = type(A)._make(mask, dtypes.bool)
        return ret.index_put((keep,), A[keep].mT._op("linalg_solve", d[keep]))
    mask = np.abs(det._data) < 100 * np.finfo(A.dtype.np).eps
    if mask.all():
        return _det_singular(A, g)
    if not mask.any():
        return A.mT._op("linalg_solve", d)
    keep = type(A)._make(mask, dtypes.bool)
    other = type(A)._make(~mask, dtypes.bool)
    ret = type(A)._make(np.zeros(A.shape, A.dtype.np), A.dtype)
    ret = ret.index_put((keep,), _det_singular(A[keep], g[keep]))
    return ret.index_put((other,), A[other].mT._op("linalg_solve", d[other]))


def _det_singular(A, g):
    U, S, Vh = A._op("linalg_svd", full_matrices=True)
    alpha = U.det() * Vh.det() * g
    D = _exclusive_products(alpha.unsqueeze(-1), S, S.dim() - 1)
    return (U * D.unsqueeze(-2)).matmul(Vh)


op("linalg_det", "LinalgDetBackward0", ("A",), lambda a: np.linalg.det(_f64(a)).astype(a.dtype),
   ("grad · det(A) · A⁻ᵀ", _det_grad), saves={0: ("A", "result")},
   spell=Spelling(method="det", function="det", linalg="det"), bind=_bind_det)


def _bind_slogdet(A):
    check_square(A, "linalg.slogdet")
    return OPS["linalg_slogdet"], (A,), None, None


def _slogdet(a):
    sign, logabs = np.linalg.slogdet(_f64(a))
    return sign.astype(a.dtype), logabs.astype(a.dtype)


def _slogdet_grad(n, grads):
    g = grads[1]
    if g is None:
        return n["A"] * 0
    return n["A"].mT._op("linalg_solve", _diagonal_matrix(g.unsqueeze(-1).expand(*g.shape, n._shapes[0][-1])))


op("linalg_slogdet", "LinalgSlogdetBackward0", ("A",), _slogdet, ("grad_logabsdet · A⁻ᵀ", _slogdet_grad),
   saves={0: ("A",)}, several=True,
   spell=Spelling(method="slogdet", function="slogdet", linalg="slogdet", name=_labelled("slogdet"),
                  returns=("sign", "logabsdet")),
   bind=_bind_slogdet)


# --- inv, solve ----------------------------------------------------------------------------------------------
def _inv(a, fname="linalg.inv"):
    try:
        return memory.column_major(np.linalg.inv(_f64(a)), a.dtype)
    except np.linalg.LinAlgError:
        raise _singular_error(_f64(a), fname, lambda k: f"The diagonal element {k} is zero, the inversion could "
                              "not be completed because the input matrix is singular.") from None


def _bind_inv(A):
    check_square(A, "linalg.inv")
    return OPS["linalg_inv"], (A,), None, None


op("linalg_inv", "LinalgInvExBackward0", ("A",), _inv,
   ("−A⁻ᵀ · grad · A⁻ᵀ", lambda n, g: -(n["result"].mT.matmul(g).matmul(n["result"].mT))),
   saves={0: ("result",)}, spell=Spelling(method="inverse", function="inverse", linalg="inv"), bind=_bind_inv)


def _adjoint(M):
    return M.mH if M.dtype.is_complex else M.mT


def vector_rhs(A, B):
    """linalg.solve's rule: B is a batch of vectors when it is 1-d, or has one dim less than A and A's sizes."""
    return B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def _wide(a):
    """a in float64, or complex128 where it is complex."""
    return np.asarray(a, dtype=np.complex128 if a.dtype.kind == "c" else np.float64)


def _solve(a, b, left=True):
    a64, b64 = _wide(a), _wide(b)
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    if not left:
        a64, b64 = np.swapaxes(a64, -1, -2), np.swapaxes(b64, -1, -2)
    rhs = b64[..., None] if vector else b64
    try:
        x = np.linalg.solve(np.broadcast_to(a64, np.broadcast_shapes(a64.shape[:-2], rhs.shape[:-2]) + a64.shape[-2:]),
                            rhs)
    except np.linalg.LinAlgError:
        raise _LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.") from None
    dtype = np.result_type(a.dtype, b.dtype)
    if vector:  # ATen lays the result out as a batch of matrices all the same: a batched vector goes by columns
        return memory.column_major(x[..., 0], dtype)
    x = memory.column_major(x, dtype)
    return np.swapaxes(x, -1, -2) if not left else x


def _bind_solve(A, B, *, left=True):
    check_square(A, "linalg.solve", dtype=False)
    for M in (A, B):
        if not M.dtype._grads:
            check_float(M, "linalg.solve")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
                           f"{A.dtype.type_name} and B of type {B.dtype.type_name} instead")
    n = A.shape[-1]
    rows = B.shape[0] if B.dim() == 1 else (B.shape[-1] if vector_rhs(A, B) else B.shape[-2 if left else -1])
    if rows != n:
        shape = "x".join(str(s) for s in B.shape)
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {shape})")
    return OPS["linalg_solve"], (A, B), {"left": left}, result_dtype((A, B))


def _solve_grads(n, g):
    """ATen's linalg_solve_backward: (gA, gB) of X = A⁻¹B, gB solving Aᴴ gB = grad, gA = −gB Xᴴ (X = BA⁻¹:
    gB Aᴴ = grad, gA = −Xᴴ gB)."""
    A, X = n["A"], n["result"]
    left = n.attrs.get("left", True)
    vector = X.dim() == 1 or (X.dim() == A.dim() - 1 and tuple(X.shape) == tuple(A.shape[:-1]))
    gB = _adjoint(A)._op("linalg_solve", g.unsqueeze(-1) if vector else g, left=left)
    X = X.unsqueeze(-1) if vector else X
    gA = -(gB.matmul(_adjoint(X))) if left else -(_adjoint(X).matmul(gB))
    return gA, gB.squeeze(-1) if vector else gB


op("linalg_solve", "LinalgSolveExBackward0", ("A", "B"), _solve,
   ("−A⁻ᵀ grad Xᵀ", lambda n, g: _sum_to(_solve_grads(n, g)[0], n._shapes[0])),
   ("A⁻ᵀ grad", lambda n, g: _sum_to(_solve_grads(n, g)[1], n._shapes[1])),
   saves={0: ("A", "result", "left"), 1: ("A", "result", "left")}, spell=Spelling(linalg="solve"),
   bind=_bind_solve)


def _sum_to(t, shape):
    return t if tuple(t.shape) == tuple(shape) else t.sum_to_size(shape)


# --- cholesky --------------------------------------------------------------------------------------------------
def potf2(m):
    """LAPACK's unblocked Cholesky (dpotf2, lower) of one matrix in float64, in place: the column that fails keeps
    its non-positive pivot and the columns after it are left as they were, as torch's cholesky_ex leaves them.
    Returns info: 0, or the order of the first leading minor that is not positive-definite."""
    for j in range(m.shape[0]):
        pivot = m[j, j] - m[j, :j] @ m[j, :j]
        if not pivot > 0:
            m[j, j] = pivot
            return j + 1
        m[j, j] = pivot = np.sqrt(pivot)
        m[j + 1:, j] = (m[j + 1:, j] - m[j + 1:, :j] @ m[j, :j]) / pivot
    return 0


def _cholesky(a, upper=False):
    a64 = _f64(a)
    try:
        L = np.linalg.cholesky(a64)
    except np.linalg.LinAlgError:
        for i, m in enumerate(_batches(a64)):
            k = potf2(np.array(m))
            if k:
                prefix = f"(Batch element {i}): " if a.ndim > 2 else ""
                raise _LinAlgError(f"linalg.cholesky: {prefix}The factorization could not be completed because "
                                   f"the input is not positive-definite (the leading minor of order {k} is not "
                                   "positive-definite).") from None
        raise
    return memory.column_major(np.swapaxes(L, -1, -2) if upper else L, a.dtype)


def _bind_cholesky(A, *, upper=False):
    check_square(A, "linalg.cholesky")
    return OPS["linalg_cholesky"], (A,), {"upper": upper}, None


def _cholesky_grad(n, g):
    """ATen's cholesky_backward: gA = L⁻ᴴ Φ(Lᴴ gL) L⁻¹, Φ taking the lower triangle, its diagonal halved, and
    mirroring it."""
    upper = n.attrs.get("upper", False)
    L = n["result"].mT if upper else n["result"]
    gL = g.mT if upper else g
    gA = L.mT.matmul(gL).tril()
    gA = (gA + gA.tril(-1).mT) * 0.5
    gA = L.mT._op("linalg_solve_triangular", gA, upper=True, left=True, unitriangular=False)
    return L._op("linalg_solve_triangular", gA, upper=False, left=False, unitriangular=False)


op("linalg_cholesky", "LinalgCholeskyExBackward0", ("A",), _cholesky,
   ("L⁻ᵀ Φ(Lᵀ grad) L⁻¹", _cholesky_grad), saves={0: ("result", "upper")},
   spell=Spelling(linalg="cholesky"), bind=_bind_cholesky)


# --- eigh, svd, qr: several outputs ---------------------------------------------------------------------------
def _eigh(a, UPLO="L"):  # noqa: N803 - torch's name
    w, v = np.linalg.eigh(_f64(a), UPLO=UPLO)
    return w.astype(a.dtype), memory.column_major(v, a.dtype)


def _bind_eigh(A, UPLO="L"):  # noqa: N803
    check_square(A, "linalg.eigh")
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return OPS["linalg_eigh"], (A,), {"UPLO": UPLO.upper()}, None


def _diagonal_matrix(v):
    """diag_embed(v): the vectors v as the diagonals of square matrices."""
    n = v.shape[-1]
    return v.unsqueeze(-1) * _identity(v, n)


def _identity(like, n):
    """The n×n identity, a constant of like's dtype."""
    return type(like)._make(np.eye(n, dtype=like.dtype.np), like.dtype)


def _eigh_grad(n, grads):
    """linalg_eig_backward for a symmetric A (Q orthogonal): gA = Q (diag(gL) + skew(Qᵀ gQ) / E) Qᵀ, with
    E_ij = L_j − L_i off the diagonal and skew(X) = (X − Xᵀ) / 2, Qᵀ gQ projected onto the skew-symmetric
    matrices (the tangent space of the orthogonal group)."""
    L, Q = n["A"]._op("linalg_eigh", UPLO=n.attrs.get("UPLO", "L"))
    gL, gQ = grads
    if gQ is None:
        inner = _diagonal_matrix(gL)
    else:
        E = L.unsqueeze(-2) - L.unsqueeze(-1)
        eye = _identity(L, L.shape[-1])
        QtgQ = Q.mT.matmul(gQ)
        inner = (QtgQ - QtgQ.mT) * 0.5 / (E + eye) * (1 - eye)
        if gL is not None:
            inner = inner + _diagonal_matrix(gL)
    return Q.matmul(inner).matmul(Q.mT)


op("linalg_eigh", "LinalgEighBackward0", ("A",), _eigh,
   ("Q (diag(grad_L) + (Qᵀ grad_Q) / (L_j − L_i)) Qᵀ", _eigh_grad), saves={0: ("A", "UPLO")}, several=True,
   spell=Spelling(linalg="eigh", name=_labelled("eigh", "UPLO"), returns=("eigenvalues", "eigenvectors")),
   bind=_bind_eigh)


def _svd(a, full_matrices=True):
    u, s, vh = np.linalg.svd(_f64(a), full_matrices=full_matrices)
    return memory.column_major(u, a.dtype), s.astype(a.dtype), memory.column_major(vh, a.dtype)


def _bind_svd(A, full_matrices=True, *, driver=None):
    if A.dim() < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    check_float(A, "linalg.svd")
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
                           "cuSOLVER backend.")
    return OPS["linalg_svd"], (A,), {"full_matrices": bool(full_matrices)}, None


def _skew(X):
    return X - X.mT


def _svd_grad(n, grads):
    """ATen's svd_backward (real; for full_matrices, as derivatives.yaml, on the first k columns of U and rows of
    Vh and their grads): with E_jk = S_k² − S_j² (1 on the diagonal) and skew(X) = X − Xᵀ,
    gA = U [(skew(Uᵀ gU) S + S skew(Vᵀ gV)) / E + diag(gS)] Vh, plus (I − UUᵀ) gU S⁻¹ Vh for a tall A, or
    U S⁻¹ gVh (I − VVᵀ) for a wide one."""
    A = n["A"]
    U, S, Vh = A._op("linalg_svd", full_matrices=False)
    gU, gS, gVh = grads
    r = S.shape[-1]
    if gU is not None and gU.shape[-1] != r:
        gU = gU.narrow(-1, 0, r)
    if gVh is not None and gVh.shape[-2] != r:
        gVh = gVh.narrow(-2, 0, r)
    m, k = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:
        return U.matmul(gS.unsqueeze(-1) * Vh) if m >= k else (U * gS.unsqueeze(-2)).matmul(Vh)
    UhgU = _skew(U.mT.matmul(gU)) if gU is not None else None
    VhgV = _skew(Vh.matmul(gVh.mT)) if gVh is not None else None
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + _identity(S, r)
    if gU is not None and gVh is not None:
        gA = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E
    elif gU is not None:
        gA = UhgU * (S.unsqueeze(-2) / E)
    else:
        gA = S.unsqueeze(-1) * (VhgV / E)
    if gS is not None:
        gA = gA + _diagonal_matrix(gS)
    if m > k and gU is not None:
        gA = U.matmul(gA)
        gUSinv = gU / S.unsqueeze(-2)
        gA = gA + gUSinv - U.matmul(U.mT.matmul(gUSinv))
        return gA.matmul(Vh)
    if m < k and gVh is not None:
        gA = gA.matmul(Vh)
        SinvgVh = gVh / S.unsqueeze(-1)
        gA = gA + SinvgVh - SinvgVh.matmul(Vh.mT).matmul(Vh)
        return U.matmul(gA)
    return U.matmul(gA.matmul(Vh)) if m >= k else U.matmul(gA).matmul(Vh)


op("linalg_svd", "LinalgSvdBackward0", ("A",), _svd,
   ("U [(skew(Uᵀ gU) / E) S + S (skew(Vᵀ gV) / E) + diag(gS)] Vᵀ + …", _svd_grad),
   saves={0: ("A", "full_matrices")}, several=True,
   spell=Spelling(linalg="svd", name=_labelled("svd", "full_matrices"), returns=("U", "S", "Vh")), bind=_bind_svd)


def _qr(a, mode="reduced"):
    q, r = np.linalg.qr(_f64(a), mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        return np.zeros((0,), a.dtype), memory.column_major(r, a.dtype)
    return memory.column_major(q, a.dtype), memory.column_major(r, a.dtype)


def _bind_qr(A, mode="reduced"):
    if A.dim() < 2:
        raise RuntimeError("linalg.qr: The input tensor A must have at least 2 dimensions.")
    check_float(A, "linalg.qr")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")
    return OPS["linalg_qr"], (A,), {"mode": mode}, None


def _qr_grad(n, grads):
    """ATen's linalg_qr_backward, with M = gR Rᵀ − Qᵀ gQ: for m ≥ n, gA = (gQ + Q syminvadj(triu(M))) R⁻ᵀ
    (syminvadj(X) = X + Xᵀ, its diagonal halved); for m < n, gA = [Q tril(Mᵀ − M) R₁⁻ᵀ, 0] + Q gR, R₁ the first
    m columns of R. mode='complete' of a tall matrix is not differentiable."""
    A = n["A"]
    mode = n.attrs.get("mode", "reduced")
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please "
                           "use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    m, k = A.shape[-2], A.shape[-1]
    if mode == "complete" and m > k:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    Q, R = A._op("linalg_qr", mode="reduced")
    gQ, gR = grads
    if gQ is None and gR is None:
        return A * 0
    if gQ is None:
        M = gR.matmul(R.mT)
    elif gR is None:
        M = -Q.mT.matmul(gQ)
    else:
        M = gR.matmul(R.mT) - Q.mT.matmul(gQ)
    if m >= k:
        upper = M.triu()
        sym = upper + upper.mT
        sym = sym - sym * _identity(sym, k) * 0.5
        b = Q.matmul(sym)
        if gQ is not None:
            b = b + gQ
        return R.mT._op("linalg_solve_triangular", b, upper=False, left=False, unitriangular=False)
    gA = Q.matmul((-M - (-M).mT).tril())
    gA = R.narrow(-1, 0, m).mT._op("linalg_solve_triangular", gA, upper=False, left=False, unitriangular=False)
    zeros = type(A)._make(np.zeros(tuple(R.shape[:-1]) + (k - m,), A.dtype.np), A.dtype)
    gA = gA._op("cat", zeros, dim=-1)
    return gA if gR is None else gA + Q.matmul(gR)


op("linalg_qr", "LinalgQrBackward0", ("A",), _qr, ("(gQ + Q syminvadj(triu(gR Rᵀ − Qᵀ gQ))) R⁻ᵀ, for m ≥ n", _qr_grad),
   saves={0: ("A", "mode")}, several=True,
   spell=Spelling(linalg="qr", name=_labelled("qr", "mode"), returns=("Q", "R")), bind=_bind_qr)
