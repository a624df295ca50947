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
    """Each factor's share: with M_i = (H₀…H_{i−1})ᵀ grad (H_{i+1}…H_{k−1} E)ᵀ, grad τ_i = −v_iᵀ M_i v_i and
    grad v_i = −τ_i (M_i + M_iᵀ) v_i (its entries below the diagonal are input's)."""
    A, tau = n["input"], n["tau"]
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
