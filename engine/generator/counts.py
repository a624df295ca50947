"""The Poisson and Binomial draws of ATen's CPU kernels, element by element in the output's order, each drawing
53-bit uniforms: aten/src/ATen/native/Distributions.cpp (_s_poisson_cpu: sample_poisson, Hörmann's transformed
rejection from a rate of 10 on, after numpy's) and Distributions.h (_s_binomial_cpu: sample_binomial, BTRS or
inversion, after TensorFlow's random_binomial_op.cc). `t` rounds to the tensor's type where the C++ computes in it."""
import math

import numpy as np

from .draws import unit


def _uniform(gen):
    return float(unit(gen, 1, np.float64)[0])


def _sample_poisson(gen, lam):
    if not lam >= 0:
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = _uniform(gen) - 0.5
            v = _uniform(gen)
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= -lam + k * loglam - math.lgamma(k + 1):
                return k
    if lam == 0:
        return 0
    x, prod, enlam = 0, 1.0, math.exp(-lam)
    while True:
        prod *= _uniform(gen)
        if prod > enlam:
            x += 1
        else:
            return x


def poisson(gen, rate):
    """torch.poisson(rate)."""
    flat = np.ascontiguousarray(rate).reshape(-1).astype(np.float64).tolist()
    return np.array([_sample_poisson(gen, lam) for lam in flat], dtype=rate.dtype).reshape(rate.shape)


_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
         0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k):
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _inversion(gen, count, prob, t):
    logprob = float(t(math.log1p(-prob)))
    geom_sum, num_geom = 0.0, 0
    while True:
        geom_sum += math.ceil(math.log(_uniform(gen)) / logprob)
        if geom_sum > count:
            return num_geom
        num_geom += 1


def _btrs(gen, count, prob, t):
    stddev = float(t(math.sqrt(t(t(count * prob) * t(1 - prob)))))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = float(t(count * prob)) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(t(prob / float(t(1 - prob))))
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor(float(t((count + 1) * prob)))
    while True:
        u = _uniform(gen) - 0.5
        v = _uniform(gen)
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        upper = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
                 + (count + 1) * math.log((count - m + 1) / (count - k + 1))
                 + (k + 0.5) * math.log(r * (count - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m) - _stirling_tail(k) - _stirling_tail(count - k))
        if v <= upper:
            return k


def _sample_binomial(gen, count, prob, t):
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if float(t(count * prob)) >= 10.0:
            return _btrs(gen, count, prob, t)
        return _inversion(gen, count, prob, t)
    if prob > 0.5:
        q = float(t(1.0 - prob))
        if float(t(count * q)) >= 10.0:
            return count - _btrs(gen, count, q, t)
        return count - _inversion(gen, count, q, t)
    return math.nan


def binomial(gen, count, prob):
    """torch.binomial(count, prob): prob broadcast to count's shape."""
    t = count.dtype.type
    prob = np.broadcast_to(prob, count.shape)
    pairs = zip(np.ascontiguousarray(count).reshape(-1).astype(np.float64).tolist(),
                np.ascontiguousarray(prob).reshape(-1).astype(np.float64).tolist())
    return np.array([_sample_binomial(gen, n, p, t) for n, p in pairs], dtype=count.dtype).reshape(count.shape)
