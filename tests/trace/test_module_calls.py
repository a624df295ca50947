"""Timeline.modules: every call of an nn.Module as a range of events, named after the module's binding."""

from engine.trace import run
from engine.trace.timeline import Timeline

MLP = """
import torch
from torch import nn
model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
x = torch.ones(4, 2)
loss = model(x).sum()
loss.backward()
"""

OWN = """
import torch
from torch import nn

class Line(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Parameter(torch.tensor(2.0))
        self.b = nn.Parameter(torch.tensor(0.5))

    def forward(self, x):
        return self.a * x + self.b

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.line = Line()

    def forward(self, x):
        return torch.relu(self.line(x))

x = torch.tensor([1.0, -2.0])
print(Line()(x).sum())
net = Net()
for step in range(2):
    net(x).sum().backward()
"""


def _made(timeline, call):
    return [e["op"] for e in timeline.events[call["start"]:call["end"]] if e["kind"] in ("op", "inplace")]


def test_a_sequential_is_a_call_with_a_call_per_layer():
    t = run(MLP)
    assert t.error is None
    assert [(c["name"], c["label"], c["parent"], c["line"]) for c in t.modules] == [
        ("model", "Sequential", None, 6), ("model.0", "Linear(2→3)", 0, 6), ("model.1", "Tanh", 0, 6),
        ("model.2", "Linear(3→1)", 0, 6)]
    outer, first, tanh, last = t.modules
    assert first["start"] == outer["start"] and last["end"] == outer["end"]
    assert first["end"] <= tanh["start"] and tanh["end"] <= last["start"]
    assert _made(t, tanh) == ["tanh"]
    assert "addmm" in _made(t, first) and "sum" not in _made(t, outer)


def test_a_learners_own_modules_are_calls_named_after_their_binding():
    t = run(OWN)
    assert t.error is None
    names = [(c["name"], c["label"], c["parent"]) for c in t.modules]
    assert names[0] == ("Line", "Line", None)  # called before it was bound to a name: its class names it
    assert names[1:] == [("net", "Net", None), ("net.line", "Line", 1)] * 1 + [("net", "Net", None),
                                                                             ("net.line", "Line", 3)]
    assert _made(t, t.modules[2]) == ["mul", "add"]
    assert _made(t, t.modules[1]) == ["mul", "add", "relu"]


def test_module_calls_survive_json():
    t = run(MLP)
    assert Timeline.from_json(t.to_json()).modules == t.modules
