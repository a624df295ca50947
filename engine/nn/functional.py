"""torch.nn.functional. The functions that are one op's spelling (sigmoid, mse_loss, …) are derived from the op
table (engine/methods.py); these are the ones built from several ops, or with options of their own."""
import numpy as np

from .. import dispatch, generator
from ..generator import draws
from ..methods import FUNCTIONAL
from ..ops import OPS
from ..ops.nn import implicit_dim

globals().update(FUNCTIONAL)


def relu(input, inplace=False):  # noqa: A002 - PyTorch's argument names
    return input.relu_() if inplace else input.relu()


def silu(input, inplace=False):  # noqa: A002
    return dispatch.inplace(OPS["silu"], input, ()) if inplace else dispatch.apply(OPS["silu"], (input,))


def leaky_relu(input, negative_slope=0.01, inplace=False):  # noqa: A002
    attrs = {"negative_slope": negative_slope}
    if inplace:
        return dispatch.inplace(OPS["leaky_relu"], input, (), attrs)
    return dispatch.apply(OPS["leaky_relu"], (input,), attrs)


def softmax(input, dim=None, dtype=None):  # noqa: A002
    return input.softmax(implicit_dim("softmax", input, dim), dtype=dtype)


def log_softmax(input, dim=None, dtype=None):  # noqa: A002
    return input.log_softmax(implicit_dim("log_softmax", input, dim), dtype=dtype)


def linear(input, weight, bias=None):  # noqa: A002
    if input.dim() == 2 and bias is not None:
        return bias.addmm(input, weight.t())
    if input.dim() == 1 and bias is not None:
        return bias.addmm(input.view(1, -1), weight.t()).view(weight.shape[0])
    if input.dim() > 2 and bias is not None:
        out = bias.addmm(input.reshape(-1, input.shape[-1]), weight.t())
        return out.view(*input.shape[:-1], weight.shape[0])
    out = input @ weight.t()
    return out + bias if bias is not None else out


def l1_loss(input, target, reduction="mean"):  # noqa: A002
    d = (input - target).abs()
    return d if reduction == "none" else (d.sum() if reduction == "sum" else d.mean())


def cross_entropy(input, target, reduction="mean"):  # noqa: A002
    dim = 0 if input.dim() == 1 else 1
    return nll_loss(log_softmax(input, dim), target, reduction=reduction)  # noqa: F821 - derived above


def dropout(input, p=0.5, training=True, inplace=False):  # noqa: A002
    """Zeroes each element with probability p and scales the rest by 1 / (1 - p), as ATen's _dropout on the CPU:
    noise = bernoulli_(1 - p) / (1 - p) drawn into a tensor laid out like the input (so a transposed input gets
    its mask in its memory order), then input * noise (MulBackward0)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    dtype = input.dtype
    if p == 1:
        noise = input._constant(0)
    else:
        keep = draws.bernoulli(generator.default_generator, np.empty_like(input._data), 1 - p)  # input's layout
        noise = input._new(keep / dtype.np.type(1 - p) if dtype.is_floating_point else keep, dtype)
    return input.mul_(noise) if inplace else input.mul(noise)
