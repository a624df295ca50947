"""The Gamma and Dirichlet draws of ATen's CPU kernels (aten/src/ATen/native/Distributions.cpp: _s_gamma_cpu,
_s_dirichlet_cpu; Distributions.h: sample_gamma, Marsaglia and Tsang's method after numpy's, and
standard_gamma_grad_one, the reparameterised gradient), element by element in the output's order, each
element drawing 53-bit uniforms and Box–Muller normals (with the generator's cached second sample) in double."""
import math

import numpy as np

from .draws import box_muller, unit

_THIRD = float(np.float32(1) / np.float32(3))  # the code's 1.0f / 3.0f and 0.0331f are float constants
_C0331 = float(np.float32(0.0331))


def _sample_gamma(gen, alpha, t=float):
    """sample_gamma<scalar_t, double>: `t` rounds to scalar_t, the type of alpha and of the float-only steps."""
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0.0:
            return 0.0
        scale *= math.pow(1 - float(unit(gen, 1, np.float64)[0]), float(t(1.0 / alpha)))
        alpha = float(t(alpha + 1.0))
    d = float(t(alpha - _THIRD))
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        while True:
            x = float(box_muller(gen, 1, 0.0, 1.0)[0])
            y = 1.0 + c * x
            if y > 0:
                break
        v = y * y * y
        u = 1 - float(unit(gen, 1, np.float64)[0])
        xx = x * x
        if u < 1.0 - _C0331 * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def standard_gamma(gen, alpha):
    """torch._standard_gamma(alpha): at least the dtype's smallest normal number."""
    dtype = alpha.dtype
    flat = np.ascontiguousarray(alpha, dtype=np.float64).reshape(-1)
    tiny = float(np.finfo(dtype).tiny)
    t = dtype.type
    out = [max(tiny, float(t(_sample_gamma(gen, float(t(a)), t)))) for a in flat.tolist()]
    return np.array(out, dtype=dtype).reshape(alpha.shape)


def dirichlet(gen, alpha):
    """torch._sample_dirichlet(alpha): gammas in double, normalised over the last dim, kept inside (0, 1)."""
    dtype = alpha.dtype
    flat = np.ascontiguousarray(alpha, dtype=np.float64).reshape(-1)
    tiny64 = float(np.finfo(np.float64).tiny)
    gamma = np.array([max(tiny64, _sample_gamma(gen, a)) for a in flat.tolist()]).reshape(alpha.shape)
    ratio = (gamma / gamma.sum(-1, keepdims=True)).astype(dtype)
    return np.clip(ratio, np.finfo(dtype).tiny, np.nextafter(dtype.type(1), dtype.type(0)))


_PSI_10 = 2.25175258906672110764
_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
      -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3, 8.33333333333333333333E-2)


def _digamma_one(x):
    """Distributions.h's digamma_one in double."""
    if x == 0:
        return math.inf
    additional = 0.0
    if x < 0:
        if x == math.floor(x):
            return math.inf
        additional = -math.pi / math.tan(math.pi * x)
        x = 1 - x
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + _PSI_10 + additional
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        poly = 0.0
        for a in _A:
            poly = poly * z + a
        y = z * poly
    return result + math.log(x) - (0.5 / x) - y + additional


_COEFS = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
            (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915,
             -0.00058392623),
            (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326, 0.00085092367,
             -1.5247877e-07))


def _gamma_grad_one(alpha, x):
    if x < 0.8:
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = math.pow(x, alpha)
        gamma_pdf = math.pow(x, alpha - 1) * math.exp(-x)
        gamma_cdf = pow_x_alpha * series1
        gamma_cdf_alpha = (math.log(x) - _digamma_one(alpha)) * gamma_cdf - pow_x_alpha * series2
        result = -gamma_cdf_alpha / gamma_pdf if gamma_pdf else math.nan
        return 0.0 if math.isnan(result) else result
    if alpha > 8.0:
        if 0.9 * alpha <= x <= 1.1 * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = 1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + alpha * (107 + 3600 * x)
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return numer_1 * numer_2 / denom
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = math.pow(x - alpha - alpha * math.log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = math.log(x / alpha) * term23 - math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        numer = x * term1
        return -stirling * numer / denom
    u = math.log(x / alpha)
    v = math.log(alpha)
    coef_v = [_COEFS[0][i] + u * (_COEFS[1][i] + u * _COEFS[2][i]) for i in range(8)]
    p = coef_v[0] + v * (coef_v[1] + v * (coef_v[2] + v * coef_v[3]))
    q = coef_v[4] + v * (coef_v[5] + v * (coef_v[6] + v * coef_v[7]))
    return math.exp(p / q)


def standard_gamma_grad(alpha, x):
    """torch._standard_gamma_grad(alpha, sample): d sample / d alpha, computed in double."""
    alpha, x = np.broadcast_arrays(alpha, x)
    out = [_gamma_grad_one(a, s) for a, s in zip(alpha.astype(np.float64).reshape(-1).tolist(),
                                                   x.astype(np.float64).reshape(-1).tolist())]
    return np.array(out).astype(alpha.dtype).reshape(alpha.shape)
