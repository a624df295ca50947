"""Writes into a region of a tensor: copy_, index assignment, and in-place ops on views.

PyTorch records them as CopySlices on the base (engine/graph.py): outside the written region the grad goes to
the base's old grad_fn, inside it through the inner op's node; a view of a base written in place becomes an
AsStridedBackward0 of the base. `region` is a function from the base's array to the view's array.
"""
import numpy as np

from .table import OPS, Spelling, op


def region_grad(node, grad):
    """CopySlices: the written region's grad goes through the inner op, the rest to the old base."""
    region = node._region
    inner = node._inner._apply(grad._op("take_region", region=region))
    base = None
    if node._need[0]:
        base = grad._op("zero_region", region=region)
        if inner[0] is not None:
            base = base + inner[0]._op("put_region", region=region, shape=node._shapes[0])
    return (base,) + inner[1:]


def _zero_region_fwd(g, region):
    out = g.copy()
    region(out)[...] = 0
    return out


def _put_region_fwd(g, region, shape):
    out = np.zeros(shape, dtype=g.dtype)
    region(out)[...] = g
    return out


op("copy", "CopyBackwards", ("self", "src"), lambda a, src: np.broadcast_to(src, a.shape),
   ("0", lambda n, g: g * 0),
   ("grad of the written region", lambda n, g: g), spell=Spelling(inplace="copy_"),
   bind=lambda self, src: (OPS["copy"], (self, src), None, self.dtype))  # copy_ casts to self's dtype
op("index_put", "IndexPutBackward0", ("self", "values"), None,
   ("grad with the indexed entries zeroed", lambda n, g: g._op("zero_region", region=n.attrs["region"])),
   ("grad at the indices", lambda n, g: g._op("take_region", region=n.attrs["region"])),
   saves={0: ("indices", "accumulate"), 1: ("indices", "accumulate")})
op("as_strided", "AsStridedBackward0", ("base",), None,
   ("grad placed in the view's region of zeros",
    lambda n, g: g._op("put_region", region=n.attrs["region"], shape=n._shapes[0])),
   saves={0: ("size[]", "stride[]", "storage_offset")})
op("zero_region", "CopySlicesBackward0", ("grad",), _zero_region_fwd,
   ("grad with the region zeroed", lambda n, g: g._op("zero_region", region=n.attrs["region"])))
op("take_region", "AsStridedBackward1", ("grad",), lambda g, region: np.array(region(g)),
   ("grad placed in the region of zeros",
    lambda n, g: g._op("put_region", region=n.attrs["region"], shape=n._shapes[0])))
op("put_region", "AsStridedScatterBackward0", ("grad",), _put_region_fwd,
   ("grad taken from the region", lambda n, g: g._op("take_region", region=n.attrs["region"])))
