"""Broadcasting and its kin: broadcast_to, broadcast_tensors, meshgrid, cartesian_prod, combinations; built as ATen
builds them (the same nodes)."""
import itertools

import numpy as np

from .. import dtypes, messages
from .arranging import _tensors
from .table import OPS, Spelling, composite


# --- broadcasting ----------------------------------------------------------------------------------------------
@composite(Spelling(method="broadcast_to", function="broadcast_to", out=False))
def broadcast_to(self, size):
    return self.expand(tuple(size))


@composite(Spelling(function="broadcast_tensors", out=False))
def broadcast_tensors(*tensors):
    ts = _tensors(tensors)
    shape = tuple(np.broadcast_shapes(*(tuple(t.shape) for t in ts)))
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in ts)


@composite(Spelling(function="meshgrid", out=False))
def meshgrid(*tensors, indexing=None):
    ts = _tensors(tensors)
    if indexing is None:
        messages.warn_once("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                           "argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in ts:
        if t.dim() > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: " + str(t))
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t.numel() for t in ts)
    out = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        out.append(t.view(*view).expand(shape))
    if swap:
        out[0], out[1] = out[1], out[0]
    return tuple(out)


@composite(Spelling(function="cartesian_prod", out=False))
def cartesian_prod(*tensors):
    ts = _tensors(tensors)
    for t in ts:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(ts) == 1:
        return ts[0]
    grids = meshgrid(*ts, indexing="ij")
    return _stack([g.flatten() for g in grids], 1)


def _stack(ts, dim):
    op_, inputs, attrs, dtype = OPS["stack"].bind(ts, dim)
    return ts[0]._apply(op_, inputs, attrs, dtype)


@composite(Spelling(function="combinations", out=False))
def combinations(self, r=2, with_replacement=False):
    if self.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(self.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return self._new(np.zeros(0, self.dtype.np), self.dtype)
    n = self.numel()
    grids = meshgrid(*([self] * r), indexing="ij")
    idx = np.indices((n,) * r)
    mask = np.ones((n,) * r, bool)
    for a, b in itertools.pairwise(idx):
        mask &= (a <= b) if with_replacement else (a < b)
    mask_t = self._new(mask, dtypes.bool)
    return _stack([g.masked_select(mask_t) for g in grids], 1)
