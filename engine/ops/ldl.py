"""torch.linalg.ldl_factor(_ex) and ldl_solve: LAPACK's Bunch-Kaufman factorization of a symmetric matrix (dsytf2,
lower: the pivots and the compact L and D as sytrf leaves them) and its solve (dsytrs), in float64, rounded once.
torch has no derivative for either (their nodes are NotImplemented)."""
import numpy as np

from .. import dtypes, memory
from .decompositions import check_square
from .statistics import returned
from .table import OPS, Spelling, composite, op

_ALPHA = (1 + np.sqrt(17.0)) / 8


def _count(batch):
    return int(np.prod(batch, dtype=np.int64))


def _iamax(v):
    """BLAS idamax: the first index of the largest |value| (NaN never wins)."""
    return int(np.argmax(np.abs(v))) if len(v) else 0


def sytf2_lower(a):
    """dsytf2 with UPLO='L' on one matrix, in place: (1-based pivots, negative for a 2×2 block, info)."""
    n = a.shape[0]
    ipiv = np.zeros(n, np.int32)
    info = 0
    k = 0
    while k < n:
        kstep = 1
        absakk = abs(a[k, k])
        if k < n - 1:
            imax = k + 1 + _iamax(a[k + 1:, k])
            colmax = abs(a[imax, k])
        else:
            imax, colmax = k, 0.0
        if max(absakk, colmax) == 0 or np.isnan(absakk):
            if info == 0:
                info = k + 1
            kp = k
        else:
            if absakk >= _ALPHA * colmax:
                kp = k
            else:
                rowmax = abs(a[imax, k + _iamax(a[imax, k:imax])])
                if imax < n - 1:
                    jmax = imax + 1 + _iamax(a[imax + 1:, imax])
                    rowmax = max(rowmax, abs(a[jmax, imax]))
                if absakk >= _ALPHA * colmax * (colmax / rowmax):
                    kp = k
                elif abs(a[imax, imax]) >= _ALPHA * rowmax:
                    kp = imax
                else:
                    kp, kstep = imax, 2
            kk = k + kstep - 1
            if kp != kk:
                if kp < n - 1:
                    a[kp + 1:, [kk, kp]] = a[kp + 1:, [kp, kk]]
                tmp = a[kk + 1:kp, kk].copy()
                a[kk + 1:kp, kk] = a[kp, kk + 1:kp]
                a[kp, kk + 1:kp] = tmp
                a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
                if kstep == 2:
                    a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]
            if kstep == 1:
                if k < n - 1:
                    d11 = 1.0 / a[k, k]
                    x = a[k + 1:, k].copy()
                    a[k + 1:, k + 1:] += np.tril(np.outer(x, -d11 * x))
                    a[k + 1:, k] *= d11
            elif k < n - 2:
                d21 = a[k + 1, k]
                d11 = a[k + 1, k + 1] / d21
                d22 = a[k, k] / d21
                t = 1.0 / (d11 * d22 - 1.0)
                d21 = t / d21
                for j in range(k + 2, n):
                    wk = d21 * (d11 * a[j, k] - a[j, k + 1])
                    wkp1 = d21 * (d22 * a[j, k + 1] - a[j, k])
                    a[j:, j] = a[j:, j] - a[j:, k] * wk - a[j:, k + 1] * wkp1
                    a[j, k], a[j, k + 1] = wk, wkp1
        if kstep == 1:
            ipiv[k] = kp + 1
        else:
            ipiv[k] = ipiv[k + 1] = -(kp + 1)
        k += kstep
    return ipiv, info


def ldl_factors(a):
    """(LD, pivots, info) of each matrix of a batch, in float64."""
    m = np.tril(np.asarray(a, np.float64))
    batch = m.reshape((_count(a.shape[:-2]),) + a.shape[-2:])
    pivots = np.zeros(batch.shape[:2], np.int32)
    info = np.zeros(batch.shape[0], np.int32)
    for i in range(batch.shape[0]):
        pivots[i], info[i] = sytf2_lower(batch[i])
    return batch.reshape(a.shape), pivots.reshape(a.shape[:-1]), info.reshape(a.shape[:-2])


def _not_implemented(name):
    def vjp(n, g):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")

    return ("not implemented", vjp)


op("linalg_ldl_factor_ex", "NotImplemented", ("self",),
   lambda a, hermitian: memory.column_major(ldl_factors(a)[0], a.dtype), _not_implemented("linalg_ldl_factor_ex"),
   bind=False, spell=Spelling(name=lambda s, a: f"torch.linalg.ldl_factor_ex({s[0]}).LD"))


def _factored(A, hermitian, name):
    if A.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    check_square(A, name)
    _, pivots, info = ldl_factors(A._data)
    LD = A._apply(OPS["linalg_ldl_factor_ex"], (A,), {"hermitian": bool(hermitian)}, None)
    return LD, A._new(pivots, dtypes.int32), A._new(info, dtypes.int32)


@composite(Spelling(linalg="ldl_factor_ex"))
def ldl_factor_ex(A, *, hermitian=False, check_errors=False):  # noqa: N803 - torch's name
    return returned("linalg_ldl_factor_ex", ["LD", "pivots", "info"])(
        *_factored(A, hermitian, "torch.linalg.ldl_factor_ex"))


@composite(Spelling(linalg="ldl_factor"))
def ldl_factor(A, *, hermitian=False):  # noqa: N803
    LD, pivots, _ = _factored(A, hermitian, "torch.linalg.ldl_factor")
    return returned("linalg_ldl_factor", ["LD", "pivots"])(LD, pivots)


def sytrs_lower(a, ipiv, b):
    """dsytrs with UPLO='L': solves A X = B from dsytf2's factors, in place on b (n × nrhs)."""
    n = a.shape[0]
    k = 0
    while k < n:
        if ipiv[k] > 0:
            kp = ipiv[k] - 1
            b[[k, kp]] = b[[kp, k]]
            b[k + 1:] -= np.outer(a[k + 1:, k], b[k])
            b[k] /= a[k, k]
            k += 1
        else:
            kp = -ipiv[k] - 1
            b[[k + 1, kp]] = b[[kp, k + 1]]
            if k < n - 2:
                b[k + 2:] -= np.outer(a[k + 2:, k], b[k]) + np.outer(a[k + 2:, k + 1], b[k + 1])
            akm1k = a[k + 1, k]
            akm1, ak = a[k, k] / akm1k, a[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1.0
            bkm1, bk = b[k] / akm1k, b[k + 1] / akm1k
            b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:
        if ipiv[k] > 0:
            b[k] -= a[k + 1:, k] @ b[k + 1:]
            kp = ipiv[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 1
        else:
            b[k] -= a[k + 1:, k] @ b[k + 1:]
            b[k - 1] -= a[k + 1:, k - 1] @ b[k + 1:]
            kp = -ipiv[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 2
    return b


def _ldl_solve(LD, B, pivots, hermitian=False):  # noqa: N803
    batch = np.broadcast_shapes(LD.shape[:-2], B.shape[:-2])
    count = _count(batch)
    a = np.broadcast_to(np.asarray(LD, np.float64), batch + LD.shape[-2:]).reshape((count,) + LD.shape[-2:])
    b = np.array(np.broadcast_to(B, batch + B.shape[-2:]), np.float64).reshape((count,) + B.shape[-2:])
    p = np.broadcast_to(pivots, batch + pivots.shape[-1:]).reshape((count, pivots.shape[-1]))
    for i in range(b.shape[0]):
        sytrs_lower(a[i], p[i], b[i])
    return memory.column_major(b.reshape(batch + B.shape[-2:]), B.dtype)


op("linalg_ldl_solve", "NotImplemented", ("LD", "B"), _ldl_solve, _not_implemented("linalg_ldl_solve"),
   _not_implemented("linalg_ldl_solve"), bind=False,
   spell=Spelling(name=lambda s, a: f"torch.linalg.ldl_solve({s[0]}, …, {s[1]})"))


@composite(Spelling(linalg="ldl_solve"))
def ldl_solve(LD, pivots, B, *, hermitian=False):  # noqa: N803
    name = "torch.linalg.ldl_solve"
    if LD.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor LD must have at least 2 dimensions.")
    check_square(LD, name, "LD")
    if B.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor B must have at least 2 dimensions.")
    if LD.shape[-1] != B.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {LD.shape[-1]} by "
                           f"{LD.shape[-1]} but each b matrix is {B.shape[-2]} by {B.shape[-1]}")
    return LD._apply(OPS["linalg_ldl_solve"], (LD, B), {"pivots": pivots._data, "hermitian": bool(hermitian)}, None)
