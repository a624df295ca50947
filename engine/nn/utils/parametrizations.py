"""torch.nn.utils.parametrizations.weight_norm (torch/nn/utils/parametrizations.py): the weight as a
parametrization of two tensors, original0 = g = norm_except_dim(weight) and original1 = v = weight, recombined by
torch._weight_norm on every read. Not here: the hook that loads an old `weight_g`/`weight_v` state_dict into it
(the engine's Module has no load_state_dict pre-hooks), spectral_norm (it needs vdot) and orthogonal."""
from ..modules import Module
from . import parametrize
from .weight_norm import _weight_norm, norm_except_dim


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        weight_g = norm_except_dim(weight, 2, self.dim)
        weight_v = weight
        return weight_g, weight_v


def weight_norm(module, name="weight", dim=0):
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module
