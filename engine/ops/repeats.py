"""Copies made by repeating or masking a tensor: repeat, repeat_interleave, tril/triu; with ATen's nodes and
derivatives."""

import numpy as np

from .. import dtypes
from .table import OPS, Spelling, composite, method, op, shape_args


# --- repeat --------------------------------------------------------------------------------------------
def _repeat_grad(n, g):
    """ATen's repeat_backward: the leading repeated dims summed one at a time, then one reshape to (repeat, size) per
    repeated dim and one sum over the repeats (zeros when a repeat is 0)."""
    reps = n.attrs["repeats"]
    shape = tuple(n._shapes[0])
    if 0 in reps:
        return g._new(np.zeros(shape, g.dtype.np), g.dtype)
    for _ in range(len(reps) - len(shape)):
        g = g.sum(0)
    split, dims = [], []
    for r, s in zip(reps[len(reps) - len(shape):], shape):
        if r != 1:
            split.append(r)
            dims.append(len(split) - 1)
        split.append(s)
    return g.reshape(split).sum(tuple(dims)) if dims else g


def _bind_repeat(self, *sizes):
    if not sizes:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    given = sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes
    wrong = next((s for s in given if not isinstance(s, int) and not hasattr(s, "__index__")), None)
    if wrong is not None:
        raise TypeError(f"repeat(): argument 'repeats' (position 1) must be tuple of ints, not {type(wrong).__name__}")
    sizes = shape_args(sizes)
    if len(sizes) < self._data.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    target = [r * s for r, s in zip(sizes, (1,) * (len(sizes) - self._data.ndim) + tuple(self.shape))]
    negative = next((t for t in target if t < 0), None)
    if negative is not None:
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {negative}: [{', '.join(map(str, target))}]")
    return OPS["repeat"], (self,), {"repeats": sizes}, None


op("repeat", "RepeatBackward0", ("self",), lambda a, repeats: np.tile(a, repeats),
   ("grad summed over the copies", _repeat_grad), saves={0: ("repeats[]", "self_sym_sizes")},
   spell=Spelling(method="repeat"), bind=_bind_repeat)


def _triangle_bind(which):
    def bind(self, diagonal=0):
        if self._data.ndim < 2:
            raise RuntimeError(f"{which}: input tensor must have at least 2 dimensions")
        return OPS[which], (self,), {"diagonal": int(diagonal)}, None
    return bind


def _triangle(which, node, keep):
    op(which, node, ("self",), lambda a, diagonal: np.where(keep(a.shape[-2:], diagonal), a, a.dtype.type(0)),
       (f"{which}(grad, diagonal)", lambda n, g: getattr(g, which)(n.attrs["diagonal"])),
       saves={0: ("diagonal",)}, spell=method(which, inplace=True), bind=_triangle_bind(which))


_triangle("tril", "TrilBackward0", lambda shape, k: np.tri(*shape, k=k, dtype=bool))
_triangle("triu", "TriuBackward0", lambda shape, k: ~np.tri(*shape, k=k - 1, dtype=bool))


@composite(Spelling(method="repeat_interleave", function="repeat_interleave", out=False))
def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
    if repeats is None:  # torch.repeat_interleave(counts): each index repeated counts[i] times
        if self.dtype.is_floating_point or self.dtype is dtypes.bool:
            raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{self.dtype.type_name}'")
        if self.dim() != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        if (self._data < 0).any():
            raise RuntimeError("repeats can not be negative")
        counts = self._data.astype(np.intp)  # np.repeat takes intp counts (int32 in Pyodide)
        return self._new(np.repeat(np.arange(len(counts), dtype=self.dtype.np), counts), self.dtype)
    x, d = (self.reshape(-1), 0) if dim is None else (self, self._dim(dim))
    if isinstance(repeats, int):
        if repeats < 0:
            raise RuntimeError("Repeats must be non-negative")
        shape = x.shape
        spread = x.unsqueeze(d + 1).expand(*shape[:d + 1], repeats, *shape[d + 1:]).clone()
        return spread.view(*shape[:d], shape[d] * repeats, *shape[d + 1:])
    counts = repeats._data.reshape(-1).astype(np.intp)
    n = x.shape[d] if x.dim() else 1
    if counts.size == 1:
        counts = np.repeat(counts, n)
    elif counts.size != n:
        raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                           f"{counts.size} and input.size({d}) = {n}")
    if (counts < 0).any():
        raise RuntimeError("repeats can not be negative")
    picks = np.repeat(np.arange(n, dtype=np.int64), counts)
    return x.index_select(0 if dim is None else dim, self._new(picks, dtypes.int64))
