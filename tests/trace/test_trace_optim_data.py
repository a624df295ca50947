"""torch.optim, torch.optim.lr_scheduler and torch.utils.data through the explorer's runner (engine.trace.run):
the guard admits the modules as tutorials import them and the classes programs derive from them, the output is
PyTorch's, and the timeline shows an optimizer step as one in-place update per parameter and a DataLoader's
batch as tensors arriving (not the indexing and stacking that made it)."""
from __future__ import annotations

import pytest

from engine.trace import run
from tests.engine.difftest import ADDRESS, run_source

PROGRAMS = {
    "imports": """
import torch
import torch.optim.lr_scheduler
import torch.utils.data as tud
from torch.utils import data
from torch.utils.data import DataLoader, TensorDataset, random_split, Subset, RandomSampler
from torch.optim.lr_scheduler import StepLR, LambdaLR
from torch.optim import lr_scheduler
print(torch.optim.lr_scheduler.StepLR is StepLR is lr_scheduler.StepLR, data.DataLoader is DataLoader is tud.DataLoader)
print(torch.utils.data.TensorDataset is TensorDataset)
""",
    "training_loop": """
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torch.optim.lr_scheduler import ExponentialLR
torch.manual_seed(0)
ds = TensorDataset(torch.randn(20, 3), torch.randn(20, 1))
loader = DataLoader(ds, batch_size=8, shuffle=True)
model = nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
sched = ExponentialLR(opt, gamma=0.5)
for epoch in range(2):
    for xb, yb in loader:
        opt.zero_grad()
        loss = ((model(xb) - yb) ** 2).mean()
        loss.backward()
        opt.step()
    sched.step()
    print(epoch, round(loss.item(), 4), sched.get_last_lr())
print(opt)
""",
    "own_classes": """
import torch
from torch.utils.data import Dataset, IterableDataset, Sampler, DataLoader
from torch.optim.lr_scheduler import LRScheduler
class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return torch.tensor([float(i)]), i * i
class Evens(Sampler):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return iter(range(0, self.n, 2))
    def __len__(self):
        return (self.n + 1) // 2
class Count(IterableDataset):
    def __iter__(self):
        return iter(range(5))
class Halve(LRScheduler):
    def get_lr(self):
        return [group["lr"] / 2 for group in self.optimizer.param_groups]
for batch in DataLoader(Squares(7), batch_size=2, sampler=Evens(7)):
    print(batch)
print([b.tolist() for b in DataLoader(Count(), batch_size=2)])
w = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w], lr=1.0)
s = Halve(opt)
for _ in range(3):
    opt.step()
    s.step()
print(s.get_last_lr(), s.state_dict())
""",
    "state_untouched_by_the_timeline": """
import torch
w = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
(w * 3).sum().backward()
opt.step()
print(opt.state_dict()['state'], len(opt.state))
""",
    "closure": """
import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.25)
def closure():
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    return loss
for _ in range(3):
    print(opt.step(closure))
print(w)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_runner_prints_what_pytorch_prints(name):
    want = run_source(PROGRAMS[name], "torch").masked()
    timeline = run(PROGRAMS[name], max_seconds=60.0)
    assert timeline.error is None, timeline.error
    assert ADDRESS.sub("0x…", timeline.output) == want.stdout


def test_a_step_is_one_inplace_update_per_parameter_and_a_batch_arrives_as_tensors():
    timeline = run(PROGRAMS["training_loop"], max_seconds=60.0)
    events = [ev for ev in timeline.events if ev.get("line") is not None]
    step_line = PROGRAMS["training_loop"].splitlines().index("        opt.step()") + 1
    loop_line = PROGRAMS["training_loop"].splitlines().index("    for xb, yb in loader:") + 1
    at_step = [ev for ev in events if ev["line"] == step_line]
    assert [ev["kind"] for ev in at_step] == ["inplace"] * (2 * 3 * 2)  # weight and bias, 3 batches, 2 epochs
    assert {ev["op"] for ev in at_step} == {"sub"}
    at_loop = [ev for ev in events if ev["line"] == loop_line]
    assert [ev["kind"] for ev in at_loop] == ["leaf"] * (2 * 3 * 2)  # xb and yb of each batch
    assert [ev["shape"] for ev in at_loop[:6]] == [[8, 3], [8, 1], [8, 3], [8, 1], [4, 3], [4, 1]]
