"""Ops that pick or write elements by a mask or by flat indices: masked_fill with a tensor value, masked_select,
masked_scatter, take, put, index_put; and the index finders nonzero and argwhere, which have no grad."""
import math

import numpy as np

from .. import dtypes, messages
from .table import OPS, Spelling, composite, op


def _broadcast_shape(*shapes):
    return np.broadcast_shapes(*shapes)


def _mask_of(name, mask):
    if not hasattr(mask, "_data") or mask.dtype is not dtypes.bool:
        got = mask.dtype.type_name if hasattr(mask, "_data") else type(mask).__name__
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {got}"
                           if name == "masked_scatter_" else "masked_select: expected BoolTensor for mask")
    return mask


# c10's Scalar::to<T> names T by its C++ spelling in its overflow message
_SCALAR_TYPE = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t",
                "float16": "c10::Half", "float32": "float", "float64": "double"}


def _overflows(value, dtype):
    """c10's overflows<T>(value): a complex value with an imaginary part, or one outside T's range (inf fits a float
    type, NaN none of the integer ones; an unsigned type takes negative ints down to -max, wrapping them)."""
    if dtype.is_complex:
        return False
    if isinstance(value, complex):
        if value.imag != 0:
            return True
        value = value.real
    if dtype.is_floating_point:
        info = np.finfo(dtype.np)
        return not np.isinf(value) and not np.isnan(value) and not info.min <= value <= info.max
    info = np.iinfo(dtype.np)
    if isinstance(value, float) and (np.isnan(value) or np.isinf(value)):
        return True
    if info.min == 0 and not isinstance(value, float) and value < 0:
        return -value > info.max
    return not info.min <= value <= info.max


def _checked_value(value, dtype):
    if isinstance(value, bool) or dtype is dtypes.bool:
        return
    if isinstance(value, int) and not -2**63 <= value < 2**64:
        raise OverflowError("int too big to convert" if value > 0 else "can't convert negative int to unsigned")
    if _overflows(value, dtype):
        raise RuntimeError(f"value cannot be converted to type {_SCALAR_TYPE[dtype.name]} without overflow")


# --- masked_fill(mask, value) with a 0-d tensor value: its grad is the sum of grad where mask --------------------
def _bind_masked_fill(self, mask, value):
    if mask.dtype.name != "bool":
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {mask.dtype.c_name}")
    error = messages.broadcast_error(tuple(mask.shape), tuple(self.shape))
    if error is not None:
        raise error
    if hasattr(value, "_data"):
        if value.dim():
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
        _checked_value(value._data.item(), self.dtype)
        return OPS["masked_fill_tensor"], (self, value), {"mask": mask}, self.dtype
    if isinstance(value, (int, float, complex)):
        _checked_value(value, self.dtype)
    return OPS["masked_fill"], (self,), {"mask": mask, "value": value}, None


def _fill_self_grad(n, g):
    return (g * 0).where(n.attrs["mask"], g)


_MASKED_FILL = Spelling(method="masked_fill", function="masked_fill", inplace="masked_fill_", out=False)
op("masked_fill", "MaskedFillBackward0", ("self",), lambda a, mask, value: np.where(mask._data, value, a),
   ("grad where not mask, else 0", _fill_self_grad), saves={0: ("mask",)}, spell=_MASKED_FILL, bind=_bind_masked_fill)
op("masked_fill_tensor", "MaskedFillBackward1", ("self", "value"),
   lambda a, v, mask: np.where(mask._data, v, a),
   ("grad where not mask, else 0", _fill_self_grad),
   ("Σ grad where mask", lambda n, g: g.masked_select(n.attrs["mask"]).sum()),
   saves={0: ("mask",), 1: ("mask",)}, bind=_bind_masked_fill,
   spell=Spelling(method="masked_fill", function="masked_fill", inplace="masked_fill_", out=False,
                  name="{0}.masked_fill(…, {1})"))


# --- masked_select, masked_scatter -------------------------------------------------------------------------------
def _masked_select(a, mask):
    a, m = np.broadcast_arrays(a, mask._data)
    return a[m]


def _masked_select_grad(n, g):
    """ATen's masked_select_backward: grad scattered into zeros of the broadcast shape, summed to self's."""
    shape = n._shapes[0]
    mask = n.attrs["mask"]
    zeros = g._new(np.zeros(_broadcast_shape(shape, mask.shape), g.dtype.np), g.dtype)
    return zeros.masked_scatter(mask, g).sum_to_size(shape)


def _bind_masked_select(self, mask):
    _mask_of("masked_select", mask)
    return OPS["masked_select"], (self,), {"mask": mask}, None


op("masked_select", "MaskedSelectBackward0", ("self",), _masked_select,
   ("grad put back where mask, zeros elsewhere", _masked_select_grad), saves={0: ("mask", "self")},
   spell=Spelling(method="masked_select", function="masked_select"), bind=_bind_masked_select)


def _masked_scatter(a, source, mask):
    out = np.array(np.broadcast_to(a, _broadcast_shape(a.shape, mask.shape)), order="C")
    m = np.broadcast_to(mask._data, out.shape)
    out[m] = source.reshape(-1)[:int(m.sum())]
    return out


def _masked_scatter_source_grad(n, g):
    """ATen's masked_scatter_backward: grad where mask, in order, padded with zeros to source's size."""
    picked = g.masked_select(n.attrs["mask"])
    size = n._shapes[1]
    missing = int(np.prod(size, dtype=np.int64)) - picked.numel()
    if missing > 0:
        picked = picked._op("cat", g._new(np.zeros(missing, g.dtype.np), g.dtype), dim=0)
    return picked.view(size)


def _bind_masked_scatter(self, mask, source):
    _mask_of("masked_scatter_", mask)
    if source.dtype is not self.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{self.dtype.type_name} and {source.dtype.type_name}")  # sic: no space, as torch says
    error = messages.broadcast_error(tuple(mask.shape), tuple(self.shape))
    if error is not None:
        raise error
    shape = _broadcast_shape(self.shape, mask.shape)
    if int(np.broadcast_to(mask._data, shape).sum()) > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return OPS["masked_scatter"], (self, source), {"mask": mask}, self.dtype


def _mask_not_expandable(t, inputs, attrs):
    """masked_scatter_ expands the mask to self's shape (expand_inplace), never self to the mask's."""
    mask, target = attrs["mask"], list(t.shape)
    if mask.dim() > len(target):
        return (f"expand(CPU{mask.dtype.type_name}Type{{{list(mask.shape)}}}, size={target}): the number of sizes "
                f"provided ({len(target)}) must be greater or equal to the number of dimensions in the tensor "
                f"({mask.dim()})")
    lead = len(target) - mask.dim()
    for i, s in enumerate(mask.shape):
        if s != 1 and s != target[lead + i]:
            return (f"The expanded size of the tensor ({target[lead + i]}) must match the existing size ({s}) at "
                    f"non-singleton dimension {lead + i}.  Target sizes: {target}.  Tensor sizes: {list(mask.shape)}")
    return f"output with shape {target} doesn't match the broadcast shape {list(mask.shape)}"


op("masked_scatter", "MaskedScatterBackward0", ("self", "source"), _masked_scatter,
   ("grad where not mask, else 0", lambda n, g: _fill_self_grad(n, g).sum_to_size(n._shapes[0])),
   ("grad where mask, in order (zeros for the rest of source)", _masked_scatter_source_grad),
   saves={0: ("mask",), 1: ("mask", "source_sym_sizes")},
   spell=Spelling(method="masked_scatter", function="masked_scatter", inplace="masked_scatter_", out=False,
                  name="{0}.masked_scatter(…, {1})", inplace_sizes=_mask_not_expandable),
   bind=_bind_masked_scatter)


# --- take, put: self as a flat vector ----------------------------------------------------------------------------
def _flat_positions(self, index):
    if not hasattr(index, "_data") or index.dtype is not dtypes.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{index.dtype.type_name if hasattr(index, '_data') else type(index).__name__}")
    n = self.numel()
    idx = index._data.astype(np.int64)
    bad = idx[(idx < -n) | (idx >= n)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {int(bad.reshape(-1)[0])} on a tensor of {n} "
                         "elements.")
    return (idx % n if n else idx).astype(np.intp)


def _bind_take(self, index):
    return OPS["take"], (self,), {"index": index, "positions": _flat_positions(self, index)}, None


op("take", "TakeBackward0", ("self",), lambda a, index, positions: a.reshape(-1)[positions],
   ("grad added at the flat indices of zeros",
    lambda n, g: g._new(np.zeros(n._shapes[0], g.dtype.np), g.dtype).put(n.attrs["index"], g, True)),
   saves={0: ("index", "self")}, spell=Spelling(method="take", function="take"), bind=_bind_take)


def _put(a, source, index, positions, accumulate):
    out = a.copy().reshape(-1)
    if accumulate:
        np.add.at(out, positions.reshape(-1), source.reshape(-1))
    else:
        out[positions.reshape(-1)] = source.reshape(-1)
    return out.reshape(a.shape)


def _bind_put(self, index, source, accumulate=False):
    if source.dtype is not self.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                           f"{self.dtype.type_name} and source.dtype = {source.dtype.type_name}")
    if index.numel() != source.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                           f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
    attrs = {"index": index, "positions": _flat_positions(self, index), "accumulate": bool(accumulate)}
    return OPS["put"], (self, source), attrs, self.dtype


def _put_self_grad(n, g):
    if n.attrs["accumulate"]:
        return g
    zeros = g._new(np.zeros(n._shapes[1], g.dtype.np), g.dtype)
    return g.put(n.attrs["index"], zeros, False)


op("put", "PutBackward0", ("self", "source"), _put,
   ("grad, 0 at the flat indices (unless accumulate)", _put_self_grad),
   ("grad at the flat indices", lambda n, g: g.take(n.attrs["index"]).reshape(n._shapes[1])),
   saves={0: ("accumulate", "index"), 1: ("index", "source")},
   spell=Spelling(method="put", function="put", inplace="put_", out=False, name="{0}.put(…, {1})"), bind=_bind_put)


# --- index_put(indices, values, accumulate) ----------------------------------------------------------------------
def _index_key(indices):
    return tuple(None if i is None else i._data.astype(np.intp) if i.dtype is not dtypes.bool else i._data
                 for i in indices)


def _index_put(a, values, indices, accumulate):
    out = a.copy()
    key = _index_key(indices)
    if accumulate:
        np.add.at(out, key, values)
    else:
        out[key] = values
    return out


def _bind_index_put(self, indices, values, accumulate=False):
    indices = tuple(indices)
    if values.dtype is not self.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{self.dtype.type_name} for the destination and {values.dtype.type_name} for the source.")
    return OPS["index_put_values"], (self, values), {"indices": indices, "accumulate": bool(accumulate)}, self.dtype


def _index_put_self_grad(n, g):
    if n.attrs["accumulate"]:
        return g
    zeros = g._new(np.zeros(n._shapes[1], g.dtype.np), g.dtype)
    return g.index_put(n.attrs["indices"], zeros, False)


op("index_put_values", "IndexPutBackward0", ("self", "values"), _index_put,
   ("grad, 0 at the indices (unless accumulate)", _index_put_self_grad),
   ("grad at the indices, summed to values' shape",
    lambda n, g: g._op("index", key=_index_key(n.attrs["indices"])).sum_to_size(n._shapes[1])),
   saves={0: ("accumulate", "indices"), 1: ("accumulate", "indices")},
   spell=Spelling(method="index_put", function="index_put", inplace="index_put_", out=False,
                  inplace_function="index_put_", name="{0}.index_put(…, {1})"),
   bind=_bind_index_put)


# --- _unsafe_masked_index, _unsafe_masked_index_put_accumulate: indexing with the indices clamped into range and a
# mask saying which positions count (the decompositions of padding and embedding's backward use them) --------------
def _clamped_key(shape, indices):
    return tuple(slice(None) if i is None else np.clip(i._data, -size, size - 1).astype(np.intp)
                 for size, i in zip(shape, indices))


def _masked_index_numel(shape, indices):
    """The result's size: the indices' broadcast size times the sizes of the dims they leave whole."""
    given = [i._data for i in indices if i is not None]
    whole = [size for size, i in zip(shape, indices) if i is None] + list(shape[len(indices):])
    return (np.broadcast(*given).size if given else 1) * math.prod(whole)


def _masked_index(a, mask, indices, fill):
    return np.where(mask._data, a[_clamped_key(a.shape, indices)], np.asarray(fill).astype(a.dtype))


def _masked_put(a, values, mask, indices):
    out = a.copy()
    np.add.at(out, _clamped_key(a.shape, indices), np.where(mask._data, values, values.dtype.type(0)))
    return out


def _bind_masked_index(self, mask, indices, fill):
    return OPS["_unsafe_masked_index"], (self,), {"mask": mask, "indices": tuple(indices), "fill": fill}, self.dtype


def _bind_masked_put(self, mask, indices, values):
    if values.dtype is not self.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{self.dtype.type_name} for the destination and {values.dtype.type_name} for the source.")
    return OPS["_unsafe_masked_index_put_accumulate"], (self, values), {"mask": mask, "indices": tuple(indices)}, \
        self.dtype


def _masked_index_grad(n, g):
    zeros = g._new(np.zeros(n._shapes[0], g.dtype.np), g.dtype)
    return zeros._apply(OPS["_unsafe_masked_index_put_accumulate"], (zeros, g),
                        {"mask": n.attrs["mask"], "indices": n.attrs["indices"]}, g.dtype)


def _masked_values_grad(n, g):
    return g._apply(OPS["_unsafe_masked_index"], (g,), {"mask": n.attrs["mask"], "indices": n.attrs["indices"],
                                                       "fill": 0}, g.dtype)


op("_unsafe_masked_index", "UnsafeMaskedIndexBackward0", ("self",), _masked_index,
   ("grad summed into zeros at the clamped indices where mask", _masked_index_grad),
   saves={0: ("indices", "mask", "self_sym_sizes")},
   spell=Spelling(function="_unsafe_masked_index", out=False), bind=_bind_masked_index,
   numel=lambda arrays, attrs: _masked_index_numel(arrays[0].shape, attrs["indices"]))
op("_unsafe_masked_index_put_accumulate", "UnsafeMaskedIndexPutAccumulateBackward0", ("self", "values"), _masked_put,
   ("grad", lambda n, g: g),
   ("grad at the clamped indices where mask, else 0", _masked_values_grad),
   saves={1: ("indices", "mask")},
   spell=Spelling(function="_unsafe_masked_index_put_accumulate", out=False), bind=_bind_masked_put)


# --- nonzero, argwhere: the indices of the nonzero elements (no grad) --------------------------------------------
@composite(Spelling(method="nonzero", function="nonzero"))
def nonzero(self, *, as_tuple=False):
    data = self._data
    if as_tuple:
        if data.ndim == 0:
            return (self._new(np.zeros(int(data != 0), np.int64), dtypes.int64),)
        return tuple(self._new(i.astype(np.int64), dtypes.int64) for i in np.nonzero(data))
    return argwhere(self)


@composite(Spelling(method="argwhere", function="argwhere", out=False))
def argwhere(self):
    """The indices of the nonzero elements, one row each, laid out column by column as ATen writes them."""
    rows = np.argwhere(self._data).astype(np.int64)
    n = rows.shape[0]  # ATen's result is the transpose of a (dims, n) buffer: strides (1, n), n = 0 included
    out = np.lib.stride_tricks.as_strided(np.empty(max(rows.size, 1), np.int64), rows.shape, (8, 8 * n))
    out[...] = rows
    return self._new(out, dtypes.int64)


@composite(Spelling(method="nonzero_static", function="nonzero_static"))
def nonzero_static(self, *, size, fill_value=-1):
    """The first `size` rows of nonzero's indices, padded with rows of fill_value (row by row, as ATen lays it
    out)."""
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = np.argwhere(self._data).astype(np.int64)[:size]
    out = np.full((size, self._data.ndim), fill_value, np.int64)
    out[:len(found)] = found
    return self._new(out, dtypes.int64)


@composite(Spelling(method="take_along_dim", function="take_along_dim"))
def take_along_dim(self, indices, dim=None):
    """ATen's take_along_dim: self and indices broadcast against each other apart from dim, then gathered."""
    if indices.dtype is not dtypes.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{indices.dtype.type_name}")
    if dim is None:
        return self.reshape(-1).gather(0, indices.reshape(-1))
    if self.dim() != indices.dim():
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {self.dim()} dimensions for input, and {indices.dim()} dimensions for indices")
    d = self._dim(dim)
    idx = indices._data
    if (idx < 0).any():  # along a dim, a negative index counts from the end
        indices = indices._new(np.where(idx < 0, idx + self.shape[d], idx), dtypes.int64)
    sizes = list(self.shape)
    sizes[d] = indices.shape[d]
    indices = indices.expand(_broadcast_shape(tuple(sizes), tuple(indices.shape)))
    sizes = list(indices.shape)
    sizes[d] = self.shape[d]
    return self.expand(_broadcast_shape(tuple(sizes), tuple(self.shape))).gather(d, indices)
