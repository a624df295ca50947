"""ATen's _trilinear as F.bilinear calls it (TrilinearBackward0): out[b, o] = Σ_ij x1[b, i] · w[o, i, j] · x2[b, j]."""
import numpy as np

from .table import Spelling, op


def _forward(x1, w, x2, expand1, expand2, expand3, sumdim):
    wide = np.float64 if x1.dtype == np.float32 else x1.dtype
    out = np.einsum("bi,oij,bj->bo", x1.astype(wide), w.astype(wide), x2.astype(wide))
    return np.ascontiguousarray(out, dtype=x1.dtype)


def _g(g):
    return g.unsqueeze(2).unsqueeze(3)  # (B, O, 1, 1)


op("trilinear", "TrilinearBackward0", ("i1", "i2", "i3"), _forward,
   ("Σ_o,j grad[b, o] · i2[o, i, j] · i3[b, j]",
    lambda n, g: (_g(g) * n["i2"].unsqueeze(0) * n["i3"].unsqueeze(1).unsqueeze(1)).sum((1, 3))),
   ("Σ_b grad[b, o] · i1[b, i] · i3[b, j]",
    lambda n, g: (_g(g) * n["i1"].unsqueeze(1).unsqueeze(3) * n["i3"].unsqueeze(1).unsqueeze(1)).sum(0)),
   ("Σ_o,i grad[b, o] · i1[b, i] · i2[o, i, j]",
    lambda n, g: (_g(g) * n["i2"].unsqueeze(0) * n["i1"].unsqueeze(1).unsqueeze(3)).sum((1, 2))),
   saves={0: ("i2", "i3", "expand1", "expand2", "expand3", "sumdim"),
          1: ("i1", "i3", "expand1", "expand2", "expand3", "sumdim"),
          2: ("i1", "i2", "expand1", "expand2", "expand3", "sumdim")},
   bind=False, spell=Spelling(name="torch._trilinear({0}, {1}, {2}, [1, 3], [0], [1, 2], [2, 3])"))
