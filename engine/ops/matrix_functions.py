"""Matrix functions of torch and torch.linalg besides the factorizations, each its own node with ATen's
derivatives: trace, vdot, addmv, addr, addbmm, cross, dist, renorm, solve_triangular, pinv."""
import warnings

import numpy as np

from .. import dtypes, memory
from ..kernels import exact
from .complex_numbers import conj_of
from .decompositions import check_square
from .linalg import dot_check
from .reductions import norm_grad
from .table import OPS, Spelling, composite, op, result_dtype


def _times(x, k):
    return x if k == 1 else x * k


def _sum_to(t, shape):
    return t if tuple(t.shape) == tuple(shape) else t.sum_to_size(shape)


def _constant(like, array):
    """A constant tensor of like's dtype (no grad), for the identity and ones the composites need."""
    return type(like)._make(np.asarray(array, dtype=like.dtype.np), like.dtype)


# --- trace, vdot ------------------------------------------------------------------------------------------------
def _bind_trace(self):
    if self.dtype.name == "bool":
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if self.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self.dim()}")
    return OPS["trace"], (self,), None, None


op("trace", "TraceBackward0", ("self",), lambda a: np.trace(a).astype(a.dtype),
   ("grad · I", lambda n, g: g * _constant(g, np.eye(*n._shapes[0]))), saves={0: ("self_sym_sizes",)},
   spell=Spelling(method="trace", function="trace"), bind=_bind_trace)


def _bind_vdot(self, other):
    dot_check(self, other)
    return OPS["vdot"], (self, other), None, None


op("vdot", "VdotBackward0", ("self", "other"), lambda a, b: exact.matmul(np.conjugate(a), b) + 0,
   ("conj(grad) · other", lambda n, g: conj_of(g) * n["other"]), ("self · grad", lambda n, g: n["self"] * g),
   saves={0: ("other",), 1: ("self",)}, spell=Spelling(method="vdot", function="vdot"), bind=_bind_vdot)


# --- addmv, addr, addbmm: β · self + α · product ---------------------------------------------------------------
def _scaled_sum(c, product, beta, alpha):
    product = product if alpha == 1 else product * product.dtype.type(alpha)
    if beta == 0:
        return np.broadcast_to(product, np.broadcast_shapes(c.shape, product.shape)).copy()
    return (c if beta == 1 else c * c.dtype.type(beta)) + product


def _addr(c, a, b, beta, alpha):
    """β·self + α·vec1⊗vec2; of bfloat16 values, ATen's kernel rounds each product and the sum to bfloat16."""
    if not dtypes.computing_reduced():
        return _scaled_sum(c, np.multiply.outer(a, b), beta, alpha)
    r = dtypes.round_bfloat16
    alpha, beta = r(np.float32(alpha)), r(np.float32(beta))  # the scalars as bfloat16 (Scalar.to<scalar_t>)
    product = r(np.multiply.outer(r(alpha * a), b))
    if beta == 0:
        return np.broadcast_to(product, np.broadcast_shapes(c.shape, product.shape)).copy()
    return r(r(beta * c) + product)


def _bind_addmv(self, mat, vec, *, beta=1, alpha=1):
    if mat.dim() != 2 or vec.dim() != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {self.dim()}, {mat.dim()}, {vec.dim()}")
    if mat.shape[1] != vec.shape[0] or (self.dim() == 1 and self.shape[0] not in (1, mat.shape[0])):
        raise RuntimeError(f"size mismatch, got input ({self.shape[0] if self.dim() else 1}), mat "
                           f"({mat.shape[0]}x{mat.shape[1]}), vec ({vec.shape[0]})")
    if not (self.dtype is mat.dtype is vec.dtype):
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {self.dtype.type_name}, "
                           f"{mat.dtype.type_name}, and {vec.dtype.type_name}")
    inputs = (self, mat, vec)
    return OPS["addmv"], inputs, {"beta": beta, "alpha": alpha}, result_dtype(inputs)


op("addmv", "AddmvBackward0", ("self", "mat", "vec"),
   lambda c, m, v, beta=1, alpha=1: _scaled_sum(c, exact.matmul(m, v), beta, alpha),
   ("β · grad", lambda n, g: _sum_to(_times(g, n.attrs["beta"]), n._shapes[0])),
   ("α · grad ⊗ vec", lambda n, g: _times(g.unsqueeze(1) * n["vec"].unsqueeze(0), n.attrs["alpha"])),
   ("α · matᵀ grad", lambda n, g: _times(n["mat"].t().mv(g), n.attrs["alpha"])),
   saves={0: ("beta",), 1: ("vec", "alpha"), 2: ("mat", "alpha")},
   spell=Spelling(method="addmv", function="addmv", inplace="addmv_", inplace_function="addmv_", inplace_sizes=True),
   bind=_bind_addmv)


def _bind_addr(self, vec1, vec2, *, beta=1, alpha=1):
    if vec1.dim() != 1 or vec2.dim() != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {vec1.dim()}-D" if vec1.dim() != 1 else
                           f"addr: Expected 1-D argument vec2, but got {vec2.dim()}-D")
    inputs = (self, vec1, vec2)
    return OPS["addr"], inputs, {"beta": beta, "alpha": alpha}, result_dtype(inputs)


op("addr", "AddrBackward0", ("self", "vec1", "vec2"),
   lambda c, a, b, beta=1, alpha=1: _addr(c, a, b, beta, alpha),
   ("β · grad", lambda n, g: _sum_to(_times(g, n.attrs["beta"]), n._shapes[0])),
   ("α · grad vec2", lambda n, g: _times(g.mv(n["vec2"]), n.attrs["alpha"])),
   ("α · gradᵀ vec1", lambda n, g: _times(g.t().mv(n["vec1"]), n.attrs["alpha"])),
   saves={0: ("beta",), 1: ("vec2", "alpha"), 2: ("vec1", "alpha")},
   spell=Spelling(method="addr", function="addr", inplace="addr_", inplace_sizes=lambda t, inputs, attrs: (
       f"2D tensor expected, got {t.dim()}D tensor for input" if t.dim() != 2 else
       f"size mismatch, input: {list(t.shape)}, v1: {list(inputs[1].shape)}, v2: {list(inputs[2].shape)}")),
   bind=_bind_addr)


def _expanded_into_resized(a, shape):
    """ATen's addbmm_out into self: self expanded to the result's shape is copied, element by element in order, into
    self's storage resized to that shape; an element read from storage the copy already wrote (a self of shape
    (n, 1)) reads the new value."""
    expanded = np.broadcast_to(a, shape)
    reads = np.zeros(shape, np.int64)
    for d, stride in enumerate(expanded.strides):
        index = np.arange(shape[d], dtype=np.int64) * (stride // a.itemsize)
        reads = reads + index.reshape([-1 if i == d else 1 for i in range(len(shape))])
    reads = reads.ravel()
    out = np.zeros(reads.size, a.dtype)
    out[:a.size] = np.ascontiguousarray(a).ravel()
    if np.all(reads >= np.arange(reads.size)):  # nothing is read after it was written: a plain broadcast
        return np.ascontiguousarray(expanded)
    for p, r in enumerate(reads.tolist()):
        out[p] = out[r]
    return out.reshape(shape)


def _bind_addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    if batch1.dim() != 3 or batch2.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if batch1.dim() != 3 else "batch2 must be a 3D tensor")
    if batch1.shape[0] != batch2.shape[0] or batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x{batch1.shape[2]} and "
                           f"{batch2.shape[1]}x{batch2.shape[2]})")
    for a, b, names in ((self, batch2, "self and mat2"), (batch1, batch2, "mat1 and mat2")):
        if a.dtype is not b.dtype:
            raise RuntimeError(f"{names} must have the same dtype, but got {a.dtype.type_name} and {b.dtype.type_name}")
    inputs = (self, batch1, batch2)
    return OPS["addbmm"], inputs, {"beta": beta, "alpha": alpha}, result_dtype(inputs)


op("addbmm", "AddbmmBackward0", ("self", "batch1", "batch2"),
   lambda c, a, b, beta=1, alpha=1: _scaled_sum(c, exact.matmul(a, b).sum(0), beta, alpha),
   ("β · grad", lambda n, g: _sum_to(_times(g, n.attrs["beta"]), n._shapes[0])),
   ("α · grad batch2ᵢᵀ", lambda n, g: _times(g.unsqueeze(0).expand(n._shapes[1][0], *g.shape).bmm(
       n["batch2"].transpose(1, 2)), n.attrs["alpha"])),
   ("α · batch1ᵢᵀ grad", lambda n, g: _times(n["batch1"].transpose(1, 2).bmm(
       g.unsqueeze(0).expand(n._shapes[1][0], *g.shape)), n.attrs["alpha"])),
   saves={0: ("beta",), 1: ("batch2", "alpha"), 2: ("batch1", "alpha")},
   spell=Spelling(method="addbmm", function="addbmm", inplace="addbmm_", inplace_resize=_expanded_into_resized),
   bind=_bind_addbmm)


# --- cross ------------------------------------------------------------------------------------------------------
def _bind_cross(self, other, *, dim=-1):
    if self.dim() != other.dim():
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = self._dim(dim)
    if self.shape[d] != 3 or other.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {self.shape[d]} and "
                           f"{other.shape[d]}")
    return OPS["linalg_cross"], (self, other), {"dim": d}, result_dtype((self, other))


def _cross(a, b, dim):
    """a × b along dim; of bfloat16 values, each product and difference rounded to bfloat16 as ATen's kernel."""
    if not dtypes.computing_reduced():
        return np.cross(a, b, axis=dim)
    r = dtypes.round_bfloat16
    a, b = np.broadcast_arrays(np.moveaxis(a, dim, -1), np.moveaxis(b, dim, -1))
    out = np.stack([r(r(a[..., (i + 1) % 3] * b[..., (i + 2) % 3]) - r(a[..., (i + 2) % 3] * b[..., (i + 1) % 3]))
                    for i in range(3)], axis=-1)
    return np.moveaxis(out, -1, dim)


op("linalg_cross", "LinalgCrossBackward0", ("self", "other"),
   lambda a, b, dim: np.array(_cross(a, b, dim), np.result_type(a, b), order="C"),  # a new tensor
   ("other × grad", lambda n, g: _sum_to(n["other"]._op("linalg_cross", g, dim=n.attrs["dim"]), n._shapes[0])),
   ("grad × self", lambda n, g: _sum_to(g._op("linalg_cross", n["self"], dim=n.attrs["dim"]), n._shapes[1])),
   saves={0: ("other", "dim"), 1: ("self", "dim")}, spell=Spelling(linalg="cross"), bind=_bind_cross)


@composite(Spelling(method="cross", function="cross"))
def cross(input, other, dim=None):  # noqa: A002 - torch's names
    """torch.cross: linalg.cross along dim, or (deprecated) along the first dim of size 3."""
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                      "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree "
                      "with that of linalg.cross in a future release.", UserWarning, stacklevel=3)
        dim = next((i for i, s in enumerate(input.shape) if s == 3), -1)
    return input._apply(*_bind_cross(input, other, dim=dim)[:3], result_dtype((input, other)))


# --- dist, renorm -----------------------------------------------------------------------------------------------
def _bind_dist(self, other, p=2):
    return OPS["dist"], (self, other), {"p": p}, result_dtype((self, other), "float")


def _dist(a, b, p):
    return OPS["norm"].forward(np.asarray(a - b), ord=p)


def _dist_grad(n, g, sign):
    diff = n["self"] - n["other"]
    grad = norm_grad(diff, n["result"], g, n.attrs["p"])
    return _sum_to(grad if sign > 0 else -grad, n._shapes[0 if sign > 0 else 1])


op("dist", "DistBackward0", ("self", "other"), _dist,
   ("∂‖self − other‖_p/∂self · grad", lambda n, g: _dist_grad(n, g, 1)),
   ("−∂‖self − other‖_p/∂self · grad", lambda n, g: _dist_grad(n, g, -1)),
   saves={0: ("self", "other", "p", "result"), 1: ("self", "other", "p", "result")},
   spell=Spelling(method="dist", function="dist"), bind=_bind_dist)


def _renorm(a, p, dim, maxnorm):
    rest = tuple(d for d in range(a.ndim) if d != dim)
    norm = OPS["norm"].forward(a, dim=rest, keepdim=True, ord=p).astype(np.float64)
    factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
    return (a * factor).astype(a.dtype)


def _renorm_grad(n, g):
    """ATen's renorm_backward."""
    x, p, dim, maxnorm = n["self"], n.attrs["p"], n.attrs["dim"], n.attrs["maxnorm"]
    rest = tuple(d for d in range(x.dim()) if d != dim)
    norm = x._op("norm", dim=rest, keepdim=True, ord=p)
    nb = norm_grad(x, norm, (x * g).sum(rest, keepdim=True), p)
    invnorm = (norm + 1e-7).reciprocal()
    factor = invnorm * maxnorm
    return (factor * g - (factor * invnorm) * nb).where(norm > maxnorm, g)


def _bind_renorm(self, p, dim, maxnorm):
    if p < 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    if self.dim() <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {self.dim()} dimensions")
    return OPS["renorm"], (self,), {"p": p, "dim": self._dim(dim), "maxnorm": maxnorm}, None


op("renorm", "RenormBackward0", ("self",), _renorm, ("ATen's renorm_backward", _renorm_grad),
   saves={0: ("self", "p", "dim", "maxnorm")}, spell=Spelling(method="renorm", function="renorm", inplace="renorm_"),
   bind=_bind_renorm)


# --- solve_triangular, pinv --------------------------------------------------------------------------------------
def _solve_triangular(a, b, upper, left=True, unitriangular=False):
    a64 = np.triu(a.astype(np.float64)) if upper else np.tril(a.astype(np.float64))
    if unitriangular:
        a64 = a64 - np.eye(a.shape[-1]) * np.diagonal(a64, axis1=-2, axis2=-1)[..., None, :] + np.eye(a.shape[-1])
    b64 = b.astype(np.float64)
    if left:
        x = np.linalg.solve(np.broadcast_to(a64, np.broadcast_shapes(a64.shape[:-2], b64.shape[:-2]) + a64.shape[-2:]),
                            b64)
    else:
        at = np.swapaxes(a64, -1, -2)
        bt = np.swapaxes(b64, -1, -2)
        x = np.swapaxes(np.linalg.solve(np.broadcast_to(at, np.broadcast_shapes(at.shape[:-2], bt.shape[:-2])
                                                        + at.shape[-2:]), bt), -1, -2)
    return memory.column_major(x, np.result_type(a.dtype, b.dtype))


def _bind_solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    check_square(A, "linalg.solve_triangular")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"linalg.solve_triangular: Expected A and B to have the same dtype, but found A of type "
                           f"{A.dtype.type_name} and B of type {B.dtype.type_name} instead")
    if B.dim() < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 dimensions.")
    n = A.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    attrs = {"upper": upper, "left": left, "unitriangular": unitriangular}
    return OPS["linalg_solve_triangular"], (A, B), attrs, result_dtype((A, B))


def _triangular_grads(n, g):
    A, X = n["self"], n["result"]
    upper, left, unit = n.attrs["upper"], n.attrs["left"], n.attrs["unitriangular"]
    gB = A.mT._op("linalg_solve_triangular", g, upper=not upper, left=left, unitriangular=unit)
    gA = -(gB.matmul(X.mT)) if left else -(X.mT.matmul(gB))
    gA = gA.triu(int(unit)) if upper else gA.tril(-int(unit))
    return gA, gB


op("linalg_solve_triangular", "LinalgSolveTriangularBackward0", ("self", "B"), _solve_triangular,
   ("−(A⁻ᵀ grad) Xᵀ, on A's triangle", lambda n, g: _sum_to(_triangular_grads(n, g)[0], n._shapes[0])),
   ("A⁻ᵀ grad", lambda n, g: _sum_to(_triangular_grads(n, g)[1], n._shapes[1])),
   saves={0: ("self", "result", "upper", "left", "unitriangular"),
          1: ("self", "result", "upper", "left", "unitriangular")},
   spell=Spelling(linalg="solve_triangular", name=lambda s, a: f"torch.linalg.solve_triangular({s[0]}, {s[1]}, "
                  f"upper={a['upper']}, left={a['left']}, unitriangular={a['unitriangular']})"),
   bind=_bind_solve_triangular)


def _pinv(a, atol=None, rtol=None, hermitian=False):
    a64 = a.astype(np.float64)
    if hermitian:  # from eigh of the lower triangle, as torch: |λ| as the singular values
        lam, v = np.linalg.eigh(a64)
        u, s, vh = v * np.sign(np.where(lam == 0, 1, lam))[..., None, :], np.abs(lam), np.swapaxes(v, -1, -2)
    else:
        u, s, vh = np.linalg.svd(a64, full_matrices=False)
    smax = s.max(-1, keepdims=True) if s.shape[-1] else np.zeros(s.shape[:-1] + (1,))
    if atol is None and rtol is None:
        rtol = np.finfo(a.dtype).eps * max(a.shape[-2:])
    tol = np.maximum(0.0 if atol is None else atol, (0.0 if rtol is None else rtol) * smax)
    keep = s > tol
    s_inv = np.where(keep, 1 / np.where(keep, s, 1), 0)
    return (np.swapaxes(vh, -1, -2) * s_inv[..., None, :]) @ np.swapaxes(u, -1, -2)


def _bind_pinv(A, *, atol=None, rtol=None, hermitian=False):
    if A.dim() < 2 or not A.dtype.is_floating_point:
        raise RuntimeError(f"linalg.pinv({A.dtype.type_name}{{{list(A.shape)}}}): expected a tensor with 2 or more "
                           "dimensions of float, double, cfloat or cdouble types")
    return OPS["linalg_pinv"], (A,), {"atol": atol, "rtol": rtol, "hermitian": hermitian}, None


def _pinv_grad(n, g):
    return pinv_backward(g, n["result"], n["self"])


def pinv_backward(g, pinvA, A):  # noqa: N803
    """ATen's pinv_backward, by the smaller of A's dims."""
    m, k = A.shape[-2], A.shape[-1]
    pinvAh, gradh = pinvA.mT, g.mT
    if m <= k:
        K = gradh.matmul(pinvA)
        KpinvAh = K.matmul(pinvAh)
        return (-(pinvA.matmul(K)).mT + KpinvAh - A.matmul(pinvA).matmul(KpinvAh)
                + pinvAh.matmul(pinvA).matmul(gradh - K.matmul(A)))
    K = pinvA.matmul(gradh)
    pinvAhK = pinvAh.matmul(K)
    return (-(K.matmul(pinvA)).mT + (gradh - A.matmul(K)).matmul(pinvA).matmul(pinvAh) + pinvAhK
            - pinvAhK.matmul(pinvA).matmul(A))


op("linalg_pinv", "LinalgPinvBackward0", ("self",), lambda a, **k: _pinv(a, **k).astype(a.dtype),
   ("ATen's pinv_backward", _pinv_grad), saves={0: ("self", "result")},
   spell=Spelling(linalg="pinv"), bind=_bind_pinv)


@composite(Spelling(method="pinverse", function="pinverse"))
def pinverse(input, rcond=1e-15):  # noqa: A002
    _bind_pinv(input)
    return input._apply(OPS["linalg_pinv"], (input,), {"atol": None, "rtol": rcond, "hermitian": False}, None)
