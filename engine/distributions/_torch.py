"""The `torch.*` names the ported distributions call (they read `torch.lgamma(x)` as torch's files do), taken
from the engine's layers below, plus the few helpers torch keeps in C++ (broadcast_tensors, _is_all_true)."""
import builtins
import functools
import math
import warnings

from .. import autograd, dtypes, factories, functions, grad_mode, limits, logic, methods, random
from .. import nn as nn  # torch.nn.functional.one_hot (OneHotCategorical, Beta.mode)
from ..tensor import Size, Tensor

globals().update(methods.FUNCTIONS)
globals().update(logic.FUNCTIONS)

float32, float64, long, bool = dtypes.float32, dtypes.float64, dtypes.int64, dtypes.bool  # noqa: A001
contiguous_format = "contiguous_format"
finfo = limits.finfo
no_grad, enable_grad = grad_mode.no_grad, grad_mode.enable_grad
tensor, as_tensor, empty, zeros, ones, full = (factories.tensor, factories.as_tensor, factories.empty,
                                               factories.zeros, factories.ones, factories.full)
zeros_like, ones_like, full_like, arange, eye = (factories.zeros_like, factories.ones_like, factories.full_like,
                                                 factories.arange, factories.eye)
where, is_tensor = functions.where, functions.is_tensor
rand, randn, normal, multinomial = random.rand, random.randn, random.normal, random.multinomial
inf, nan = math.inf, math.nan
Function = autograd.Function


def get_default_dtype():
    """torch.get_default_dtype(): float32 unless set (dtypes.get_default_dtype, once torch.set_default_dtype is in)."""
    return dtypes.get_default_dtype() if hasattr(dtypes, "get_default_dtype") else dtypes.float32


def is_tensor_like(x):
    return isinstance(x, Tensor)


def broadcast_shapes(*shapes):
    ndim = builtins.max((len(s) for s in shapes), default=0)  # torch's max is a global here
    out = [1] * ndim
    for s in shapes:
        for i, n in builtins.enumerate(s, ndim - len(s)):
            if n != 1:
                if out[i] != 1 and out[i] != n:
                    raise RuntimeError(f"Shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                       f"between {list(shapes[0])} and {list(s)}.")
                out[i] = n
    return Size(out)


def broadcast_tensors(*tensors):
    """torch.broadcast_tensors: each tensor expanded to the common shape (ExpandBackward0 where it grows)."""
    shape = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t if t.shape == shape else t.expand(shape) for t in tensors)


def is_all_true(x):
    return builtins.bool(x.all())


def deprecated(message, *, category=DeprecationWarning):
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            warnings.warn(message, category=category, stacklevel=2)
            return fn(*args, **kwargs)
        return inner
    return wrap
SymInt = int

# torch.types, as the ported files use them at run time (isinstance) and in annotations
_Number = (int, float, builtins.bool)
Number = int | float | builtins.bool
_size = Size | list[int] | tuple[int, ...]
_dtype = dtypes.dtype
Device = str | int | None


class _Special:
    """torch.special as far as the ported files reach it: expm1 (ContinuousBernoulli); gammainc (Gamma.cdf,
    Chi2.cdf) is not in the engine."""

    def __getattr__(self, name):
        if name == "expm1":
            return methods.FUNCTIONS["expm1"]
        raise NotImplementedError(f"torch.special.{name} is not in the engine")


special = _Special()
