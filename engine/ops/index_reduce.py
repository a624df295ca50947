"""index_reduce: scatter_reduce along one dim at a vector of positions, with ATen's derivative."""

import numpy as np

from .. import dtypes, messages
from .scatter import _ones_like, _scatter_reduce, _vector_index, _zeros_like
from .table import OPS, Spelling, op

# --- index_reduce: scatter_reduce along one dim at a vector of positions -------------------------------------
_INDEX_REDUCE = ("prod", "mean", "amax", "amin")


def _element_index(self_shape, dim, positions, source_shape):
    """index_reduce's vector of positions as scatter_reduce's index: one per element of source."""
    shape = [1] * len(source_shape)
    shape[dim] = len(positions)
    return np.broadcast_to(positions.reshape(shape), source_shape).astype(np.int64)


def _index_reduce(a, source, dim, index, positions, reduce, include_self, element):
    messages.warn_once("index_reduce() is in beta and the API may change at any time.", stacklevel=6)  # the kernel's
    return _scatter_reduce(a, source, dim, index=element, reduce=reduce, include_self=include_self)


def _bind_index_reduce(self, dim, index, source, reduce, *, include_self=True):
    if reduce not in _INDEX_REDUCE:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    d, positions = _vector_index("index_reduce_", self, dim, index)
    if source.dtype is not self.dtype:
        raise RuntimeError(f"index_reduce_(): self ({self.dtype.type_name}) and source ({source.dtype.type_name}) "
                           "must have the same scalar type")
    element = self._new(_element_index(self.shape, d, positions, tuple(source.shape) or (1,)), dtypes.int64)
    attrs = {"dim": dim, "index": index, "positions": positions, "reduce": reduce, "include_self": include_self,
             "element": element}
    return OPS["index_reduce"], (self, source), attrs, self.dtype


def _index_reduce_grads(n, g):
    """ATen's index_reduce_backward: (grad of self, grad of source), along dim at the index's positions."""
    a = n.attrs
    dim, index, reduce, include_self = a["dim"], a["index"], a["reduce"], a["include_self"]
    self, source, result = n["self"], n["source"], n["result"]
    if reduce == "prod":  # zeros in self or source: the product of the others, worked out again
        masked_self = self.masked_fill(self == 0, 1)
        masked_self_result = masked_self.index_reduce(dim, index, source, reduce, include_self=include_self)
        grad_self = g * masked_self_result / masked_self
        src_zero = source == 0
        src_num_zeros = _zeros_like(self).index_add(dim, index, src_zero.to(self.dtype)).index_select(dim, index)
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src = source.masked_fill(src_single_zero, 1)
        masked_src_result = self.index_reduce(dim, index, masked_src, reduce, include_self=include_self)
        grad_src = (g * masked_src_result).index_select(dim, index).where(
            src_single_zero, (g * result).index_select(dim, index) / source.masked_fill(src_zero, 1))
    elif reduce == "mean":
        counts = (_ones_like(g) if include_self else _zeros_like(g)).index_add(dim, index, _ones_like(source))
        counts = counts.masked_fill(counts == 0, 1)
        grad_self = g / counts
        grad_src = g.index_select(dim, index) / counts.index_select(dim, index)
    else:  # amax, amin: shared evenly by the values equal to the result
        value = result.index_select(dim, index)
        self_is_result = (self == result).to(self.dtype)
        source_is_result = (source == value).to(self.dtype)
        shared = g / self_is_result.index_add(dim, index, source_is_result)
        grad_self = self_is_result * shared
        grad_src = source_is_result * shared.index_select(dim, index)
    if not include_self:
        grad_self = grad_self.index_fill(dim, index, 0)
    return grad_self, grad_src


op("index_reduce", "IndexReduceBackward0", ("self", "source"), _index_reduce,
   ("grad where self's value is in the result (ATen's index_reduce_backward)",
    lambda n, g: _index_reduce_grads(n, g)[0]),
   ("grad where source's value is in the result", lambda n, g: _index_reduce_grads(n, g)[1]),
   saves={0: ("dim", "include_self", "index", "reduce", "result", "self", "source"),
          1: ("dim", "include_self", "index", "reduce", "result", "self", "source")},
   spell=Spelling(method="index_reduce", function="index_reduce", inplace="index_reduce_"),
   bind=_bind_index_reduce)
