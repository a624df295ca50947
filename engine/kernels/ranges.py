"""torch.linspace and torch.arange values on CPU (aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp).

Both kernels are compiled with FMA contraction on x86 (the AVX2 build; AVX-512 machines run the same
build, as both stubs use REGISTER_DISPATCH), so `start + step * i` rounds once: `fused=False` gives what a
build without FMA (capability DEFAULT) computes. Exact for every size and dtype with the defaults.
"""

import math

import numpy as np

from .fma import fma32, fma64

LANES_BYTES = 32  # Vectorized<T> width of the kernels x86 torch runs


def linspace(start, end, steps, dtype=np.float32, *, fused=True):
    """torch.linspace(start, end, steps, dtype=dtype).

    ATen fills from both ends: with step = (end - start) / (steps - 1) computed in the dtype (in double for
    integer dtypes), element i is start + step·i for i < steps // 2 and end - step·(steps - 1 - i) after,
    each rounded once (one fma); start and end are first converted to the dtype."""
    dtype = np.dtype(dtype)
    steps = int(steps)
    if steps < 0:
        raise ValueError("number of steps must be non-negative")
    integral = dtype.kind in "biu"
    work = np.dtype(np.float64) if integral else dtype
    fused = fused and dtype.kind != "c"  # complex steps are a product and a sum, each rounded
    first = _to(start, dtype).astype(work)
    last = _to(end, dtype).astype(work)
    if steps <= 1:
        return np.full(steps, first, dtype)
    step = (last - first) / work.type(steps - 1)
    idx = np.arange(steps)
    half = steps // 2
    lo, hi = idx[:half].astype(work), (steps - 1 - idx[half:]).astype(work)
    if fused:
        fma = fma64 if work == np.float64 else fma32
        values = np.concatenate([fma(step, lo, first), fma(-step, hi, last)])
    else:
        values = np.concatenate([first + step * lo, last - step * hi])
    return _from(values, dtype)


def arange_size(start, end, step):
    """Number of elements of torch.arange(start, end, step) for floating arguments: ceil((end - start) / step)
    in double (RangeFactories.cpp)."""
    return max(0, int(math.ceil((float(end) - float(start)) / float(step))))


def arange(start, end, step=1, dtype=np.float32, *, lanes=None, fused=True):
    """torch.arange(start, end, step, dtype=dtype) for a floating dtype (integer aranges are exact anyway).

    The kernel works in double (acc_type<float, false>) and is vectorised over the contiguous output: in
    blocks of 2 vectors of `lanes`, vector j's first element is base = (T)(start + step·8j) and its lane i is
    (T)(base + i·step); the last < 2·lanes elements are (T)(start + step·idx); each double expression is one
    fma. lanes = 8 for float32, 4 for float64 (Vectorized<T> of 32 bytes)."""
    dtype = np.dtype(dtype)
    start, end, step = float(start), float(end), float(step)
    n = arange_size(start, end, step)
    lanes = lanes or LANES_BYTES // dtype.itemsize
    idx = np.arange(n)
    nvec = n // (2 * lanes) * (2 * lanes)
    first = (idx[:nvec] // lanes * lanes).astype(np.float64)
    lane = (idx[:nvec] % lanes).astype(np.float64)
    tail = idx[nvec:].astype(np.float64)
    if fused:
        base = fma64(step, first, start).astype(dtype).astype(np.float64)
        values = np.concatenate([fma64(lane, step, base), fma64(step, tail, start)])
    else:
        base = (start + step * first).astype(dtype).astype(np.float64)
        values = np.concatenate([base + lane * step, start + step * tail])
    return values.astype(dtype)


def _to(x, dtype):
    """A Python number converted to the dtype as c10::Scalar::to<T> does (truncation for integers)."""
    if dtype.kind in "biu":
        return np.array(math.trunc(x) if isinstance(x, float) else x, dtype)
    return np.array(x, dtype)


def _from(values, dtype):
    if dtype.kind in "biu":
        return np.trunc(values).astype(dtype)
    return values.astype(dtype)


def logspace(start, end, steps, base=10.0, dtype=np.float32):
    """torch.logspace(start, end, steps, base, dtype=dtype), as RangeFactories.cpp fills it: start and end first
    converted to the dtype, step = (end - start) / (steps - 1) in double, element i is base ** (start + step·i) for
    i < steps // 2 and base ** (end - step·(steps - 1 - i)) after, in double (a float base for integer dtypes),
    then converted to the dtype."""
    dtype = np.dtype(dtype)
    steps = int(steps)
    if steps < 0:
        raise ValueError("number of steps must be non-negative")
    integral = dtype.kind in "biu"
    if steps == 0:
        return np.zeros(0, dtype)
    if dtype.kind == "c":
        return _complex_logspace(start, end, steps, base, dtype)
    if steps == 1:
        return _from(np.array([float(base) ** float(start)]), dtype)
    first = _to(start, dtype)
    last = _to(end, dtype)
    if integral:
        step = float(last.astype(np.int64) - first.astype(np.int64)) / (steps - 1)
        b = np.float64(np.float32(base))
    else:
        step = (float(last) - float(first)) / (steps - 1)
        b = np.float64(base)
    idx = np.arange(steps)
    half = steps // 2
    lo = np.float64(first) + step * idx[:half].astype(np.float64)
    hi = np.float64(last) - step * (steps - 1 - idx[half:]).astype(np.float64)
    return _from(np.power(b, np.concatenate([lo, hi])), dtype)


def _complex_logspace(start, end, steps, base, dtype):
    """logspace of a complex dtype: all in the dtype (step, base and power), one element in complex double."""
    if steps == 1:
        return np.array([complex(base) ** complex(start)], dtype)
    first, last, b = dtype.type(start), dtype.type(end), dtype.type(base)
    step = (last - first) / dtype.type(steps - 1)
    idx = np.arange(steps)
    half = steps // 2
    with np.errstate(all="ignore"):
        lo = first + step * idx[:half].astype(dtype)
        hi = last - step * (steps - 1 - idx[half:]).astype(dtype)
        return np.power(b, np.concatenate([lo, hi])).astype(dtype)
