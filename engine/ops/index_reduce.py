"""index_reduce: scatter_reduce along one dim at a vector of positions, with ATen's derivative."""

import numpy as np

from .. import dtypes, messages
from .scatter import _scatter_reduce, _scatter_reduce_grads, _vector_index
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


class _AsScatter:
    """An index_reduce node read as scatter_reduce's backward reads its node (index per element)."""

    def __init__(self, n):
        self.n = n
        self.attrs = {**n.attrs, "dim": n.attrs["dim"] % max(len(n._shapes[0]), 1), "index": n.attrs["element"]}

    def __getitem__(self, name):
        return self.n["source" if name == "src" else name]


op("index_reduce", "IndexReduceBackward0", ("self", "source"), _index_reduce,
   ("grad where self's value is in the result (ATen's index_reduce_backward)",
    lambda n, g: _scatter_reduce_grads(_AsScatter(n), g)[0]),
   ("grad where source's value is in the result", lambda n, g: _scatter_reduce_grads(_AsScatter(n), g)[1]),
   saves={0: ("dim", "include_self", "index", "reduce", "result", "self", "source"),
          1: ("dim", "include_self", "index", "reduce", "result", "self", "source")},
   spell=Spelling(method="index_reduce", function="index_reduce", inplace="index_reduce_"),
   bind=_bind_index_reduce)
