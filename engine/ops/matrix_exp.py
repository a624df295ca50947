"""matrix_exp: the Padé approximant with scaling and squaring, in float64 and rounded once to the input's dtype;
its derivative is ATen's (the exponential of a block matrix [[selfᵀ, grad], [0, selfᵀ]], top right block)."""
import numpy as np

from .decompositions import _f64, check_square
from .table import OPS, Spelling, op

# --- matrix_exp ------------------------------------------------------------------------------------------------
_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
           10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)


def _expm(a):
    """exp of each matrix: scaling and squaring with the degree-13 Padé approximant (Higham 2005)."""
    a = _f64(a)
    n = a.shape[-1]
    norm = np.max(np.sum(np.abs(a), axis=-2), axis=-1, initial=0) if a.size else np.zeros(a.shape[:-2])
    s = np.maximum(0, np.ceil(np.log2(np.maximum(norm, 1e-300) / 5.371920351148152))).astype(int)
    s = np.where(norm == 0, 0, s)
    a = a / (2.0 ** s)[..., None, None]
    eye = np.broadcast_to(np.eye(n), a.shape)
    b = _PADE13
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    r = np.linalg.solve(v - u, v + u)
    flat_r, flat_s = r.reshape((-1, n, n)), np.ravel(s)
    for i in range(flat_r.shape[0]):
        for _ in range(int(flat_s[i])):
            flat_r[i] = flat_r[i] @ flat_r[i]
    return flat_r.reshape(r.shape)


def _bind_matrix_exp(A):
    check_square(A, "linalg.matrix_exp")
    return OPS["linalg_matrix_exp"], (A,), None, None


def _matrix_exp_grad(n, g):
    """ATen's: the top-right block of exp([[Aᵀ, grad], [0, Aᵀ]])."""
    At = n["self"].mT
    k = At.shape[-1]
    top = _cat([At, g], -1)
    bottom = _cat([At * 0, At], -1)
    big = _cat([top, bottom], -2)
    return big._op("linalg_matrix_exp")[..., :k, k:]


def _cat(tensors, dim):
    return tensors[0]._op("cat", *tensors[1:], dim=dim % tensors[0].dim())


op("linalg_matrix_exp", "LinalgMatrixExpBackward0", ("self",), lambda a: _expm(a).astype(a.dtype),
   ("exp([[selfᵀ, grad], [0, selfᵀ]])[top right]", _matrix_exp_grad), saves={0: ("self",)},
   spell=Spelling(method="matrix_exp", function="matrix_exp", linalg="matrix_exp"), bind=_bind_matrix_exp)
