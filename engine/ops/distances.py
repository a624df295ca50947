"""ATen's norm(self, p, dim, keepdim) as C++ composites call it (NormBackward1: pairwise_distance and the
triplet losses), for any p; Tensor.norm itself is linalg_vector_norm (reductions.py)."""
import numpy as np

from .table import Spelling, op


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
    if not a["keepdim"]:
        r, g = r.unsqueeze(a["dim"][0]), g.unsqueeze(a["dim"][0])
    if p == 0:
        return x * 0
    if p == 1:
        return x.sgn() * g
    if p in (float("inf"), float("-inf")):
        hit = (x.abs() == r)
        return x.sgn() * hit * g / hit.sum(a["dim"][0], keepdim=True)
    if p == 2:
        return x * (g / r).masked_fill(r == 0, 0)
    scale = (g / r.pow(p - 1)).masked_fill(r == 0, 0)
    return x * x.abs().pow(p - 2) * scale


op("norm_p", "NormBackward1", ("self",), lambda a, p, dim, keepdim: _pnorm(a, p, dim[0], keepdim),
   ("self · |self|^(p−2) / result^(p−1) · grad", _pnorm_grad),
   saves={0: ("self", "result", "p", "dim[]", "keepdim")}, bind=False,
   spell=Spelling(name=lambda s, a: f"{s[0]}.norm({a['p']!r}, {a['dim'][0]}"
                  + (", keepdim=True)" if a["keepdim"] else ")")))
