"""ATen's norm(self, p, dim, keepdim) as C++ composites call it (NormBackward1: pairwise_distance and the
triplet losses, torch.frobenius_norm), for any p, over one dim or several; Tensor.norm itself is
linalg_vector_norm (reductions.py)."""
import numpy as np

from .table import OPS, Spelling, op


def _pnorm(a, p, dim, keepdim):
    x = np.abs(np.asarray(a, dtype=np.float64))
    if p == float("inf"):
        out = np.max(x, axis=dim, keepdims=keepdim)
    elif p == float("-inf"):
        out = np.min(x, axis=dim, keepdims=keepdim)
    elif p == 0:
        out = np.sum(x != 0, axis=dim, keepdims=keepdim).astype(np.float64)
    elif p == 1:
        out = np.sum(x, axis=dim, keepdims=keepdim)
    elif p == 2:
        out = np.sqrt(np.sum(x * x, axis=dim, keepdims=keepdim))
    else:
        out = np.sum(x ** p, axis=dim, keepdims=keepdim) ** (1.0 / p)
    return np.asarray(out).astype(a.dtype)


def _pnorm_grad(n, g):
    """ATen's norm_backward: sign(self)·grad for p = 1, self·|self|^(p−2)·grad / result^(p−1) (0 where the norm is
    0), and for p = ±∞ the grad shared among the elements at the extreme."""
    a = n.attrs
    x, r, p = n["self"], n["result"], a["p"]
    dims = sorted(d % max(x.dim(), 1) for d in a["dim"])
    if not a["keepdim"]:
        for d in dims:
            r, g = r.unsqueeze(d), g.unsqueeze(d)
    if p == 0:
        return x * 0
    if p == 1:
        return x.sgn() * g
    if p in (float("inf"), float("-inf")):
        hit = (x.abs() == r)
        return x.sgn() * hit * g / hit.sum(dims, keepdim=True)
    if p == 2:
        return x * (g / r).masked_fill(r == 0, 0)
    scale = (g / r.pow(p - 1)).masked_fill(r == 0, 0)
    return x * x.abs().pow(p - 2) * scale


op("norm_p", "NormBackward1", ("self",), lambda a, p, dim, keepdim: _pnorm(a, p, tuple(dim), keepdim),
   ("self · |self|^(p−2) / result^(p−1) · grad", _pnorm_grad),
   saves={0: ("self", "result", "p", "dim[]", "keepdim")}, bind=False,
   spell=Spelling(name=lambda s, a: f"{s[0]}.norm({a['p']!r}, "
                  f"{a['dim'][0] if len(a['dim']) == 1 else list(a['dim'])}"
                  + (", keepdim=True)" if a["keepdim"] else ")")))


# --- pdist ------------------------------------------------------------------------------------------------------
def _pairs(n):
    return np.triu_indices(n, 1)


def _pdist(a, p):
    """‖row i − row j‖_p for each i < j, in row-major order of the pairs."""
    i, j = _pairs(a.shape[0])
    if i.size == 0:
        return np.zeros(0, a.dtype)
    return _pnorm(a[i] - a[j], p, 1, False).astype(a.dtype)


def _pdist_backward(g, x, pdist, p):
    """ATen's _pdist_backward: each pair's grad · ∂‖x_i − x_j‖_p, added to row i and taken from row j."""
    i, j = _pairs(x.shape[0])
    out = np.zeros_like(x)
    if i.size == 0 or p == 0:
        return out
    diff, dist, gg = x[i] - x[j], pdist[:, None], g[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 1:
            local = gg * np.sign(diff)
        elif p == 2:
            local = np.where(dist == 0, 0, gg * diff / dist)
        elif p == float("inf"):
            local = gg * np.sign(diff) * (np.abs(diff) == dist)
        elif p < 2:
            local = np.where((dist == 0) | ((diff == 0) & (p < 1)), 0,
                             np.sign(diff) * np.abs(diff) ** (p - 1) * gg / dist ** (p - 1))
        else:
            local = np.where(dist == 0, 0, diff * np.abs(diff) ** (p - 2) * gg / dist ** (p - 1))
    np.add.at(out, i, local.astype(x.dtype))
    np.add.at(out, j, -local.astype(x.dtype))
    return out


def _pdist_not_differentiable(n, g):
    raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


def _bind_pdist(input, p=2):  # noqa: A002
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return OPS["pdist"], (input,), {"p": float(p)}, None


op("pdist_backward", "PdistBackwardBackward0", ("grad", "self", "pdist"), _pdist_backward,
   ("not implemented", _pdist_not_differentiable), ("not implemented", _pdist_not_differentiable),
   ("not implemented", _pdist_not_differentiable))
op("pdist", "PdistBackward0", ("self",), _pdist,
   ("Σ over the pairs of grad · ∂‖self_i − self_j‖_p", lambda n, g: g._op("pdist_backward", n["self"], n["result"],
                                                                          p=n.attrs["p"])),
   saves={0: ("self", "p", "result")}, spell=Spelling(function="pdist", functional="pdist", out=False),
   bind=_bind_pdist)
