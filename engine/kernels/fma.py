"""Fused multiply-add, correctly rounded, in numpy (which has none).

torch's CPU kernels are built with FMA contraction on AVX2/AVX-512 (`a * b + c` in C++ compiles to one
`vfmadd`, rounding once), so reproducing them needs `fma(a, b, c)` = the exact a·b + c rounded once.

- float32: a·b is exact in float64 (24 + 24 bits); the sum with c is rounded to float64 *to odd*, which is
  then rounded to float32 without a double-rounding error (Boldo & Melquiond 2008: odd rounding to p + 2
  bits or more, then nearest, is nearest).
- float64: a·b = uh + ul exactly (Dekker's product with Veltkamp's split); with (th, tl) = TwoSum(c, uh),
  the result is RN(th + RO(tl + ul)) — the same authors' correctly rounded sum of three doubles.
Both are exact for all finite inputs whose product neither overflows nor falls below 2⁻⁹⁶⁹ (float64) —
far outside what learners compute.
"""

import numpy as np

_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp's splitter for float64


def two_sum(a, b):
    """s = fl(a + b) and the exact error e, a + b = s + e (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _round_to_odd(s, e):
    """s + e rounded to float64 with round-to-odd, given s = fl(s + e) and e its exact error."""
    inexact_even = (e != 0) & ((s.view(np.int64) & 1) == 0)
    if not inexact_even.any():
        return s
    return np.where(inexact_even, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)


def fma32(a, b, c):
    """float32 fma(a, b, c): a·b + c rounded once to float32."""
    a, b, c = (np.asarray(v, np.float32).astype(np.float64) for v in (a, b, c))
    with np.errstate(invalid="ignore", over="ignore"):
        s, e = two_sum(a * b, c)
        e = np.where(np.isfinite(s), e, 0.0)
        return _round_to_odd(s, e).astype(np.float32)


def _split(a):
    t = _SPLIT * a
    hi = t - (t - a)
    return hi, a - hi


def two_prod(a, b):
    """p = fl(a·b) and the exact error, a·b = p + e (Dekker)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def fma64(a, b, c):
    """float64 fma(a, b, c): a·b + c rounded once to float64."""
    a, b, c = (np.asarray(v, np.float64) for v in (a, b, c))
    with np.errstate(invalid="ignore", over="ignore"):
        uh, ul = two_prod(a, b)
        th, tl = two_sum(c, uh)
        s, e = two_sum(tl, ul)
        finite = np.isfinite(th) & np.isfinite(s)
        v = _round_to_odd(s, np.where(finite, e, 0.0))
        out = th + v
        return np.where(finite, out, a * b + c)


def fma(a, b, c, dtype):
    return fma32(a, b, c) if np.dtype(dtype) == np.float32 else fma64(a, b, c)
