# Source: curtkim/python-first jax-first/03_vmap_grad.py (a learner's notes comparing JAX and functorch),
#   commit 17b8cdc.
# Category: autograd.grad, higher-order, functional API — per-example gradients: vmap(grad(loss),
#   in_dims=(None, 0, 0)) over examples and targets while the weights require grad (the result is itself
#   differentiable: grad_fn=<MulBackward0>)
# Adaptations:
#  - `from torch.func import vmap, grad` becomes torch.func's (the corpus binds only `torch` to the engine;
#    functorch's transforms are torch.func's, each call warning with a FutureWarning);
#  - written after the original file (the search tool's terms keep its text out of commits): the same functions
#    and calls, in other words;
#  - seeded (torch.manual_seed(0)); the per-example gradients are printed (the original prints nothing).
import torch
from torch.func import vmap, grad

torch.manual_seed(0)
batch_size, feature_size = 3, 5


def model(weights, feature_vec):
    assert feature_vec.dim() == 1
    return feature_vec.dot(weights).relu()


def compute_loss(weights, example, target):
    y = model(weights, example)
    return ((y - target) * 2).mean()


weights = torch.randn(feature_size, requires_grad=True)
examples = torch.randn(batch_size, feature_size)
targets = torch.randn(batch_size)
inputs = (weights, examples, targets)
grad_weight_per_example = vmap(grad(compute_loss), in_dims=(None, 0, 0))(*inputs)
print(grad_weight_per_example)
