"""nn.functional's activations with options (inplace=, slopes, thresholds), over the ops of engine/ops/activations.py,
and their in-place spellings (F.relu_, F.elu_, …)."""
import warnings

import numpy as np

from .. import dispatch, factories, generator, grad_mode, messages
from ..ops import OPS
from ..ops.nn import implicit_dim

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


# ATen's CPU kernels of the activations that take floating types only, named as their NotImplementedError names them
# (threshold's and hardtanh's take integers, not bool)
FLOAT_KERNELS = {"silu": "silu_cpu", "mish": "mish_cpu", "hardswish": "hardswish_cpu",
                 "hardsigmoid": "hardsigmoid_cpu", "elu": "elu_cpu", "selu": "elu_cpu", "celu": "elu_cpu",
                 "leaky_relu": "leaky_relu_cpu", "rrelu": "leaky_relu_cpu"}
COMPLEX_KERNELS = {"silu"}  # its kernel takes complex tensors too; its derivative does not


def _run(name, input, attrs, inplace, inplace_name=None):  # noqa: A002
    kernel = FLOAT_KERNELS.get(name)
    if kernel is not None and not input.dtype.is_floating_point and not (name in COMPLEX_KERNELS and
                                                                         input.dtype.is_complex):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype.type_name}'")
    if name in COMPLEX_KERNELS and input.dtype.is_complex and not inplace and input.requires_grad and \
            grad_mode.is_grad_enabled():
        raise RuntimeError(f"{name} does not support automatic differentiation for outputs with complex dtype.")
    if name == "threshold" and input.dtype.name == "bool":
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    if name == "hardtanh" and input.dtype.name == "bool":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if inplace:
        return dispatch.inplace(OPS[inplace_name or name], input, (), attrs)
    return dispatch.apply(OPS[name], (input,), attrs)


def relu(input, inplace=False):  # noqa: A002 - PyTorch's argument names
    return input.relu_() if inplace else input.relu()


def relu_(input):  # noqa: A002
    return input.relu_()


def silu(input, inplace=False):  # noqa: A002
    return _run("silu", input, None, inplace)


def mish(input, inplace=False):  # noqa: A002
    return _run("mish", input, None, inplace)


def hardswish(input, inplace=False):  # noqa: A002
    return _run("hardswish", input, None, inplace)


def hardsigmoid(input, inplace=False):  # noqa: A002
    return _run("hardsigmoid", input, None, inplace)


def elu(input, alpha=1.0, inplace=False):  # noqa: A002
    return _run("elu", input, {"alpha": alpha, "scale": 1, "input_scale": 1}, inplace, "elu_")


def elu_(input, alpha=1.0):  # noqa: A002
    return elu(input, alpha, True)


def selu(input, inplace=False):  # noqa: A002
    return _run("selu", input, {"alpha": _SELU_ALPHA, "scale": _SELU_SCALE, "input_scale": 1}, inplace, "selu_")


def selu_(input):  # noqa: A002
    return selu(input, True)


def celu(input, alpha=1.0, inplace=False):  # noqa: A002
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    return _run("celu", input, {"alpha": float(alpha)}, inplace, "celu_")


def celu_(input, alpha=1.0):  # noqa: A002
    return celu(input, alpha, True)


def leaky_relu(input, negative_slope=0.01, inplace=False):  # noqa: A002
    return _run("leaky_relu", input, {"negative_slope": negative_slope}, inplace, "leaky_relu_")


def leaky_relu_(input, negative_slope=0.01):  # noqa: A002
    return leaky_relu(input, negative_slope, True)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):  # noqa: A002
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _run("hardtanh", input, {"min_val": min_val, "max_val": max_val}, inplace)


def hardtanh_(input, min_val=-1.0, max_val=1.0):  # noqa: A002
    return hardtanh(input, min_val, max_val, True)


def relu6(input, inplace=False):  # noqa: A002
    return hardtanh(input, 0.0, 6.0, inplace)


def threshold(input, threshold, value, inplace=False):  # noqa: A002
    return _run("threshold", input, {"threshold": threshold, "value": value}, inplace, "threshold_")


def threshold_(input, threshold, value):  # noqa: A002
    return _run("threshold", input, {"threshold": threshold, "value": value}, True, "threshold_")


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):  # noqa: A002
    """ATen's rrelu_with_noise: in training each element ≤ 0 is scaled by its own draw of U(lower, upper) (a
    double from 53 bits, in memory order; the noise is 1 elsewhere); in eval, by (lower + upper) / 2."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    dtype = input.dtype
    if training:
        x = input._data
        flat = np.ascontiguousarray(x).reshape(-1)
        noise = np.ones(flat.shape, dtype.np)
        picked = np.flatnonzero(flat <= 0)
        if picked.size:
            bits = generator.default_generator.random64(picked.size) & ((1 << 53) - 1)
            lo, hi = (float(dtype.np.type(b)) for b in (lower, upper))  # the bounds in the input's opmath type
            noise[picked] = (bits.astype(np.float64) * 2.0 ** -53 * (hi - lo) + lo).astype(dtype.np)
        noise = input._new(noise.reshape(x.shape), dtype)
    else:
        noise = input._new(np.zeros(input.shape, dtype.np), dtype)
    attrs = {"noise": noise, "lower": lower, "upper": upper, "training": bool(training)}
    return _run("rrelu", input, attrs, inplace, "rrelu_")


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):  # noqa: A002
    return rrelu(input, lower, upper, training, True)


def prelu(input, weight):  # noqa: A002
    """torch.prelu: the weight (one slope, or one per channel of dim 1) viewed to broadcast over the input, then
    ATen's _prelu_kernel."""
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {input.dtype.type_name} and "
                           f"{weight.dtype.type_name}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"prelu_cpu\" not implemented for '{input.dtype.type_name}'")
    channels = input.shape[1] if input.dim() >= 2 else 1
    if weight.numel() != 1 and input.dim() == 0:
        raise RuntimeError("Not allow zero-dim input tensor.")
    if weight.numel() != 1 and weight.numel() != channels:
        raise RuntimeError("Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                           f"{weight.numel()} and channel size = {channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    if weight.dim() != input.dim():
        shape = [1] * input.dim()
        if input.dim() >= 2:
            shape[1] = weight.numel()
        weight = weight.view(*shape) if shape else weight.view(())
    return dispatch.apply(OPS["prelu"], (input, weight))


def softmin(input, dim=None, _stacklevel=3, dtype=None):  # noqa: A002
    return (-input).softmax(implicit_dim("softmin", input, dim), dtype=dtype)


def softsign(input):  # noqa: A002
    return input / (input.abs() + 1)


def tanhshrink(input):  # noqa: A002
    return input - input.tanh()


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """torch's: Gumbel(0, 1) noise drawn as -log of exponential draws, softmax of (logits + noise) / tau; `hard` gives
    the one-hot of its argmax, with the soft sample's gradient (straight through)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=messages.level(2))
    gumbels = -factories.empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = factories.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
