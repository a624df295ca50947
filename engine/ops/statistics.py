"""Reductions that pick or skip values, or give two results from one node: amax/amin/aminmax, nansum/nanmean,
count_nonzero, var_mean/std_mean. The derivatives are ATen's (derivatives.yaml); `returned` makes torch's named
tuples of results."""
import collections

import numpy as np

from .. import dtypes
from .reductions import _count, _expand_back, _kept, _var, warn_if_no_freedom
from .table import OPS, Spelling, composite, dims, op, same_dtype_out

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


def _extreme_out(source, result, out):
    if out is not source:
        return (f"Expected the dtype for input and out to match, but got {source.type_name} for input's dtype and "
                f"{out.type_name} for out's dtype.")
    return None


for _name, _fn in (("amax", np.max), ("amin", np.min)):
    op(_name, _name.capitalize() + "Backward0", ("self",), _extreme(_fn),
       ("grad shared evenly by the values equal to the result",
        lambda n, g: _shared_evenly(n, g, n["result"], n.attrs["dim"])),
       saves={0: ("dim[]", "keepdim", "result", "self")},
       spell=Spelling(method=_name, function=_name, out_dtype=_extreme_out), bind=_bind_extreme(_name))
del _name, _fn


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
        d = self._dim(dim)
        if self.dim() and self.shape[d] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
    if self.numel() == 0 and dim is None:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                           "identity.")
    return OPS["aminmax"], (self,), {"dim": dim, "keepdim": keepdim}, None


op("aminmax", "AminmaxBackward0", ("self",), _aminmax,
   ("grad of each shared evenly by the values equal to it", _aminmax_grad),
   saves={0: ("dim", "keepdim", "max", "min", "self")}, several=True, bind=False,
   spell=Spelling(name=lambda s, a: f"{s[0]}.aminmax({_dim_text(a)}){'.max' if a.get('output') else '.min'}"))


@composite(Spelling(method="aminmax", function="aminmax", out_dtype=same_dtype_out))
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
    out = self.dtype if self.dtype._grads else dtypes.int64
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
        return np.asarray(np.sqrt(var).astype(a.real.dtype) if root else var), np.asarray(mean, a.dtype)

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
        if not (self.dtype.is_floating_point or self.dtype.is_complex):
            raise RuntimeError(f"{name} only support floating point and complex dtypes")
        dim = None if dim is _UNSET or dim is None else self._reduce_dims(dim)
        warn_if_no_freedom(name, self, dim, correction)
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
                                  exact=True)).astype(self._data.real.dtype)
            attrs = {**attrs, "result0": self._new(spread, dtypes.to_real(self.dtype))}
        return self._apply(op_, inputs, attrs, dtype)

    call.__name__ = call.__qualname__ = name
    composite(Spelling(function=name, out=False))(call)


_spread_mean_fn("var_mean")
_spread_mean_fn("std_mean")


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(self, q, dim, keepdim, interpolation, ignore_nan):
    """ATen's quantile_compute: sort along dim, rank each q, gather (and lerp between) the neighbours."""
    name = "nanquantile" if ignore_nan else "quantile"
    scalar_q = not hasattr(q, "_data")
    if scalar_q:
        if not 0 <= q <= 1:
            raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q}")
    if self.dtype not in (dtypes.float32, dtypes.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    if not scalar_q:
        if q.dtype is not self.dtype:
            raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
        if q.dim() > 1:
            raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest. "
                           f"Got '{interpolation}'")
    if self.numel() == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if not scalar_q and not bool(((q._data >= 0) & (q._data <= 1)).all()):
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    if scalar_q:
        q = self.new_tensor(q)
    if dim is not None and self.dim() > 0:
        d = self._dim(dim)
        out_shape = list(self.shape)
        if keepdim:
            out_shape[d] = 1
        else:
            del out_shape[d]
    else:
        if dim is not None:
            self._dim(dim)
        out_shape = [1] * self.dim() if keepdim else []
    if dim is None:
        ordered = self.flatten().sort()[0]
    elif self.dim() and self._dim(dim) == self.dim() - 1:
        ordered = self.sort()[0]
    else:
        ordered = self.unsqueeze(-1).transpose(self._dim(dim), -1).sort()[0]
    ordered = ordered.view(*out_shape, ordered.shape[-1] if ordered.dim() else 1)
    if ignore_nan:
        ranks = q * (ordered.isnan().logical_not_().sum(-1, True) - 1)
        ranks.masked_fill_(ranks < 0, 0)
    else:
        last = ordered.shape[-1] - 1
        scaled, nan = q._op("mul_scalar", other=last), ordered.isnan().any(-1, True)
        shape = np.broadcast_shapes(tuple(scaled.shape), tuple(nan.shape))  # ATen's broadcast_tensors
        ranks = scaled.expand(shape).masked_fill(nan.expand(shape), last)
    if interpolation == "lower":
        ranks.floor_()
    elif interpolation == "nearest":
        ranks.round_()
    elif interpolation == "higher":
        ranks.ceil_()
    below = ranks.long()
    values = ordered.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        if interpolation == "midpoint":
            weights = ranks.new_full(tuple(ranks.shape), 0.5).mul_(ranks > below)
        else:
            weights = ranks.sub(below)
        values.lerp_(ordered.gather(-1, ranks.ceil_().long()), weights)
    if q.dim() == 0:
        return values.squeeze_(-1)
    return values.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


@composite(Spelling(method="quantile", function="quantile"))
def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, q, dim, keepdim, interpolation, False)


@composite(Spelling(method="nanquantile", function="nanquantile"))
def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, q, dim, keepdim, interpolation, True)
