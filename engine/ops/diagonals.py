"""Matrices assembled on diagonals: block_diag, diag_embed, diag, diagflat; built as ATen builds them (the same
nodes)."""
import math

import numpy as np

from .. import dtypes
from .table import OPS, Spelling, composite, op, result_dtype


# --- block_diag ------------------------------------------------------------------------------------------------
def _as_2d(shape):
    return (1, 1) if len(shape) == 0 else (1, shape[0]) if len(shape) == 1 else tuple(shape)


def _block_diag(*arrays):
    shapes = [_as_2d(a.shape) for a in arrays]
    out = np.zeros((sum(s[0] for s in shapes), sum(s[1] for s in shapes)),
                   dtype=np.result_type(*arrays) if arrays else np.float32)
    r = c = 0
    for a, (h, w) in zip(arrays, shapes):
        out[r:r + h, c:c + w] = a.reshape(h, w)
        r, c = r + h, c + w
    return out


def _block_grad(n, g, i):
    shapes = [_as_2d(s) for s in n._shapes]
    r = sum(s[0] for s in shapes[:i])
    c = sum(s[1] for s in shapes[:i])
    h, w = shapes[i]
    block = g.narrow(0, r, h).narrow(1, c, w)
    ndim = len(n._shapes[i])
    if ndim == 2:
        return block
    if ndim == 0:
        return block.squeeze(-1).squeeze(-1)
    return block.squeeze(-1) if w == 1 else block.reshape(n._shapes[i])  # torch's squeeze(-1), then sum_to its size


def _bind_block_diag(*tensors):
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
    return OPS["block_diag"], tuple(tensors), None, result_dtype(tensors) if tensors else dtypes.float32


def _block_diag_numel(arrays, attrs):
    shapes = [(1, 1) if a.ndim == 0 else (1, a.shape[0]) if a.ndim == 1 else a.shape for a in arrays]
    return sum(s[0] for s in shapes) * sum(s[1] for s in shapes)


op("block_diag", "BlockDiagBackward0", ("tensors",), _block_diag, ("grad's block i", _block_grad), variadic=True,
   numel=_block_diag_numel,
   spell=Spelling(function="block_diag", out=False, name=lambda s, a: f"torch.block_diag({', '.join(s)})"),
   bind=_bind_block_diag)


# --- diag_embed, diag, diagflat ---------------------------------------------------------------------------------
def _diag_embed(a, offset, dim1, dim2):
    n = a.shape[-1] + abs(offset) if a.ndim else abs(offset) + 1
    nd = a.ndim + 1
    d1, d2 = dim1 % nd, dim2 % nd
    rest = list(a.shape[:-1])
    shape = []
    it = iter(rest)
    for d in range(nd):
        shape.append(n if d in (d1, d2) else next(it))
    out = np.zeros(shape, a.dtype)
    _diagonal_view(out, offset, d1, d2)[...] = a
    return out


def _diagonal_view(a, offset, dim1, dim2):
    return OPS["diagonal"].forward(a, offset, dim1, dim2)


def _bind_diag_embed(self, offset=0, dim1=-2, dim2=-1):
    nd = self.dim() + 1
    if self._dim(dim1, nd) == self._dim(dim2, nd):
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return OPS["diag_embed"], (self,), {"offset": offset, "dim1": dim1, "dim2": dim2}, None


op("diag_embed", "DiagEmbedBackward0", ("self",), _diag_embed,
   ("grad's diagonal", lambda n, g: g.diagonal(n.attrs["offset"], n.attrs["dim1"], n.attrs["dim2"])),
   saves={0: ("dim1", "dim2", "offset")}, spell=Spelling(method="diag_embed", function="diag_embed", out=False),
   bind=_bind_diag_embed,
   numel=lambda arrays, attrs: math.prod(arrays[0].shape[:-1]) * (arrays[0].shape[-1] + abs(attrs["offset"])) ** 2)


@composite(Spelling(method="diag", function="diag"))
def diag(self, diagonal=0):
    if self.dim() == 1:
        return self.diag_embed(diagonal)
    if self.dim() == 2:
        _, inputs, attrs, dtype = OPS["diagonal"].bind(self, diagonal)
        return self._apply(OPS["diagonal_copy"], inputs, attrs, dtype)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.dim()}D")


@composite(Spelling(method="diagflat", function="diagflat", out=False))
def diagflat(self, offset=0):
    return self.contiguous().view(-1).diag_embed(offset)


@composite(Spelling(method="fill_diagonal_"))
def fill_diagonal_(self, fill_value, wrap=False):
    """ATen's fill_diagonal_: the main diagonal as an as_strided view, filled (and, for a tall matrix with wrap,
    the diagonals after it, N + 1 rows apart), so the graph is torch's CopySlices."""
    dims = self.dim()
    if dims < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = self.shape[0], self.shape[1]
    if dims > 2 and any(s != height for s in self.shape[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    offset, stride = self.storage_offset(), sum(self.stride())
    size = min(height, width)
    self.as_strided([size], [stride], offset).fill_(fill_value)
    if wrap and dims == 2 and height > width + 1:
        step = width + 1
        wrap_size = (self.numel() + step - 1) // step - size
        self.as_strided([wrap_size], [stride], offset + self.stride(0) * (width + 1)).fill_(fill_value)
    return self
