"""lgamma, digamma, polygamma and erfinv as torch's CPU kernels compute them (aten/src/ATen/native/Math.h:
calc_digamma, trigamma, zeta, calc_polygamma, calc_erfinv; lgamma is the C library's), in the tensor's own float
type: float32 inputs run the float versions, operation for operation (libm's float functions taken as the
correctly rounded double result), so the result is within an ulp of torch's wherever GCC did not fuse a
multiply-add differently."""

import math

import numpy as np

_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _each(fn, x, dtype):
    """A double function of the C library, element by element, rounded to `dtype`."""
    flat = np.asarray(x, dtype=np.float64).reshape(-1).tolist()
    return np.fromiter(map(fn, flat), dtype=np.float64, count=len(flat)).reshape(np.shape(x)).astype(dtype)


def _lgamma_one(v):
    try:
        return math.lgamma(v)
    except ValueError:  # a pole: 0 and the negative integers
        return math.inf
    except OverflowError:
        return math.inf


def lgamma(a):
    return _each(_lgamma_one, a, a.dtype)


def _log(x, dtype):
    with np.errstate(all="ignore"):
        return np.log(x.astype(np.float64)).astype(dtype)


def digamma(a):
    dtype = a.dtype
    t = dtype.type
    x = a.astype(dtype).copy()
    out = np.zeros_like(x)
    zero = x == 0
    negative = (x < 0) & ~zero
    pole = negative & (x == np.trunc(x))
    reflect = negative & ~pole
    x = np.where(reflect, t(1) - x, x)
    result = np.zeros_like(x)
    for _ in range(10):
        below = x < 10
        if not below.any():
            break
        result = np.where(below, result - t(1) / x, result)
        x = np.where(below, x + t(1), x)
    with np.errstate(all="ignore"):
        z = t(1) / (x * x)
        poly = np.zeros_like(x)
        for c in _DIGAMMA_A:
            poly = poly * z + t(c)
        y = np.where(x < t(1.0e17), z * poly, t(0))
        out = result + _log(x, dtype) - t(0.5) / x - y
    out = np.where(x == 10, result + t(_PSI_10), out)
    if reflect.any():
        r = np.modf(a[reflect].astype(np.float64))[0]
        out[reflect] = out[reflect] - (math.pi / np.tan(math.pi * r)).astype(dtype)
    out[zero] = np.copysign(np.inf, -a[zero])
    out[pole] = np.nan
    return out.astype(dtype)


def trigamma(a):
    dtype = a.dtype
    t = dtype.type
    x = a.astype(dtype).copy()
    sign = np.ones_like(x)
    result = np.zeros_like(x)
    small = x < t(0.5)
    with np.errstate(all="ignore"):
        if small.any():
            pi = t(math.pi)
            s = np.sin((pi * x[small]).astype(np.float64)).astype(dtype)
            result[small] -= (pi * pi) / (s * s)
            sign[small] = -1
            x[small] = t(1) - x[small]
        for _ in range(6):
            result = result + t(1) / (x * x)
            x = x + t(1)
        ixx = t(1) / (x * x)
        result = result + (t(1) + t(1) / (t(2) * x) + ixx * (t(1.0 / 6) - ixx * (t(1.0 / 30) - ixx * t(1.0 / 42))))\
            / x
    return (sign * result).astype(dtype)


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15, 1.8152105401943546773e17,
           -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16


def zeta_one(x, q):
    """The Hurwitz zeta function of Cephes, in double (torch's acc_type on the CPU)."""
    if x == 1:
        return math.inf
    if x < 1:
        return math.nan
    if q <= 0:
        if q == math.floor(q):
            return math.inf
        if x != math.floor(x):
            return math.nan
    s = math.pow(q, -x)
    a, i, b = q, 0, 0.0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1.0
        b = math.pow(a, -x)
        s += b
        if -_MACHEP * s < b < _MACHEP * s:
            return s
    w = a
    s += b * w / (x - 1.0)
    s -= 0.5 * b
    a, k = 1.0, 0.0
    for coefficient in _ZETA_A:
        a *= x + k
        b /= w
        t = a * b / coefficient
        s = s + t
        if abs(t / s) < _MACHEP:
            return s
        k += 1.0
        a *= x + k
        b /= w
        k += 1.0
    return s


def polygamma(n, a):
    if n == 0:
        return digamma(a)
    if n == 1:
        return trigamma(a)
    dtype = a.dtype
    t = dtype.type
    factor = t(1 if n % 2 else -1) * t(math.exp(_lgamma_one(float(t(n) + t(1)))))
    zeta = _each(lambda q: zeta_one(float(n + 1), q), a, dtype)
    return (factor * zeta).astype(dtype)


_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)


def erfinv(y):
    dtype = y.dtype
    t = dtype.type
    a, b, c, d = ([t(v) for v in k] for k in (_ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D))
    y = y.astype(dtype)
    y_abs = np.abs(y)
    with np.errstate(all="ignore"):
        z = y * y
        num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0]
        dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + t(1)
        central = y * num / dem
        zt = np.sqrt(-_log((t(1) - y_abs) / t(2), dtype))
        num = ((c[3] * zt + c[2]) * zt + c[1]) * zt + c[0]
        dem = (d[1] * zt + d[0]) * zt + t(1)
        tail = np.copysign(num, y) / dem
        x = np.where(y_abs <= t(0.7), central, tail).astype(dtype)
        two_over_sqrt_pi = t(2.0) / t(math.sqrt(math.pi))
        for _ in range(2):
            erf = _each(math.erf, x, dtype)
            exp = np.exp((-x * x).astype(np.float64)).astype(dtype)
            x = x - (erf - y) / (two_over_sqrt_pi * exp)
    x = np.where(y_abs == 1, np.copysign(t(np.inf), y), x)
    return np.where(y_abs > 1, t(np.nan), x).astype(dtype)
