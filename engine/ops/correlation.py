"""cov and corrcoef: composites as ATen's Correlation.cpp writes them (its nodes, checks and texts)."""
import warnings

import numpy as np

from .. import dtypes
from .table import OPS, Spelling, composite, result_dtype


def _check_weights(w, kind, n, integral):
    if w.dim() > 1:
        raise RuntimeError(f"cov(): expected {kind} to have one or fewer dimensions but got {kind} with {w.dim()} "
                           "dimensions")
    ok = (not w.dtype.is_floating_point and w.dtype is not dtypes.bool) if integral else w.dtype.is_floating_point
    if not ok:
        raise RuntimeError(f"cov(): expected {kind} to have {'integral' if integral else 'floating point'} dtype but "
                           f"got {kind} with {w.dtype.type_name} dtype")
    if w.numel() != n:
        raise RuntimeError(f"cov(): expected {kind} to have the same numel as there are observations in the input "
                           f"but got {w.numel()} != {n}")
    if n and (w._data < 0).any():
        raise RuntimeError(f"cov(): {kind} cannot be negative")


@composite(Spelling(method="cov", function="cov", out=False))
def cov(self, *, correction=1, fweights=None, aweights=None):
    if self.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{self.dim()} dimensions")
    if self.dtype is dtypes.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = self.view(1, -1) if self.dim() < 2 else self
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_weights(fweights, "fweights", n, True)
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", n, False)
        w = aweights if w is None else w * aweights
    w_sum = w.sum() if w is not None else x._new(np.asarray(n), dtypes.int64)
    if w is not None and not w_sum._data.item():
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x * w if w is not None else x).sum(1) / w_sum
    if w is None:
        norm = x._new(np.asarray(n - correction), dtypes.int64)
    elif correction == 0:
        norm = w_sum
    elif aweights is None:
        norm = w_sum - correction
    elif fweights is None and n == 1 and correction == 1:
        norm = x._new(np.asarray(0), dtypes.int64)
    else:
        norm = w_sum - correction * (w * aweights).sum() / w_sum
    if norm._data.item() <= 0:
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=3)
        norm = norm._new(np.zeros((), norm.dtype.np), norm.dtype)
    if n == 1 and (fweights is None) != (aweights is None):
        x = x * 0 if x.dtype.is_floating_point else x._new(np.zeros(x.shape, np.float32), dtypes.float32)
    else:
        x = x - avg.unsqueeze(1)
    c = x.mm((x * w if w is not None else x).t())
    return c._apply(OPS["div"], (c, norm), None, result_dtype((c, norm), "float")).squeeze()


@composite(Spelling(method="corrcoef", function="corrcoef", out=False))
def corrcoef(self):
    if self.dim() > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{self.dim()} dimensions")
    c = self.cov()
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    stddev = d.sqrt()
    c = c / stddev.view(-1, 1)
    c = c / stddev.view(1, -1)
    return c.clip(-1, 1)
