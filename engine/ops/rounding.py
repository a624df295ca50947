"""Rounding as PyTorch's CPU kernels round: fused multiply-adds, and float32 ops computed in float64 and rounded
once (which reproduces torch's float32 results far more often than numpy's own float32 kernels do)."""
import numpy as np


def fma(x, y, z):
    """x·y + z rounded once, as PyTorch's CPU kernels compute `a + alpha * b`, addcmul and lerp (fused)."""
    z = np.asarray(z)
    if z.dtype == np.float32:
        return (np.asarray(x, dtype=np.float64) * y + z).astype(np.float32)
    return x * y + z


def exact(fn):
    """fn evaluated in float64 and rounded once to float32 for float32 inputs."""
    def f(a, *args, **kwargs):
        if a.dtype == np.float32:
            args = [x.astype(np.float64) if isinstance(x, np.ndarray) and x.dtype == np.float32 else x for x in args]
            return fn(a.astype(np.float64), *args, **kwargs).astype(np.float32)
        return fn(a, *args, **kwargs)

    return f


def scalar_like(scalar, like):
    """A Python number as a 0-d array of `like`'s float dtype (float32 for integer arrays)."""
    return np.asarray(scalar, dtype=like.dtype if like.dtype.kind == "f" else np.float32)


EXP = exact(np.exp)
LOG = exact(np.log)
