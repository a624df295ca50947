"""torch.nn.functional: activations and losses."""
import warnings

import numpy as np

from .._tensor import _TYPE_NAMES, Tensor
from ..dispatch import apply
from ..ops import OPS


def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def leaky_relu(input, negative_slope=0.01):
    return apply(OPS["leaky_relu"], (input,), {"negative_slope": negative_slope})


def softplus(input, beta=1.0, threshold=20.0):
    return apply(OPS["softplus"], (input,), {"beta": beta, "threshold": threshold})


def binary_cross_entropy(input, target, reduction="mean"):
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is "
            "deprecated. Please ensure they have the same size."
        )
    return apply(OPS["binary_cross_entropy"], (input, target), {"reduction": reduction})


def l1_loss(input, target, reduction="mean"):
    d = (input - target).abs()
    return d if reduction == "none" else (d.sum() if reduction == "sum" else d.mean())


def softmax(input, dim=None):
    return apply(OPS["softmax"], (input,), {"dim": input._dim(_dim(input, dim, "softmax"))})


def log_softmax(input, dim=None):
    return apply(OPS["log_softmax"], (input,), {"dim": input._dim(_dim(input, dim, "log_softmax"))})


def _dim(input, dim, name):
    if dim is None:
        warnings.warn(
            f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as "
            "an argument.", UserWarning, stacklevel=3,
        )
        return 0 if input.dim() in (0, 1, 3) else 1
    return dim


def linear(input, weight, bias=None):
    from ..functions import addmm

    if input.dim() == 2 and bias is not None:
        return addmm(bias, input, weight.t())
    if input.dim() == 1 and bias is not None:
        return addmm(bias, input.view(1, -1), weight.t()).view(weight.shape[0])
    if input.dim() > 2 and bias is not None:
        out = addmm(bias, input.reshape(-1, input.shape[-1]), weight.t())
        return out.view(*input.shape[:-1], weight.shape[0])
    out = input @ weight.t()
    return out + bias if bias is not None else out


def mse_loss(input, target, reduction="mean"):
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
            "same size.", UserWarning, stacklevel=2,
        )
        try:
            np.broadcast_shapes(input.shape, target.shape)
        except ValueError:
            raise RuntimeError(
                f"The size of tensor a ({input.shape[-1]}) must match the size of tensor b "
                f"({target.shape[-1]}) at non-singleton dimension {input.dim() - 1}"
            ) from None
    return apply(OPS["mse_loss"], (input, target), {"reduction": reduction})


def nll_loss(input, target, reduction="mean"):
    if not isinstance(target, Tensor) or target.dtype.is_floating_point:
        got = target.dtype.name if isinstance(target, Tensor) else type(target).__name__
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_TYPE_NAMES.get(got, got)}")
    t = target._data
    n_classes = input.shape[-1] if input.dim() else 0
    if t.size and (t.min() < 0 or t.max() >= n_classes):
        raise IndexError(f"Target {int(t.max() if t.max() >= n_classes else t.min())} is out of bounds.")
    if input.dim() == 2 and t.shape[0] != input.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({t.shape[0]})."
        )
    weight_sum = t.shape[0] if input.dim() == 2 else 1
    return apply(OPS["nll_loss"], (input,), {"target": t, "reduction": reduction, "weight_sum": weight_sum})


def cross_entropy(input, target, reduction="mean"):
    dim = 0 if input.dim() == 1 else 1
    return nll_loss(log_softmax(input, dim), target, reduction=reduction)
