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


def _over(t, k):
    """t / k for a C++ Scalar k: div.Scalar (DivBackward1)."""
    return t._apply(OPS["div_scalar"], (t,), {"other": k}, result_dtype((t, k), "float"))


def _gradient_checks(self, spacing_size, dims, edge_order):
    """ATen's pre_check_gradient, in its order and words."""
    if self.dtype.name == "uint8":
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if spacing_size is not None and dims is None and spacing_size != self.dim():
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to "
            f"'self.dim() = {self.dim()}', since dim argument was not given, but got a list of length {spacing_size}")
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim arguments to have "
            f"the same length, but got a spacing argument of length {spacing_size} and a dim argument of length "
            f"{len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dims is not None:
        self._reduce_dims(tuple(dims))
    for d in dims if dims is not None else range(self.dim()):
        if self.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")


def _gradient_scalar(self, h, d, edge_order):
    """gradient_helper_float: a uniform spacing h along d."""
    center = _over(_slice(self, d, 2) - _slice(self, d, 0, -2), h)
    if edge_order == 1:
        prepend = _over(_slice(self, d, 1, 2) - _slice(self, d, 0, 1), h)
        append = _over(_slice(self, d, -1) - _slice(self, d, -2, -1), h)
    else:
        prepend = _over(_times(_slice(self, d, 0, 1), -1.5) + _times(_slice(self, d, 1, 2), 2)
                        - _times(_slice(self, d, 2, 3), 0.5), h)
        append = _over(_times(_slice(self, d, -3, -2), 0.5) - _times(_slice(self, d, -2, -1), 2)
                       + _times(_slice(self, d, -1), 1.5), h)
    return prepend._op("cat", _over(center, 2), append, dim=d)


def _gradient_coordinates(self, x, d, edge_order):
    """gradient_helper: the spacing given by the coordinates x along d."""
    if x.dim() != 1:
        raise RuntimeError("torch.gradient expected each element of spacing to have one dimension, but got an "
                           f"element with {x.dim()} dimensions!")
    shape = [1] * self.dim()
    shape[d] = -1
    dx = x.diff(1, 0)
    dx1, dx2 = _slice(dx, 0, 0, -1), _slice(dx, 0, 1)
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * _slice(self, d, 0, -2) + b * _slice(self, d, 1, -1) + c * _slice(self, d, 2)
    def at(i):  # ATen's ax_dx[i]: a new select at each use
        return dx.select(0, i)

    if edge_order == 1:
        prepend = (_slice(self, d, 1, 2) - _slice(self, d, 0, 1)) / at(0)
        append = (_slice(self, d, -1) - _slice(self, d, -2, -1)) / at(-1)
    else:
        a = -(_times(at(0), 2.0) + at(1)) / (at(0) * (at(0) + at(1)))
        b = (at(0) + at(1)) / (at(0) * at(1))
        c = (-at(0)) / (at(1) * (at(0) + at(1)))
        prepend = a * _slice(self, d, 0, 1) + b * _slice(self, d, 1, 2) + c * _slice(self, d, 2, 3)
        a = at(-1) / (at(-2) * (at(-1) + at(-2)))
        b = -(at(-1) + at(-2)) / (at(-1) * at(-2))
        c = (_times(at(-1), 2) + at(-2)) / (at(-1) * (at(-1) + at(-2)))
        append = a * _slice(self, d, -3, -2) + b * _slice(self, d, -2, -1) + c * _slice(self, d, -1)
    return prepend._op("cat", center, append, dim=d)


@composite(Spelling(function="gradient", out=False))
def gradient(input, *, spacing=None, dim=None, edge_order=1):
    """ATen's gradient overloads: spacing a number (or none: 1), a list of numbers, or a list of coordinate
    tensors; dim an int, a list of ints, or none (every dim)."""
    dims = None if dim is None else list(dim) if isinstance(dim, (tuple, list)) else [dim]
    if spacing is None or isinstance(spacing, (int, float)):
        h = 1.0 if spacing is None else spacing
        if isinstance(dim, (tuple, list)):
            spacing = [h] * len(dims)
            _gradient_checks(input, len(spacing), dims, edge_order)
        else:
            _gradient_checks(input, None if spacing is None else (1 if dims else input.dim()), dims, edge_order)
            spacing = [h] * (1 if dims else input.dim())
    else:
        spacing = list(spacing)
        if any(hasattr(h, "_data") for h in spacing):  # torch's parser: a list of tensors, or of numbers
            for i, h in enumerate(spacing):
                if not hasattr(h, "_data"):
                    raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(h).__name__}")
        _gradient_checks(input, len(spacing), dims, edge_order)
    along = [input._dim(d) for d in dims] if dims is not None else list(range(input.dim()))
    return tuple(_gradient_coordinates(input, h, d, edge_order) if hasattr(h, "_data")
                 else _gradient_scalar(input, h, d, edge_order) for h, d in zip(spacing, along))
