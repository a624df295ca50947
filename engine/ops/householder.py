"""Householder reflectors: torch.geqrf (LAPACK geqr2's QR as reflectors) and torch.linalg.householder_product
(orgqr: the product of the reflectors), with the product's derivative by the product rule over its factors.
Both run in float64 and round once, so they do not depend on the LAPACK numpy links."""
import numpy as np

from .. import memory
from .statistics import returned
from .table import OPS, Spelling, composite, op


# --- torch.geqrf ----------------------------------------------------------------------------------------------------
def householder_qr(a):
    """LAPACK geqr2 in float64: (R above the diagonal and the reflectors' vectors below it, tau), each reflector
    H = I − τ v vᵀ made as dlarfg makes it (β = −sign(α) ‖x‖, τ = (β − α) / β, v = x / (α − β))."""
    m, n = a.shape[-2:]
    batch = int(np.prod(a.shape[:-2], dtype=np.int64))
    r = np.array(a, dtype=np.float64).reshape((batch, m, n))
    k = min(m, n)
    tau = np.zeros((batch, k))
    for j in range(k):
        alpha = r[:, j, j].copy()
        xnorm = np.sqrt((r[:, j + 1:, j] ** 2).sum(-1))
        reflect = xnorm != 0
        beta = np.where(reflect, -np.copysign(np.hypot(alpha, xnorm), alpha), alpha)
        scale = np.where(reflect, alpha - beta, 1.0)
        tau[:, j] = np.where(reflect, (beta - alpha) / np.where(reflect, beta, 1.0), 0.0)
        r[:, j + 1:, j] /= scale[:, None]
        r[:, j, j] = beta
        v = np.concatenate([np.ones((batch, 1)), r[:, j + 1:, j]], axis=1)
        block = r[:, j:, j + 1:]
        r[:, j:, j + 1:] = block - tau[:, j, None, None] * v[:, :, None] * (v[:, None, :] @ block)
    return r.reshape(a.shape), tau.reshape(a.shape[:-2] + (k,))


def _geqrf(a):
    r, tau = householder_qr(a)
    return memory.column_major(r, a.dtype), tau.astype(a.dtype)


def _geqrf_grad(n, grads):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


op("geqrf", "GeqrfBackward0", ("self",), _geqrf, ("not implemented", _geqrf_grad), several=True, bind=False,
   spell=Spelling(name=lambda s, a: f"torch.geqrf({s[0]})[{a.get('output', 0)}]"))


@composite(Spelling(method="geqrf", function="geqrf"))
def geqrf(input):  # noqa: A002
    if input.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"torch.geqrf: Expected a floating point or complex tensor as input. Got "
                           f"{input.dtype.type_name}")
    a, tau = input._apply(OPS["geqrf"], (input,), None, None)
    return returned("geqrf", ["a", "tau"])(a, tau)


# --- torch.linalg.householder_product ---------------------------------------------------------------------------
def _householder_product(a, tau):
    """Q = H₀ H₁ … H_{k−1} E (E: the first n columns of the identity), H_i = I − τ_i v_i v_iᵀ, v_i the unit lower
    column i of a."""
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    V = np.tril(np.asarray(a, np.float64), -1) + np.eye(m, n)
    t = np.asarray(tau, np.float64)
    Q = np.broadcast_to(np.eye(m, n), a.shape).copy()
    for i in reversed(range(k)):
        v = V[..., :, i:i + 1]
        Q = Q - t[..., i, None, None] * v * (np.swapaxes(v, -1, -2) @ Q)
    return memory.column_major(Q, a.dtype)


def _householder_grads(n, g):
    return householder_grads(n["input"], n["tau"], g)


def householder_grads(A, tau, g):
    """Each factor's share: with M_i = (H₀…H_{i−1})ᵀ grad (H_{i+1}…H_{k−1} E)ᵀ, grad τ_i = −v_iᵀ M_i v_i and
    grad v_i = −τ_i (M_i + M_iᵀ) v_i (its entries below the diagonal are input's)."""
    m, c = A.shape[-2], A.shape[-1]
    k = tau.shape[-1]
    if k == 0:  # no reflector: torch gives no grad at all
        return None, None
    eye = type(A)._make(np.eye(m, c, dtype=A.dtype.np), A.dtype)
    V = A.tril(-1) + eye
    vs = [V.narrow(-1, i, 1) for i in range(k)]
    ts = [tau.narrow(-1, i, 1).unsqueeze(-1) for i in range(k)]

    def reflect(i, X):
        return X - ts[i] * vs[i].matmul(vs[i].mT.matmul(X))

    right = [None] * (k + 1)
    right[k] = eye
    for i in reversed(range(k)):
        right[i] = reflect(i, right[i + 1])
    left_g = g
    columns, taus = [], []
    for i in range(k):
        M = left_g.matmul(right[i + 1].mT)
        Mv, Mtv = M.matmul(vs[i]), M.mT.matmul(vs[i])
        taus.append(-(vs[i].mT.matmul(Mv)))
        columns.append(-ts[i] * (Mv + Mtv))
        left_g = reflect(i, left_g)
    zeros = type(A)._make(np.zeros(tuple(A.shape[:-1]) + (c - k,), A.dtype.np), A.dtype)
    gA = columns[0]._op("cat", *columns[1:], zeros, dim=-1)
    gtau = type(tau)._make(np.zeros(tau.shape, tau.dtype.np), tau.dtype)
    for i in range(k):  # torch copies each into its place: the grad's node is CopySlices
        gtau.select(-1, i).copy_(taus[i].squeeze(-1).squeeze(-1))
    return gA.tril(-1), gtau


op("linalg_householder_product", "LinalgHouseholderProductBackward0", ("input", "tau"), _householder_product,
   ("Σ_i −τ_i (M_i + M_iᵀ) v_i, below the diagonal", lambda n, g: _householder_grads(n, g)[0]),
   ("−v_iᵀ M_i v_i", lambda n, g: _householder_grads(n, g)[1]),
   saves={0: ("input", "tau", "result"), 1: ("input", "tau", "result")}, bind=False,
   spell=Spelling(name="torch.linalg.householder_product({0}, {1})"))


@composite(Spelling(linalg="householder_product", function="orgqr", method="orgqr"))
def householder_product(input, tau):  # noqa: A002
    name = "torch.linalg.householder_product"
    if input.dim() < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if input.shape[-2] < input.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if input.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if input.dtype is not tau.dtype:
        raise RuntimeError(f"{name}: tau dtype {tau.dtype.type_name} does not match input dtype "
                           f"{input.dtype.type_name}")
    return input._apply(OPS["linalg_householder_product"], (input, tau), None, None)


# --- torch.ormqr: the product of the reflectors' full Q (m × m) with another matrix ---------------------------------
def _full_q(a, tau):
    """Q = H₀ H₁ … H_{k−1} (m × m) in float64, H_i = I − τ_i v_i v_iᵀ, v_i the unit lower column i of a."""
    m = a.shape[-2]
    k = tau.shape[-1]
    V = np.tril(np.asarray(a, np.float64)[..., :, :k], -1) + np.eye(m, k)
    t = np.asarray(tau, np.float64)
    Q = np.broadcast_to(np.eye(m), a.shape[:-2] + (m, m)).copy()
    for i in reversed(range(k)):
        v = V[..., :, i:i + 1]
        Q = Q - t[..., i, None, None] * v * (np.swapaxes(v, -1, -2) @ Q)
    return Q


def _ormqr(a, tau, c, left, transpose):
    Q = _full_q(a, tau)
    if transpose:
        Q = np.swapaxes(Q, -1, -2)
    out = Q @ np.asarray(c, np.float64) if left else np.asarray(c, np.float64) @ Q
    return memory.column_major(out, c.dtype)


def _ormqr_reflector_grads(n, g):
    """Q's grad (g Cᵀ, C gᵀ, Cᵀ g or gᵀ C as Q, Qᵀ stand left or right of C) taken through the reflectors of the
    input's first columns, viewed as an m × m input (householder_grads), and back to the input's n columns."""
    A, tau, C = n["self"], n["input2"], n["input3"]
    if not tau.numel():  # no reflector (or an empty batch): torch gives no grad at all
        return None, None
    left, transpose = n.attrs["left"], n.attrs["transpose"]
    if left:
        dq = C.matmul(g.mT) if transpose else g.matmul(C.mT)
    else:
        dq = g.mT.matmul(C) if transpose else C.mT.matmul(g)
    m, cols = A.shape[-2], A.shape[-1]
    if cols >= m:
        square = A.narrow(-1, 0, m)
    else:
        square = A._op("cat", A._new(np.zeros(tuple(A.shape[:-1]) + (m - cols,), A.dtype.np), A.dtype), dim=-1)
    ga, gtau = householder_grads(square, tau, dq)
    if ga is None:
        return None, None
    if cols >= m:
        ga = ga._op("cat", ga._new(np.zeros(tuple(A.shape[:-1]) + (cols - m,), A.dtype.np), A.dtype), dim=-1)
    else:
        ga = ga.narrow(-1, 0, cols)
    return ga, gtau


def _bind_ormqr(input, input2, input3, left=True, transpose=False):  # noqa: A002
    name = "torch.ormqr"
    if input.dim() < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if input3.dim() < 2:
        raise RuntimeError(f"{name}: other must have at least 2 dimensions.")
    side = -2 if left else -1
    if input2.shape[-1] > min(input3.shape[side], input.shape[-1]):
        raise RuntimeError(f"{name}: tau.shape[-1] must be equal to min(other.shape[-2], input.shape[-1])")
    if input3.shape[side] != input.shape[-2]:
        raise RuntimeError(f"{name}: other.shape[{side}] must be equal to input.shape[-2]")
    if input.dim() - input2.dim() != 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but got tau.ndim equal to "
                           f"{input2.dim()} and input.ndim is equal to {input.dim()}")
    if input.dim() != input3.dim():
        raise RuntimeError(f"{name}: Expected other to have the same number of dimensions as input, but got "
                           f"other.ndim equal to {input3.dim()} and input.ndim is equal to {input.dim()}")
    for t, what in ((input2, "tau"), (input3, "other")):
        if t.dtype is not input.dtype:
            raise RuntimeError(f"{name}: Expected input and {what} to have the same dtype, but input has dtype "
                               f"{input.dtype.type_name} and {what} has dtype {t.dtype.type_name}")
    return OPS["ormqr"], (input, input2, input3), {"left": bool(left), "transpose": bool(transpose)}, input3.dtype


op("ormqr", "OrmqrBackward0", ("self", "input2", "input3"), _ormqr,
   ("Q's grad through the reflectors (as householder_product's)", lambda n, g: _ormqr_reflector_grads(n, g)[0]),
   ("Q's grad through τ (as householder_product's)", lambda n, g: _ormqr_reflector_grads(n, g)[1]),
   ("ormqr(self, input2, grad, left, not transpose)",
    lambda n, g: g._apply(OPS["ormqr"], (n["self"], n["input2"], g),
                          {"left": n.attrs["left"], "transpose": not n.attrs["transpose"]}, g.dtype)),
   saves={0: ("self", "input2", "input3", "left", "transpose", "result"),
          1: ("self", "input2", "input3", "left", "transpose", "result"),
          2: ("self", "input2", "left", "transpose")},
   spell=Spelling(method="ormqr", function="ormqr"), bind=_bind_ormqr)
