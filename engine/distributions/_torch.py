"""The `torch.*` names the ported distributions call (they read `torch.lgamma(x)` as torch's files do), taken
from the engine's layers below, plus the few helpers torch keeps in C++ (_is_all_true)."""
import builtins
import functools
import math
import warnings

from .. import autograd, dtypes, factories, functions, grad_mode, limits, linalg, logic, memory, methods, random  # noqa: F401
from .. import nn as nn  # torch.nn.functional.one_hot (OneHotCategorical, Beta.mode)
from .. import special as _special
from ..tensor import Size, Tensor

globals().update(methods.FUNCTIONS)
globals().update(logic.FUNCTIONS)

float32, float64, double, long, bool = dtypes.float32, dtypes.float64, dtypes.float64, dtypes.int64, dtypes.bool  # noqa: A001
contiguous_format = memory.contiguous_format
finfo = limits.finfo
no_grad, enable_grad = grad_mode.no_grad, grad_mode.enable_grad
tensor, as_tensor, empty, zeros, ones, full = (factories.tensor, factories.as_tensor, factories.empty,
                                               factories.zeros, factories.ones, factories.full)
zeros_like, ones_like, full_like, arange, eye = (factories.zeros_like, factories.ones_like, factories.full_like,
                                                 factories.arange, factories.eye)
where, is_tensor, broadcast_shapes = functions.where, functions.is_tensor, functions.broadcast_shapes
tril_indices = functions.tril_indices
rand, randn, normal, multinomial = random.rand, random.randn, random.normal, random.multinomial
inf, nan = math.inf, math.nan
Function = autograd.Function


def get_default_dtype():
    """torch.get_default_dtype(): float32 unless set (dtypes.get_default_dtype, once torch.set_default_dtype is in)."""
    return dtypes.get_default_dtype() if hasattr(dtypes, "get_default_dtype") else dtypes.float32


def is_tensor_like(x):
    return isinstance(x, Tensor)


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
    """engine.special, saying so where the ported files reach a function it lacks (gammainc: Gamma.cdf, Chi2.cdf)."""

    def __getattr__(self, name):
        if hasattr(_special, name):
            return getattr(_special, name)
        raise NotImplementedError(f"torch.special.{name} is not in the engine")


special = _Special()
