"""Binary/ternary arithmetic whose rounding torch fuses (aten/src/ATen/native/cpu/BinaryOpsKernel.cpp,
PointwiseOpsKernel.cpp): the AVX2 build computes `a + alpha * b` as one fma (vec::fmadd on vectors, FMA
contraction on the scalar tail), so SGD's `p.add_(grad, alpha=-lr)` and Adam's moment updates round once
where numpy rounds twice. A build without FMA (capability DEFAULT) rounds twice. Exact on every size.
"""

import numpy as np

from .fma import fma


def _dtype(*xs):
    return np.result_type(*[np.asarray(x) for x in xs])


def add(a, b, alpha=1):
    """torch.add(a, b, alpha=alpha) = fma(b, alpha, a)."""
    dt = _dtype(a, b)
    if dt.kind != "f" or alpha == 1:
        return np.add(a, b, dtype=dt) if alpha == 1 else np.add(a, np.multiply(b, alpha), dtype=dt)
    return fma(np.asarray(b, dt), dt.type(alpha), np.asarray(a, dt), dt)


def sub(a, b, alpha=1):
    """torch.sub(a, b, alpha=alpha) = fma(b, -alpha, a)."""
    return add(a, b, -alpha)


def addcmul(a, b, c, value=1):
    """torch.addcmul(a, b, c, value=value) = fma(value·b, c, a) (PointwiseOpsKernel.cpp: the scalar is folded
    into the first factor, then one fused multiply-add)."""
    dt = _dtype(a, b, c)
    return fma(np.asarray(b, dt) * dt.type(value), np.asarray(c, dt), np.asarray(a, dt), dt)


def addcdiv(a, b, c, value=1):
    """torch.addcdiv(a, b, c, value=value) = a + (value·b) / c, three roundings (a division cannot fuse)."""
    dt = _dtype(a, b, c)
    return np.asarray(a, dt) + (np.asarray(b, dt) * dt.type(value)) / np.asarray(c, dt)


def lerp(a, b, weight):
    """torch.lerp(a, b, weight) (Lerp.h): |weight| < 0.5 → fma(weight, b - a, a), else fma(-(b - a), 1 - weight, b)."""
    dt = _dtype(a, b, weight) if isinstance(weight, np.ndarray) else _dtype(a, b)
    a, b, w = np.asarray(a, dt), np.asarray(b, dt), np.asarray(weight, dt)
    diff = b - a
    return np.where(np.abs(w) < dt.type(0.5), fma(w, diff, a, dt), fma(-diff, dt.type(1) - w, b, dt)).astype(dt)
