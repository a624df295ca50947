"""glibc's expf (glibc ≥ 2.28, sysdeps/ieee754/flt-32/e_expf.c, from ARM's optimized-routines), in numpy.

torch's scalar loops call std::exp, i.e. the C library: the last n % 16 elements of a vectorised
elementwise kernel (sigmoid) and the tail columns of softmax over a non-last dim. On Linux that is glibc,
whose expf computes in double: k = round(x·32/ln2), r the remainder, 2^(k/32) from a 32-entry table,
a cubic in r, one rounding to float at the end. x86-64 glibc runs an FMA build of it where the CPU has FMA;
its results equal the plain build's on every input we tried (the polynomial's roundings are far below a
float ulp), so one function serves both. macOS and Windows have other C libraries; their expf is within an
ulp of this one. Exact against this machine's libm (glibc 2.36) on 10⁵ inputs in (-87, 87).
"""

from decimal import Context, Decimal

import numpy as np

from .fma import fma64

_N = 32
_PRECISE = Context(prec=60)  # (its own: the process's context is a program's, with Python's 28 digits)
# tab[i] = bits(2^(i/32)) - (i << 47): the exponent of the scale is added back from k at run time
_TAB = np.array([np.float64(float(_PRECISE.power(2, _PRECISE.divide(Decimal(i), _N)))).view(np.uint64)
                 - np.uint64(i << 47)
                 for i in range(_N)], np.uint64)
_SHIFT = float.fromhex("0x1.8p+52")
_INVLN2N = float.fromhex("0x1.71547652b82fep+0") * _N
_C0 = float.fromhex("0x1.c6af84b912394p-5") / _N ** 3
_C1 = float.fromhex("0x1.ebfce50fac4f3p-3") / _N ** 2
_C2 = float.fromhex("0x1.62e42ff0c52d6p-1") / _N


def expf(x):
    """glibc expf, elementwise on a float32 array. The cubic is evaluated without fma first; only results
    within 2⁻⁴⁰ of a float32 rounding boundary (where an fma could matter) are evaluated again with fmas."""
    x = np.asarray(x, np.float32)
    xd = x.astype(np.float64)
    with np.errstate(all="ignore"):
        z = _INVLN2N * xd
        kd = z + _SHIFT
        ki = kd.view(np.uint64)
        r = z - (kd - _SHIFT)
        s = (_TAB[ki % np.uint64(_N)] + (ki << np.uint64(47))).view(np.float64)
        y = ((_C0 * r + _C1) * (r * r) + (_C2 * r + 1.0)) * s
        near = np.abs((y.view(np.int64) & 0x1FFFFFFF) - 0x10000000) < 0x2000
        if near.any():
            y = np.where(near, fma64(fma64(_C0, r, _C1), r * r, fma64(_C2, r, 1.0)) * s, y)
        out = y.astype(np.float32)
        out = np.where(x > np.float32(float.fromhex("0x1.62e42ep6")), np.float32(np.inf), out)
        out = np.where(x < np.float32(float.fromhex("-0x1.9fe368p6")), np.float32(0), out)
        return np.where(np.isnan(x), x, out).astype(np.float32)


def expm1f(x):
    """glibc expm1f (sysdeps/ieee754/flt-32/s_expm1f.c, fdlibm's algorithm in float arithmetic)."""
    x = np.asarray(x, np.float32)
    f = np.float32
    one, half = f(1), f(0.5)
    ln2_hi, ln2_lo, invln2 = f(6.9313812256e-01), f(9.0580006145e-06), f(1.4426950216e+00)
    q = [f(-3.3333335072e-02), f(1.5873016091e-03), f(-7.9365076090e-05), f(4.0082177293e-06),
         f(-2.0109921195e-07)]
    hx = x.view(np.int32) & 0x7FFFFFFF
    neg = np.signbit(x)
    with np.errstate(all="ignore"):
        near = (hx > 0x3EB17218) & (hx < 0x3F851592)          # 0.5 ln2 < |x| < 1.5 ln2: k = ±1
        kf = (invln2 * x + np.where(neg, -half, half)).astype(np.int32)
        k = np.where(hx > 0x3EB17218, np.where(near, np.where(neg, -1, 1), kf), 0).astype(np.int32)
        t = k.astype(f)
        hi = np.where(near, x - np.where(neg, -ln2_hi, ln2_hi), x - t * ln2_hi)
        lo = np.where(near, np.where(neg, -ln2_lo, ln2_lo), t * ln2_lo)
        xr = np.where(k != 0, hi - lo, x)
        c = np.where(k != 0, (hi - xr) - lo, f(0))
        hfx = half * xr
        hxs = xr * hfx
        r1 = one + hxs * (q[0] + hxs * (q[1] + hxs * (q[2] + hxs * (q[3] + hxs * q[4]))))
        t = f(3) - r1 * hfx
        e = hxs * ((r1 - t) / (f(6) - xr * t))
        k0 = xr - (xr * e - hxs)
        e = (xr * (e - c) - c) - hxs
        km1 = half * (xr - e) - half
        k1 = np.where(xr < f(-0.25), -f(2) * (e - (xr + half)), one + f(2) * (xr - e))

        def scaled(y):
            return (y.view(np.int32) + (k << 23)).view(f)

        far = scaled(one - (e - xr)) - one
        t_lo = (0x3F800000 - (0x1000000 >> np.clip(k, 0, 31))).astype(np.int32).view(f)
        mid_lo = scaled(t_lo - (e - xr))
        t_hi = ((0x7F - np.clip(k, 0, 127)) << 23).astype(np.int32).view(f)
        mid_hi = scaled((xr - (e + t_hi)) + one)
        out = np.where(k == 0, k0, np.where(k == -1, km1, np.where(k == 1, k1, np.where(
            (k <= -2) | (k > 56), far, np.where(k < 23, mid_lo, mid_hi)))))
        out = np.where(hx < 0x33000000, x, out)                 # |x| < 2**-25
        out = np.where(neg & (hx >= 0x4195B844), f(-1), out)    # x < -27 ln2
        out = np.where(~neg & (x > f(8.8721679688e+01)), f(np.inf), out)
        return np.where(np.isnan(x), x, np.where(np.isinf(x), np.where(neg, f(-1), x), out)).astype(f)


def _where_needed(mask, fn, arg, default):
    """fn(arg) where mask holds (fn evaluated only if some element needs it)."""
    return np.where(mask, fn(arg), default) if mask.any() else default


def sinhf(x):
    """glibc sinhf (sysdeps/ieee754/flt-32/e_sinhf.c): float arithmetic on expm1f and expf of |x|."""
    x = np.asarray(x, np.float32)
    one, half = np.float32(1), np.float32(0.5)
    h = np.where(np.signbit(x), -half, half)
    ax = np.abs(x)
    with np.errstate(all="ignore"):
        t = expm1f(ax)
        out = np.where(ax < 1, h * (np.float32(2) * t - t * t / (t + one)), h * (t + t / (t + one)))
        out = _where_needed(ax >= 22, lambda a: h * expf(a), ax, out)
        out = _where_needed(ax >= np.float32(88.7216796875), lambda a: (h * expf(half * a)) * expf(half * a),
                            ax, out)
        out = np.where(ax < np.float32(2.0 ** -28), x, out)
        return np.where(np.isfinite(x), out, x + x).astype(np.float32)


def coshf(x):
    """glibc coshf (sysdeps/ieee754/flt-32/e_coshf.c)."""
    x = np.asarray(x, np.float32)
    one, half = np.float32(1), np.float32(0.5)
    ax = np.abs(x)
    small = ax < np.float32(0.34657359)
    with np.errstate(all="ignore"):
        e = expf(ax)
        out = np.where(ax < 9, half * e + half / e, half * e)

        def near_one(a):
            t = expm1f(a)
            w = one + t
            return np.where(a < np.float32(2.0 ** -55), w, one + (t * t) / (w + w))

        out = _where_needed(small, near_one, ax, out)
        out = _where_needed(ax >= np.float32(88.7216796875), lambda a: (half * expf(half * a)) * expf(half * a),
                            ax, out)
        return np.where(np.isfinite(x), out, x * x).astype(np.float32)


_LOGF_TAB = [  # glibc e_logf_data.c: (1/c, log(c)) for 16 subintervals of [0x3f330000, 2·0x3f330000)
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"), ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"), ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"), ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"), ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"), ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"), ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"), ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"), ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"),
]
_LOGF_INVC = np.array([float.fromhex(a) for a, _ in _LOGF_TAB])
_LOGF_LOGC = np.array([float.fromhex(b) for _, b in _LOGF_TAB])
_LOGF_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_A = [float.fromhex(a) for a in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2")]


def logf(x):
    """glibc logf (glibc ≥ 2.28, sysdeps/ieee754/flt-32/e_logf.c, from ARM's optimized-routines), elementwise
    on a float32 array: x = 2^k·z with z in [0x3f330000, 2·0x3f330000), log(x) = log1p(z/c − 1) + log(c) + k·ln2
    with c from a 16-entry table and a cubic for log1p, in double, one rounding to float. x86-64 glibc runs
    its FMA build on CPUs with FMA (GCC contracts each a·b + c): fma64 here. torch's scalar kernels
    (binary_cross_entropy's std::log) call it; torch.log itself is MKL VML."""
    x = np.asarray(x, np.float32)
    ix = x.view(np.uint32).astype(np.int64)
    sub = (ix > 0) & (ix < 0x00800000)  # subnormal: normalised by 2^23 first
    ix = np.where(sub, (x * np.float32(2.0 ** 23)).view(np.uint32).astype(np.int64) - (23 << 23), ix)
    tmp = ix - 0x3F330000
    i = (tmp >> 19) % 16
    k = tmp >> 23  # arithmetic: tmp is negative below 0x3f330000
    iz = ix - (tmp & (0x1FF << 23))
    z = (iz & 0xFFFFFFFF).astype(np.uint32).view(np.float32).astype(np.float64)
    with np.errstate(all="ignore"):
        r = fma64(z, _LOGF_INVC[i], -1.0)
        y0 = fma64(k.astype(np.float64), _LOGF_LN2, _LOGF_LOGC[i])
        r2 = r * r
        y = fma64(_LOGF_A[1], r, _LOGF_A[2])
        y = fma64(_LOGF_A[0], r2, y)
        y = fma64(y, r2, y0 + r)
        out = y.astype(np.float32)
        out = np.where(x == np.float32(1), np.float32(0), out)
        special = ~np.isfinite(x) | (x <= 0)
        return np.where(special, np.log(np.where(special, x, np.float32(1))), out).astype(np.float32)
