"""torch.signal.windows (torch/signal/windows/windows.py of torch 2.13, BSD-3-Clause, the PyTorch contributors):
each window is a linspace of the angles or offsets, through exp, sin, cos, i0 or abs, as torch builds it."""
import math
from collections.abc import Iterable

from ... import dtypes, factories
from ...methods import FUNCTIONS

strided = dtypes.strided


def _window_function_checks(function_name, M, dtype, layout):  # noqa: N803 - torch's names
    """torch's checks of a window's arguments, the default dtype filled in; returns the dtype."""
    if dtype is None:
        dtype = dtypes.get_default_dtype()
    if M < 0:
        raise ValueError(f"{function_name} requires non-negative window length, got M={M}")
    if layout is not strided:
        raise ValueError(f"{function_name} is implemented for strided tensors only, got: {layout}")
    if dtype not in [dtypes.float32, dtypes.float64]:
        raise ValueError(f"{function_name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _empty(dtype, requires_grad):
    return factories.empty((0,), dtype=dtype, requires_grad=requires_grad)


def _trivial(M, dtype, requires_grad):  # noqa: N803
    """The window of no point (empty) or one (a 1), which the formulas would divide by zero for; else None."""
    if M == 0:
        return _empty(dtype, requires_grad)
    if M == 1:
        return factories.ones((1,), dtype=dtype, requires_grad=requires_grad)
    return None


def _linspace(start, end, steps, dtype, requires_grad):
    return factories.linspace(start=start, end=end, steps=steps, dtype=dtype, requires_grad=requires_grad)


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=strided, device=None,  # noqa: N803
                requires_grad=False):
    dtype = _window_function_checks("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _empty(dtype, requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / tau
    k = _linspace(-center * constant, (-center + (M - 1)) * constant, M, dtype, requires_grad)
    return FUNCTIONS["exp"](-FUNCTIONS["abs"](k))


def cosine(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):  # noqa: N803
    dtype = _window_function_checks("cosine", M, dtype, layout)
    if M == 0:
        return _empty(dtype, requires_grad)
    start = 0.5
    constant = math.pi / (M + 1 if not sym and M > 1 else M)
    k = _linspace(start * constant, (start + (M - 1)) * constant, M, dtype, requires_grad)
    return FUNCTIONS["sin"](k)


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):  # noqa: N803
    dtype = _window_function_checks("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _empty(dtype, requires_grad)
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / (std * math.sqrt(2))
    k = _linspace(start * constant, (start + (M - 1)) * constant, M, dtype, requires_grad)
    return FUNCTIONS["exp"](-k**2)


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):  # noqa: N803
    dtype = _window_function_checks("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    trivial = _trivial(M, dtype, requires_grad)
    if trivial is not None:
        return trivial
    beta = factories.tensor(beta, dtype=dtype)
    start = -beta
    constant = 2.0 * beta / (M if not sym else M - 1)
    end = FUNCTIONS["minimum"](beta, start + (M - 1) * constant)
    k = _linspace(start, end, M, dtype, requires_grad)
    return FUNCTIONS["i0"](FUNCTIONS["sqrt"](beta * beta - FUNCTIONS["pow"](k, 2))) / FUNCTIONS["i0"](beta)


def hamming(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):  # noqa: N803
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):  # noqa: N803
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):  # noqa: N803
    dtype = _window_function_checks("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):  # noqa: N803
    dtype = _window_function_checks("bartlett", M, dtype, layout)
    trivial = _trivial(M, dtype, requires_grad)
    if trivial is not None:
        return trivial
    start = -1
    constant = 2 / (M if not sym else M - 1)
    k = _linspace(start, start + (M - 1) * constant, M, dtype, requires_grad)
    return 1 - FUNCTIONS["abs"](k)


def general_cosine(M, *, a, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):  # noqa: N803
    dtype = _window_function_checks("general_cosine", M, dtype, layout)
    trivial = _trivial(M, dtype, requires_grad)
    if trivial is not None:
        return trivial
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    constant = 2 * math.pi / (M if not sym else M - 1)
    k = _linspace(0, (M - 1) * constant, M, dtype, requires_grad)
    a_i = factories.tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype, requires_grad=requires_grad)
    i = factories.arange(a_i.shape[0], dtype=a_i.dtype, requires_grad=a_i.requires_grad)
    return (a_i.unsqueeze(-1) * FUNCTIONS["cos"](i.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=strided, device=None,  # noqa: N803
                    requires_grad=False):
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def nuttall(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):  # noqa: N803
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)
