"""Reductions: sum, mean, max/min, var/std, norm, logsumexp, cumsum, argmax/argmin."""
import collections
import math

import numpy as np

from .. import dtypes, kernels, messages
from .complex_numbers import conj_of
from .rounding import EXP, LOG
from .table import OPS, Spelling, composite, dims, op, shape_args


def _sum(a, dim=None, keepdim=False):
    return kernels.sum(a, axis=dim, keepdims=keepdim)


def _kept(n, t):
    """A reduction's result with the reduced dims put back (size 1), to broadcast against the input."""
    dim = n.attrs.get("dim")
    if dim is not None and not n.attrs.get("keepdim", False) and n._shapes[0]:
        for d in sorted(dims(dim, len(n._shapes[0]))):
            t = t.unsqueeze(d)
    return t


def _expand_back(n, g):
    return _kept(n, g).expand(n._shapes[0])


def _count(n):
    shape = n._shapes[0]
    dim = n.attrs.get("dim")
    if dim is None or not shape:
        return int(np.prod(shape, dtype=np.int64))
    return int(np.prod([shape[d] for d in dims(dim, len(shape))], dtype=np.int64))


def _reduce(name, dim_name, integers):
    """bind for x.name() / x.name(dim, keepdim, dtype=…): the whole tensor, or along dims; with dtype= the input
    is cast first, as PyTorch does. integers: what an integer tensor sums to (None: refused, as mean refuses)."""
    def bind(self, dim=None, keepdim=False, dtype=None):
        if dtype is not None and integers is None and not dtype._grads:
            raise RuntimeError(f"{name}(): could not infer output dtype. Optional dtype must be either a floating "
                               f"point or complex dtype. Got: {dtype.type_name}")
        if dtype is not None:
            self = self.to(dtype)
        elif not self.dtype._grads:
            if integers is None:
                raise RuntimeError(
                    f"{name}(): could not infer output dtype. Input dtype must be either a floating point or "
                    f"complex dtype. Got: {self.dtype.type_name}")
        out = self.dtype if self.dtype._grads or dtype is not None else integers
        if dim is None:
            return OPS[name], (self,), None, out
        return OPS[dim_name], (self,), {"dim": self._reduce_dims(dim), "keepdim": keepdim}, out

    return bind


def _mean(a, dim=None, keepdim=False):
    return kernels.mean(a, axis=dim, keepdims=keepdim)


_SUM, _SUM_BIND = Spelling(method="sum", function="sum"), _reduce("sum", "sum_dim", dtypes.int64)
_MEAN, _MEAN_BIND = Spelling(method="mean", function="mean"), _reduce("mean", "mean_dim", None)
op("sum", "SumBackward0", ("self",), _sum, ("grad expanded to self's shape", _expand_back),
   saves={0: ("self_sym_sizes",)}, spell=_SUM, bind=_SUM_BIND)
op("sum_dim", "SumBackward1", ("self",), _sum, ("grad expanded along dim", _expand_back),
   saves={0: ("dim[]", "keepdim", "self_sym_sizes")}, spell=_SUM, bind=_SUM_BIND)
op("mean", "MeanBackward0", ("self",), _mean,
   ("grad / numel, expanded", lambda n, g: _expand_back(n, g) / _count(n)),
   saves={0: ("self_sym_sizes", "self_sym_numel")},
   spell=_MEAN, bind=_MEAN_BIND)
op("mean_dim", "MeanBackward1", ("self",), _mean,
   ("grad / size(dim), expanded", lambda n, g: _expand_back(n, g) / _count(n)),
   saves={0: ("dim[]", "keepdim", "self_sym_sizes", "self_sym_numel")},
   spell=_MEAN, bind=_MEAN_BIND)


@composite(Spelling(method="sum_to_size"))
def sum_to_size(self, *size):
    shape = shape_args(size)
    full = self._data.shape
    if len(shape) > len(full) or any(s not in (1, f) for s, f in zip(shape[::-1], full[::-1])):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(full)}}}.")
    if not shape:  # ATen's sum_to: to no dims is the whole sum
        return self.sum()
    lead = self._data.ndim - len(shape)
    ds = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and self._data.shape[lead + i] != 1)
    if not ds:
        return self
    out = self.sum(ds, keepdim=True)
    return out.view(shape) if out.shape != shape else out


# --- max / min ------------------------------------------------------------------------------------
def _evenly(n, g):
    s, r = n["self"], n["result"]
    mask = s == r
    return mask * (g / mask.sum())


def _select_reduce(n, g):
    """The grad of a max/min along dim: g placed at the chosen index of each row, zeros elsewhere."""
    a = n.attrs
    shape = n._shapes[0]
    if not shape:
        return g
    dim = a["dim"] % len(shape)
    idx = a["indices"]._data if a["keepdim"] else np.expand_dims(a["indices"]._data, dim)
    grid = np.indices(idx.shape, sparse=True)
    key = tuple(idx if d == dim else grid[d] for d in range(len(shape)))
    if not a["keepdim"]:
        g = g.unsqueeze(dim)
    return g._op("scatter", shape=shape, key=key)


def _take(a, dim, keepdim, indices):
    if a.ndim == 0:
        return a.copy()
    indices = indices._data
    return np.take_along_axis(a, np.expand_dims(indices, dim) if not keepdim else indices, dim).reshape(indices.shape)


for _which in ("max", "min"):
    op(_which, _which.capitalize() + "Backward1", ("self",), getattr(np, _which),
       (f"grad shared evenly by the {_which}ima", _evenly), saves={0: ("self", "result")},
       spell=Spelling(method=_which, function=_which), bind=False)
    op(f"{_which}_dim", _which.capitalize() + "Backward0", ("self",), _take,
       (f"grad to the arg-{_which} of each row", _select_reduce), bind=False,
       saves={0: ("dim", "keepdim", "self_sym_sizes", "indices")},
       spell=Spelling(method=_which, function=_which,
                      name=lambda s, a, w=_which: f"{s[0]}.{w}({a['dim']}{', keepdim=True' * a['keepdim']}).values"))

op("scatter", "ScatterBackward0", ("grad",), lambda g, shape, key: _scatter(g, shape, key),
   ("grad taken at the indices", lambda n, g: g._op("index", key=n.attrs["key"])))


def _scatter(g, shape, key):
    out = np.zeros(shape, dtype=g.dtype)
    out[key] = g
    return out


_return_types = {}


def named(name):
    """torch.return_types.max and friends: (values, indices) named tuples."""
    if name not in _return_types:
        cls = collections.namedtuple(name, ["values", "indices"])
        cls.__repr__ = lambda self: f"torch.return_types.{name}(\nvalues={self.values!r},\nindices={self.indices!r})"
        _return_types[name] = cls
    return _return_types[name]


def _minmax(x, dim, keepdim, which):
    if hasattr(dim, "_data"):  # torch.max(x, y) is maximum
        return x._op("maximum" if which == "max" else "minimum", dim)
    if dim is not None and x.dtype.is_complex:
        raise RuntimeError(f"{which}(): does not support complex input")
    if dim is None:
        if x.numel() == 0:
            raise RuntimeError(
                f"{which}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument.")
        return x._apply(OPS[which], (x,), None, x.dtype)
    d = x._dim(dim)
    arg = np.argmax if which == "max" else np.argmin
    data = x._data if x._data.ndim else x._data.reshape(1)
    idx = arg(data, axis=d)
    if keepdim and x._data.ndim:
        idx = np.expand_dims(idx, d)
    indices = x._new(idx, dtypes.int64)
    values = x._apply(OPS[which + "_dim"], (x,), {"dim": dim, "keepdim": keepdim, "indices": indices}, x.dtype)
    return named(which)(values, indices)


_MINMAX_SIGNATURES = ("(Tensor input, *, Tensor out = None)", "(Tensor input, Tensor other, *, Tensor out = None)",
                      "(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)")


@composite(Spelling(method="max", function="max", signatures=_MINMAX_SIGNATURES))
def max(self, dim=None, keepdim=False):  # noqa: A001 - torch.max
    return _minmax(self, dim, keepdim, "max")


@composite(Spelling(method="min", function="min", signatures=_MINMAX_SIGNATURES))
def min(self, dim=None, keepdim=False):  # noqa: A001 - torch.min
    return _minmax(self, dim, keepdim, "min")


def _arg(t, fn, dim, keepdim):
    which = "argmax" if fn is np.argmax else "argmin"
    if t.dtype.name == "bool" or t.dtype.is_complex:
        raise RuntimeError(f"{which}(): does not support {'bool' if t.dtype.name == 'bool' else 'complex'} input")
    if dim is None and t.numel() == 0:
        raise IndexError(f"{which}(): Expected reduction dim to be specified for input.numel() == 0.")
    if dim is not None and t._data.ndim and t._data.shape[t._dim(dim)] == 0:
        raise IndexError(f"{which}(): Expected reduction dim {t._dim(dim)} to have non-zero size.")
    if dim is not None and t._data.ndim == 0:
        t._dim(dim)
        return t._new(np.zeros((), np.int64), dtypes.int64)
    if dim is None:
        return t._new(fn(t._data), dtypes.int64)
    out = fn(t._data, axis=t._dim(dim))
    if keepdim:
        out = np.expand_dims(out, t._dim(dim))
    return t._new(out, dtypes.int64)


@composite(Spelling(method="argmax", function="argmax"))
def argmax(self, dim=None, keepdim=False):
    return _arg(self, np.argmax, dim, keepdim)


@composite(Spelling(method="argmin", function="argmin"))
def argmin(self, dim=None, keepdim=False):
    return _arg(self, np.argmin, dim, keepdim)


# --- var, std, norm, logsumexp ----------------------------------------------------------------------
def _var(a, dim=None, correction=1, keepdim=False, exact=False):
    """The variance over dim, in float64; of a complex tensor, its real part's plus its imaginary part's, as ATen
    takes it (a real result)."""
    if a.dtype.kind == "c":
        out = _var(a.real, dim, correction, keepdim, True) + _var(a.imag, dim, correction, keepdim, True)
        return out if exact else out.astype(a.real.dtype)
    correction = 1 if correction is None else correction
    x = a.astype(np.float64)
    dim = None if a.ndim == 0 else dim
    n = a.size if dim is None else int(np.prod([a.shape[d] for d in (dim if isinstance(dim, tuple) else (dim,))]))
    with np.errstate(all="ignore"):
        mean = np.sum(x, axis=dim, keepdims=True) / n
        out = np.sum((x - mean) ** 2, axis=dim, keepdims=keepdim) / np.float64(n - correction if n > correction else 0)
    return out if exact else out.astype(a.dtype)


def _centered(n):
    s = n["self"]
    dim = n.attrs.get("dim")
    return s - (s.mean() if dim is None else s.mean(dim, keepdim=True))


def _dof(n):
    correction = n.attrs.get("correction")
    return _count(n) - (1 if correction is None else correction)


def _var_grad(n, g):
    """ATen's var_backward: (2 / dof) · grad · (self − mean); over all elements with dof <= 0, grad · (nan where
    self is the mean, else inf)."""
    dof = _dof(n)
    s = n["self"]
    if dof <= 0 and (s.dim() == 0 or n.attrs.get("dim") is None):
        return _expand_back(n, g) * ((s - s.mean()).abs() * math.inf)  # 0 · inf is nan
    return (2.0 / dof if dof else math.inf) * _expand_back(n, g) * _centered(n)


def _std_grad(n, g):
    """ATen's std_backward: var_backward of grad / (2 · result), 0 where the std is 0."""
    r = n["result"]
    return _var_grad(n, (g / (r * 2)).masked_fill(r == 0, 0))


_UNSET = object()  # PyTorch's overloads: `x.var()`, `x.var(correction=None)` keep the correction as None,
# `x.var(dim)`, `x.var(unbiased=True)` as 1


def _spread(name):
    def bind(self, dim=_UNSET, unbiased=None, keepdim=False, correction=_UNSET):
        if isinstance(dim, bool):  # x.var(False): the overload var(bool unbiased)
            dim, unbiased = _UNSET, dim
        if correction is _UNSET:
            correction = None if unbiased is None and dim is _UNSET else 0 if unbiased is False else 1
        dim = None if dim is _UNSET else dim
        if not (self.dtype.is_floating_point or self.dtype.is_complex):
            raise RuntimeError("std and var only support floating point and complex dtypes")
        attrs = {"correction": correction, "keepdim": keepdim}
        if dim is not None:
            attrs["dim"] = self._reduce_dims(dim)
        warn_if_no_freedom(name, self, attrs.get("dim"), correction)
        return OPS[name], (self,), attrs, dtypes.to_real(self.dtype)

    return bind


def warn_if_no_freedom(name, self, dims, correction):
    """ATen's warning where the reduction factor is not above the correction."""
    kept = _kept_numel(self.shape, dims)
    if (self.numel() // kept if kept else 0) - (1 if correction is None else correction) <= 0:
        messages.warn_at_caller(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                                "reduction factor (input numel divided by output numel).")


def _kept_numel(shape, dims):
    """The numel of a reduction's result over dims (all when None)."""
    if dims is None:
        return 1
    dims = {d % len(shape) for d in (dims if isinstance(dims, tuple) else (dims,))} if shape else set()
    return int(np.prod([s for i, s in enumerate(shape) if i not in dims]))


op("var", "VarBackward0", ("self",), _var,
   ("2 · (self − mean) · grad / (N − correction)", _var_grad),
   saves={0: ("self", "dim[]", "correction", "keepdim")},
   spell=Spelling(method="var", function="var"), bind=_spread("var"))
op("std", "StdBackward0", ("self",), lambda a, **k: np.sqrt(_var(a, exact=True, **k)).astype(a.real.dtype),
   ("(self − mean) · grad / ((N − correction) · result)", _std_grad),
   saves={0: ("self", "result", "dim[]", "correction", "keepdim")},
   spell=Spelling(method="std", function="std"), bind=_spread("std"))


INF = float("inf")


def _norm(a, dim=None, keepdim=False, ord=2):  # noqa: A002 - PyTorch's name
    """‖a‖_ord over dim (all dims when None), in float64: max |a| (inf), min |a| (−inf), the count of nonzeros
    (0), else (Σ|a|^ord)^(1/ord)."""
    x = np.abs(np.asarray(a, dtype=np.complex128 if a.dtype.kind == "c" else np.float64))
    dim = None if x.ndim == 0 else dim
    if ord == INF or ord == -INF:
        if x.size == 0:
            out = np.zeros(np.sum(x, axis=dim, keepdims=keepdim).shape)
        else:
            out = (np.max if ord == INF else np.min)(x, axis=dim, keepdims=keepdim)
    elif ord == 0:
        out = np.sum(x != 0, axis=dim, keepdims=keepdim).astype(np.float64)
    elif ord == 1:
        out = np.sum(x, axis=dim, keepdims=keepdim)
    elif ord == 2:
        out = np.sqrt(np.sum(x * x, axis=dim, keepdims=keepdim))
    else:
        out = np.sum(x ** ord, axis=dim, keepdims=keepdim) ** (1.0 / ord)
    return np.asarray(out).astype(a.real.dtype)


def norm_grad(x, r, g, p, over=None):
    """ATen's norm_backward: the grad of r = ‖x‖_p (r and g broadcast against x), 0 where the norm is 0; `over`:
    the dims the norm reduced, when known (the ties of an inf-norm are counted over them)."""
    sign = x.sgn if x.dtype.is_complex else x.sign
    if p == 0:
        return (x * 0).abs()
    if p == 1:
        return sign() * g
    if p == 2:
        return g * (x / r).masked_fill(r == 0, 0.0)  # as ATen writes it (its second derivative at 0 is nan)
    if p == INF or p == -INF:
        is_max = ((x.abs() == r) | (x.isnan() & r.isnan())).to(dtypes.to_real(x.dtype))
        return sign() * ((g / is_max.sum(_reduced(x, r) if over is None else over, keepdim=True)) * is_max)
    if p < 1:
        scaled = sign() * x.abs().pow(p - 1).masked_fill(x == 0, 0.0)
    elif p < 2:
        scaled = sign() * x.abs().pow(p - 1)
    else:
        scaled = x * x.abs().pow(p - 2)
    return scaled * (g / r.pow(p - 1)).masked_fill(r == 0, 0.0)


def _reduced(x, r):
    """The dims of x that r (broadcast, its reduced dims kept as 1) reduced over."""
    r_shape = (1,) * (x.dim() - r.dim()) + tuple(r.shape)
    return tuple(d for d in range(x.dim()) if r_shape[d] == 1 and x.shape[d] != 1) or tuple(range(x.dim()))


def _norm_grad(n, g):
    if n.attrs.get("ord", 2) == 0:  # ATen's norm_backward returns no grad for the 0-norm
        return None
    ndim = len(n._shapes[0])
    over = dims(n.attrs["dim"], ndim) if n.attrs.get("dim") is not None and ndim else None
    return norm_grad(n["self"], _kept(n, n["result"]), _expand_back(n, g), n.attrs.get("ord", 2), over)


def _bind_norm(self, p="fro", dim=None, keepdim=False, dtype=None):
    if isinstance(p, str) and p != "fro":
        raise RuntimeError(f"linalg.vector_norm: Expected ord to be a number, got {p}")
    if not self.dtype._grads:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{self.dtype.type_name}")
    attrs = {"keepdim": keepdim, "ord": 2 if p == "fro" else p}
    if dim is not None and dim != () and dim != []:
        attrs["dim"] = self._reduce_dims(tuple(dim) if isinstance(dim, list) else dim)
    return OPS["norm"], (self,), attrs, dtype or dtypes.to_real(self.dtype)


def _bind_vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    if isinstance(ord, str):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {type(ord).__name__}")
    if not x.dtype._grads:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{x.dtype.type_name}")
    if ord < 0 and x.numel() == 0 or (ord == INF and x.numel() == 0 and dim is None):
        raise RuntimeError(f"linalg.vector_norm cannot compute the {ord} norm on an empty tensor because the "
                           "operation does not have an identity")
    attrs = {"keepdim": keepdim, "ord": ord}
    if dim is not None and dim != () and dim != []:
        attrs["dim"] = x._reduce_dims(tuple(dim) if isinstance(dim, list) else dim)
    return OPS["vector_norm"], (x,), attrs, dtype or dtypes.to_real(x.dtype)


op("norm", "LinalgVectorNormBackward0", ("self",), _norm,
   ("sign(self) · |self|^(ord−1) / result^(ord−1) · grad", _norm_grad),
   saves={0: ("self", "result", "dim[]", "keepdim", "ord")},
   spell=Spelling(method="norm", function="norm", name=lambda s, a: _norm_label("{}.norm", s, a)), bind=_bind_norm)
op("vector_norm", "LinalgVectorNormBackward0", ("self",), _norm,
   ("sign(self) · |self|^(ord−1) / result^(ord−1) · grad", _norm_grad),
   saves={0: ("self", "result", "dim[]", "keepdim", "ord")},
   spell=Spelling(linalg="vector_norm", name=lambda s, a: _norm_label("torch.linalg.vector_norm", s, a)),
   bind=_bind_vector_norm)


def _norm_label(call, slots, attrs):
    """x.norm(3.0, dim=(1,)) / torch.linalg.vector_norm(x, 3.0): the ord always shown, as a number Python reads."""
    ord_ = attrs.get("ord", 2.0)
    words = [f"float('{ord_}')" if ord_ in (INF, -INF) else repr(ord_)]
    if attrs.get("dim") is not None:
        words.append(f"dim={attrs['dim']!r}")
    if attrs.get("keepdim"):
        words.append("keepdim=True")
    if call.startswith("{}"):
        return f"{call.format(slots[0])}({', '.join(words)})"
    return f"{call}({', '.join([slots[0]] + words)})"


def _logsumexp(a, dim, keepdim):
    if a.dtype.kind in "biu":  # computed in the default float type, as torch casts an integer input first
        a = a.astype(np.float32)
    if a.ndim == 0:
        if a.dtype.kind != "c":
            return a.copy()
        dim, keepdim = None, True  # a complex one is taken as the sum of one exponential (its angle wraps)
    m = np.max(a.real, axis=dim, keepdims=True)  # a complex input is shifted by its real parts' max
    m = np.where(np.isfinite(m), m, 0).astype(a.dtype)
    if dtypes.computing_reduced():  # ATen's composite: each step a bfloat16 tensor, the sum accumulated in float
        r = dtypes.round_bfloat16
        total = np.sum(r(EXP(r(a - m))), axis=dim, keepdims=True, dtype=np.float64).astype(np.float32)
        out = r(LOG(r(total))) + m
    else:
        out = LOG(np.sum(EXP(a - m), axis=dim, keepdims=True)) + m
    return out if keepdim else np.squeeze(out, axis=dim)


def _logsumexp_grad(n, g):
    r = n["result"]
    if not n.attrs["keepdim"] and n._shapes[0]:
        for d in sorted(dims(n.attrs["dim"], len(n._shapes[0]))):
            r = r.unsqueeze(d)
            g = g.unsqueeze(d)
    return g * conj_of((n["self"] - r).exp())


op("logsumexp", "LogsumexpBackward0", ("self",), _logsumexp,
   ("conj(exp(self − result)) · grad", _logsumexp_grad), saves={0: ("self", "result", "dim[]", "keepdim")},
   spell=Spelling(method="logsumexp", function="logsumexp"),
   bind=lambda self, dim, keepdim=False: (OPS["logsumexp"], (self,), {"dim": self._reduce_dims(dim),
                                                                       "keepdim": keepdim},
                                          self.dtype if self.dtype._grads else dtypes.float32))


def _cumsum(a, dim):
    if a.ndim == 0:
        return a.astype(np.int64 if a.dtype.kind in "bi" else a.dtype)
    if a.dtype.kind in "bi":
        return np.cumsum(a, axis=dim, dtype=np.int64)
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    return (np.cumsum(a, axis=dim, dtype=wide) + 0).astype(a.dtype)


def _bind_cumsum(self, dim):
    return (OPS["cumsum"], (self,), {"dim": self._reduce_dims(dim)},
            self.dtype if self.dtype._grads else dtypes.int64)


op("cumsum", "CumsumBackward0", ("self",), _cumsum,
   ("grad summed from the end along dim", lambda n, g: g._op("cumsum_rev", dim=n.attrs["dim"])), saves={0: ("dim",)},
   spell=Spelling(method="cumsum", function="cumsum", inplace="cumsum_"),
   bind=lambda self, dim, *, dtype=None: _bind_cumsum(self if dtype is None else self.to(dtype), dim))
op("cumsum_rev", "FlipBackward0", ("grad",),
   lambda g, dim: np.flip(np.cumsum(np.flip(g, dim), axis=dim, dtype=g.dtype), dim).copy() if g.ndim else g.copy(),
   ("grad summed from the start along dim", lambda n, g: g._op("cumsum", dim=n.attrs["dim"])))
