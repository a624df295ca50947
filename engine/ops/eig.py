"""torch.linalg.eig and eigvals: the eigenvalues and eigenvectors of a general square matrix, complex whatever the
input (LAPACK geev's: each eigenvector of norm 1, its largest component real), with ATen's linalg_eig_backward.
The node keeps its two results, as torch's (the derivative reads them, so that a second derivative reaches the
node again through them)."""
import numpy as np

from .. import dtypes, memory
from .decompositions import _labelled, check_square
from .statistics import returned
from .table import OPS, Spelling, composite, op


def _eig(a):
    w, v = np.linalg.eig(np.asarray(a, dtype=np.complex128 if a.dtype.kind == "c" else np.float64))
    out = np.complex64 if a.dtype in (np.float32, np.complex64) else np.complex128
    return np.ascontiguousarray(w, dtype=out), memory.column_major(v, out)


def _factorized(A, name):
    check_square(A, name, dtype=False)
    if not A.dtype._grads:
        raise RuntimeError(f"Unknown Complex ScalarType for {A.dtype.type_name}")
    L, V = A._apply(OPS["linalg_eig"], (A,), None, dtypes.to_complex(A.dtype))
    if L.grad_fn is not None:
        L.grad_fn.attrs.update(eigenvalues=L, eigenvectors=V)
    return L, V


def _eig_grad(n, grads):
    """ATen's linalg_eig_backward: gA = V⁻ᴴ (diag(gL) + (Vᴴ gV − Vᴴ V diag(Re(Vᴴ gV))) / E*) Vᴴ, with
    E_ij = L_j − L_i off the diagonal (1 on it); the loss must not depend on each eigenvector's phase."""
    L, V = n.attrs["eigenvalues"], n.attrs["eigenvectors"]
    gL, gV = grads if isinstance(grads, tuple) else (grads, None)
    Vh = V.mH
    if gV is None:
        gA = Vh._op("linalg_solve", gL.unsqueeze(-1) * Vh)
    else:
        VhgV = Vh.matmul(gV)
        diag = VhgV.diagonal(0, -2, -1)

        if not bool(np.allclose(diag.imag._data, 0, rtol=1e-2, atol=1e-2)):
            raise RuntimeError("linalg_eig_backward: The eigenvectors in the complex case are specified up to "
                               "multiplication by e^{i phi}. The specified loss function depends on this quantity, "
                               "so it is ill-defined.")
        VhgV = VhgV - Vh.matmul(V * diag.real.unsqueeze(-2))
        Lconj = L.conj()
        size = L.shape[-1]
        eye = type(L)._make(np.eye(size, dtype=L.dtype.np), L.dtype)
        E = Lconj.unsqueeze(-2) - Lconj.unsqueeze(-1) + eye
        inner = VhgV / E
        if gL is not None:
            inner = inner * (1 - eye) + gL.unsqueeze(-1) * eye
        gA = Vh._op("linalg_solve", inner.matmul(Vh))
    return gA  # for a real A, the graph keeps its real part (ATen's handle_r_to_c)


op("linalg_eig", "LinalgEigBackward0", ("A",), _eig,
   ("V⁻ᴴ (diag(grad_L) + (Vᴴ grad_V − Vᴴ V diag(Re(Vᴴ grad_V))) / conj(L_j − L_i)) Vᴴ", _eig_grad),
   saves={0: ("eigenvalues", "eigenvectors")}, several=True, bind=False, spell=Spelling(name=_labelled("eig")))


@composite(Spelling(linalg="eig"))
def eig(A):
    return returned("linalg_eig", ["eigenvalues", "eigenvectors"])(*_factorized(A, "linalg.eig"))


@composite(Spelling(linalg="eigvals"))
def eigvals(A):
    return _factorized(A, "linalg.eigvals")[0]
