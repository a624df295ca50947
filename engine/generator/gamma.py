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


def _beta_grad_alpha_small(x, alpha, beta):
    factor = _digamma_one(alpha) - _digamma_one(alpha + beta) - math.log(x)
    numer = 1.0
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer *= (i - beta) * x / i
        denom = alpha + i
        series += numer / denom * (factor + 1 / denom)
    result = x * math.pow(1 - x, -beta) * series
    return 0.0 if math.isnan(result) else result


def _beta_grad_beta_small(x, alpha, beta):
    factor = _digamma_one(alpha + beta) - _digamma_one(beta)
    numer, betas, dbetas, series = 1.0, 1.0, 0.0, factor / alpha
    for i in range(1, 9):
        numer *= -x / i
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series += numer / (alpha + i) * (dbetas + factor * betas)
    result = -math.pow(1 - x, 1 - beta) * series
    return 0.0 if math.isnan(result) else result


def _beta_grad_alpha_mid(x, alpha, beta):
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = math.sqrt(2 * alpha / beta) * math.pow(total, 1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * math.log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4 = math.pow(beta * math.log(beta / (total * (1 - x))) + alpha * math.log(alpha / (total * x)), -1.5)
    return stirling * prefactor * (term1 + term2 * (term3 + (term4 if x < mean else -term4)))


_DIRICHLET = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))))


def _dirichlet_grad_one(x, alpha, total):
    """Distributions.h's dirichlet_grad_one, in double (torch computes its float32 steps in float: within a few
    float32 ulps of this)."""
    beta = total - alpha
    boundary = total * x * (1 - x)
    if x <= 0.5 and boundary < 2.5:
        return _beta_grad_alpha_small(x, alpha, beta)
    if x >= 0.5 and boundary < 0.75:
        return -_beta_grad_beta_small(1 - x, beta, alpha)
    if alpha > 6 and beta > 6:
        return _beta_grad_alpha_mid(x, alpha, beta)
    u = math.log(x)
    a = math.log(alpha) - u
    b = math.log(total) - a
    pow_u, pow_a = (1, u, u * u), (1, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            c0, c1 = _DIRICHLET[0][i][j], _DIRICHLET[1][i][j]
            p += ua * (c0[0] + b * (c0[1] + b * (c0[2] + b * c0[3])))
            q += ua * (c1[0] + b * (c1[1] + b * (c1[2] + b * c1[3])))
    approx = x * (_digamma_one(total) - _digamma_one(alpha)) / beta
    return p / q * approx


def dirichlet_grad(x, alpha, total):
    """torch._dirichlet_grad(x, alpha, total): the reparameterised gradient behind Dirichlet's (and Beta's) rsample."""
    x, alpha, total = np.broadcast_arrays(x, alpha, total)
    flat = zip(*(a.astype(np.float64).reshape(-1).tolist() for a in (x, alpha, total)))
    return np.array([_dirichlet_grad_one(*v) for v in flat]).astype(x.dtype).reshape(x.shape)
