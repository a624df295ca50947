"""torch's older spellings of the factorizations: torch.cholesky, cholesky_solve, cholesky_inverse, qr, svd (with
their deprecation warnings), each with ATen's node and derivative."""
import numpy as np

from .. import memory, messages
from .decompositions import _bind_qr, _bind_svd, _cholesky, _cholesky_grad, _f64, _sum_to, check_square
from .matrix_functions import _solve_triangular
from .statistics import returned
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
    if self.dtype.is_floating_point:
        check_square(self, "cholesky")
    else:
        check_square(self, "cholesky", dtype=False)
        raise NotImplementedError(f"\"cholesky_cpu\" not implemented for '{self.dtype.type_name}'")
    return OPS["cholesky"], (self,), {"upper": upper}, None


def _cholesky_legacy(a, upper=False):
    """torch.cholesky: linalg's factor, by columns; an empty input gives an empty row-major result."""
    return np.empty(a.shape, a.dtype) if a.size == 0 else _cholesky(a, upper)


op("cholesky", "CholeskyBackward0", ("self",), _cholesky_legacy, ("L⁻ᵀ Φ(Lᵀ grad) L⁻¹", _cholesky_grad),
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
    return memory.column_major(x, np.result_type(b.dtype, L.dtype))  # LAPACK's potrs, on a column-major copy of b


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
   lambda L, upper=False: memory.column_major(np.linalg.inv(_from_factor(L, upper)), L.dtype),  # LAPACK's potri
   ("−(A⁻¹ (grad + gradᵀ) A⁻¹) L", _cholesky_inverse_grad), saves={0: ("self", "result", "upper")},
   spell=Spelling(method="cholesky_inverse", function="cholesky_inverse", out="direct"), bind=_bind_cholesky_inverse)


@composite(Spelling(method="qr", function="qr"))
def qr(input, some=True):  # noqa: A002 - torch's names
    messages.warn_once(QR_DEPRECATED, stacklevel=4)
    return returned("qr", ("Q", "R"))(*input._apply(*_bind_qr(input, "reduced" if some else "complete")))


@composite(Spelling(method="svd", function="svd"))
def svd(input, some=True, compute_uv=True):  # noqa: A002
    """torch.svd: U, S and V (not Vh); without compute_uv, U and V zero-filled."""
    if input.dim() < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {input.dim()} dimensions "
                           "instead")
    U, S, Vh = input._apply(*_bind_svd(input, not some))
    if not compute_uv:
        m, k = input.shape[-2], input.shape[-1]
        zeros = type(S)._make
        batch = tuple(input.shape[:-2])
        return returned("svd", ("U", "S", "V"))(zeros(np.zeros(batch + (m, m), S.dtype.np), S.dtype), S,
                                                zeros(np.zeros(batch + (k, k), S.dtype.np), S.dtype))
    return returned("svd", ("U", "S", "V"))(U, S, Vh.mT)


# --- torch.triangular_solve ---------------------------------------------------------------------------------------
TRIANGULAR_SOLVE_DEPRECATED = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be removed in a future "
    "PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not return a copy of one "
    "of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced with\nX = "
    "torch.linalg.solve_triangular(A, B).")


def _triangular_solve(b, a, upper=True, transpose=False, unitriangular=False):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a_b = np.broadcast_to(a, batch + a.shape[-2:])
    b_b = np.broadcast_to(b, batch + b.shape[-2:])
    coefficient = np.swapaxes(a_b, -1, -2) if transpose else a_b
    x = _solve_triangular(coefficient, b_b, upper != transpose, unitriangular=unitriangular)
    return x, memory.column_major(a_b, a.dtype)


def _triangular_attrs(n):
    a = n.attrs
    return a.get("upper", True), a.get("transpose", False), a.get("unitriangular", False)


def _triangular_solve_b(n, grads):
    """ATen's triangular_solve_backward: gB = op(A)⁻ᵀ gX."""
    upper, transpose, unit = _triangular_attrs(n)
    if grads[0] is None:
        return None
    return grads[0]._op("triangular_solve", n["A"], upper=upper, transpose=not transpose, unitriangular=unit)[0]


def _triangular_solve_a(n, grads):
    """gA = −gB Xᵀ (X gBᵀ when transposed) on A's triangle, plus the copy's grad (X solved again here)."""
    gX, gM = grads
    upper, transpose, unit = _triangular_attrs(n)
    gA = None
    if gX is not None:
        A = n["A"]
        X = n["self"]._op("triangular_solve", A, upper=upper, transpose=transpose, unitriangular=unit)[0]
        gB = gX._op("triangular_solve", A, upper=upper, transpose=not transpose, unitriangular=unit)[0]
        gA = -(X.matmul(gB.mT)) if transpose else -(gB.matmul(X.mT))
        gA = gA.triu(int(unit)) if upper else gA.tril(-int(unit))
    if gM is not None:
        gA = gM if gA is None else gA + gM
    return gA


def _summed(fn, i):
    def vjp(n, grads):
        g = fn(n, grads)
        return None if g is None else _sum_to(g, n._shapes[i])

    return vjp


op("triangular_solve", "TriangularSolveBackward0", ("self", "A"), _triangular_solve,
   ("op(A)⁻ᵀ grad_solution", _summed(_triangular_solve_b, 0)),
   ("−(op(A)⁻ᵀ grad) Xᵀ on A's triangle + grad_cloned_coefficient", _summed(_triangular_solve_a, 1)),
   saves={0: ("A", "upper", "transpose", "unitriangular"), 1: ("self", "A", "upper", "transpose", "unitriangular")},
   several=True, bind=False,
   spell=Spelling(name=lambda s, a: f"torch.triangular_solve({s[0]}, {s[1]}, upper={a.get('upper', True)}, "
                                    f"transpose={a.get('transpose', False)}, unitriangular="
                                    f"{a.get('unitriangular', False)})[{a.get('output', 0)}]"))


@composite(Spelling(method="triangular_solve", function="triangular_solve"))
def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False):  # noqa: A002, N803
    messages.warn_once(TRIANGULAR_SOLVE_DEPRECATED, stacklevel=4)
    if input.dim() < 2 or A.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: The input tensor {'B' if input.dim() < 2 else 'A'} must have at "
                           "least 2 dimensions.")
    check_square(A, "torch.triangular_solve")
    if A.shape[-1] != input.shape[-2]:
        raise RuntimeError(f"torch.triangular_solve: Incompatible shapes of A and B for the equation AX = B "
                           f"({A.shape[-2]}x{A.shape[-1]} and {input.shape[-2]}x{input.shape[-1]})")
    if A.dtype is not input.dtype:
        raise RuntimeError(f"torch.triangular_solve: Expected b and A to have the same dtype, but found b of type "
                           f"{input.dtype.type_name} and A of type {A.dtype.type_name} instead.")
    attrs = {"upper": bool(upper), "transpose": bool(transpose), "unitriangular": bool(unitriangular)}
    X, M = input._apply(OPS["triangular_solve"], (input, A), attrs, result_dtype((input, A)))
    return returned("triangular_solve", ["solution", "cloned_coefficient"])(X, M)

