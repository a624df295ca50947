# Source: pytorch/pytorch docs/source/optim.md, "How to use an optimizer": constructing it, per-parameter
#   options, taking an optimization step, `optimizer.step(closure)` (https://github.com/pytorch/pytorch,
#   BSD-3-Clause), commit 0126d60.
# Category: optimizers and lr schedulers — param groups, momentum, weight_decay, step(closure)
# Adaptations:
#  - the snippets assume a `model` with `base` and `classifier` parts, a `dataset` and a `loss_fn`: a small
#    nn.Module with those two parts, four random (input, target) pairs and nn.MSELoss are set up at the top,
#    seeded with torch.manual_seed(0); the snippets' optimizers are kept and the loops print the loss.
#  - the bias/others example uses `self.named_parameters()` inside a module; here `model.named_parameters()`.
import torch
from torch import nn, optim

torch.manual_seed(0)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
        self.classifier = nn.Linear(8, 2)

    def forward(self, x):
        return self.classifier(self.base(x))

model = Model()
dataset = [(torch.randn(3, 4), torch.randn(3, 2)) for _ in range(4)]
loss_fn = nn.MSELoss()
var1 = torch.randn(3, requires_grad=True)
var2 = torch.randn(3, requires_grad=True)

optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
optimizer = optim.Adam([var1, var2], lr=0.0001)
print(optimizer)

optimizer = optim.SGD([
    {'params': model.base.parameters(), 'lr': 1e-2},
    {'params': model.classifier.parameters()}
], lr=1e-3, momentum=0.9)
print(optimizer)

for input, target in dataset:
    optimizer.zero_grad()
    output = model(input)
    loss = loss_fn(output, target)
    loss.backward()
    optimizer.step()
    print(loss.item())

bias_params = [p for name, p in model.named_parameters() if 'bias' in name]
others = [p for name, p in model.named_parameters() if 'bias' not in name]

optimizer = optim.SGD([
    {'params': others},
    {'params': bias_params, 'weight_decay': 0}
], weight_decay=1e-2, lr=1e-2)

for input, target in dataset:
    def closure():
        optimizer.zero_grad()
        output = model(input)
        loss = loss_fn(output, target)
        loss.backward()
        return loss
    print(optimizer.step(closure).item())

print(model.classifier.bias)
