"""The initialisers nn.Linear uses (values come from the engine's generator, not PyTorch's)."""
import math

import numpy as np

from .. import factories, observe
from ..grad_mode import no_grad


def _fill(tensor, values):
    with no_grad(), observe.muted():
        tensor.copy_(factories.from_numpy(np.asarray(values, dtype=tensor.dtype.np)))
    return tensor


def uniform_(tensor, a=0.0, b=1.0):
    return _fill(tensor, factories._rng["gen"].uniform(a, b, tensor.shape))


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
    return _fill(tensor, factories._rng["gen"].normal(mean, std, tensor.shape))


def kaiming_uniform_(tensor, a=0.0):
    fan_in = tensor.shape[1] if tensor.dim() > 1 else tensor.shape[0]
    gain = math.sqrt(2.0 / (1 + a * a))
    bound = gain * math.sqrt(3.0 / fan_in) if fan_in else 0.0
    return uniform_(tensor, -bound, bound)

