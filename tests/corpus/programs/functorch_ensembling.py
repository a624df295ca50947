# Source: pytorch/functorch notebooks/ensembling.ipynb ("Model ensembling"; https://github.com/pytorch/functorch,
#   BSD-3-Clause), commit d1126fb.
# Category: autograd.grad, higher-order, functional API — an ensemble of MLPs run as a loop and as one vmap over
#   their stacked parameters, with a different or the same minibatch per model (in_dims=(0, 0, None))
# Adaptations:
#  - the notebook's code cells, in order; `from functorch import vmap` becomes torch.func's vmap, and functorch's
#    combine_state_for_ensemble (not in torch.func) its torch.func replacement: `params, buffers =
#    stack_module_state(models)` and `fmodel(params, buffers, x)` is `functional_call(base_model, (params,
#    buffers), (x,))` on a copy of one model moved to the 'meta' device, as torch.func's documentation does;
#    `print([p.size(0) for p in params])` iterates over params.values() and requires_grad_ is left out
#    (stack_module_state returns parameters that require grad);
#  - device 'cuda' goes; sizes shrink (data 100x64x1x28x28 -> 6x4x1x4x4, targets 6400 -> 24, the MLP's
#    784/128/128/10 -> 16/8/8/3, num_models 10 -> 3); the timing cell (torch.utils.benchmark) is dropped;
#  - the predictions are printed.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from functools import partial
torch.manual_seed(0);

# Here's a simple MLP
class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(16, 8)
        self.fc2 = nn.Linear(8, 8)
        self.fc3 = nn.Linear(8, 3)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x

num_models = 3

data = torch.randn(6, 4, 1, 4, 4)
targets = torch.randint(10, (24,))

models = [SimpleMLP() for _ in range(num_models)]

minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]

minibatch = data[0]
predictions2 = [model(minibatch) for model in models]

from torch.func import stack_module_state, functional_call

params, buffers = stack_module_state(models)
base_model = copy.deepcopy(models[0]).to('meta')

def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))

print([p.size(0) for p in params.values()]) # show the leading 'num_models' dimension

assert minibatches.shape == (num_models, 4, 1, 4, 4) # verify minibatch has leading dimension of size 'num_models'

from torch.func import vmap

predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)

# verify the vmap predictions match the
assert torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-3, rtol=1e-5)
print(predictions1_vmap[1])

predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)

assert torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5)
print(predictions2_vmap[2])
