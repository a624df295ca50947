"""torch.nn.utils.prune against torch, following the Pruning tutorial: random, L1 and Ln-structured pruning
of a LeNet's tensors, the hooks and buffers they add (module._forward_pre_hooks printed), iterative pruning,
remove, global pruning and a custom method; masks drawn from torch's generator value for value."""
from difftest import assert_same

PROGRAM = """
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 3)
        self.conv2 = nn.Conv2d(3, 4, 3)
        self.fc1 = nn.Linear(4 * 2 * 2, 6)
        self.fc2 = nn.Linear(6, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        return self.fc2(F.relu(self.fc1(x.view(-1, int(x.nelement() / x.shape[0])))))


model = LeNet()
module = model.conv1
print(list(module.named_parameters()), list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print(list(module.named_parameters())[0][0], module.weight_mask, module.weight, module._forward_pre_hooks)
prune.l1_unstructured(module, name="bias", amount=3)
print(module.bias, module.bias_mask)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print(module.weight)
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(list(hook))
print(model.state_dict().keys())
prune.remove(module, "weight")
print(list(module.named_parameters())[0][0], prune.is_pruned(model))
new_model = LeNet()
for name, m in new_model.named_modules():
    if isinstance(m, torch.nn.Conv2d):
        prune.l1_unstructured(m, name="weight", amount=0.2)
    elif isinstance(m, torch.nn.Linear):
        prune.l1_unstructured(m, name="weight", amount=0.4)
print(dict(new_model.named_buffers()).keys())
model = LeNet()
parameters_to_prune = ((model.conv1, "weight"), (model.conv2, "weight"), (model.fc1, "weight"), (model.fc2, "weight"))
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
for m, n in parameters_to_prune:
    print(float(torch.sum(getattr(m, n) == 0)) / float(getattr(m, n).nelement()))


class FooBarPruningMethod(prune.BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module


foobar_unstructured(model.fc2, name="bias")
print(model.fc2.bias_mask)
out = model(torch.randn(2, 1, 10, 10))
out.sum().backward()
print(out, model.fc1.weight_orig.grad[:2])
"""


def test_pruning_tutorial_as_torch():
    assert_same(PROGRAM)
