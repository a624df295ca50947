"""torch.linalg.lstsq: the least-squares (minimum-norm) solution of A X = B, with the residuals, rank and singular
values each LAPACK driver gives, and ATen's linalg_lstsq_backward (through pinv(A), plus the residuals' part).

The solution is computed in float64 from A's pseudo-inverse (unique for the full-rank systems it is meant for) and
rounded once, so it does not depend on the LAPACK numpy links; it is laid out as LAPACK leaves it in torch (a
column-major buffer of max(m, n) rows, narrowed to n)."""
import numpy as np

from .. import dtypes, memory
from .decompositions import vector_rhs
from .matrix_functions import pinv_backward
from .statistics import returned
from .table import OPS, Spelling, composite, op, result_dtype

DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _as_matrices(a, b):
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    return np.asarray(a, np.float64), np.asarray(b, np.float64)[..., None] if vector else np.asarray(b, np.float64), \
        vector


def _full_rank(a64):
    s = np.linalg.svd(a64, compute_uv=False)
    m, n = a64.shape[-2:]
    if s.shape[-1] == 0:
        return True
    return bool(np.all(s > np.finfo(np.float64).eps * max(m, n) * s[..., :1]))


def _residuals_computed(a64, driver):
    m, n = a64.shape[-2:]
    return m > n and driver != "gelsy" and _full_rank(a64)


def _lstsq(a, b, driver="gelsy"):
    a64, b64, vector = _as_matrices(a, b)
    m, n = a64.shape[-2:]
    batch = np.broadcast_shapes(a64.shape[:-2], b64.shape[:-2])
    a64 = np.broadcast_to(a64, batch + a64.shape[-2:])
    b64 = np.broadcast_to(b64, batch + b64.shape[-2:])
    x = np.linalg.pinv(a64) @ b64 if a64.size else np.zeros(batch + (n, b64.shape[-1]))
    dtype = np.result_type(a.dtype, b.dtype)
    if _residuals_computed(a64, driver):
        r = a64 @ x - b64
        residuals = (r * r).sum(-2)
        residuals = residuals[..., 0] if vector else residuals
    else:
        residuals = np.zeros((0,))
    if vector:
        return x[..., 0].astype(dtype), residuals.astype(dtype)
    k = x.shape[-1]
    buffer = np.zeros(batch + (max(m, n), k))
    buffer[..., :n, :] = x
    return memory.column_major(buffer, dtype)[..., :n, :], residuals.astype(dtype)


def _lstsq_grads(n, grads):
    """ATen's linalg_lstsq_backward: through pinv(A) for the solution, and ∂‖AX − B‖² for the residuals."""
    gX, gR = grads
    A, B = n["self"], n["b"]
    vector = vector_rhs(A, B)
    Bm = B.unsqueeze(-1) if vector else B
    pinvA = A._apply(*OPS["linalg_pinv"].bind(A))
    gA = gB = None
    if gX is not None:
        gXm = gX.unsqueeze(-1) if vector else gX
        gA = pinv_backward(gXm.matmul(Bm.mT), pinvA, A)
        gB = pinvA.mT.matmul(gXm)
    if gR is not None and gR.numel():
        X = pinvA.matmul(Bm)
        r = A.matmul(X) - Bm
        weighted = r * (gR.unsqueeze(-1) if vector else gR.unsqueeze(-2))
        part_a, part_b = (weighted * 2).matmul(X.mT), weighted * -2
        gA = part_a if gA is None else gA + part_a
        gB = part_b if gB is None else gB + part_b
    if gB is not None and vector:
        gB = gB.squeeze(-1)
    return gA, gB


def _summed(i):
    def vjp(n, grads):
        g = _lstsq_grads(n, grads)[i]
        if g is None:
            return None
        return g if tuple(g.shape) == tuple(n._shapes[i]) else g.sum_to_size(n._shapes[i])

    return vjp


op("linalg_lstsq", "LinalgLstsqBackward0", ("self", "b"), _lstsq,
   ("pinv_backward(grad_X Bᵀ) + 2 (r · grad_residuals) Xᵀ, r = A X − B", _summed(0)),
   ("pinv(A)ᵀ grad_X − 2 r · grad_residuals", _summed(1)),
   saves={0: ("self", "b"), 1: ("self", "b")}, several=True, bind=False,
   spell=Spelling(name=lambda s, a: f"torch.linalg.lstsq({s[0]}, {s[1]}, driver={a.get('driver')!r})"
                                    f"[{a.get('output', 0)}]"))


@composite(Spelling(linalg="lstsq"))
def lstsq(A, B, rcond=None, *, driver=None):  # noqa: N803
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B.dim() < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's "
                           f"dtype {A.dtype.type_name} and other's dtype {B.dtype.type_name}")
    if not A.dtype.is_floating_point:
        raise RuntimeError("This function doesn't handle types other than float and double")
    driver = "gelsy" if driver is None else driver
    if driver not in DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    vector = vector_rhs(A, B)
    if not vector and B.shape[-2] != A.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    X, residuals = A._apply(OPS["linalg_lstsq"], (A, B), {"driver": driver}, result_dtype((A, B)))
    a64 = np.asarray(A._data, np.float64)
    m, n = a64.shape[-2:]
    batch = tuple(np.broadcast_shapes(a64.shape[:-2], tuple(B.shape[:-1 if vector else -2])))
    if driver == "gels":
        rank = np.zeros((0,), np.int64)
    else:
        s = np.linalg.svd(np.broadcast_to(a64, batch + (m, n)), compute_uv=False)
        limit = (np.finfo(A.dtype.np).eps * max(m, n) if rcond is None else rcond) * (
            s[..., :1] if s.shape[-1] else 0)
        rank = (s > limit).sum(-1).astype(np.int64)
    if driver in ("gelsd", "gelss"):
        values = np.linalg.svd(np.broadcast_to(a64, batch + (m, n)), compute_uv=False).astype(A.dtype.np)
    else:
        values = np.zeros((0,), A.dtype.np)
    make = type(A)._make
    return returned("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])(
        X, residuals, make(rank, dtypes.int64), make(values, A.dtype))
