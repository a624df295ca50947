"""torch.optim.swa_utils against torch: AveragedModel (SWA and an EMA by multi_avg_fn) over a few epochs, SWALR's
annealed learning rates, update_bn's recomputed statistics, and BatchNorm's reset_running_stats."""
from difftest import assert_same

PROGRAM = """
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa_model = AveragedModel(model)
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
data = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(4)]
for epoch in range(5):
    for x, y in data:
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
    swa_model.update_parameters(model)
    ema_model.update_parameters(model)
    sched.step()
    print(epoch, sched.get_last_lr(), swa_model.n_averaged)
update_bn(((x,) for x, _ in data), swa_model)
print(swa_model.module[1].running_mean, swa_model.module[1].num_batches_tracked)
print(list(swa_model.parameters())[0], list(ema_model.parameters())[2])
print(swa_model(data[0][0])[:2])
print(swa_model)
bn = nn.BatchNorm1d(2)
bn(torch.randn(4, 2))
bn.reset_running_stats()
print(bn.running_mean, bn.num_batches_tracked)
try:
    SWALR(opt, 0.1, anneal_strategy="exp")
except ValueError as e:
    print(e)
"""


def test_weight_averaging_as_torch():
    assert_same(PROGRAM)
