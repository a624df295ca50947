"""The trapezoid rule: trapezoid (trapz), cumulative_trapezoid. Composites as ATen's Integration.cpp writes them,
so the nodes are torch's (SumBackward1, MulBackward1, CumsumBackward0, …)."""
import numpy as np

from .table import OPS, Spelling, composite, result_dtype


def _slice(t, dim, start, end=None):
    """ATen's t.slice(dim, start, end): an end left out is kept as None."""
    return t._op("slice", dim=t._dim(dim), start=start, end=end, step=1)


def _spacing(name, y, x, dim):
    """x viewed so that its differences along dim broadcast against y's (Integration.cpp's x_viewed), and them."""
    if x.dim() == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        sizes = [1] * y.dim()
        sizes[dim] = x.shape[0]
        x = x.view(sizes)
    elif x.dim() < y.dim():
        x = x.view((1,) * (y.dim() - x.dim()) + tuple(x.shape))
    return _slice(x, dim, 1) - _slice(x, dim, 0, -1)


def _halved(t):
    """t / 2. as ATen's C++ writes it: div.Scalar (DivBackward1)."""
    return t._apply(OPS["div_scalar"], (t,), {"other": 2.0}, result_dtype((t, 2.0), "float"))


def _times(t, k):
    """t * k for a C++ double k: mul.Scalar (MulBackward1)."""
    return t._apply(OPS["mul_scalar"], (t,), {"other": k}, result_dtype((t, k)))


def _checked(name, y, x, dx, dim):
    if x is not None and dx is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments")
    wrapped = y._dim(dim)
    if x is not None and hasattr(x, "_data"):
        if y.dtype.name == "bool" or x.dtype.name == "bool":
            raise RuntimeError(f"{name}: received a bool input for `x` or `y`, but bool is not supported")
    else:
        if y.dtype.name == "bool":
            raise RuntimeError(f"{name}: received a bool input for `y`, but bool is not supported")
        spacing = x if x is not None else dx
        if isinstance(spacing, (bool, complex)):
            raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")
    return wrapped


_SIGNATURES = ("(Tensor y, Tensor x, *, int dim = -1)", "(Tensor y, *, Number dx = 1, int dim = -1)")


@composite(Spelling(function="trapezoid", out=False, signatures=_SIGNATURES))
def trapezoid(y, x=None, *, dx=None, dim=-1):
    wrapped = _checked("trapezoid", y, x, dx, dim)
    if y.shape[wrapped] == 0:
        shape = tuple(s for i, s in enumerate(y.shape) if i != wrapped)
        return y._new(np.zeros(shape, y.dtype.np), y.dtype)
    if x is not None and hasattr(x, "_data"):  # ATen wraps dim here, not for a constant spacing
        left, right = _slice(y, wrapped, 0, -1), _slice(y, wrapped, 1)
        return _halved(((left + right) * _spacing("trapezoid", y, x, wrapped)).sum(wrapped))
    step = float(1 if x is None and dx is None else (x if x is not None else dx))
    return _times(y.sum(dim) - _times(y.select(dim, 0) + y.select(dim, -1), 0.5), step)


@composite(Spelling(function="trapz", out=False, signatures=(
    "(Tensor y, *, float dx = 1, int dim = -1)", "(Tensor y, Tensor x, *, int dim = -1)")))
def trapz(y, x=None, *, dx=None, dim=-1):
    return trapezoid(y, x, dx=dx, dim=dim)


@composite(Spelling(function="cumulative_trapezoid", out=False, signatures=_SIGNATURES))
def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    wrapped = _checked("cumulative_trapezoid", y, x, dx, dim)
    left, right = _slice(y, dim, 0, -1), _slice(y, dim, 1)
    if x is not None and hasattr(x, "_data"):
        return _halved(((left + right) * _spacing("cumulative_trapezoid", y, x, wrapped)).cumsum(wrapped))
    step = float(1 if x is None and dx is None else (x if x is not None else dx))
    return _times(left + right, step / 2.0).cumsum(dim)
