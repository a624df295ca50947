"""Scans and differences along a dim: cummax/cummin, logcumsumexp (ATen's derivatives), diff."""

import numpy as np

from .. import dtypes
from .statistics import returned
from .table import OPS, Spelling, composite, op


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
