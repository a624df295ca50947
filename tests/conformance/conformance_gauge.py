"""The outputs that are defined only up to a sign: each eigenvector of eigh, and each pair of a left and a right
singular vector of svd, may come out negated (LAPACK's choice, which differs between LAPACKs and algorithms).
torch's own tests compare what does not depend on that choice (OpInfo's output_process_fn_grad: |U|, U Vh, …, and
test_linalg's reconstructions); here, before values and printed text are compared, each vector is turned so that its
entry of largest magnitude is positive (its pair turned with it), on torch's result and the engine's alike. For a
full U (or V) of a non-square matrix, the columns beyond the singular values span the complement but are not unique
in any way: they are compared as the projector onto that span. Layout, dtype and grad_fn are compared on the raw
outputs."""
from __future__ import annotations

import numpy as np
from conformance_convert import to_numpy

# OpInfo name -> which outputs are vectors, and how: "eigh" (L, Q), "svd" (U, S, Vh), "svd_v" (U, S, V)
GAUGED = {"linalg.eigh": "eigh", "linalg.svd": "svd", "svd": "svd_v", "svd_lowrank": "svd_v", "pca_lowrank": "svd_v"}


def _signs(M, E):
    """±1 per column of the batch of matrices M: the sign of the column's entry of largest magnitude."""
    a = to_numpy(E, M.detach()).astype(np.float64)
    if a.shape[-2] == 0:
        return np.ones(a.shape[:-2] + (a.shape[-1],))
    rows = np.argmax(np.abs(a), axis=-2)
    picked = np.take_along_axis(a, rows[..., None, :], axis=-2)[..., 0, :]
    return np.where(picked < 0, -1.0, 1.0)


def _times(M, signs, E, columns):
    s = E.tensor(signs, dtype=M.dtype)
    return M * (s.unsqueeze(-2) if columns else s.unsqueeze(-1))


def gauge_fixed(kind, out, E):
    """The outputs with the vectors' signs fixed (and the free columns as their projector), as a tuple."""
    if kind == "eigh":
        L, Q = out
        return L, _times(Q, _signs(Q, E), E, True)
    U, S, W = out
    k = S.shape[-1]
    V = W if kind == "svd_v" else W.mT
    U1, V1 = U[..., :k], V[..., :k]
    signs = _signs(U1, E)
    fixed = [_times(U1, signs, E, True), S, _times(V1, signs, E, True)]
    for M in (U, V):
        if M.shape[-1] > k:
            rest = M[..., k:]
            fixed.append(rest @ rest.mT)
    return tuple(fixed)
