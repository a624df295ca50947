"""Special functions: lgamma, digamma, polygamma, erfinv (the kernels are engine/kernels/special.py), and atanh
(correctly rounded: within an ulp of SLEEF's, which torch runs)."""
import math

import numpy as np

from ..kernels import special
from ..kernels.elementwise import correctly_rounded
from .table import OPS, Spelling, op, result_dtype, unary


def _float(a):
    return a if a.dtype.kind == "f" else a.astype(np.float32)


op("lgamma", "LgammaBackward0", ("self",), lambda a: special.lgamma(_float(a)),
   ("ψ(self) · grad", lambda n, g: g * n["self"].digamma()), saves={0: ("self",)}, dtype="float",
   spell=unary("lgamma", inplace=False))
op("digamma", "DigammaBackward0", ("self",), lambda a: special.digamma(_float(a)),
   ("ψ′(self) · grad", lambda n, g: g * n["self"].polygamma(1)), saves={0: ("self",)}, dtype="float",
   spell=unary("digamma", inplace=False))
op("erfinv", "ErfinvBackward0", ("self",), lambda a: special.erfinv(_float(a)),
   ("√π/2 · exp(erfinv(self)²) · grad", lambda n, g: g * (n["self"].erfinv().pow(2).exp() * (math.sqrt(math.pi) / 2))),
   saves={0: ("self",)}, dtype="float", spell=unary("erfinv", inplace=False))


def _bind_polygamma(a, b):
    """torch.polygamma(n, x) and x.polygamma(n)."""
    n, self = (a, b) if isinstance(a, (int, np.integer)) and not hasattr(a, "_data") else (b, a)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return OPS["polygamma"], (self,), {"n": int(n)}, result_dtype((self,), "float")


op("polygamma", "PolygammaBackward0", ("self",), lambda a, n: special.polygamma(n, _float(a)),
   ("ψ⁽ⁿ⁺¹⁾(self) · grad", lambda n, g: g * n["self"].polygamma(n.attrs["n"] + 1)), saves={0: ("n", "self")},
   spell=Spelling(method="polygamma", function="polygamma", number_first="bind", name="{0}.polygamma({n})"),
   bind=_bind_polygamma)
op("atanh", "AtanhBackward0", ("self",), lambda a: correctly_rounded(np.arctanh, _float(a)),
   ("grad / (1 − self²)", lambda n, g: g / (1 - n["self"].pow(2))), saves={0: ("self",)}, dtype="float",
   spell=unary("atanh", inplace=False))
