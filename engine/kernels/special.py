"""The special functions of torch.special and their torch.* twins as ATen computes them (aten/src/ATen/native/Math.h:
digamma, trigamma, polygamma and zeta, erfinv, i0/i0e/i1/i1e, ndtri; derived from the Cephes Math Library,
3-clause BSD, Copyright (c) 2018 Steven Moshier), with the same approximations on the same intervals, on whole
arrays, in the input's type as ATen's templates are (float32 for integers; see bessel.py). lgamma, erf and erfc are
the C library's (as std::lgamma, std::erf). erfcx and log_ndtr are in faddeeva.py."""
import math

import numpy as np

from .bessel import _c, chbevl, exp, horner, libm_f, log, sin, sqrt, work
from .fma import fma

I0E_A = _c(
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9, -1.30002500998624804212E-8,
    6.04699502254191894932E-8, -2.67079385394061173391E-7, 1.11738753912010371815E-6, -4.41673835845875056359E-6,
    1.64484480707288970893E-5, -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2, -2.37374148058994688156E-2,
    4.93052842396707084878E-2, -9.49010970480476444210E-2, 1.71620901522208775349E-1, -3.04682672343198398683E-1,
    6.76795274409476084995E-1,)
I0E_B = _c(
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13, 7.18012445138366623367E-13,
    -1.79417853150680611778E-12, -1.32158118404477131188E-11, -3.14991652796324136454E-11,
    1.18891471078464383424E-11, 4.94060238822496958910E-10, 3.39623202570838634515E-9, 2.26666899049817806459E-8,
    2.04891858946906374183E-7, 2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
    8.04490411014108831608E-1,)
I1E_A = _c(
    2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
    -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
    3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
    -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9, 9.38153738649577178388E-9,
    -4.44505912879632808065E-8, 2.00329475355213526229E-7, -8.56872026469545474066E-7, 3.47025130813767847674E-6,
    -1.32731636560394358279E-5, 4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
    -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2, 2.47264490306265168283E-2,
    -5.29459812080949914269E-2, 1.02643658689847095384E-1, -1.76416518357834055153E-1, 2.52587186443633654823E-1,)
I1E_B = _c(
    7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
    -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
    -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
    4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11, 3.25260358301548823856E-11,
    -1.89749581235054123450E-11, -5.58974346219658380687E-10, -3.83538038596423702205E-9,
    -2.63146884688951950684E-8, -2.51223623787020892529E-7, -3.88256480887769039346E-6, -1.10588938762623716291E-4,
    -9.76109749136146840777E-3, 7.78576235018280120474E-1,)
NDTRI_P0 = _c(
    -5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1, 1.39312609387279679503E1,
    -1.23916583867381258016E0,)
NDTRI_Q0 = _c(
    1.00000000000000000000E0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1,
    -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1, 1.59056225126211695515E1,
    -1.18331621121330003142E0,)
NDTRI_P1 = _c(
    4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1, 4.40805073893200834700E1,
    1.46849561928858024014E1, 2.18663306850790267539E0, -1.40256079171354495875E-1, -3.50424626827848203418E-2,
    -8.57456785154685413611E-4,)
NDTRI_Q1 = _c(
    1.00000000000000000000E0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1,
    1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1, -3.80806407691578277194E-2,
    -9.33259480895457427372E-4,)
NDTRI_P2 = _c(
    3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0, 1.33303460815807542389E0,
    2.01485389549179081538E-1, 1.23716634817820021358E-2, 3.01581553508235416007E-4, 2.65806974686737550832E-6,
    6.23974539184983293730E-9,)
NDTRI_Q2 = _c(
    1.00000000000000000000E0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0,
    2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4, 2.89247864745380683936E-6,
    6.79019408009981274425E-9,)
I1E_A_F = _c(  # the float instantiation's shorter tables
    9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7, -8.56872026469545474066E-7,
    3.47025130813767847674E-6, -1.32731636560394358279E-5, 4.78156510755005422638E-5, -1.61760815825896745588E-4,
    5.12285956168575772895E-4, -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
    2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1, -1.76416518357834055153E-1,
    2.52587186443633654823E-1)
I1E_B_F = _c(
    -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7, -3.88256480887769039346E-6,
    -1.10588938762623716291E-4, -9.76109749136146840777E-3, 7.78576235018280120474E-1)




def _libm(fn):
    vectorised = np.frompyfunc(fn, 1, 1)

    def f64(x):
        return np.asarray(vectorised(x), dtype=np.float64) if x.size else x.copy()

    correctly_rounded = libm_f(f64)
    return lambda x: correctly_rounded(work(x))


def _lgamma(v):
    try:
        return math.lgamma(v)
    except ValueError:  # a pole: 0 or a negative integer
        return math.inf


lgamma, erf, erfc = _libm(_lgamma), _libm(math.erf), _libm(math.erfc)
_DIGAMMA_A = _c(8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                8.33333333333333333333E-2)


def digamma(x):
    x = work(x)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        reflect = x < 0
        xs = np.where(reflect, t(1) - x, x)
        result = np.zeros_like(xs)
        for _ in range(11):  # push x to >= 10
            low = xs < 10
            if not low.any():
                break
            result = np.where(low, result - t(1) / xs, result)
            xs = np.where(low, xs + t(1), xs)
        z = t(1) / (xs * xs)
        y = np.where(xs < t(1.0e17), z * horner(z, _DIGAMMA_A), t(0))
        out = np.where(xs == 10, result + t(2.25175258906672110764), result + log(xs) - t(0.5) / xs - y)
        r = np.modf(x.astype(np.float64))[0]  # in double for float too: pi / tan(pi · r), then rounded
        out = np.where(reflect, out - (math.pi / np.tan(math.pi * r)).astype(x.dtype), out)
        out = np.where(reflect & (x == np.trunc(x)), t(np.nan), out)
        return np.where(x == 0, np.copysign(t(np.inf), -x), out)


def trigamma(x):
    x = work(x)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        reflect = x < t(0.5)
        sin_pi_x = sin(t(math.pi) * x)
        result = np.where(reflect, -(t(math.pi) * t(math.pi)) / (sin_pi_x * sin_pi_x), t(0))
        x = np.where(reflect, t(1) - x, x)
        for _ in range(6):
            result = result + t(1) / (x * x)
            x = x + t(1)
        ixx = t(1) / (x * x)
        result = result + (t(1) + t(1) / (t(2) * x) + ixx * (t(1. / 6) - ixx * (t(1. / 30) - ixx * t(1. / 42)))) / x
        return np.where(reflect, -result, result)


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15, 1.8152105401943546773e17,
           -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16


def zeta(x, q):
    """The Hurwitz zeta function ζ(x, q), Cephes' zeta as ATen has it (accumulated in double on the CPU for
    float too), in the type of its arguments."""
    dtype = np.result_type(work(x), work(q))
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    out = np.full(x.shape, np.nan)
    with np.errstate(all="ignore"):
        special = (x == 1) | (x < 1) | ((q <= 0) & ((q == np.floor(q)) | (x != np.floor(x)))) | np.isnan(x)
        out = np.where(x == 1, np.inf, out)
        out = np.where((x > 1) & (q <= 0) & (q == np.floor(q)), np.inf, out)
        todo = ~special & ~np.isnan(q)
        if todo.any():
            out[todo] = _zeta_series(x[todo], q[todo])
        return out.astype(dtype)


def _zeta_series(xv, qv):
    s = qv ** -xv
    a = qv.copy()
    b = np.zeros_like(s)
    done = np.zeros(s.shape, bool)
    i = 0
    while True:
        go = ~done & ((i < 9) | (a <= 9.0))
        if not go.any():
            break
        i += 1
        a = np.where(go, a + 1.0, a)
        b = np.where(go, a ** -xv, b)
        s = np.where(go, s + b, s)
        done |= go & (-_MACHEP * s < b) & (b < _MACHEP * s)
    w = a
    tail = ~done
    s = np.where(tail, s + b * w / (xv - 1.0) - 0.5 * b, s)
    a, k = np.ones_like(s), np.zeros_like(s)
    for coefficient in _ZETA_A:
        a = np.where(tail, a * (xv + k), a)
        b = np.where(tail, b / w, b)
        t = a * b / coefficient
        s = np.where(tail, s + t, s)
        tail = tail & ~(np.abs(t / s) < _MACHEP)
        k = k + 1.0
        a = np.where(tail, a * (xv + k), a)
        b = np.where(tail, b / w, b)
        k = k + 1.0
    return s


def polygamma(n, x):
    """ψ⁽ⁿ⁾(x): digamma for n = 0, trigamma for n = 1, else (−1)ⁿ⁺¹ n! ζ(n + 1, x)."""
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    x = work(x)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        factorial = t(math.exp(math.lgamma(n + 1.0)))  # std::exp(std::lgamma(n + 1)) in the input's type
        return t(1 if n % 2 else -1) * factorial * zeta(t(n + 1), x)


def erfinv(y):
    y = work(y)
    t = y.dtype.type
    a = [t(v) for v in (0.886226899, -1.645349621, 0.914624893, -0.140543331)]
    b = [t(v) for v in (-2.118377725, 1.442710462, -0.329097515, 0.012229801)]
    c = [t(v) for v in (-1.970840454, -1.624906493, 3.429567803, 1.641345311)]
    d = [t(v) for v in (3.543889200, 1.637067800)]
    with np.errstate(all="ignore"):
        y_abs = np.abs(y)
        z = y * y
        central = y * horner(z, np.array(a[::-1])) / fma(horner(z, np.array(b[::-1])), z, t(1), y.dtype)
        z = sqrt(-log((t(1) - y_abs) / t(2)))
        tail = np.copysign(horner(z, np.array(c[::-1])), y) / horner(z, np.array([d[1], d[0], t(1)]))
        x = np.where(y_abs <= t(0.7), central, tail)
        for _ in range(2):  # two Newton-Raphson steps
            x = x - (erf(x) - y) / ((t(2) * t(0.564189583547756286948)) * exp(-x * x))
        x = np.where(y_abs == 1, np.copysign(t(np.inf), y), x)
        return np.where(y_abs > 1, t(np.nan), x)


def _i1e_tables(x):
    return (I1E_A, I1E_B) if x.dtype == np.float64 else (I1E_A_F, I1E_B_F)


def i0(x):
    a = np.abs(work(x))
    with np.errstate(all="ignore"):
        return np.where(a <= 8, exp(a) * chbevl(a / 2 - 2, I0E_A), exp(a) * chbevl(32 / a - 2, I0E_B) / sqrt(a))


def i0e(x):
    a = np.abs(work(x))
    with np.errstate(all="ignore"):
        return np.where(a <= 8, chbevl(a / 2 - 2, I0E_A), chbevl(32 / a - 2, I0E_B) / sqrt(a))


def i1(x):
    x = work(x)
    a = np.abs(x)
    A, B = _i1e_tables(x)
    with np.errstate(all="ignore"):
        out = np.where(a <= 8, exp(a) * a * chbevl(a / 2 - 2, A), exp(a) * chbevl(32 / a - 2, B) / sqrt(a))
    return np.where(x < 0, -out, out)


def i1e(x):
    x = work(x)
    a = np.abs(x)
    A, B = _i1e_tables(x)
    with np.errstate(all="ignore"):
        out = np.where(a <= 8, chbevl(a / 2 - 2, A) * a, chbevl(32 / a - 2, B) / sqrt(a))
    return np.where(x < 0, -out, out)


def ndtri(y0):
    y0 = work(y0)
    t = y0.dtype.type
    with np.errstate(all="ignore"):
        upper = y0 > t(1) - t(0.13533528323661269189)
        y = np.where(upper, t(1) - y0, y0)
        yc = y - t(0.5)
        y2 = yc * yc
        central = (yc + yc * (y2 * horner(y2, NDTRI_P0) / horner(y2, NDTRI_Q0))) * t(2.50662827463100050242E0)
        x = sqrt(t(-2) * log(y))
        x0 = x - log(x) / x
        z = t(1) / x
        x1 = np.where(x < 8, z * horner(z, NDTRI_P1) / horner(z, NDTRI_Q1),
                      z * horner(z, NDTRI_P2) / horner(z, NDTRI_Q2))
        tail = np.where(upper, x0 - x1, -(x0 - x1))
        out = np.where(y > t(0.13533528323661269189), central, tail)
        out = np.where((y0 < 0) | (y0 > 1), t(np.nan), out)
        out = np.where(y0 == 1, t(np.inf), out)
        return np.where(y0 == 0, t(-np.inf), out)


# --- the regularized incomplete gamma functions P(a, x) and Q(a, x) -------------------------------------------------
def _igamma_parts(a, x):
    """(P, Q) in float64, with SciPy's (and ATen's) values at the edges of the domain: the power series of P where
    x < a + 1, the continued fraction of Q (modified Lentz) elsewhere, the other as one minus it."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    P, Q = np.full(a.shape, np.nan), np.full(a.shape, np.nan)
    regular = (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
    for where, p in (((a == 0) & (x > 0), 1.0), ((a > 0) & (x == 0), 0.0), (np.isinf(a) & (a > 0) & (x >= 0)
                                                                              & np.isfinite(x), 0.0),
                     ((a > 0) & np.isfinite(a) & np.isinf(x) & (x > 0), 1.0)):
        P[where], Q[where] = p, 1.0 - p
    series = regular & (x < a + 1)
    fraction = regular & ~series
    if series.any():
        sa, sx = a[series], x[series]
        p = _igamma_series(sa, sx)
        P[series], Q[series] = p, 1.0 - p
    if fraction.any():
        fa, fx = a[fraction], x[fraction]
        q = _igammac_fraction(fa, fx)
        P[fraction], Q[fraction] = 1.0 - q, q
    return P, Q


def _log_prefactor(a, x):
    """log(xᵃ e⁻ˣ / Γ(a))."""
    return a * np.log(x) - x - np.array([math.lgamma(v) for v in a.ravel()]).reshape(a.shape)


def _igamma_series(a, x):
    term = 1.0 / a
    total = term.copy()
    ap = a.copy()
    live = np.ones(a.shape, bool)
    for _ in range(100000):
        ap = ap + 1
        term = np.where(live, term * x / ap, 0.0)
        total = total + term
        live = live & (np.abs(term) > np.abs(total) * 1e-17)
        if not live.any():
            break
    return np.minimum(total * np.exp(_log_prefactor(a, x)), 1.0)


def _igammac_fraction(a, x):
    tiny = 1e-300
    b = x + 1.0 - a
    c = np.full(a.shape, 1.0 / tiny)
    d = 1.0 / b
    h = d.copy()
    live = np.ones(a.shape, bool)
    for i in range(1, 100000):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        step = np.where(live, d * c, 1.0)
        h = h * step
        live = live & (np.abs(step - 1.0) > 1e-16)
        if not live.any():
            break
    return np.minimum(np.exp(_log_prefactor(a, x)) * h, 1.0)


def igamma(a, x):
    """torch.igamma: the regularized lower incomplete gamma function P(a, x)."""
    return _igamma_parts(a, x)[0]


def igammac(a, x):
    """torch.igammac: the regularized upper incomplete gamma function Q(a, x) = 1 − P(a, x)."""
    return _igamma_parts(a, x)[1]
