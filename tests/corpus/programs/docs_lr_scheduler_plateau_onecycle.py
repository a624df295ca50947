# Source: pytorch/pytorch torch/optim/lr_scheduler.py docstrings of ReduceLROnPlateau, OneCycleLR and
#   CyclicLR (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: optimizers and lr schedulers — ReduceLROnPlateau, OneCycleLR, CyclicLR
# Adaptations:
#  - the docstrings assume a `model`, a `data_loader` and `train_batch(...)`/`validate(...)`: here a
#    nn.Linear(2, 1) on a TensorDataset of 8 random points (batch size 4), seeded with torch.manual_seed(0),
#    trained with MSE; ReduceLROnPlateau is stepped on the epoch's loss; the learning rates are printed.
#  - train_batch here does not step the optimizer (as OneCycleLR's example has it), so CyclicLR's loop gets
#    an `optimizer.step()` before `scheduler.step()`.
import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau

torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
data_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(torch.randn(8, 2), torch.randn(8, 1)), batch_size=4)

def train_batch(batch):
    x, y = batch
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    return loss.item()

optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = ReduceLROnPlateau(optimizer, "min")
for epoch in range(10):
    val_loss = sum(train_batch(batch) for batch in data_loader)
    optimizer.step()
    # Note that step should be called after validate()
    scheduler.step(val_loss)
    print(epoch, val_loss, scheduler.get_last_lr())

optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
scheduler = torch.optim.lr_scheduler.OneCycleLR(
    optimizer, max_lr=0.01, steps_per_epoch=len(data_loader), epochs=10
)
for epoch in range(10):
    for batch in data_loader:
        train_batch(batch)
        optimizer.step()
        scheduler.step()
    print(epoch, scheduler.get_last_lr())

optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.CyclicLR(
    optimizer,
    base_lr=0.01,
    max_lr=0.1,
    step_size_up=10,
)
for epoch in range(10):
    for batch in data_loader:
        train_batch(batch)
        optimizer.step()
        scheduler.step()
    print(epoch, scheduler.get_last_lr())
