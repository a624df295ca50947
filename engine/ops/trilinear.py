"""ATen's _trilinear as F.bilinear calls it (TrilinearBackward0): each input unsqueezed at its expand dims, the three
multiplied and summed over sumdim (bilinear: out[b, o] = Σ_ij x1[b, i] · w[o, i, j] · x2[b, j]); its grads are
_trilinear calls again (TrilinearBackward0 under create_graph, as ATen's _trilinear_backward)."""
import numpy as np

from .table import Spelling, op


def _forward(i1, i2, i3, expand1, expand2, expand3, sumdim):
    wide = np.float64 if i1.dtype == np.float32 else i1.dtype
    terms = [np.expand_dims(t.astype(wide), tuple(e)) for t, e in ((i1, expand1), (i2, expand2), (i3, expand3))]
    out = (terms[0] * terms[1] * terms[2]).sum(axis=tuple(sumdim))
    return np.ascontiguousarray(out, dtype=i1.dtype)


def _grad(n, g, i):
    """_trilinear_backward: the grad takes input i's place, unsqueezed at sumdim, and input i's expand dims are
    summed."""
    a = n.attrs
    names = ("i1", "i2", "i3")
    expands = [a["expand1"], a["expand2"], a["expand3"]]
    tensors = [g if k == i else n[names[k]] for k in range(3)]
    sumdim, expands[i] = expands[i], a["sumdim"]
    return tensors[0]._op("trilinear", tensors[1], tensors[2], expand1=expands[0], expand2=expands[1],
                          expand3=expands[2], sumdim=sumdim)


_ATTRS = ("expand1", "expand2", "expand3", "sumdim")
op("trilinear", "TrilinearBackward0", ("i1", "i2", "i3"), _forward,
   ("_trilinear(grad, i2, i3) summed over expand1", lambda n, g: _grad(n, g, 0)),
   ("_trilinear(i1, grad, i3) summed over expand2", lambda n, g: _grad(n, g, 1)),
   ("_trilinear(i1, i2, grad) summed over expand3", lambda n, g: _grad(n, g, 2)),
   saves={0: ("i2", "i3", *_ATTRS), 1: ("i1", "i3", *_ATTRS), 2: ("i1", "i2", *_ATTRS)},
   bind=False, spell=Spelling(name=lambda s, a: f"torch._trilinear({s[0]}, {s[1]}, {s[2]}, {list(a['expand1'])}, "
                                                f"{list(a['expand2'])}, {list(a['expand3'])}, {list(a['sumdim'])})"))
