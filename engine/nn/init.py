"""The initialisers nn.Linear uses (values come from the engine's generator, not PyTorch's)."""
import math

import numpy as np

from .. import factories
from ..grad_mode import no_grad


def uniform_(tensor, a=0.0, b=1.0):
    with no_grad():
        values = factories._rng["gen"].uniform(a, b, tensor.shape).astype(tensor.dtype.np)
        tensor.copy_(factories.tensor(values))
    return tensor


def zeros_(tensor):
    with no_grad():
        return tensor.zero_()


def ones_(tensor):
    with no_grad():
        return tensor.fill_(1.0)


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def normal_(tensor, mean=0.0, std=1.0):
    with no_grad():
        values = factories._rng["gen"].normal(mean, std, tensor.shape).astype(tensor.dtype.np)
        tensor.copy_(factories.tensor(values))
    return tensor


def kaiming_uniform_(tensor, a=0.0):
    fan_in = tensor.shape[1] if tensor.dim() > 1 else tensor.shape[0]
    gain = math.sqrt(2.0 / (1 + a * a))
    bound = gain * math.sqrt(3.0 / fan_in) if fan_in else 0.0
    return uniform_(tensor, -bound, bound)


__all__ = ["uniform_", "zeros_", "ones_", "constant_", "normal_", "kaiming_uniform_", "np"]
