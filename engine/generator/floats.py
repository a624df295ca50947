"""Float arithmetic as PyTorch's compiled random kernels do it, on numpy arrays.

- `fma32`, `fma64`: a * b + c rounded once. GCC contracts `x * (to - from) + from` and the like into fused
  multiply-adds in the kernels it builds for AVX2 (and AVX512), so their results have one rounding, not two.
- `log256_ps`, `sincos256_ps`: the Cephes-based float32 log and sincos of aten/src/ATen/native/cpu/avx_mathfun.h
  (after Julien Pommier's sse_mathfun), operation for operation, with the multiply-adds GCC fuses, which
  `normal_` uses on AVX2 machines. Bit for bit what torch computes there.
"""
import numpy as np

f32 = np.float32


def _round_odd(hi, err):
    """hi + err (hi = its round-to-nearest, err the exact rest) rounded to odd: the neighbour of the exact value
    whose last mantissa bit is 1 when it is not representable. Rounding that once more to fewer bits is then
    correctly rounded (Boldo & Melquiond)."""
    bits = hi.view(np.int64).copy()
    inexact = err != 0
    toward = np.where(np.signbit(err) == np.signbit(hi), 1, -1)
    bits = np.where(inexact & ((bits & 1) == 0), bits + toward, bits)
    return bits.view(np.float64)


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a):
    c = a * 134217729.0  # 2**27 + 1: Veltkamp's split into two halves of 26 bits
    hi = c - (c - a)
    return hi, a - hi


def _two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def fma64(a, b, c):
    """a * b + c in float64 with one rounding (Boldo & Melquiond's emulation: exact product, exact sum, the
    small parts added rounding to odd)."""
    a, b, c = (np.asarray(x, dtype=np.float64) for x in (a, b, c))
    ph, pl = _two_prod(a, b)
    sh, sl = _two_sum(c, ph)
    v, err = _two_sum(sl, pl)
    return np.asarray(sh + _round_odd(v, err))


_HALF_ULP32 = np.int64(1 << 28)  # a float64 whose 29 low bits are this lies halfway between two float32s
_LOW29 = np.int64((1 << 29) - 1)


def fma32(a, b, c):
    """a * b + c in float32 with one rounding. The product is exact in float64 and rounding the float64 sum to
    float32 is already right unless that sum fell exactly halfway between two float32s (or near the subnormals):
    only then is the sum redone, rounded to odd."""
    a, b, c = (np.asarray(x, dtype=np.float32) for x in (a, b, c))
    p = np.multiply(a, b, dtype=np.float64)
    s = np.add(p, c, dtype=np.float64)
    suspect = ((s.view(np.int64) & _LOW29) == _HALF_ULP32) | (np.abs(s) < 2.0 ** -125)
    if suspect.any():
        p, c = np.broadcast_arrays(p, c.astype(np.float64))
        s, err = _two_sum(p, c)
        s = _round_odd(s, err)
    return np.asarray(s).astype(np.float32)


def _bits(x):
    return np.asarray(x, dtype=f32).view(np.int32)


LOG_P = [f32(v) for v in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                          1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1)]


def log256_ps(x):
    x = np.asarray(x, dtype=f32)
    invalid = x <= 0
    x = np.maximum(x, np.int32(0x00800000).view(f32))  # no denormals
    e = ((_bits(x).view(np.uint32) >> np.uint32(23)).astype(np.int32) - 0x7F).astype(f32) + f32(1)
    x = ((_bits(x) & np.int32(~0x7F800000)) | _bits(0.5)).view(f32)  # the mantissa, in [0.5, 1)
    mask = x < f32(0.707106781186547524)
    tmp = np.where(mask, x, f32(0))
    x = x - f32(1)
    e = e - np.where(mask, f32(1), f32(0))
    x = x + tmp
    z = x * x
    y = np.full_like(x, LOG_P[0])
    for p in LOG_P[1:]:
        y = fma32(y, x, p)
    y = y * x
    y = fma32(y, z, e * f32(-2.12194440e-4))
    y = y - z * f32(0.5)
    x = x + y
    x = x + e * f32(0.693359375)
    return np.where(invalid, f32(np.nan), x)


def sincos256_ps(x):
    """(sin x, cos x) for float32 x."""
    x = np.asarray(x, dtype=f32)
    sign_sin = np.signbit(x)
    x = np.abs(x)
    j = (x * f32(1.27323954473516)).astype(np.int32)  # 4/pi; cvttps truncates
    j = (j + 1) & ~1
    y = j.astype(f32)
    sign_sin = sign_sin ^ ((j & 4) != 0)
    poly = (j & 2) == 0
    sign_cos = (~(j - 2) & 4) != 0
    for dp in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8):  # x - y * pi/4, in 3 parts
        x = fma32(y, f32(dp), x)
    z = x * x
    yc = np.full_like(x, f32(2.443315711809948E-005))
    yc = fma32(yc, z, f32(-1.388731625493765E-003))
    yc = fma32(yc, z, f32(4.166664568298827E-002))
    yc = yc * z
    yc = fma32(yc, z, -(z * f32(0.5)))
    yc = yc + f32(1)
    ys = np.full_like(x, f32(-1.9515295891E-4))
    ys = fma32(ys, z, f32(8.3321608736E-3))
    ys = fma32(ys, z, f32(-1.6666654611E-1))
    ys = ys * z
    ys = fma32(ys, x, x)
    s = np.where(poly, ys, yc)
    c = np.where(poly, yc, ys)
    return np.where(sign_sin, -s, s), np.where(sign_cos, -c, c)
