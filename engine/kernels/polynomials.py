"""torch.special's orthogonal polynomials P_n(x) as ATen evaluates them (aten/src/ATen/native/Math.h): the three-term
recurrence up to n (stopping where it turns nan), with the closed forms and end-point values ATen takes first. n is
an array broadcast with x (truncated to an integer, as ATen's static_cast<int64_t>); computed in x's type (float32
for integers), as ATen's templates are, and as they are compiled: each step `a · q − b` one fused multiply-add,
fma(a, q, −b)."""
import numpy as np

from .bessel import acos, cos, sin, work
from .fma import fma

POLYNOMIALS = ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
               "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
               "laguerre_polynomial_l", "legendre_polynomial_p")


def _prepare(x, n, hermite=False):
    x, n = np.broadcast_arrays(work(x), np.asarray(n))
    if n.dtype.kind == "f":
        bad = ~np.isfinite(n)
        n = np.where(bad, -1 if hermite else np.iinfo(np.int64).min, np.trunc(np.where(bad, 0, n)))
    return x.copy(), n.astype(np.int64)


def _real(n, x):
    """n in x's type (C++ turns the int64 into the float type where they meet)."""
    return n.astype(x.dtype)


def _recur(x, n, p, q, step):
    """Runs r = step(k, p, q) for k = 2 … n while q is not nan; returns the last r (or q)."""
    r = q.copy()
    top = int(n.max(initial=0))
    k = 2
    while True:
        go = (k <= n) & ~np.isnan(q)
        if not go.any() or k > top + 2:
            break
        new = step(k, p, q)
        r = np.where(go, new, r)
        p, q = np.where(go, q, p), np.where(go, new, q)
        k += 1
    return r


def _three_term(x, n, q1, two_x, closed=None, ends=None, closed_from=6):
    """The Chebyshev family: P_0 = 1, P_1 = q1, P_k = two_x · P_{k−1} − P_{k−2}."""
    with np.errstate(all="ignore"):
        out = _recur(x, n, np.ones_like(x), q1.copy(), lambda k, p, q: fma(two_x, q, -p, x.dtype))
        out = np.where(n == 1, q1, out)
        out = np.where(n == 0, 1.0, out)
        if closed is not None:
            out = np.where((n > closed_from) & (np.abs(x) < 1.0), closed(), out)
        if ends is not None:
            out = np.where(np.abs(x) == 1.0, ends(), out)
        return np.where(n < 0, 0.0, out)


def chebyshev_polynomial_t(x, n):
    x, n = _prepare(x, n)
    odd = n % 2 == 1
    return _three_term(x, n, x, x + x, lambda: cos(_real(n, x) * acos(x)),
                       lambda: np.where((x > 0) | ~odd, 1.0, -1.0))


def chebyshev_polynomial_u(x, n):
    x, n = _prepare(x, n)
    odd = n % 2 == 1

    def closed():
        a = acos(x)
        m = _real(n, x) + 1
        return np.where(sin(a) != 0, sin(m * a) / sin(a), m * cos(m * a) / x)

    return _three_term(x, n, x + x, x + x, closed, lambda: np.where((x > 0) | ~odd, _real(n + 1, x), -_real(n + 1, x)),
                       8)


def chebyshev_polynomial_v(x, n):
    x, n = _prepare(x, n)
    odd = n % 2 == 1
    end = np.where(x > 0, 1.0, np.where(odd, -(_real(n + n + 1, x)), _real(n + n + 1, x)))

    def closed():
        a = acos(x)
        return np.where(sin(a / 2.0) != 1.0, cos((_real(n, x) + 0.5) * a) / cos(a / 2.0),
                        np.where(odd, -(_real(n + n + 1, x)), _real(n + n + 1, x)))

    return _three_term(x, n, x + x - 1.0, x + x, closed, lambda: end, 8)


def chebyshev_polynomial_w(x, n):
    x, n = _prepare(x, n)
    odd = n % 2 == 1
    end = np.where(x > 0, _real(n + n + 1, x), np.where(odd, -1.0, 1.0))

    def closed():
        a = acos(x)
        return np.where(cos(a / 2.0) != 1.0, sin((_real(n, x) + 0.5) * a) / sin(a / 2.0), end)

    return _three_term(x, n, x + x + 1.0, x + x, closed, lambda: end, 8)


def shifted_chebyshev_polynomial_t(x, n):
    x, n = _prepare(x, n)
    odd = n % 2 == 1
    y = x + x - 1.0
    return _three_term_shifted(x, n, y, y + y, lambda: cos(_real(n, x) * acos(y)),
                               lambda: np.where((x == 1.0) | ~odd, 1.0, -1.0), 6)


def _three_term_shifted(x, n, q1, two_y, closed, ends, closed_from):
    """The shifted Chebyshev family: the same recurrence in y = 2x − 1, its end points at x = 0 and x = 1."""
    with np.errstate(all="ignore"):
        out = _recur(x, n, np.ones_like(x), q1.copy(), lambda k, p, q: fma(two_y, q, -p, x.dtype))
        out = np.where(n == 1, q1, out)
        out = np.where(n == 0, 1.0, out)
        out = np.where((n > closed_from) & (np.abs(x + x - 1.0) < 1.0), closed(), out)
        out = np.where((x == 1.0) | (x == 0.0), ends(), out)
        return np.where(n < 0, 0.0, out)


def shifted_chebyshev_polynomial_u(x, n):
    x, n = _prepare(x, n)
    odd = n % 2 == 1
    y = x + x - 1.0

    def closed():
        a = acos(y)
        m = _real(n, x) + 1
        return np.where(sin(a) != 0, sin(m * a) / sin(a), m * cos(m * a) / y)

    return _three_term_shifted(x, n, y + y, y + y, closed,
                               lambda: np.where((x == 1.0) | ~odd, _real(n + 1, x), -(_real(n + 1, x))), 6)


def shifted_chebyshev_polynomial_v(x, n):
    x, n = _prepare(x, n)
    odd = n % 2 == 1
    y = x + x - 1.0
    end = np.where(x == 1.0, 1.0, np.where(odd, -(_real(n + n + 1, x)), _real(n + n + 1, x)))

    def closed():
        a = acos(y)
        return np.where(sin(a / 2.0) != 1.0, cos((_real(n, x) + 0.5) * a) / cos(a / 2.0),
                        np.where(odd, -(_real(n + n + 1, x)), _real(n + n + 1, x)))

    return _three_term_shifted(x, n, y + y - 1.0, y + y, closed, lambda: end, 6)


def shifted_chebyshev_polynomial_w(x, n):
    x, n = _prepare(x, n)
    odd = n % 2 == 1
    y = x + x - 1.0
    end = np.where(x == 1.0, _real(n + n + 1, x), np.where(odd, -1.0, 1.0))

    def closed():
        a = acos(y)
        return np.where(cos(a / 2.0) != 1.0, sin((_real(n, x) + 0.5) * a) / sin(a / 2.0), end)

    return _three_term_shifted(x, n, y + y + 1.0, y + y, closed, lambda: end, 4)


def hermite_polynomial_h(x, n):
    x, n = _prepare(x, n, hermite=True)
    with np.errstate(all="ignore"):
        out = _recur(x, n, np.ones_like(x), x + x, lambda k, p, q: fma(x + x, q, -((2 * k - 2) * p), x.dtype))
        out = np.where(n > 512, np.nan, out)
        out = np.where(n == 1, x + x, out)
        out = np.where(n == 0, 1.0, out)
        return np.where(n < 0, 0.0, out)


def hermite_polynomial_he(x, n):
    x, n = _prepare(x, n)
    with np.errstate(all="ignore"):
        out = _recur(x, n, np.ones_like(x), x.copy(), lambda k, p, q: fma(x, q, -((k - 1) * p), x.dtype))
        out = np.where(n > 512, np.nan, out)
        out = np.where(n == 1, x, out)
        out = np.where(n == 0, 1.0, out)
        return np.where(n < 0, 0.0, out)


def laguerre_polynomial_l(x, n):
    x, n = _prepare(x, n)
    with np.errstate(all="ignore"):
        out = _recur(x, n, np.ones_like(x), 1.0 - x,
                     lambda k, p, q: fma((k - 1) * 2 + (1.0 - x), q, -((k - 1) * p), x.dtype) / k)
        out = np.where(n == 1, 1.0 - x, out)
        out = np.where((n == 0) | (np.abs(x) == 0.0), 1.0, out)
        return np.where(n < 0, 0.0, out)


def legendre_polynomial_p(x, n):
    x, n = _prepare(x, n)
    odd = n % 2 == 1
    with np.errstate(all="ignore"):
        out = _recur(x, n, np.ones_like(x), x.copy(),
                     lambda k, p, q: fma((2 * (k - 1) + 1) * x, q, -((k - 1) * p), x.dtype) / k)
        out = np.where(n == 1, x, out)
        out = np.where(n == 0, 1.0, out)
        out = np.where(np.abs(x) == 1.0, np.where((x > 0) | ~odd, 1.0, -1.0), out)
        return np.where(n < 0, 0.0, out)
