"""Ops that read or write along a dim at the positions an index tensor holds: index_select, index_add,
index_copy, index_fill (along one dim, a vector of indices), gather, scatter, scatter_add (an index per
element). Their in-place twins (`x.index_add_(…)`) come from the same declarations."""
import numpy as np

from .. import dtypes, messages
from .table import OPS, Spelling, op, same_dtype_out


def _sizes(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def _at(ndim, dim, index):
    """The numpy key of the positions `index` (a vector) along dim."""
    return (slice(None),) * dim + (index,)


def _vector_index(name, self, dim, index):
    """index_* ops' index: int64/int32, at most 1-d, in range along dim; returns (dim, its int64 array)."""
    dim = self._dim(dim)
    if not hasattr(index, "_data") or index.dtype.is_floating_point or index.dtype is dtypes.bool:
        got = index.dtype.type_name if hasattr(index, "_data") else type(index).__name__
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index but got: {got}")
    if index.dim() > 1:
        raise RuntimeError(f"{name}(): Index is supposed to be a vector")
    size = self.shape[dim] if self.dim() else 1
    idx = index._data.reshape(-1).astype(np.int64)
    bad = idx[(idx < -size) | (idx >= size)]
    if bad.size:
        raise RuntimeError(f"index {int(bad[0])} is out of bounds for dimension {dim} with size {size}")
    return dim, (idx % size if size else idx).astype(np.intp)  # np.take wants the platform's index type (wasm32)


def _source_check(name, self, dim, idx, source):
    if source.dtype is not self.dtype and name == "index_copy_":
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{self.dtype.type_name} and (source) {source.dtype.type_name}")
    if source.dtype is not self.dtype:
        raise RuntimeError(f"{name}(): self ({self.dtype.type_name}) and source ({source.dtype.type_name}) must have "
                           "the same scalar type")
    rest = [s for i, s in enumerate(self.shape) if i != dim]
    if source.dim() and ([s for i, s in enumerate(source.shape) if i != dim] != rest or source.dim() != self.dim()):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. Got "
                           f"self.shape = {_sizes(self.shape)} source.shape = {_sizes(source.shape)}")
    n = source.shape[dim] if source.dim() else 1
    if n != len(idx):
        raise IndexError(f"{name}(): Number of indices ({len(idx)}) should be equal to source.size(dim) ({n})")


def _nd(a):
    """ATen's ensure_nonempty: a 0-d array taken as one of shape (1,)."""
    return a.reshape(1) if isinstance(a, np.ndarray) and not a.ndim else a


def _lifted(forward):
    """A scatter forward on a 0-d self: run on shape (1,), the result back as 0-d."""
    def run(a, *rest, **attrs):
        if a.ndim:
            return forward(a, *rest, **attrs)
        return forward(a.reshape(1), *(_nd(r) for r in rest), **attrs).reshape(())

    return run


# --- index_select ----------------------------------------------------------------------------------------
def _bind_index_select(self, dim, index):
    _, idx = _vector_index("index_select", self, dim, index)  # dim kept as given, as torch's node keeps it
    return OPS["index_select"], (self,), {"dim": dim, "index": index, "positions": idx}, None


op("index_select", "IndexSelectBackward0", ("self",),
   lambda a, dim, index, positions: np.take(a, positions, axis=dim) if a.ndim else a.copy(),
   ("grad added at the index along dim",
    lambda n, g: g._new(np.zeros(n._shapes[0], g.dtype.np), g.dtype).index_add(n.attrs["dim"], n.attrs["index"], g)),
   saves={0: ("dim", "index", "self_sym_sizes")},
   spell=Spelling(method="index_select", function="index_select"), bind=_bind_index_select)


# --- index_add, index_copy ---------------------------------------------------------------------------------
@_lifted
def _index_add(a, source, dim, index, positions, alpha, source_dim):
    out = a.copy()
    src = source if source.ndim else source.reshape((1,) * a.ndim)
    np.add.at(out, _at(a.ndim, dim, positions), src * a.dtype.type(alpha) if alpha != 1 else src)
    return out


def _bind_index_add(self, dim, index, source, *, alpha=1):
    dim, idx = _vector_index("index_add_", self, dim, index)
    _source_check("index_add_", self, dim, idx, source)
    return (OPS["index_add"], (self, source),
            {"dim": dim, "index": index, "positions": idx, "alpha": alpha, "source_dim": source.dim()}, self.dtype)


def _source_grad(n, g):
    a = n.attrs
    picked = g.index_select(a["dim"], a["index"])
    if a["source_dim"] == 0:
        picked = picked.reshape(())
    return picked * a["alpha"] if a.get("alpha", 1) != 1 else picked


op("index_add", "IndexAddBackward0", ("self", "source"), _index_add,
   ("grad", lambda n, g: g),
   ("alpha · grad at the index along dim", _source_grad),
   saves={0: ("alpha", "dim", "source_dim"), 1: ("alpha", "dim", "index", "source", "source_dim")},
   spell=Spelling(method="index_add", function="index_add", inplace="index_add_"), bind=_bind_index_add)


@_lifted
def _index_copy(a, source, dim, index, positions, source_dim):
    out = a.copy()
    out[_at(a.ndim, dim, positions)] = source if source.ndim else source.reshape((1,) * a.ndim)
    return out


def _bind_index_copy(self, dim, index, source):
    dim, idx = _vector_index("index_copy_", self, dim, index)
    _source_check("index_copy_", self, dim, idx, source)
    return (OPS["index_copy"], (self, source), {"dim": dim, "index": index, "positions": idx,
                                                "source_dim": source.dim()}, self.dtype)


op("index_copy", "IndexCopyBackward0", ("self", "source"), _index_copy,
   ("grad, 0 at the index along dim", lambda n, g: g.index_fill(n.attrs["dim"], n.attrs["index"], 0)),
   ("grad at the index along dim", _source_grad),
   saves={0: ("dim", "index", "source_dim"), 1: ("dim", "index", "source", "source_dim")},
   spell=Spelling(method="index_copy", function="index_copy", inplace="index_copy_"), bind=_bind_index_copy)


# --- index_fill ---------------------------------------------------------------------------------------------
@_lifted
def _index_fill(a, dim, index, positions, value):
    out = a.copy()
    out[_at(a.ndim, dim, positions)] = value
    return out


def _bind_index_fill(self, dim, index, value):
    if hasattr(index, "_data") and index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    dim, idx = _vector_index("index_fill_", self, dim, index)
    attrs = {"dim": dim, "index": index, "positions": idx}
    if hasattr(value, "_data"):
        if value.dim():
            raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
        return OPS["index_fill_tensor"], (self, value), attrs, self.dtype
    return OPS["index_fill"], (self,), {**attrs, "value": value}, self.dtype


_FILL = Spelling(method="index_fill", function="index_fill", inplace="index_fill_")
op("index_fill", "IndexFillBackward0", ("self",), _index_fill,
   ("grad, 0 at the index along dim", lambda n, g: g.index_fill(n.attrs["dim"], n.attrs["index"], 0)),
   saves={0: ("dim", "index")}, spell=_FILL, bind=_bind_index_fill)
op("index_fill_tensor", "IndexFillBackward1", ("self", "value"),
   lambda a, v, dim, index, positions: _index_fill(a, dim, index, positions, v),
   ("grad, 0 at the index along dim", lambda n, g: g.index_fill(n.attrs["dim"], n.attrs["index"], 0)),
   ("Σ grad at the index along dim (each position once)",
    lambda n, g: g.index_select(n.attrs["dim"], g._new(np.unique(n.attrs["positions"]), dtypes.int64)).sum()),
   saves={0: ("dim", "index"), 1: ("dim", "index")}, spell=_FILL, bind=_bind_index_fill)


# --- gather, scatter, scatter_add --------------------------------------------------------------------------
def _element_key(index, dim):
    """The numpy key of self's elements that an index tensor (one index per element) points at along dim."""
    index = _nd(index)
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


def _unless_empty(forward):
    """A scatter with an empty index: self, unchanged."""
    def run(a, *rest, index, **attrs):
        return forward(a, *rest, index=index, **attrs) if index._data.size else a.copy()

    return run


def _sizes_nd(t):
    return tuple(t.shape) or (1,)


def _element_index(name, self, dim, index, other=None, other_name="src"):
    """gather's and scatter's index: int64 or int32, with self's number of dims (0-d counting as 1-d), no larger
    than self apart from dim (and than src), in range."""
    dim = self._dim(dim)
    if hasattr(index, "_data") and not index.numel():  # ATen checks nothing of an empty index
        return dim
    if not hasattr(index, "_data") or index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError(f"{'gather' if name == 'gather' else 'scatter'}(): Expected dtype int32/int64 for index")
    if max(index.dim(), 1) != max(self.dim(), 1):
        raise RuntimeError(f"Index tensor must have the same number of dimensions as "
                           f"{'input' if name == 'gather' else 'self'} tensor")
    if other is not None and max(index.dim(), 1) != max(other.dim(), 1):
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {other_name} tensor")
    ishape, sshape = _sizes_nd(index), _sizes_nd(self)
    too_big = any(ishape[d] > sshape[d] for d in range(len(sshape)) if d != dim)
    if other is not None:
        oshape = _sizes_nd(other)
        too_big = too_big or any(ishape[d] > oshape[d] for d in range(len(sshape)))
        if too_big:
            raise RuntimeError(f"Expected index {_sizes(index.shape)} to be no larger than self {_sizes(self.shape)} "
                               f"apart from dimension {dim} and to be no larger size than {other_name} "
                               f"{_sizes(other.shape)}")
    elif too_big:
        bad = next(d for d in range(len(sshape)) if d != dim and ishape[d] > sshape[d])
        raise RuntimeError(f"Size does not match at dimension {bad} expected index {_sizes(index.shape)} to be no "
                           f"larger than self {_sizes(self.shape)} apart from dimension {dim}")
    idx = index._data
    size = self.shape[dim] if self.dim() else 1
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:
        raise RuntimeError(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension {dim} with size {size}")
    return dim


def _bind_gather(self, dim, index, *, sparse_grad=False):
    _element_index("gather", self, dim, index)
    return OPS["gather"], (self,), {"dim": dim, "index": index, "sparse_grad": sparse_grad}, None  # dim as given


op("gather", "GatherBackward0", ("self",),
   lambda a, dim, index, sparse_grad: _nd(a)[_element_key(index._data, dim % max(a.ndim, 1))].reshape(index.shape)
   if index.numel()
   else np.zeros(index.shape, a.dtype),
   ("grad added where index points",
    lambda n, g: g._new(np.zeros(n._shapes[0], g.dtype.np), g.dtype).scatter_add(n.attrs["dim"], n.attrs["index"], g)),
   saves={0: ("dim", "index", "self", "sparse_grad")},
   spell=Spelling(method="gather", function="gather", out_dtype=same_dtype_out), bind=_bind_gather)


def _within(src, index):
    src, index = _nd(src), _nd(index)
    return src[tuple(slice(0, s) for s in index.shape)]


@_lifted
@_unless_empty
def _scatter_src(a, src, dim, index):
    out = a.copy()
    out[_element_key(index._data, dim)] = _within(src, index._data)
    return out


@_lifted
@_unless_empty
def _scatter_value(a, dim, index, value):
    out = a.copy()
    out[_element_key(index._data, dim)] = value
    return out


@_lifted
@_unless_empty
def _scatter_add(a, src, dim, index):
    out = a.copy()
    np.add.at(out, _element_key(index._data, dim), _within(src, index._data))
    return out


_LEGACY = {"add": np.add, "multiply": np.multiply}


def _bind_scatter(self, dim, index, src=None, value=None, *, reduce=None):
    if src is None:
        src = value
    if reduce is not None and hasattr(src, "_data"):
        messages.warn_once("The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in "
                           "a future PyTorch release. Use torch.scatter_reduce instead for more reduction options.",
                           stacklevel=4)
    if reduce is not None and reduce not in _LEGACY:
        raise RuntimeError("reduce argument must be either add or multiply.")
    if hasattr(src, "_data"):
        if src.dtype is not self.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        dim = _element_index("scatter", self, dim, index, src)
        if reduce is not None:
            return OPS["scatter_src_reduce"], (self, src), {"dim": dim, "index": index, "reduce": reduce}, self.dtype
        return OPS["scatter_src"], (self, src), {"dim": dim, "index": index}, self.dtype
    dim = _element_index("scatter", self, dim, index)
    if reduce is not None:
        return (OPS["scatter_value_reduce"], (self,), {"dim": dim, "index": index, "value": src, "reduce": reduce},
                self.dtype)
    return OPS["scatter_value"], (self,), {"dim": dim, "index": index, "value": src}, self.dtype


def _gathered(n, g):
    """grad at the positions index points at (in index's shape: torch's backward, too, fails for a src larger
    than index)."""
    return g.gather(n.attrs["dim"], n.attrs["index"])


def _scattered_zero(n, g):
    return g.scatter(n.attrs["dim"], n.attrs["index"], 0)


_SCATTER = Spelling(method="scatter", function="scatter", inplace="scatter_")
op("scatter_src", "ScatterBackward0", ("self", "src"), _scatter_src,
   ("grad, 0 where index points", _scattered_zero), ("grad where index points", _gathered),
   saves={0: ("dim", "index"), 1: ("dim", "index")}, spell=_SCATTER, bind=_bind_scatter)
op("scatter_value", "ScatterBackward1", ("self",), _scatter_value,
   ("grad, 0 where index points", _scattered_zero), saves={0: ("dim", "index")}, spell=_SCATTER, bind=_bind_scatter)


def _bind_scatter_add(self, dim, index, src):
    if src.dtype is not self.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    dim = _element_index("scatter_add", self, dim, index, src)
    return OPS["scatter_add"], (self, src), {"dim": dim, "index": index}, self.dtype


op("scatter_add", "ScatterAddBackward0", ("self", "src"), _scatter_add,
   ("grad", lambda n, g: g), ("grad where index points", _gathered),
   saves={0: ("dim",), 1: ("dim", "index")},
   spell=Spelling(method="scatter_add", function="scatter_add", inplace="scatter_add_"), bind=_bind_scatter_add)



# --- scatter(…, reduce='add'|'multiply'): torch has no derivative for them -----------------------------------
def _not_implemented(n, g):
    raise RuntimeError(f"derivative for aten::scatter{'_' * n.attrs.get('inplace', False)} is not implemented")


@_lifted
@_unless_empty
def _scatter_legacy(a, src, dim, index, reduce):
    out = a.copy()
    _LEGACY[reduce].at(out, _element_key(index._data, dim), _within(src, index._data))
    return out


op("scatter_src_reduce", "NotImplemented", ("self", "src"), _scatter_legacy,
   ("not implemented", _not_implemented), ("not implemented", _not_implemented), spell=_SCATTER, bind=_bind_scatter)
op("scatter_value_reduce", "NotImplemented", ("self",),
   lambda a, dim, index, value, reduce: _scatter_legacy(a, np.full(index.shape, value, a.dtype), dim, index=index,
                                                        reduce=reduce),
   ("not implemented", _not_implemented), spell=_SCATTER, bind=_bind_scatter)


# --- scatter_reduce: sum, prod, mean, amax, amin, with or without self's values --------------------------------
_REDUCE = {"sum": np.add, "prod": np.multiply, "mean": np.add, "amax": np.fmax, "amin": np.fmin}


def _identity(reduce, dtype):
    """What a position scattered to starts from when self's value is left out."""
    if reduce in ("amax", "amin"):
        if dtype.kind == "f":
            return -np.inf if reduce == "amax" else np.inf
        info = np.iinfo(dtype) if dtype.kind in "iu" else None
        return (info.min if reduce == "amax" else info.max) if info else reduce == "amin"
    return 1 if reduce == "prod" else 0


@_lifted
@_unless_empty
def _scatter_reduce(a, src, dim, index, reduce, include_self):
    key = _element_key(index._data, dim)
    values = _within(src, index._data)
    out = a.copy()
    if not include_self:
        out[key] = _identity(reduce, a.dtype)
    if reduce in ("amax", "amin"):  # NaN wins, as in ATen
        nan = np.zeros(a.shape, bool)
        if a.dtype.kind == "f":
            np.logical_or.at(nan, key, np.isnan(values))
            nan |= np.isnan(out)
        _REDUCE[reduce].at(out, key, values)
        return np.where(nan, np.nan, out) if nan.any() else out
    _REDUCE[reduce].at(out, key, values)
    if reduce == "mean":
        counts = np.full(a.shape, 1 if include_self else 0, np.int64)
        np.add.at(counts, key, 1)
        counts = np.maximum(counts, 1)
        return out // counts.astype(a.dtype) if a.dtype.kind in "iub" else out / counts.astype(a.dtype)
    return out


def _bind_scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
    if not isinstance(include_self, bool):
        raise TypeError(f"scatter_reduce(): argument 'include_self' must be bool, not {type(include_self).__name__}")
    if src.dtype is not self.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    dim = self._dim(dim)
    if reduce not in _REDUCE:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    dim = _element_index("scatter_reduce", self, dim, index, src)
    return (OPS["scatter_reduce"], (self, src), {"dim": dim, "index": index, "reduce": reduce,
                                                 "include_self": include_self}, self.dtype)


def _zeros_like(t):
    return t._new(np.zeros(t.shape, t.dtype.np), t.dtype)


def _ones_like(t):
    return t._new(np.ones(t.shape, t.dtype.np), t.dtype)


def _scatter_reduce_grads(n, g):
    """ATen's scatter_reduce_backward: (grad of self, grad of src)."""
    a = n.attrs
    dim, index, reduce, include_self = a["dim"], a["index"], a["reduce"], a["include_self"]
    self, src, result = n["self"], n["src"], n["result"]
    if reduce == "sum":
        grad_self, grad_src = g, g.gather(dim, index)
    elif reduce == "prod":  # zeros in self or src: the product of the others, worked out again
        masked_self = self.masked_fill(self == 0, 1)
        masked_self_result = masked_self.scatter_reduce(dim, index, src, reduce, include_self=include_self)
        grad_self = g * masked_self_result / masked_self
        src_zero = src == 0
        src_num_zeros = _zeros_like(self).scatter_add(dim, index, src_zero.to(self.dtype)).gather(dim, index)
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src = src.masked_fill(src_single_zero, 1)
        masked_src_result = self.scatter_reduce(dim, index, masked_src, reduce, include_self=include_self)
        grad_src = (g * masked_src_result).gather(dim, index).where(
            src_single_zero, (g * result).gather(dim, index) / src.masked_fill(src_zero, 1))
    elif reduce == "mean":
        counts = (_ones_like(g) if include_self else _zeros_like(g)).scatter_add(dim, index, _ones_like(src))
        counts = counts.masked_fill(counts == 0, 1)
        grad_self = g / counts
        grad_src = g.gather(dim, index) / counts.gather(dim, index)
    else:  # amax, amin: shared evenly by the values equal to the result
        value = result.gather(dim, index)
        self_is_result = (self == result).to(self.dtype)
        src_is_result = (src == value).to(self.dtype)
        shared = g / self_is_result.scatter_add(dim, index, src_is_result)
        grad_self = (self == result) * shared
        grad_src = (src == value) * shared.gather(dim, index)
    if not include_self:
        grad_self = grad_self.scatter(dim, index, 0)
    return grad_self, grad_src


_ALL = ("dim", "include_self", "index", "reduce", "result", "self", "src")
op("scatter_reduce", "ScatterReduceBackward0", ("self", "src"), _scatter_reduce,
   ("grad where self's value is in the result (see ATen's scatter_reduce_backward)",
    lambda n, g: _scatter_reduce_grads(n, g)[0]),
   ("grad where src's value is in the result", lambda n, g: _scatter_reduce_grads(n, g)[1]),
   saves={0: _ALL, 1: _ALL},
   spell=Spelling(method="scatter_reduce", function="scatter_reduce", inplace="scatter_reduce_"),
   bind=_bind_scatter_reduce)
