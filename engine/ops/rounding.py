"""float32 ops computed in float64 and rounded once: the correctly rounded result, within an ulp of what torch's
vectorised (MKL VML) kernels give on any CPU. Where torch's own algorithm can be replayed exactly, the op uses
engine/kernels instead."""
import numpy as np

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_BOOL = np.dtype(bool)


def exact(fn):
    """fn evaluated in float64 and rounded once to float32 for float32 inputs."""
    def f(a, *args, **kwargs):
        d = a.dtype
        if d is not _F32 and d is not _F64 and d == _BOOL:  # numpy would compute in float16
            a = a.astype(np.float32)
            d = a.dtype
        if d is _F32 or d is not _F64 and d == _F32:
            if args:
                args = [x.astype(np.float64) if isinstance(x, np.ndarray) and x.dtype == _F32 else x for x in args]
            return fn(a.astype(np.float64), *args, **kwargs).astype(np.float32)
        return fn(a, *args, **kwargs)

    return f


EXP = exact(np.exp)
LOG = exact(np.log)
