"""Values picked by their order: sort and topk (values and the indices they came from), median/nanmedian/mode/
kthvalue (a value and its index along a dim), msort, argsort, unique and unique_consecutive (whose derivatives are not
implemented, as in torch)."""

import numpy as np

from .. import dtypes
from ..kernels import stl
from .reductions import _select_reduce, _take, named
from .statistics import returned
from .table import OPS, Spelling, composite, op

# --- the order of ties: torch's CPU kernels sort with libstdc++'s unstable algorithms (engine/kernels/stl.py) ----
# sort(stable=False) with std::sort, not a SIMD sort
_STD_SORT = {"bool", "uint8", "int8", "int16", "float16", "bfloat16"}
_RADIX_MIN = 32768  # fbgemm's radix sort (stable) takes a long enough 1-d ascending integer sort instead
_EMULATED_MAX = 100_000  # longer rows keep numpy's stable order for their ties (pure Python would take too long)


def _is_nan(v):
    return v != v


def _ascending(x, y):  # KeyValueCompAsc: NaN the greatest
    return (not _is_nan(x[0]) and _is_nan(y[0])) or x[0] < y[0]


def _descending(x, y):  # KeyValueCompDesc, and gt_or_nan
    return (_is_nan(x[0]) and not _is_nan(y[0])) or x[0] > y[0]


def _below(x, y):  # mode's comparator: the values only, NaN unordered
    return x[0] < y[0]


def _ties(row):
    if row.size > _EMULATED_MAX:
        return False
    if row.dtype.kind == "f":
        nans = np.isnan(row)
        if nans.sum() > 1:
            return True
        row = row[~nans]
    s = np.sort(row)
    return bool((s[1:] == s[:-1]).any())


def _each_row(data, d, width, pick, always=False):
    """pick(pairs of one row) → `width` indices, for every row along d (others keep `None`), where the row ties."""
    if data.size == 0:
        return {}
    rows = np.moveaxis(data, d, -1)
    flat = rows.reshape(-1, rows.shape[-1])
    out = {}
    for r, row in enumerate(flat):
        if (always and row.size <= _EMULATED_MAX) or _ties(row):
            out[r] = pick(list(zip(row.tolist(), range(row.size))))[:width]
    return out


def _patched(idx, d, chosen):
    """idx (along d) with the rows in `chosen` replaced."""
    if not chosen:
        return idx
    moved = np.moveaxis(idx, d, -1).copy()
    flat = moved.reshape(-1, moved.shape[-1])
    for r, picked in chosen.items():
        flat[r] = picked
    return np.ascontiguousarray(np.moveaxis(flat.reshape(moved.shape), -1, d))


def _std_sorted(pairs, less):
    stl.sort(pairs, 0, len(pairs), less)
    return [i for _, i in pairs]


# --- sort ---------------------------------------------------------------------------------------------------
def _sorted(a, dim, axis, descending, indices, stable=None):
    return a.copy() if a.ndim == 0 else np.take_along_axis(a, indices._data, axis)


def _sort_grad(n, g):
    idx = n.attrs["indices"]._data
    if idx.ndim == 0:
        return g
    dim = n.attrs["axis"]
    grid = np.indices(idx.shape, sparse=True)
    return g._op("scatter", shape=n._shapes[0], key=tuple(idx if d == dim else grid[d] for d in range(idx.ndim)))


def _sort_name(s, a):
    if a.get("stable") is None:
        return f"{s[0]}.sort({a['axis']}{', descending=True' * a['descending']}).values"
    return f"{s[0]}.sort(dim={a['axis']}{', descending=True' * a['descending']}, stable={a['stable']}).values"


# torch.sort's overloads: without stable= (SortBackward0), and with it, True or False (SortBackward1)
for _name, _node in (("sort", "SortBackward0"), ("sort_stable", "SortBackward1")):
    op(_name, _node, ("self",), _sorted, ("grad put back where each value came from", _sort_grad),
       saves={0: ("dim", "indices", "self_sym_sizes")}, bind=False, spell=Spelling(name=_sort_name))


@composite(Spelling(method="sort", function="sort"))
def sort(self, dim=-1, descending=False, stable=None):
    """torch.sort: values and the indices they came from, ties in their order (NaN sorts as the greatest)."""
    if self.dtype.is_complex:
        raise RuntimeError(" Sort does not support complex dtypes on CPU")
    data = self._data
    d = self._dim(dim)
    if data.ndim == 0:
        idx = np.zeros((), np.int64)
    else:
        key = data
        if descending:
            key = -data.astype(np.float64) if data.dtype.kind in "iub" else np.where(np.isnan(data), -np.inf, -data)
        idx = np.argsort(key, axis=d, kind="stable").astype(np.int64)
        radix = data.ndim == 1 and not descending and data.dtype.kind in "iu" and data.size >= _RADIX_MIN
        if not stable and self.dtype.name in _STD_SORT and not radix:
            less = _descending if descending else _ascending
            chosen = _each_row(data, d, data.shape[d], lambda pairs: _std_sorted(pairs, less))
            idx = _patched(idx, d, chosen)
    indices = self._new(idx, dtypes.int64)
    attrs = {"dim": dim % 2**64, "axis": d, "descending": bool(descending), "indices": indices}  # dim as torch keeps it
    if stable is not None:
        attrs["stable"] = bool(stable)
    values = self._apply(OPS["sort" if stable is None else "sort_stable"], (self,), attrs, self.dtype)
    return named("sort")(values, indices)


# --- topk ---------------------------------------------------------------------------------------------------
def _topk_grad(n, g):
    """value_selecting_reduction_backward: grad scattered to the picked positions of zeros."""
    zeros = g._new(np.zeros(n._shapes[0], g.dtype.np), g.dtype)
    return zeros.scatter(n.attrs["dim"], n.attrs["indices"], g)


op("topk", "TopkBackward0", ("self",),
   lambda a, dim, k, largest, indices: np.take_along_axis(a, indices._data, dim) if a.ndim else a.copy(),
   ("grad to the k picked entries of each row", _topk_grad), saves={0: ("dim", "indices", "self_sym_sizes")},
   spell=Spelling(method="topk", function="topk",
                  name=lambda s, a: f"{s[0]}.topk({a['k']}, dim={a['dim']}{', largest=False' * (not a['largest'])})"
                                    ".values"), bind=False)


def _topk_order(pairs, k, largest, ordered):
    """TopKImpl.h: a partial sort where k is small against the row, else nth_element and a sort of the first k-1."""
    less = _descending if largest else _ascending
    n = len(pairs)
    if k * 64 <= n:
        stl.partial_sort(pairs, 0, k, n, less)
    else:
        stl.nth_element(pairs, 0, k - 1, n, less)
        if ordered:
            stl.sort(pairs, 0, k - 1, less)
    return [i for _, i in pairs]


@composite(Spelling(method="topk", function="topk"))
def topk(self, k, dim=-1, largest=True, sorted=True):  # noqa: A002 - torch's name
    d = self._dim(dim)
    data = self._data if self._data.ndim else self._data.reshape(1)
    if not 0 <= k <= data.shape[d]:
        raise RuntimeError("selected index k out of range")
    keys = (~data if data.dtype == bool else -data) if largest else data  # stable: ties keep their index order
    idx = np.take(np.argsort(keys, axis=d, kind="stable"), np.arange(k), axis=d).astype(np.int64)
    if k:
        chosen = _each_row(data, d, k, lambda pairs: _topk_order(pairs, k, largest, sorted), always=not sorted)
        idx = _patched(idx, d, chosen)
    if not self._data.ndim:
        idx = idx.reshape(())
    indices = self._new(idx, dtypes.int64)
    values = self._apply(OPS["topk"], (self,), {"dim": dim, "k": k, "largest": largest, "indices": indices}, self.dtype)
    return named("topk")(values, indices)


# --- median, nanmedian, mode, kthvalue: a value and its index along a dim ------------------------------------------
def _lower_median(a, ignore_nan):
    flat = a.reshape(-1)
    if ignore_nan:
        flat = flat[~np.isnan(flat)] if flat.dtype.kind == "f" else flat
        if flat.size == 0:
            return np.asarray(np.nan, a.dtype)
    elif flat.dtype.kind == "f" and np.isnan(flat).any():
        return np.asarray(np.nan, a.dtype)
    return np.sort(flat, kind="stable")[(flat.size - 1) // 2]


def _evenly(n, g):
    mask = n["self"] == n["result"]
    if n["result"].isnan().item():
        mask = n["self"].isnan()
    return mask * (g / mask.sum())


for _name, _nan in (("median", False), ("nanmedian", True)):
    op(_name, _name.capitalize() + "Backward0", ("self",), lambda a, nan=_nan: _lower_median(a, nan),
       ("grad shared evenly by the values equal to the median", _evenly), saves={0: ("result", "self")},
       spell=Spelling(method=_name, function=_name), bind=False)


def _median_indices(data, d, ignore_nan):
    """Per row along d: the position of the lower median in a stable sort (NaN: the first NaN, unless ignored)."""
    key = np.moveaxis(data, d, -1)
    order = np.argsort(key, axis=-1, kind="stable")
    if key.dtype.kind == "f":
        nans = np.isnan(key).sum(-1)
        valid = key.shape[-1] - nans
    else:
        nans = np.zeros(key.shape[:-1], np.int64)
        valid = np.full(key.shape[:-1], key.shape[-1])
    if ignore_nan:
        pos = np.maximum(valid - 1, 0) // 2
        picked = np.take_along_axis(order, pos[..., None], -1)[..., 0]
    else:
        pos = (key.shape[-1] - 1) // 2
        picked = order[..., pos]
        if key.dtype.kind == "f":
            first_nan = np.argmax(np.isnan(key), axis=-1)
            picked = np.where(nans > 0, first_nan, picked)
    return picked.astype(np.int64)


def _mode_of(pairs):
    """ATen's CPU mode: std::sort of (value, index) by value, then the index ending the first longest run."""
    stl.sort(pairs, 0, len(pairs), _below)
    best, count, run = pairs[0][1], 0, 0
    for i, (value, index) in enumerate(pairs):
        run += 1
        if i == len(pairs) - 1 or value != pairs[i + 1][0]:
            if run > count:
                best, count = index, run
            run = 0
    return [best]


def _mode_indices(data, d):
    key = np.moveaxis(data, d, -1)
    flat = key.reshape(-1, key.shape[-1])
    out = np.empty(flat.shape[0], np.int64)
    for i, row in enumerate(flat):
        if row.size <= _EMULATED_MAX:
            out[i] = _mode_of(list(zip(row.tolist(), range(row.size))))[0]
            continue
        values, counts = np.unique(row, return_counts=True)
        out[i] = np.flatnonzero(row == values[np.argmax(counts)])[-1]
    return out.reshape(key.shape[:-1])


def _kth_of(pairs, k):
    stl.quick_select(pairs, k - 1, _descending)
    return [pairs[k - 1][1]]


def _kth_indices(data, d, k):
    key = np.moveaxis(data, d, -1)
    if key.dtype.kind == "f":
        key = np.where(np.isnan(key), np.inf, key)  # NaN sorts as the greatest
    order = np.argsort(key, axis=-1, kind="stable")
    idx = order[..., k - 1].astype(np.int64)
    chosen = _each_row(data, d, 1, lambda pairs: _kth_of(pairs, k))
    flat = idx.reshape(-1)
    for r, picked in chosen.items():
        flat[r] = picked[0]
    return flat.reshape(idx.shape)


def _picked_name(s, a, word):
    k = f"{a['k']}, " if "k" in a else ""
    return f"{s[0]}.{word}({k}{a['dim']}{', keepdim=True' * a['keepdim']}).values"


for _name, _node, _user in (("median_dim", "MedianBackward1", "median"),
                            ("nanmedian_dim", "NanmedianBackward1", "nanmedian"),
                            ("mode", "ModeBackward0", "mode"), ("kthvalue", "KthvalueBackward0", "kthvalue")):
    op(_name, _node, ("self",), lambda a, dim, keepdim, indices, k=None: _take(a, dim, keepdim, indices),
       ("grad to the picked entry of each row", _select_reduce), bind=False,
       saves={0: ("dim", "indices", "keepdim", "self_sym_sizes")},
       spell=Spelling(name=lambda s, a, w=_user: _picked_name(s, a, w)))


def _picked(self, name, op_name, dim, keepdim, pick, **extra):
    d = self._dim(dim)
    if self.dim() and self.shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    data = self._data if self._data.ndim else self._data.reshape(1)
    idx = pick(data, d)
    if keepdim and self._data.ndim:
        idx = np.expand_dims(idx, d)
    indices = self._new(np.asarray(idx, np.int64), dtypes.int64)
    attrs = {"dim": dim, "keepdim": keepdim, "indices": indices, **extra}
    values = self._apply(OPS[op_name], (self,), attrs, self.dtype)
    return returned(name, ["values", "indices"])(values, indices)


def _median_fn(name, ignore_nan):
    def call(self, dim=None, keepdim=False):
        if self.dtype.name == "bool":
            raise NotImplementedError(f"\"{'median_cpu' if dim is None else 'median_out'}\" not implemented for 'Bool'")
        if dim is None:
            if self.numel() == 0:
                return self._new(np.asarray(np.nan, self.dtype.np), self.dtype) if self.dtype.is_floating_point \
                    else self._new(np.zeros((), self.dtype.np), self.dtype)
            return self._apply(OPS[name], (self,), None, self.dtype)
        return _picked(self, name, name + "_dim", dim, keepdim, lambda a, d: _median_indices(a, d, ignore_nan))

    call.__name__ = call.__qualname__ = name
    composite(Spelling(method=name, function=name))(call)


_median_fn("median", False)
_median_fn("nanmedian", True)


@composite(Spelling(method="mode", function="mode"))
def mode(self, dim=-1, keepdim=False):
    return _picked(self, "mode", "mode", dim, keepdim, _mode_indices)


@composite(Spelling(method="kthvalue", function="kthvalue"))
def kthvalue(self, k, dim=-1, keepdim=False):
    if self.dtype.name == "bool":
        raise NotImplementedError("\"kthvalue_cpu\" not implemented for 'Bool'")
    d = self._dim(dim)
    size = self.shape[d] if self.dim() else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    return _picked(self, "kthvalue", "kthvalue", dim, keepdim, lambda a, d: _kth_indices(a, d, k), k=k)


# --- msort, argsort -------------------------------------------------------------------------------------------
@composite(Spelling(method="msort", function="msort"))
def msort(self):
    return self.sort(0).values


@composite(Spelling(method="argsort", function="argsort", out=False))
def argsort(self, dim=-1, descending=False, *, stable=False):
    return self.detach().sort(dim, descending=descending, stable=stable).indices


# --- unique, unique_consecutive: their derivatives are not implemented ----------------------------------------
def _not_implemented(name):
    def vjp(n, g):
        raise RuntimeError(f"the derivative for '{name}' is not implemented.")

    return vjp


op("unique2", "Unique2Backward0", ("self",), lambda a, values: values,
   ("not implemented", _not_implemented("_unique2")), bind=False, spell=Spelling(name="torch.unique({0})"))
op("unique_dim", "UniqueDimBackward0", ("self",), lambda a, values, dim: values,
   ("not implemented", _not_implemented("unique_dim")), bind=False,
   spell=Spelling(name=lambda s, a: f"torch.unique({s[0]}, dim={a['dim']})"))
op("unique_consecutive", "UniqueConsecutiveBackward0", ("self",), lambda a, values: values,
   ("not implemented", _not_implemented("unique_consecutive")), bind=False,
   spell=Spelling(name="torch.unique_consecutive({0})"))


def _unique_along(data, dim, consecutive):
    """unique values (rows along dim when dim is given), the inverse and the counts."""
    if dim is None:
        flat = data.reshape(-1)
        if consecutive:
            if flat.size == 0:
                return flat.copy(), np.zeros(data.shape, np.int64), np.zeros(0, np.int64)
            starts = np.concatenate([[True], flat[1:] != flat[:-1]])
            values = flat[starts]
            inverse = (np.cumsum(starts) - 1).reshape(data.shape)
            counts = np.diff(np.append(np.flatnonzero(starts), flat.size))
            return values, inverse, counts
        values, inverse, counts = np.unique(flat, return_inverse=True, return_counts=True)
        return values, inverse.reshape(data.shape), counts
    if data.size == 0:
        return data.copy(), np.zeros(data.shape[dim], np.int64), np.zeros(0, np.int64)
    moved = np.moveaxis(data, dim, 0)
    rows = moved.reshape(moved.shape[0], -1)
    if consecutive:
        if rows.shape[0] == 0:
            return data.copy(), np.zeros(0, np.int64), np.zeros(0, np.int64)
        starts = np.concatenate([[True], (rows[1:] != rows[:-1]).any(axis=1)])
        picked = rows[starts]
        inverse = np.cumsum(starts) - 1
        counts = np.diff(np.append(np.flatnonzero(starts), rows.shape[0]))
    else:
        picked, inverse, counts = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(-1)
    values = np.moveaxis(picked.reshape((picked.shape[0],) + moved.shape[1:]), 0, dim)
    return values, inverse, counts


def _unique_result(self, op_name, values, inverse, counts, return_inverse, return_counts, **attrs):
    out = self._apply(OPS[op_name], (self,), {"values": values, **attrs}, self.dtype)
    extra = []
    if return_inverse:
        extra.append(self._new(inverse.astype(np.int64), dtypes.int64))
    if return_counts:
        extra.append(self._new(counts.astype(np.int64), dtypes.int64))
    return (out, *extra) if extra else out


@composite(Spelling(method="unique", function="unique"))
def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002 - torch's name
    d = None if dim is None else self._dim(dim)
    values, inverse, counts = _unique_along(self._data, d, False)
    if dim is None:
        return _unique_result(self, "unique2", values, inverse, counts, return_inverse, return_counts)
    return _unique_result(self, "unique_dim", values, inverse, counts, return_inverse, return_counts, dim=d)


@composite(Spelling(method="unique_consecutive", function="unique_consecutive"))
def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    d = None if dim is None else self._dim(dim)
    values, inverse, counts = _unique_along(self._data, d, True)
    return _unique_result(self, "unique_consecutive", values, inverse, counts, return_inverse, return_counts)
