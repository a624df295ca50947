"""Products: prod (whole tensor, ProdBackward0; along a dim, ProdBackward1), cumprod, and flip, which their
derivatives use. The derivatives are ATen's: grad · result / self where self has no zero; else the product of
the other elements, as exclusive cumulative products from both ends (prod) or one product per position
(cumprod), so that one zero, or several, give the right grads and create_graph differentiates them again."""
import numpy as np

from .. import dtypes
from .complex_numbers import conjugated_vjp
from .table import OPS, Spelling, op


def _signed(d):
    """A dim as torch keeps it on the node (a negative one as its uint64), back as an int."""
    return d - 2**64 if d >= 2**63 else d


def _kept_dim(self, dim):
    """dim checked against self, as the node keeps it: as given, a negative one as its uint64."""
    self._dim(dim)
    return dim % 2**64


# --- flip -------------------------------------------------------------------------------------------------
def _bind_flip(self, *dims, **keyword):
    if keyword.keys() - {"dims"}:
        raise TypeError(f"flip() got an unexpected keyword argument '{sorted(keyword.keys() - {'dims'})[0]}'")
    if "dims" in keyword:
        if dims:
            raise TypeError("flip() got multiple values for argument 'dims'")
        dims = (keyword["dims"],)
    given = bool(dims)
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    if not given:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    dims = self._reduce_dims(tuple(dims))
    return OPS["flip"], (self,), {"dims": tuple(d % 2**64 for d in dims)}, None


def _flip(a, dims):
    if not dims:
        return a.copy()
    return np.flip(a, tuple(_signed(d) % max(a.ndim, 1) for d in dims) if a.ndim else None).copy()


op("flip", "FlipBackward0", ("self",), _flip,
   ("grad flipped back", lambda n, g: g.flip(tuple(_signed(d) for d in n.attrs["dims"]))),
   saves={0: ("dims",)}, bind=_bind_flip,
   spell=Spelling(method="flip", function="flip", out=False,
                  name=lambda s, a: f"{s[0]}.flip({', '.join(str(_signed(d)) for d in a['dims'])})"))


# --- cumprod ------------------------------------------------------------------------------------------------
def _cumprod(a, dim):
    if a.ndim == 0:
        return a.astype(np.int64) if a.dtype.kind in "biu" else a.copy()
    return np.cumprod(a, axis=_signed(dim) % a.ndim, dtype=np.int64 if a.dtype.kind in "biu" else a.dtype)


def _flipped_cumsum(t, dim):
    """Σ from the end along dim, as ATen's reversed_cumsum: flip, cumsum, flip."""
    return t.flip(dim).cumsum(dim).flip(dim)


def _cumprod_grad(n, g):
    x, dim = n["self"], _signed(n.attrs["dim"])
    if x.numel() <= 1 or x.dim() == 0 or x.shape[dim] == 1:
        return g
    w = n["result"] * g
    if not (x._data == 0).any():
        return _flipped_cumsum(w, dim) / x
    return _cumprod_grad_with_zeros(x, g, dim % x.dim())


def _cumprod_grad_with_zeros(x, g, dim):
    """The grad of each input position k: Σ_{j ≥ k} grad_j · Π_{i ≤ j, i ≠ k} x_i (ATen's formula for a
    differentiable grad), one position at a time, written into zeros."""
    size = x.shape[dim]
    grad_input = g._new(np.zeros(x.shape, g.dtype.np), g.dtype)
    for k in range(size):
        before = x.narrow(dim, 0, k).prod(dim, keepdim=True) if k else None
        after = x.narrow(dim, k + 1, size - k - 1).cumprod(dim) if k < size - 1 else None
        if after is None:
            omitted = before
        elif before is None:
            omitted = _joined("cat", (_ones(x, dim), after), dim)
        else:
            omitted = _joined("cat", (before, before.expand_as(after) * after), dim)
        grad_input.select(dim, k).copy_((g.narrow(dim, k, size - k) * omitted).sum(dim))
    return grad_input


def _joined(name, tensors, dim):
    """torch.cat of tensors (of one dtype) along dim."""
    return tensors[0]._apply(OPS[name], tuple(tensors), {"dim": dim}, tensors[0].dtype)


def _ones(x, dim):
    shape = list(x.shape)
    shape[dim] = 1
    return x._new(np.ones(shape, x.dtype.np), x.dtype)


def _bind_cumprod(self, dim, *, dtype=None):
    if dtype is not None:
        self = self.to(dtype)
    out = self.dtype if self.dtype._grads else dtypes.int64
    return OPS["cumprod"], (self,), {"dim": _kept_dim(self, dim)}, out


op("cumprod", "CumprodBackward0", ("self",), _cumprod,
   ("Σ from the end of result · grad, / self (zeros: the product of the others)", conjugated_vjp(_cumprod_grad)),
   saves={0: ("dim", "self", "result")}, bind=_bind_cumprod,
   spell=Spelling(method="cumprod", function="cumprod", inplace="cumprod_",
                  name=lambda s, a: f"{s[0]}.cumprod({_signed(a['dim'])})"))


# --- prod ---------------------------------------------------------------------------------------------------
def _exclusive_products(g, x, dim):
    """grad · Π of the other elements along dim (ATen's prod_safe_zeros_backward): the products before and
    after each position, as cumprods of x shifted by one from each end."""
    size = x.shape[dim]
    if x.numel() == 0:
        return g.expand_as(x)
    if size == 1:
        return g
    ones = _ones(x, dim)
    before = _joined("cat", (ones, x.narrow(dim, 0, size - 1)), dim).cumprod(dim)
    after = _joined("cat", (ones, x.narrow(dim, 1, size - 1).flip(dim)), dim).cumprod(dim).flip(dim)
    return g * (before * after)


def _prod_grad(n, g):
    x = n["self"]
    if x.dim() == 0:
        return g
    if not (x._data == 0).any():
        return g * (n["result"] / x)
    return _exclusive_products(g, x.contiguous().view(-1), 0).view(x.shape)


def _prod_dim_grad(n, g):
    x = n["self"]
    if x.dim() == 0:
        return g
    dim, result = _signed(n.attrs["dim"]) % x.dim(), n["result"]
    if not n.attrs["keepdim"]:
        g, result = g.unsqueeze(dim), result.unsqueeze(dim)
    if not (x._data == 0).any():
        return g * (result / x)
    return _exclusive_products(g, x, dim)


def _prod(a, dim=None, keepdim=False):
    out = a.dtype if a.dtype.kind in "fc" else np.int64  # bool/int products as int64, cast to the result's dtype
    if dtypes.computing_reduced() and a.ndim:
        return _reduced_prod(a, dim, keepdim)
    if dim is None:
        return np.prod(a, dtype=out)
    return np.prod(a, axis=_signed(dim) % max(a.ndim, 1) if a.ndim else None, keepdims=keepdim and a.ndim > 0,
                   dtype=out)


def _reduced_prod(a, dim, keepdim):
    """A bfloat16 product: ATen multiplies in bfloat16, each product rounded, along the dim in order."""
    axis = _signed(dim) % a.ndim if dim is not None else None
    rows = np.moveaxis(a, axis, -1) if axis is not None else a.reshape(-1)
    acc = np.ones(rows.shape[:-1], np.float32)
    for i in range(rows.shape[-1]):
        acc = dtypes.round_bfloat16(acc * rows[..., i])
    return np.expand_dims(acc, axis) if keepdim and axis is not None else acc


_PROD_SIGNATURES = ("(*, torch.dtype dtype = None)", "(int dim, bool keepdim = False, *, torch.dtype dtype = None)")


def _invalid(args, kwargs):
    got = ", ".join(type(a).__name__ for a in args)
    if kwargs:
        got += (", " if args else "") + "".join(f"{k}={type(v).__name__}, " for k, v in kwargs.items())
    return TypeError(f"prod() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     + "".join(f" * {s}\n" for s in _PROD_SIGNATURES))


def _bind_prod(self, *args, **kwargs):
    """x.prod(*, dtype) or x.prod(dim, keepdim=False, *, dtype): the whole tensor or one dim."""
    given = dict(zip(("dim", "keepdim"), args))
    if len(args) > 2 or set(kwargs) - {"dim", "keepdim", "dtype"} or set(kwargs) & set(given):
        raise _invalid(args, kwargs)
    given.update(kwargs)
    dtype = given.pop("dtype", None)
    dim = given.get("dim")
    if "dim" not in given and "keepdim" in given or "dim" in given and (not isinstance(dim, int)
                                                                         or isinstance(dim, bool)):
        raise _invalid(args, kwargs)
    keepdim = given.get("keepdim", False)
    if not isinstance(keepdim, bool):
        raise TypeError(f"prod(): argument 'keepdim' (position 2) must be bool, not {type(keepdim).__name__}")
    if dtype is not None:
        self = self.to(dtype)
    out = self.dtype if self.dtype._grads or dtype is not None else dtypes.int64
    if "dim" not in given:
        return OPS["prod"], (self,), None, out
    return OPS["prod_dim"], (self,), {"dim": _kept_dim(self, dim), "keepdim": keepdim}, out


_PROD = Spelling(method="prod", function="prod")
op("prod", "ProdBackward0", ("self",), _prod,
   ("grad · result / self (zeros: the product of the others)", conjugated_vjp(_prod_grad)),
   saves={0: ("self", "result")}, spell=_PROD, bind=_bind_prod)
op("prod_dim", "ProdBackward1", ("self",), _prod,
   ("grad · result / self along dim (zeros: the product of the others)", conjugated_vjp(_prod_dim_grad)),
   saves={0: ("dim", "keepdim", "self", "result")}, bind=_bind_prod,
   spell=Spelling(method="prod", function="prod",
                  name=lambda s, a: f"{s[0]}.prod({_signed(a['dim'])}{', keepdim=True' * a['keepdim']})"))
