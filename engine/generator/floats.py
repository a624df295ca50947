"""`log256_ps`, `sincos256_ps`: the Cephes-based float32 log and sincos of aten/src/ATen/native/cpu/avx_mathfun.h
(after Julien Pommier's sse_mathfun), operation for operation, with the multiply-adds GCC fuses (fma32: rounded
once, engine/kernels/fma.py), which `normal_` uses on AVX2 machines. Bit for bit what torch computes there.
"""
import numpy as np

from ..kernels.fma import fma32

f32 = np.float32


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
