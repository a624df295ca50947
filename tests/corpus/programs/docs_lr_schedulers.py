# Source: pytorch/pytorch torch/optim/lr_scheduler.py docstrings of StepLR, MultiStepLR, ConstantLR,
#   LinearLR, ExponentialLR, PolynomialLR, CosineAnnealingLR, LambdaLR, MultiplicativeLR, SequentialLR,
#   ChainedScheduler (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: optimizers and lr schedulers — StepLR to ChainedScheduler
# Adaptations:
#  - the docstrings assume an `optimizer` with lr = 0.05 and call `train(...)`/`validate(...)`: here each
#    scheduler gets a fresh optim.SGD over one parameter with lr=0.05, the epoch body is
#    `optimizer.step()`, the epoch counts are cut to what shows each schedule's shape, and the learning
#    rates are printed.
#  - LambdaLR's two-group example gets an optimizer with two param groups.
import torch
from torch.optim.lr_scheduler import (StepLR, MultiStepLR, ConstantLR, LinearLR, ExponentialLR, PolynomialLR,
                                      CosineAnnealingLR, LambdaLR, MultiplicativeLR, SequentialLR,
                                      ChainedScheduler)

def make_optimizer():
    return torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.05)

def run(name, optimizer, scheduler, epochs):
    lrs = []
    for epoch in range(epochs):
        optimizer.step()
        lrs.append(scheduler.get_last_lr()[0])
        scheduler.step()
    print(name, lrs)

optimizer = make_optimizer()
scheduler = StepLR(optimizer, step_size=30, gamma=0.1)
run("StepLR", optimizer, scheduler, 100)

optimizer = make_optimizer()
scheduler = MultiStepLR(optimizer, milestones=[30, 80], gamma=0.1)
run("MultiStepLR", optimizer, scheduler, 100)

optimizer = make_optimizer()
scheduler = ConstantLR(optimizer, factor=0.5, total_iters=40)
run("ConstantLR", optimizer, scheduler, 45)

optimizer = make_optimizer()
scheduler = LinearLR(optimizer, start_factor=0.05, total_iters=40)
run("LinearLR", optimizer, scheduler, 45)

optimizer = make_optimizer()
scheduler = ExponentialLR(optimizer, gamma=0.95)
run("ExponentialLR", optimizer, scheduler, 20)

optimizer = make_optimizer()
scheduler = PolynomialLR(optimizer, total_iters=50, power=0.9)
run("PolynomialLR", optimizer, scheduler, 55)

num_epochs = 100
optimizer = make_optimizer()
scheduler = CosineAnnealingLR(optimizer, T_max=num_epochs)
run("CosineAnnealingLR", optimizer, scheduler, num_epochs)

optimizer = torch.optim.SGD([{'params': [torch.zeros(1, requires_grad=True)]},
                             {'params': [torch.zeros(1, requires_grad=True)]}], lr=0.05)
lambda1 = lambda epoch: epoch // 30
lambda2 = lambda epoch: 0.95**epoch
scheduler = LambdaLR(optimizer, lr_lambda=[lambda1, lambda2])
for epoch in range(num_epochs):
    optimizer.step()
    scheduler.step()
print("LambdaLR", scheduler.get_last_lr())

opt = make_optimizer()
scheduler = LambdaLR(opt, lr_lambda=lambda epoch: epoch // 30)
run("LambdaLR", opt, scheduler, 65)

optimizer = make_optimizer()
lmbda = lambda epoch: 0.95
scheduler = MultiplicativeLR(optimizer, lr_lambda=lmbda)
run("MultiplicativeLR", optimizer, scheduler, 10)

optimizer = make_optimizer()
scheduler1 = ConstantLR(optimizer, factor=0.1, total_iters=20)
scheduler2 = ExponentialLR(optimizer, gamma=0.9)
scheduler = SequentialLR(
    optimizer,
    schedulers=[scheduler1, scheduler2],
    milestones=[20],
)
run("SequentialLR", optimizer, scheduler, 25)

optimizer = make_optimizer()
scheduler1 = ConstantLR(optimizer, factor=0.1, total_iters=20)
scheduler2 = ExponentialLR(optimizer, gamma=0.9)
scheduler = ChainedScheduler([scheduler1, scheduler2], optimizer=optimizer)
run("ChainedScheduler", optimizer, scheduler, 25)
