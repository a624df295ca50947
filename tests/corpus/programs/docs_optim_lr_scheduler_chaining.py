# Source: pytorch/pytorch docs/source/optim.md, "How to adjust learning rate" (ExponentialLR, and chaining
#   ExponentialLR with MultiStepLR; https://github.com/pytorch/pytorch, BSD-3-Clause), commit 0126d60.
# Category: optimizers and lr schedulers — ExponentialLR chained with MultiStepLR
# Adaptations:
#  - the snippets assume `model`, `dataset` and `loss_fn`: nn.Linear(3, 1), two random (input, target)
#    pairs and nn.MSELoss, seeded with torch.manual_seed(0); ExponentialLR and MultiStepLR imported from
#    torch.optim.lr_scheduler.
#  - each epoch prints the loss and the learning rate (scheduler.get_last_lr()).
import torch
from torch import nn, optim
from torch.optim.lr_scheduler import ExponentialLR, MultiStepLR

torch.manual_seed(0)
model = nn.Linear(3, 1)
dataset = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(2)]
loss_fn = nn.MSELoss()

optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
scheduler = ExponentialLR(optimizer, gamma=0.9)

for epoch in range(20):
    for input, target in dataset:
        optimizer.zero_grad()
        output = model(input)
        loss = loss_fn(output, target)
        loss.backward()
        optimizer.step()
    scheduler.step()
    print(epoch, loss.item(), scheduler.get_last_lr())

optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
scheduler1 = ExponentialLR(optimizer, gamma=0.9)
scheduler2 = MultiStepLR(optimizer, milestones=[30,80], gamma=0.1)

for epoch in range(20):
    for input, target in dataset:
        optimizer.zero_grad()
        output = model(input)
        loss = loss_fn(output, target)
        loss.backward()
        optimizer.step()
    scheduler1.step()
    scheduler2.step()
    print(epoch, loss.item(), scheduler2.get_last_lr())
