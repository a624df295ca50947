"""torch.svd_lowrank and torch.pca_lowrank: torch/_lowrank.py's randomized algorithms (Halko et al. 2009,
algorithms 4.4 and 5.1), drawing their random matrix from the engine's generator as torch draws it from its own."""
from . import dtypes, linalg
from .random import randn


def _floating(A):
    return A.dtype if A.dtype in (dtypes.float16, dtypes.float32, dtypes.float64) else dtypes.float32


def get_approximate_basis(A, q, niter=2, M=None):
    """Q with q orthonormal columns such that Q Qᴴ (A − M) approximates A − M."""
    niter = 2 if niter is None else niter
    R = randn(A.shape[-1], q, dtype=_floating(A))
    X = A.matmul(R)
    if M is not None:
        X = X - M.matmul(R)
    Q = linalg.qr(X)[0]
    for _ in range(niter):
        X = A.mH.matmul(Q)
        if M is not None:
            X = X - M.mH.matmul(Q)
        Q = linalg.qr(X)[0]
        X = A.matmul(Q)
        if M is not None:
            X = X - M.matmul(Q)
        Q = linalg.qr(X)[0]
    return Q


def svd_lowrank(A, q=6, niter=2, M=None):
    """(U, S, V) with A − M ≈ U diag(S) Vᴴ, of rank q."""
    return _svd_lowrank(A, q=q, niter=niter, M=M)


def _svd_lowrank(A, q=6, niter=2, M=None):
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.size())
    if m < n:
        A = A.mH
        if M is not None:
            M = M.mH
    Q = get_approximate_basis(A, q, niter=niter, M=M)
    B = Q.mH.matmul(A)
    if M is not None:
        B = B - Q.mH.matmul(M)
    U, S, Vh = linalg.svd(B, full_matrices=False)
    V = Vh.mH
    U = Q.matmul(U)
    if m < n:
        U, V = V, U
    return U, S, V


def pca_lowrank(A, q=None, center=True, niter=2):
    """svd_lowrank of A with its column means taken off (center) or as it is."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not (niter >= 0):
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter=niter, M=None)
    C = A.mean(dim=(-2,), keepdim=True)
    return _svd_lowrank(A - C, q, niter=niter, M=None)
