"""The engine's classes print as torch's: type() of a layer, a loss, a container, an optimizer and a scheduler
names torch's module (<class 'torch.nn.modules.linear.Linear'>), a program's own classes name __main__, and a
program's module may also derive from abc.ABC."""
from __future__ import annotations

import torch
from difftest import run_both

import engine
from engine.torch_names import TORCH_PATHS

NAMESPACES = ((engine.nn, torch.nn), (engine.optim, torch.optim), (engine.optim.lr_scheduler, torch.optim.lr_scheduler))


def test_each_named_class_prints_as_torchs():
    for name in sorted(TORCH_PATHS):
        pairs = [(getattr(ours, name), getattr(theirs, name)) for ours, theirs in NAMESPACES
                 if hasattr(ours, name) and hasattr(theirs, name)]
        assert pairs, f"{name} is in neither namespace"
        assert repr(pairs[0][0]) == repr(pairs[0][1])


PROGRAM = """
import abc
import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 2)
print(type(model), type(model[0]), type(model[1]), type(nn.MSELoss()), type(opt), type(sched))
print(nn.Module, torch.optim.Optimizer, nn.LSTM, str(type(nn.Embedding(2, 2))))
class Net(nn.Module, abc.ABC):
    @abc.abstractmethod
    def forward(self, x):
        pass
class Impl(Net):
    def forward(self, x):
        return x
print(type(Impl()), isinstance(Impl(), nn.Module), issubclass(Impl, Net), type(Impl()).__name__)
try:
    Net()
except TypeError as e:
    print(e)
class MyOpt(torch.optim.SGD):
    pass
print(type(MyOpt(model.parameters(), lr=0.1)), type(model).__name__, type(opt).__qualname__)
torch.nn.utils.parametrize.register_parametrization(model[0], "weight", nn.Identity())
print(type(model[0]), type(model[0]).__name__, type(nn.LazyLinear(2)), type(nn.ZeroPad2d(1)))
print(type(nn.LazyBatchNorm1d()))
"""


def test_types_of_modules_and_optimizers_print_as_torchs():
    want, got = run_both(PROGRAM)
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\ntorch:\n{want.stdout}"
    assert got.exc == want.exc
