"""torch's window functions (hann, hamming, blackman, bartlett, kaiser) and torch.vander, computed as ATen's
TensorFactories.cpp computes them: in the window's dtype, on arange(N) (N + 1 points cut to N when periodic)."""
import math
import operator

import numpy as np

from . import devices, dtypes, factories, messages
from .functions import promote_types
from .kernels import special
from .tensor import Tensor

_UNSET = object()


def _window(name, window_length, periodic, dtype, device, requires_grad, make, extra=(), values=()):
    """`extra`: the names of the window's float parameters, `values`: those given."""
    given = (window_length,) if periodic is _UNSET else (window_length, periodic, *values)
    messages.check_signatures(name, _signatures(*extra), given, {})
    window_length, periodic = operator.index(window_length), periodic is _UNSET or periodic
    dtype = dtypes.DEFAULT[0] if dtype is None else dtype
    devices.check(device)
    if not dtype.is_floating_point:
        grad = "true" if requires_grad else "false (default)"
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={dtype.c_name}, "
                           f"device=cpu, layout=Strided (default), requires_grad={grad}, pinned_memory=false, "
                           "memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    if window_length <= 1:
        data = np.ones(window_length, dtype.np)
    else:
        n = window_length + 1 if periodic else window_length
        data = make(np.arange(n, dtype=dtype.np), n, dtype.np.type)[:window_length]
    return Tensor._make(np.ascontiguousarray(data, dtype.np), dtype, requires_grad)


def _signatures(*extra):
    """torch's signatures of a window function: (window_length), (…, periodic), then one more per float parameter."""
    options = factories.OPTIONS
    out = [f"(int window_length, *, {options})", f"(int window_length, bool periodic, *, {options})"]
    for i in range(1, len(extra) + 1):
        out.append(f"(int window_length, bool periodic, {', '.join(f'float {e}' for e in extra[:i])}, *, {options})")
    return out


def _refuse_without_periodic(name, window_length, given, options, *extra):
    """torch takes a window's float parameters only after periodic: given by name without it, none of its signatures
    matches."""
    if given:
        kwargs = {**given, **{k: v for k, v in options.items() if v is not None and v is not False}}
        raise messages.invalid_arguments(name, _signatures(*extra), (window_length,), kwargs)


def _cosine(alpha, beta):
    return lambda k, n, f: np.cos(k * f(math.pi * 2.0 / (n - 1))) * f(-beta) + f(alpha)


def hamming_window(window_length, periodic=_UNSET, alpha=_UNSET, beta=_UNSET, *, dtype=None, layout=None,
                   device=None, requires_grad=False):
    if periodic is _UNSET:
        given = {k: v for k, v in (("alpha", alpha), ("beta", beta)) if v is not _UNSET}
        _refuse_without_periodic("hamming_window", window_length, given,
                                 {"dtype": dtype, "layout": layout, "device": device, "requires_grad": requires_grad},
                                 "alpha", "beta")
    values = tuple(v for v in (alpha, beta) if v is not _UNSET)
    alpha = 0.54 if alpha is _UNSET else alpha
    beta = 0.46 if beta is _UNSET else beta
    return _window("hamming_window", window_length, periodic, dtype, device, requires_grad, _cosine(alpha, beta),
                   ("alpha", "beta"), values)


def hann_window(window_length, periodic=_UNSET, *, dtype=None, layout=None, device=None, requires_grad=False):
    return _window("hann_window", window_length, periodic, dtype, device, requires_grad, _cosine(0.5, 0.5))


def _bartlett(k, n, f):
    w = k * f(2.0 / (n - 1))
    half = ((n - 1) >> 1) + 1
    w[half:] = w[half:] * f(-1) + f(2)
    return w


def bartlett_window(window_length, periodic=_UNSET, *, dtype=None, layout=None, device=None, requires_grad=False):
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad, _bartlett)


def _blackman(k, n, f):
    w = k * f(math.pi / (n - 1))
    return np.cos(w * f(4)) * f(0.08) - np.cos(w * f(2)) * f(0.5) + f(0.42)


def blackman_window(window_length, periodic=_UNSET, *, dtype=None, layout=None, device=None, requires_grad=False):
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad, _blackman)


def kaiser_window(window_length, periodic=_UNSET, beta=_UNSET, *, dtype=None, layout=None, device=None,
                  requires_grad=False):
    if periodic is _UNSET:
        _refuse_without_periodic("kaiser_window", window_length, {} if beta is _UNSET else {"beta": beta},
                                 {"dtype": dtype, "layout": layout, "device": device, "requires_grad": requires_grad},
                                 "beta")
    values = () if beta is _UNSET else (beta,)
    beta = 12.0 if beta is _UNSET else beta

    def make(k, n, f):
        alpha, b = f((n - 1) / 2.0), f(beta)
        inner = np.sqrt(np.abs(f(1) - np.power((k - alpha) / alpha, f(2.0))))
        return (special.i0(b * inner) / special.i0(np.asarray(b))).astype(k.dtype)

    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad, make, ("beta",), values)


def vander(x, N=None, increasing=False):
    """Columns x**0, x**1, …, x**(N-1) (reversed unless increasing), built as ATen builds it: ones, x copied into
    columns 1:, their cumulative product, then a flip (so its grad_fn is torch's)."""
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    result = factories.empty(x.shape[0], n, dtype=promote_types(x.dtype, dtypes.int64))
    if n > 0:
        result.fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(result[:, 1:].cumprod(1))
    return result if increasing else result.flip(1)
