"""torch's older spellings of the factorizations: torch.cholesky, cholesky_solve, cholesky_inverse, qr, svd (with
their deprecation warnings), each with ATen's node and derivative."""
import numpy as np

from .. import messages
from .decompositions import _bind_qr, _bind_svd, _cholesky, _cholesky_grad, _f64, _sum_to, check_square
from .table import OPS, Spelling, composite, op, result_dtype

# --- torch's older spellings: torch.cholesky, cholesky_solve, cholesky_inverse, qr, svd ---------------------------
CHOLESKY_DEPRECATED = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future PyTorch "
    "release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\nand\nU = "
    "torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\nThis transform will "
    "produce equivalent results for all valid (symmetric positive definite) inputs.")
QR_DEPRECATED = (
    "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.\nThe "
    "boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = torch.qr(A, some)\nshould "
    "be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else 'complete')")


def _bind_cholesky_legacy(self, upper=False):
    messages.warn_once(CHOLESKY_DEPRECATED, stacklevel=4)
    check_square(self, "linalg.cholesky")
    return OPS["cholesky"], (self,), {"upper": upper}, None


op("cholesky", "CholeskyBackward0", ("self",), _cholesky, ("L⁻ᵀ Φ(Lᵀ grad) L⁻¹", _cholesky_grad),
   saves={0: ("result", "upper")}, spell=Spelling(method="cholesky", function="cholesky"),
   bind=_bind_cholesky_legacy)


def _from_factor(L, upper):
    """A = L Lᵀ (or Uᵀ U), in float64."""
    f = _f64(L)
    f = np.triu(f) if upper else np.tril(f)
    ft = np.swapaxes(f, -1, -2)
    return ft @ f if upper else f @ ft


def _cholesky_solve(b, L, upper=False):
    a = _from_factor(L, upper)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    x = np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(_f64(b), batch + b.shape[-2:]))
    return x.astype(np.result_type(b.dtype, L.dtype))


def _bind_cholesky_solve(self, input2, upper=False):
    if self.dim() < 2 or input2.dim() < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {self.dim()} dimensions instead"
                           if self.dim() < 2 else
                           f"u should have at least 2 dimensions, but has {input2.dim()} dimensions instead")
    if self.dtype is not input2.dtype:
        raise RuntimeError(f"Expected b and u to have the same dtype, but found b of type {self.dtype.type_name} "
                           f"and u of type {input2.dtype.type_name} instead.")
    return OPS["cholesky_solve"], (self, input2), {"upper": upper}, result_dtype((self, input2))


def _cholesky_solve_grads(n, g):
    """ATen's cholesky_solve_backward."""
    L, X, upper = n["input2"], n["result"], n.attrs.get("upper", False)
    grad_self = g.cholesky_solve(L, upper)
    common = grad_self.matmul(X.mT)
    common = common + common.mT
    return grad_self, -(L.matmul(common)) if upper else -(common.matmul(L))


op("cholesky_solve", "CholeskySolveBackward0", ("self", "input2"), _cholesky_solve,
   ("(L Lᵀ)⁻¹ grad", lambda n, g: _sum_to(_cholesky_solve_grads(n, g)[0], n._shapes[0])),
   ("−(G + Gᵀ) L, G = ((L Lᵀ)⁻¹ grad) Xᵀ", lambda n, g: _sum_to(_cholesky_solve_grads(n, g)[1], n._shapes[1])),
   saves={0: ("input2", "result", "upper"), 1: ("input2", "result", "upper")},
   spell=Spelling(method="cholesky_solve", function="cholesky_solve"), bind=_bind_cholesky_solve)


def _bind_cholesky_inverse(self, upper=False):
    check_square(self, "cholesky_inverse")
    return OPS["cholesky_inverse"], (self,), {"upper": upper}, None


def _cholesky_inverse_grad(n, g):
    """ATen's cholesky_inverse_backward."""
    L, inverse, upper = n["self"], n["result"], n.attrs.get("upper", False)
    common = inverse.matmul((g + g.mT).matmul(inverse))
    return -(L.matmul(common)) if upper else -(common.matmul(L))


op("cholesky_inverse", "CholeskyInverseBackward0", ("self",),
   lambda L, upper=False: np.linalg.inv(_from_factor(L, upper)).astype(L.dtype),
   ("−(A⁻¹ (grad + gradᵀ) A⁻¹) L", _cholesky_inverse_grad), saves={0: ("self", "result", "upper")},
   spell=Spelling(method="cholesky_inverse", function="cholesky_inverse"), bind=_bind_cholesky_inverse)


@composite(Spelling(method="qr", function="qr"))
def qr(input, some=True):  # noqa: A002 - torch's names
    messages.warn_once(QR_DEPRECATED, stacklevel=4)
    return input._apply(*_bind_qr(input, "reduced" if some else "complete"))


@composite(Spelling(method="svd", function="svd"))
def svd(input, some=True, compute_uv=True):  # noqa: A002
    """torch.svd: U, S and V (not Vh); without compute_uv, U and V zero-filled."""
    U, S, Vh = input._apply(*_bind_svd(input, not some))
    if not compute_uv:
        m, k = input.shape[-2], input.shape[-1]
        zeros = type(S)._make
        return (zeros(np.zeros(tuple(input.shape[:-2]) + (m, m), S.dtype.np), S.dtype), S,
                zeros(np.zeros(tuple(input.shape[:-2]) + (k, k), S.dtype.np), S.dtype))
    return U, S, Vh.mT
