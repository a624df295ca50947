"""Fused multiply-add, correctly rounded, in numpy (which has none).

torch's CPU kernels are built with FMA contraction on AVX2/AVX-512 (`a * b + c` in C++ compiles to one
`vfmadd`, rounding once), so reproducing them needs `fma(a, b, c)` = the exact a·b + c rounded once.

- float32: a·b is exact in float64 (24 + 24 bits); the sum with c rounded to float64 then to float32 is
  the single rounding except where the float64 sum lands exactly on a float32 midpoint; there it is
  nudged by the sign of its error (odd rounding, Boldo & Melquiond 2008) before the second rounding.
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
    if not np.count_nonzero(inexact_even):  # (ndarray.any() costs twice as much on small arrays)
        return s
    return np.where(inexact_even, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)


def fma32(a, b, c):
    """float32 fma(a, b, c): a·b + c rounded once to float32."""
    return round32(_f64(a) * _f64(b), _f64(c))


def _f64(v):
    return v.astype(np.float64) if isinstance(v, np.ndarray) else np.float64(np.float32(v))


def round32(p, c):
    """RN32(p + c) for float64 p, c with p + c needing at most 53 + 53 bits (an exact float32 product plus a
    float32): fl64(p + c) rounds again correctly to float32 unless it lands exactly on a float32 midpoint,
    where the sign of the first rounding's error decides (the odd-rounding fix, applied only there)."""
    s = p + c
    mid = (s.view(np.int64) & 0x1FFFFFFF) == 0x10000000
    if np.count_nonzero(mid):
        bb = s - p
        e = (p - (s - bb)) + (c - bb)
        fix = mid & (e != 0) & np.isfinite(s)
        s = np.where(fix, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)
    return s.astype(np.float32)


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


_F32 = np.dtype(np.float32)


def fma(a, b, c, dtype):
    return fma32(a, b, c) if dtype is _F32 or np.dtype(dtype) == _F32 else fma64(a, b, c)
