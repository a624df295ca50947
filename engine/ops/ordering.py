"""Reductions and scans that pick or order values: amax/amin/aminmax, median/nanmedian/mode/kthvalue, cummax/cummin,
logcumsumexp, nansum/nanmean, var_mean/std_mean, count_nonzero, msort/argsort, unique, searchsorted/bucketize,
histc, bincount, isin, diff, index_reduce. The derivatives are ATen's (derivatives.yaml)."""
import collections

import numpy as np

from .. import dtypes, messages
from .reductions import _count, _expand_back, _kept, _select_reduce, _take, _var
from .scatter import _scatter_reduce, _scatter_reduce_grads, _vector_index
from .table import OPS, Spelling, composite, dims, op

_TYPES = {}


def returned(name, fields):
    """torch.return_types.<name>: a named tuple printed as torch prints it."""
    if name not in _TYPES:
        cls = collections.namedtuple(name, fields)
        cls.__repr__ = lambda self: (f"torch.return_types.{name}(\n"
                                     + ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self)) + ")")
        _TYPES[name] = cls
    return _TYPES[name]


def _axes(dim, ndim):
    """numpy axes of a reduction's dims (None or () for all; a 0-d tensor has none)."""
    if ndim == 0:
        return None
    if dim is None or dim == ():
        return None
    return dims(dim, ndim)


# --- amax, amin: the grad shared evenly by the extreme values ----------------------------------------------------
def _extreme(fn):
    def forward(a, dim, keepdim):
        return fn(a, axis=_axes(dim, a.ndim), keepdims=keepdim and a.ndim > 0)

    return forward


def _restored(n, t, dim):
    """t with the reduced dims of a (dim, keepdim) reduction put back."""
    shape = n._shapes[0]
    if not shape or n.attrs["keepdim"]:
        return t
    for d in sorted(dims(dim, len(shape)) if dim not in (None, ()) else range(len(shape))):
        t = t.unsqueeze(d)
    return t


def _shared_evenly(n, g, result, dim):
    """ATen's scale_grad_by_count: grad / count of the values equal to the result, where they are."""
    mask = _restored(n, result, dim) == n["self"]
    axes = tuple(range(len(n._shapes[0]))) if dim in (None, ()) else dim
    count = mask.sum(axes, keepdim=True) if n._shapes[0] else mask.to(g.dtype)
    return (_restored(n, g, dim) / count) * mask


def _bind_extreme(name):
    def bind(self, dim=(), keepdim=False):
        dim = tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)
        if dim:
            self._reduce_dims(dim)
            for d in dim:
                if self.dim() and self.shape[d] == 0:
                    raise IndexError(f"{name}(): Expected reduction dim {self._dim(d)} to have non-zero size.")
        elif self.numel() == 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                               "the reduction dim with the 'dim' argument.")
        return OPS[name], (self,), {"dim": dim, "keepdim": keepdim}, None

    return bind


for _name, _fn in (("amax", np.max), ("amin", np.min)):
    op(_name, _name.capitalize() + "Backward0", ("self",), _extreme(_fn),
       ("grad shared evenly by the values equal to the result",
        lambda n, g: _shared_evenly(n, g, n["result"], n.attrs["dim"])),
       saves={0: ("dim[]", "keepdim", "result", "self")},
       spell=Spelling(method=_name, function=_name), bind=_bind_extreme(_name))


def _dim_text(a, keyword=True):
    """dim= and keepdim= of a reduction's label, where given."""
    parts = [] if a.get("dim") is None else [f"dim={a['dim']}" if keyword else str(a["dim"])]
    return ", ".join(parts + ["keepdim=True"] * bool(a.get("keepdim")))


def _aminmax(a, dim, keepdim, **_):  # the saved min and max come as attrs
    axes = None if dim is None or a.ndim == 0 else dim % a.ndim
    keep = keepdim and a.ndim > 0
    return np.asarray(np.min(a, axis=axes, keepdims=keep)), np.asarray(np.max(a, axis=axes, keepdims=keep))


def _aminmax_grad(n, grads):
    grads = grads if isinstance(grads, tuple) else (grads, None)
    dim = n.attrs["dim"]
    dim = () if dim is None else dim
    total = None
    for g, which in zip(grads, ("min", "max")):
        if g is not None:
            part = _shared_evenly(n, g, n.attrs[which], dim)
            total = part if total is None else total + part
    return total


def _bind_aminmax(self, *, dim=None, keepdim=False):
    if dim is not None:
        self._dim(dim)
    if self.numel() == 0 and dim is None:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                           "identity.")
    return OPS["aminmax"], (self,), {"dim": dim, "keepdim": keepdim}, None


op("aminmax", "AminmaxBackward0", ("self",), _aminmax,
   ("grad of each shared evenly by the values equal to it", _aminmax_grad),
   saves={0: ("dim", "keepdim", "max", "min", "self")}, several=True, bind=False,
   spell=Spelling(name=lambda s, a: f"{s[0]}.aminmax({_dim_text(a)}){'.max' if a.get('output') else '.min'}"))


@composite(Spelling(method="aminmax", function="aminmax"))
def aminmax(self, *, dim=None, keepdim=False):
    op_, inputs, attrs, dtype = _bind_aminmax(self, dim=dim, keepdim=keepdim)
    lo, hi = _aminmax(self._data, dim, keepdim)
    attrs = {**attrs, "min": self._new(np.asarray(lo), self.dtype), "max": self._new(np.asarray(hi), self.dtype)}
    out = self._apply(op_, inputs, attrs, dtype)
    return returned("aminmax", ["min", "max"])(*out)


# --- nansum, nanmean -----------------------------------------------------------------------------------------
def _nansum(a, dim, keepdim):
    out = np.int64 if a.dtype.kind in "biu" else a.dtype
    return np.nansum(a, axis=_axes(dim, a.ndim), keepdims=keepdim and a.ndim > 0, dtype=out)


def _bind_nansum(self, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        self = self.to(dtype)
    if dim is not None:
        dim = tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)
        self._reduce_dims(dim)
    out = self.dtype if self.dtype.is_floating_point else dtypes.int64
    return OPS["nansum"], (self,), {"dim": dim, "keepdim": keepdim}, out


op("nansum", "NansumBackward0", ("self",), _nansum,
   ("grad where self is not nan, else 0",
    lambda n, g: _restored(n, g, n.attrs["dim"]).expand(n._shapes[0]) * n["self"].isnan().logical_not()),
   saves={0: ("dim[]", "keepdim", "self")}, spell=Spelling(method="nansum", function="nansum"), bind=_bind_nansum)


@composite(Spelling(method="nanmean", function="nanmean"))
def nanmean(self, dim=None, keepdim=False, *, dtype=None):
    if not self.dtype.is_floating_point and dtype is None:
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                           f"{self.dtype.type_name}")
    count = self.isnan().logical_not().sum(dim, keepdim=keepdim) if dim is not None else \
        self.isnan().logical_not().sum()
    return self.nansum(dim, keepdim=keepdim, dtype=dtype) / count


@composite(Spelling(method="count_nonzero", function="count_nonzero", out=False))
def count_nonzero(self, dim=None):
    axes = None
    if dim is not None:
        ds = tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)
        self._reduce_dims(ds)
        axes = tuple(d % max(self.dim(), 1) for d in ds) if self.dim() else None
    return self._new(np.asarray(np.count_nonzero(self._data, axis=axes), np.int64), dtypes.int64)


# --- var_mean, std_mean: two outputs of one node -------------------------------------------------------------
def _spread_mean(name):
    root = name == "std_mean"

    def forward(a, dim=None, correction=1, keepdim=False, **_):
        var = _var(a, dim=dim, correction=correction, keepdim=keepdim, exact=root)
        mean = np.mean(a, axis=dim, keepdims=keepdim)
        return np.asarray(np.sqrt(var).astype(a.dtype) if root else var), np.asarray(mean, a.dtype)

    return forward


def _centered(n):
    s = n["self"]
    dim = n.attrs.get("dim")
    return s - (s.mean() if dim is None else s.mean(dim, keepdim=True))


def _dof(n):
    correction = n.attrs.get("correction")
    return _count(n) - (1 if correction is None else correction)


def _spread_mean_grad(root):
    def vjp(n, grads):
        g_spread, g_mean = grads if isinstance(grads, tuple) else (grads, None)
        total = None
        if g_spread is not None:
            if root:  # the std, worked out again from self so that create_graph differentiates it too
                dim, correction = n.attrs.get("dim"), n.attrs.get("correction")
                r = n["self"].std(dim, correction=correction, keepdim=True) if dim is not None else \
                    _kept(n, n["self"].std(correction=correction))
                part = (_expand_back(n, g_spread) * _centered(n) / (r * _dof(n))).where(r != 0, 0.0)
            else:
                part = _expand_back(n, g_spread) * _centered(n) * (2 / _dof(n))
            total = part
        if g_mean is not None:
            part = _expand_back(n, g_mean) / _count(n)
            total = part if total is None else total + part
        return total

    return vjp


_UNSET = object()


def _bind_spread_mean(name):
    def bind(self, dim=_UNSET, unbiased=None, keepdim=False, *, correction=_UNSET):
        if isinstance(dim, bool):
            dim, unbiased = _UNSET, dim
        if correction is _UNSET:
            correction = None if unbiased is None and dim is _UNSET else 0 if unbiased is False else 1
        dim = None if dim is _UNSET or dim is None else self._reduce_dims(dim)
        attrs = {"correction": correction, "keepdim": keepdim, "dim": dim}
        return OPS[name], (self,), attrs, None

    return bind


for _name, _node in (("var_mean", "VarMeanBackward0"), ("std_mean", "StdMeanBackward0")):
    op(_name, _node, ("self",), _spread_mean(_name),
       ("the spread's grad and the mean's, added", _spread_mean_grad(_name == "std_mean")),
       saves={0: ("correction", "dim[]", "keepdim", "self") + (("result0",) if _name == "std_mean" else ())},
       several=True, bind=False,
       spell=Spelling(name=lambda s, a, f=_name: f"torch.{f}({', '.join([s[0]] + _spread_args(a))})"
                                                 f"[{a.get('output', 0)}]"))


def _spread_args(a):
    out = [] if a.get("dim") is None else [repr(a["dim"])]
    if a.get("correction") is not None:
        out.append(f"correction={a['correction']}")
    return out + ["keepdim=True"] * bool(a.get("keepdim"))


def _spread_mean_fn(name):
    bind = _bind_spread_mean(name)

    def call(self, *args, **kwargs):
        op_, inputs, attrs, dtype = bind(self, *args, **kwargs)
        if name == "std_mean":
            dim = attrs["dim"]
            spread = np.sqrt(_var(self._data, dim=dim, correction=attrs["correction"], keepdim=attrs["keepdim"],
                                  exact=True)).astype(self._data.dtype)
            attrs = {**attrs, "result0": self._new(spread, self.dtype)}
        return self._apply(op_, inputs, attrs, dtype)

    call.__name__ = call.__qualname__ = name
    composite(Spelling(function=name, out=False))(call)


_spread_mean_fn("var_mean")
_spread_mean_fn("std_mean")


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


def _mode_indices(data, d):
    key = np.moveaxis(data, d, -1)
    flat = key.reshape(-1, key.shape[-1])
    out = np.empty(flat.shape[0], np.int64)
    for i, row in enumerate(flat):
        values, counts = np.unique(row, return_counts=True)
        best = values[np.argmax(counts)]  # the smallest of the most frequent
        out[i] = np.flatnonzero(row == best)[-1]  # its last position, as ATen's CPU mode gives
    return out.reshape(key.shape[:-1])


def _kth_indices(data, d, k):
    key = np.moveaxis(data, d, -1)
    if key.dtype.kind == "f":
        key = np.where(np.isnan(key), np.inf, key)  # NaN sorts as the greatest
    order = np.argsort(key, axis=-1, kind="stable")
    return order[..., k - 1].astype(np.int64)


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
    d = self._dim(dim)
    size = self.shape[d] if self.dim() else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    return _picked(self, "kthvalue", "kthvalue", dim, keepdim, lambda a, d: _kth_indices(a, d, k), k=k)


# --- cummax, cummin, logcumsumexp -------------------------------------------------------------------------------
def _cum_indices(data, d, greater):
    """The running extreme's index along d: the latest position of a value equal to it; a NaN wins and stays
    (ATen: x is taken if isnan(x) or (out is not NaN and x >= out))."""
    key = np.moveaxis(data, d, -1)
    out = np.zeros(key.shape, np.int64)
    best = key[..., 0].copy()
    at = np.zeros(key.shape[:-1], np.int64)
    is_float = key.dtype.kind == "f"
    for i in range(1, key.shape[-1]):
        v = key[..., i]
        better = (v >= best) if greater else (v <= best)
        if is_float:
            better = np.isnan(v) | (~np.isnan(best) & better)
        best = np.where(better, v, best)
        at = np.where(better, i, at)
        out[..., i] = at
    return np.ascontiguousarray(np.moveaxis(out, -1, d))


def _cum_take(a, dim, indices):
    return a.copy() if a.ndim == 0 else np.take_along_axis(a, indices._data, dim % a.ndim)


for _name in ("cummax", "cummin"):
    op(_name, _name.capitalize() + "Backward0", ("self",), _cum_take,
       ("grad added at the index each running extreme came from",
        lambda n, g: g._new(np.zeros(n._shapes[0], g.dtype.np), g.dtype).scatter_add(
            n.attrs["dim"], n.attrs["indices"], g) if n._shapes[0] else g),
       saves={0: ("dim", "indices", "self")}, bind=False,
       spell=Spelling(name=lambda s, a, w=_name: f"{s[0]}.{w}({a['dim']}).values"))


def _cum_fn(name):
    def call(self, dim):
        d = self._dim(dim)
        data = self._data if self._data.ndim else self._data.reshape(1)
        idx = _cum_indices(data, d, name == "cummax") if data.size else np.zeros(data.shape, np.int64)
        indices = self._new(idx.reshape(self._data.shape), dtypes.int64)
        values = self._apply(OPS[name], (self,), {"dim": dim, "indices": indices}, self.dtype)
        return returned(name, ["values", "indices"])(values, indices)

    call.__name__ = call.__qualname__ = name
    composite(Spelling(method=name, function=name))(call)


_cum_fn("cummax")
_cum_fn("cummin")


def _logcumsumexp(a, dim):
    if a.ndim == 0:
        return a.copy()
    if a.size == 0:
        return a.copy()
    return np.logaddexp.accumulate(a.astype(np.float64), axis=dim % a.ndim).astype(a.dtype)  # acc_type: double


def _logcumsumexp_grad(n, g):
    """ATen's logcumsumexp_backward: positive and negative parts of grad in log space, summed from the end."""
    if not n._shapes[0] or g.numel() == 0:
        return g
    dim, self, result = n.attrs["dim"], n["self"], n["result"]
    lowest = float(np.finfo(g.dtype.np).min)

    def reverse_logcumsumexp(x):
        return x.flip(dim).logcumsumexp(dim).flip(dim)

    log_abs_grad = g.abs().log()
    positive = log_abs_grad.where(g > 0, lowest)
    negative = log_abs_grad.where(g < 0, lowest)
    output_positive = (reverse_logcumsumexp(positive - result) + self).exp()
    return output_positive - (reverse_logcumsumexp(negative - result) + self).exp()


def _bind_logcumsumexp(self, dim):
    self._dim(dim)
    return OPS["logcumsumexp"], (self,), {"dim": dim}, self.dtype if self.dtype.is_floating_point else dtypes.float32


op("logcumsumexp", "LogcumsumexpBackward0", ("self",), _logcumsumexp,
   ("Σ from the end of grad · exp(self − result), in log space", _logcumsumexp_grad),
   saves={0: ("dim", "result", "self")}, spell=Spelling(method="logcumsumexp", function="logcumsumexp"),
   bind=_bind_logcumsumexp)


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


# --- searchsorted, bucketize, histc, bincount, isin: counts and positions (no grad) -----------------------------
def _int_result(self, array, out_int32):
    dtype = dtypes.int32 if out_int32 else dtypes.int64
    return self._new(np.asarray(array).astype(dtype.np), dtype)


def _search(seq, values, right):
    side = "right" if right else "left"
    if seq.ndim <= 1:
        return np.searchsorted(seq, values, side=side)
    if seq.size == 0 or values.size == 0:
        return np.zeros(values.shape, np.int64)
    rows_s = seq.reshape(-1, seq.shape[-1])
    rows_v = values.reshape(-1, values.shape[-1])
    out = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(rows_s, rows_v)]) if rows_s.shape[0] else \
        np.zeros(rows_v.shape, np.int64)
    return out.reshape(values.shape)


@composite(Spelling(function="searchsorted"))
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):  # noqa: A002
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    seq = sorted_sequence._data
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, -1)
    scalar = not hasattr(input, "_data")
    values = np.asarray(input, dtype=seq.dtype) if scalar else input._data
    if seq.ndim > 1 and (scalar or values.shape[:-1] != seq.shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           "dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor {list(seq.shape)} and input value tensor {list(np.shape(values))}")
    return _int_result(sorted_sequence, _search(seq, values, right), out_int32)


@composite(Spelling(method="bucketize", function="bucketize"))
def bucketize(self, boundaries, *, out_int32=False, right=False):
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    data = self._data if hasattr(self, "_data") else np.asarray(self)
    host = self if hasattr(self, "_data") else boundaries
    return _int_result(host, np.searchsorted(boundaries._data, data, side="right" if right else "left"), out_int32)


@composite(Spelling(method="histc", function="histc"))
def histc(self, bins=100, min=0, max=0):  # noqa: A002 - torch's names
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{self.dtype.type_name}'")
    if bins <= 0:
        raise RuntimeError("torch.histc: bins must be > 0, but got " + str(bins) + " for bins")
    data = self._data.reshape(-1)
    lo, hi = float(min), float(max)
    if lo == hi and data.size:
        finite = data[np.isfinite(data)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (lo, hi)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise RuntimeError(f"torch.histc: max must be larger than min, but got min {min} and max {max}")
    keep = data[(data >= lo) & (data <= hi)].astype(np.float64)
    pos = ((keep - lo) * bins / (hi - lo)).astype(np.int64)
    pos = np.minimum(pos, bins - 1)
    out = np.bincount(pos, minlength=bins).astype(self.dtype.np)
    return self._new(out, self.dtype)


@composite(Spelling(method="bincount", function="bincount", out=False))
def bincount(self, weights=None, minlength=0):
    if self.dim() != 1 or self.dtype.is_floating_point or self.dtype is dtypes.bool:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    data = self._data.astype(np.int64)
    if (data < 0).any():
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is None:
        return self._new(np.bincount(data, minlength=minlength).astype(np.int64), dtypes.int64)
    if weights.shape != self.shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    dtype = weights.dtype if weights.dtype.is_floating_point else dtypes.float64
    counts = np.bincount(data, weights=weights._data.astype(np.float64), minlength=minlength)
    return self._new(counts.astype(dtype.np), dtype)


@composite(Spelling(function="isin"))
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    host = elements if hasattr(elements, "_data") else test_elements
    a = elements._data if hasattr(elements, "_data") else np.asarray(elements)
    b = test_elements._data if hasattr(test_elements, "_data") else np.asarray(test_elements)
    return host._new(np.asarray(np.isin(a, b, invert=invert)), dtypes.bool)


# --- diff ---------------------------------------------------------------------------------------------------
@composite(Spelling(method="diff", function="diff"))
def diff(self, n=1, dim=-1, prepend=None, append=None):
    if self.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = self._dim(dim)
    if n == 0:  # ATen copies the input into a new tensor (prepend and append are not used)
        return self._new(np.empty(self.shape, self.dtype.np), self.dtype).copy_(self)
    parts = [t for t in (prepend, self, append) if t is not None]
    x = self
    if len(parts) > 1:
        parts = [t if t.dim() else t.expand(*self.shape[:d], 1, *self.shape[d + 1:]) for t in parts]
        op_, inputs, attrs, dtype = OPS["cat"].bind(parts, d)
        x = self._apply(op_, inputs, attrs, dtype)
    for _ in range(n):
        size = x.shape[d]
        if size == 0:
            break
        hi, lo = x.narrow(d, 1, size - 1), x.narrow(d, 0, size - 1)
        x = hi.logical_xor(lo) if x.dtype is dtypes.bool else hi - lo
    return x


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
