"""SLEEF's float32 functions as torch's AVX2 build runs them (Sleef_<f>f8_u10avx2), in numpy.

torch's Vectorized<float> (aten/src/ATen/cpu/vec/vec256/vec256_float.h) maps exp, log, sinh, cosh, expm1,
log1p, tanh, ... to SLEEF; its vectorised kernels (softmax, log_softmax, the `cpu_kernel_vec` bodies of
sinh/cosh/expm1/log1p) call these. Each function below is the SLEEF source (src/libm/sleefsimdsp.c,
src/common/df.h, with the AVX2 helpers: `vmla` = fused multiply-add, `vrint` = round half to even) replayed
operation by operation in float32, so the bits are SLEEF's for every finite input in range; checked
against the Sleef_*f8_u10avx2 symbols of torch's own library (tests/engine/test_kernels.py checks against
torch). AVX-512 kernels would call the *f16_u10avx512f variants: the same operations, except that SLEEF's
source switches log's argument reduction and special cases to vgetexp/vgetmant/vfixup under ENABLE_AVX512F
(the same reduction to [0.75, 1.5), so equal results are expected for normal inputs; not measured here).
"""

import numpy as np

from .fma import fma32

F = np.float32
R_LN2 = F(1.442695040888963407359924681001892137426645954152985934135449406931)
L2U = F(0.693145751953125)
L2L = F(1.428606765330187045e-06)
LN2_HI, LN2_LO = F(0.69314718246459960938), F(-1.904654323148236017e-09)
FLT_MIN = F(1.17549435e-38)


def _f(x):
    return np.asarray(x, F)


def _bits(x):
    return _f(x).view(np.int32)


def _from_bits(i):
    return np.asarray(i, np.int32).view(F)


def _pow2i(q):
    return _from_bits((q + 0x7F) << 23)


def _ldexp2(d, e):
    return (d * _pow2i(e >> 1)) * _pow2i(e - (e >> 1))


def _ldexp3(d, q):
    return _from_bits(_bits(d) + (q << 23))


def _ilogb2k(d):
    return ((_bits(d) >> 23) & 0xFF) - 0x7F


def _rint(x):
    return np.rint(x).astype(np.int32)


def _mla(x, y, z):
    return fma32(x, y, z)


# --- double-float arithmetic (df.h, ENABLE_FMA_SP branch); a pair is (hi, lo) ---------------------

def _add(x, y):                      # dfadd_vf2_vf_vf
    s = x + y
    return s, (x - s) + y


def _add2(x, y):                     # dfadd2_vf2_vf_vf
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _add2_df_f(x, y):                # dfadd2_vf2_vf2_vf
    s = x[0] + y
    v = s - x[0]
    t = (x[0] - (s - v)) + (y - v)
    return s, t + x[1]


def _add_f_df(x, y):                 # dfadd_vf2_vf_vf2
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def _add_df_f(x, y):                 # dfadd_vf2_vf2_vf
    s = x[0] + y
    return s, ((x[0] - s) + y) + x[1]


def _add_df_df(x, y):                # dfadd_vf2_vf2_vf2
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _sub_df_df(x, y):                # dfsub_vf2_vf2_vf2
    s = x[0] - y[0]
    t = ((x[0] - s) - y[0]) + x[1]
    return s, t - y[1]


def _scale(x, s):
    return x[0] * s, x[1] * s


def _mul_f_f(x, y):                  # dfmul_vf2_vf_vf
    s = x * y
    return s, fma32(x, y, -s)


def _mul_df_f(x, y):                 # dfmul_vf2_vf2_vf
    s = x[0] * y
    return s, fma32(x[1], y, fma32(x[0], y, -s))


def _mul_df_df(x, y):                # dfmul_vf2_vf2_vf2
    s = x[0] * y[0]
    return s, fma32(x[0], y[1], fma32(x[1], y[0], fma32(x[0], y[0], -s)))


def _squ(x):                         # dfsqu_vf2_vf2
    s = x[0] * x[0]
    return s, fma32(x[0] + x[0], x[1], fma32(x[0], x[0], -s))


def _div(n, d):                      # dfdiv_vf2_vf2_vf2
    t = F(1) / d[0]
    s = n[0] * t
    u = fma32(t, n[0], -s)
    v = fma32(-d[1], t, fma32(-d[0], t, F(1)))
    return s, fma32(s, v, fma32(n[1], t, u))


def _rec(d):                         # dfrec_vf2_vf2
    s = F(1) / d[0]
    return s, s * fma32(-d[1], s, fma32(-d[0], s, F(1)))


def _normalize(t):
    s = t[0] + t[1]
    return s, (t[0] - s) + t[1]


# --- functions -------------------------------------------------------------------------------------

def expf(d):
    """Sleef_expf8_u10 (xexpf)."""
    d = _f(d)
    with np.errstate(all="ignore"):
        q = _rint(d * R_LN2)
        qf = q.astype(F)
        s = _mla(qf, -L2U, d)
        s = _mla(qf, -L2L, s)
        u = F(0.000198527617612853646278381)
        for c in (0.00139304355252534151077271, 0.00833336077630519866943359, 0.0416664853692054748535156,
                  0.166666671633720397949219, 0.5):
            u = _mla(u, s, F(c))
        u = F(1) + _mla(s * s, u, s)
        u = _ldexp2(u, q)
        u = np.where(d < -104, F(0), u)
        u = np.where(d > 100, F(np.inf), u)
        return np.where(np.isnan(d), d, u).astype(F)


def _log_parts(d):
    """The argument reduction shared by SLEEF's logs: d = m·2^e with m in [0.75, 1.5)."""
    o = d < FLT_MIN
    d = np.where(o, d * F(2.0 ** 64), d)
    e = _ilogb2k(d * F(1.0 / 0.75))
    m = _ldexp3(d, -e)
    e = np.where(o, e - 64, e)
    return m, e


def logf(d):
    """Sleef_logf8_u10 (xlogf_u1)."""
    d = _f(d)
    with np.errstate(all="ignore"):
        m, e = _log_parts(d)
        s = _mul_df_f((LN2_HI, LN2_LO), e.astype(F))
        x = _div(_add2(F(-1), m), _add2(F(1), m))
        x2 = x[0] * x[0]
        t = _mla(F(0.3027294874), x2, F(0.3996108174))
        t = _mla(t, x2, F(0.6666694880))
        s = _add_df_df(s, _scale(x, F(2)))
        s = _add_df_f(s, (x2 * x[0]) * t)
        r = s[0] + s[1]
        r = np.where(d == np.inf, F(np.inf), r)
        r = np.where((d < 0) | np.isnan(d), F(np.nan), r)
        return np.where(d == 0, F(-np.inf), r).astype(F)


def _expk2(d):
    """expk2f: e^d for a double-float d, as a double-float."""
    u = (d[0] + d[1]) * R_LN2
    q = _rint(u)
    qf = q.astype(F)
    s = _add2_df_f(d, qf * -L2U)
    s = _add2_df_f(s, qf * -L2L)
    u = F(0.1980960224e-3)
    for c in (0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1):
        u = _mla(u, s[0], F(c))
    t = _add2_df_f(_mul_df_f(s, u), F(0.166666659414234244790680580464))
    t = _add2_df_f(_mul_df_df(s, t), F(0.5))
    t = _add2_df_df(s, _mul_df_df(_squ(s), t))
    t = _add_f_df(F(1), t)
    hi, lo = _ldexp2(t[0], q), _ldexp2(t[1], q)
    under = d[0] < -104
    return np.where(under, F(0), hi), np.where(under, F(0), lo)


def _add2_df_df(x, y):               # dfadd2_vf2_vf2_vf2
    s = x[0] + y[0]
    v = s - x[0]
    t = (x[0] - (s - v)) + (y[0] - v)
    return s, t + (x[1] + y[1])


def sinhf(x):
    """Sleef_sinhf8_u10 (xsinhf)."""
    x = _f(x)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _expk2((y, np.zeros_like(y)))
        d = _sub_df_df(d, _rec(d))
        y = (d[0] + d[1]) * F(0.5)
        y = np.where((np.abs(x) > 89) | np.isnan(y), F(np.inf), y)
        y = np.copysign(y, x)
        return np.where(np.isnan(x), x, y).astype(F)


def coshf(x):
    """Sleef_coshf8_u10 (xcoshf)."""
    x = _f(x)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _expk2((y, np.zeros_like(y)))
        d = _add_df_df(d, _rec(d))
        y = (d[0] + d[1]) * F(0.5)
        y = np.where((np.abs(x) > 89) | np.isnan(y), F(np.inf), y)
        return np.where(np.isnan(x), x, y).astype(F)


def tanhf(x):
    """Sleef_tanhf8_u10 (xtanhf)."""
    x = _f(x)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _expk2((y, np.zeros_like(y)))
        e = _rec(d)
        d = _div(_add_df_df(d, (-e[0], -e[1])), _add_df_df(d, e))
        y = d[0] + d[1]
        y = np.where((np.abs(x) > F(8.664339742)) | np.isnan(y), F(1), y)
        y = np.copysign(y, x)
        return np.where(np.isnan(x), x, y).astype(F)


def expm1f(a):
    """Sleef_expm1f8_u10 (xexpm1f)."""
    a = _f(a)
    with np.errstate(all="ignore"):
        d = _add2_df_f(_expk2((a, np.zeros_like(a))), F(-1))
        x = d[0] + d[1]
        x = np.where(a > F(88.72283172607421875), F(np.inf), x)
        x = np.where(a < F(-16.635532333438687426013570), F(-1), x)
        x = np.where((a == 0) & np.signbit(a), F(-0.0), x)
        return np.where(np.isnan(a), a, x).astype(F)


def log1pf(d):
    """Sleef_log1pf8_u10 (xlog1pf)."""
    d = _f(d)
    with np.errstate(all="ignore"):
        dp1 = d + F(1)
        o = dp1 < FLT_MIN
        dp1 = np.where(o, dp1 * F(2.0 ** 64), dp1)
        e = _ilogb2k(dp1 * F(1.0 / 0.75))
        t = _ldexp3(np.ones_like(d), -e)
        m = _mla(d, t, t - F(1))
        e = np.where(o, e - 64, e)
        s = _mul_df_f((LN2_HI, LN2_LO), e.astype(F))
        x = _div((m, np.zeros_like(m)), _add(F(2), m))
        x2 = x[0] * x[0]
        t = _mla(F(0.3027294874), x2, F(0.3996108174))
        t = _mla(t, x2, F(0.6666694880))
        s = _add_df_df(s, _scale(x, F(2)))
        s = _add_df_f(s, (x2 * x[0]) * t)
        r = s[0] + s[1]
        r = np.where(d > F(1e38), F(np.inf), r)
        r = np.where(F(-1) > d, F(np.nan), r)
        r = np.where(d == -1, F(-np.inf), r)
        r = np.where((d == 0) & np.signbit(d), F(-0.0), r)
        return np.where(np.isnan(d), d, r).astype(F)
