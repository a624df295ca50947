# Source: pytorch/functorch notebooks/colab/per_sample_grads_colab.ipynb ("Per-sample-gradients";
#   https://github.com/pytorch/functorch, BSD-3-Clause), commit b71aa0b.
# Category: autograd.grad, higher-order, functional API — per-sample gradients by a loop of autograd.grad and by
#   vmap(grad(...), in_dims=(None, None, 0, 0)) over a stateless model
# Adaptations:
#  - the notebook's code cells, in order; `from functorch import make_functional_with_buffers, vmap, grad`
#    becomes torch.func's vmap and grad, and functorch's make_functional_with_buffers (not in torch.func) its
#    torch.func replacement: `params`/`buffers` are the module's detached named parameters and buffers and
#    `fmodel(params, buffers, x)` is `functional_call(model, (params, buffers), (x,))`; the cell printing each
#    parameter's shape iterates over `params.values()`;
#  - device 'cuda' goes; sizes shrink (batch 64 -> 4, images 28x28 -> 8x8, conv channels 32/64 -> 4/8,
#    fc1 9216x128 -> 32x16; the targets' torch.randint(10, (64,)) -> (4,));
#  - the cell that showed `fmodel` by ending with it is dropped (a lambda's repr has an address), the timing cells
#    (torch.utils.benchmark Timer, get_perf) are dropped; the first sample's gradients are printed.
import torch
import torch.nn as nn
import torch.nn.functional as F
from functools import partial

torch.manual_seed(0);

# Here's a simple CNN and loss function:

class SimpleCNN(nn.Module):
    def __init__(self):
        super(SimpleCNN, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.fc1 = nn.Linear(32, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        output = x
        return output

def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)

num_models = 10
batch_size = 4
data = torch.randn(batch_size, 1, 8, 8)

targets = torch.randint(10, (4,))

model = SimpleCNN()
predictions = model(data) # move the entire mini-batch through the model

loss = loss_fn(predictions, targets)
loss.backward() # back propogate the 'average' gradient of this mini-batch

def compute_grad(sample, target):

    sample = sample.unsqueeze(0)  # prepend batch dimension for processing
    target = target.unsqueeze(0)

    prediction = model(sample)
    loss = loss_fn(prediction, target)

    return torch.autograd.grad(loss, list(model.parameters()))


def compute_sample_grads(data, targets):
    """ manually process each sample with per sample gradient """
    sample_grads = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
    sample_grads = zip(*sample_grads)
    sample_grads = [torch.stack(shards) for shards in sample_grads]
    return sample_grads

per_sample_grads = compute_sample_grads(data, targets)

print(per_sample_grads[0].shape)

from torch.func import functional_call, vmap, grad

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
fmodel = lambda params, buffers, x: functional_call(model, (params, buffers), (x,))

for x in params.values():
  print(f"{x.shape}")

print(f"\n{type(params)}")

def compute_loss_stateless_model (params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    targets = target.unsqueeze(0)

    predictions = fmodel(params, buffers, batch)
    loss = loss_fn(predictions, targets)
    return loss

ft_compute_grad = grad(compute_loss_stateless_model)

ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))

ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)

# we can double check that the results using functorch grad and vmap match the results of hand processing each one individually:
for per_sample_grad, ft_per_sample_grad in zip(per_sample_grads, ft_per_sample_grads.values()):
    assert torch.allclose(per_sample_grad, ft_per_sample_grad, atol=3e-3, rtol=1e-5)

print(ft_per_sample_grads['fc2.bias'][0])
print(ft_per_sample_grads['conv1.bias'])
