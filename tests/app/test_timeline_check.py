"""app.timeline_check: what the static site's program worker sends is used only once it is a timeline of the
schema and sizes the wall allows (docs/security.md, defence in depth). Every real timeline passes; each way of
breaking one is refused with what is wrong."""

from __future__ import annotations

import json

import pytest

from app.program.examples import EXAMPLES
from app.timeline_check import MAX_BYTES, MAX_EVENTS, checked
from engine.trace import run
from engine.trace.isolated import browser_json, stopped
from engine.trace.so_far import Snapshots
from tests.programs import PROGRAMS
from tests.trace.corpus import TRACE_PROGRAMS

PYPLOT = """import torch
import matplotlib.pyplot as plt
x = torch.linspace(0, 1, 5)
plt.figure(figsize=(4, 3))
plt.subplot(1, 2, 1)
plt.plot(x, x ** 2, label='sq')
plt.scatter(x, x, c=[1, 2, 3, 4, 5])
plt.title('t')
plt.legend()
plt.subplot(1, 2, 2)
plt.hist([1.0, 2.0, 2.0], bins=2)
plt.imshow([[1.0, 2.0], [3.0, 4.0]])
plt.xticks([0, 1], ['a', 'b'])
plt.show()
"""
DEEP = json.loads("[" * 50 + "]" * 50)
GOOD = "import torch\nx = torch.tensor(3.0, requires_grad=True)\n(x * x).backward()\nprint(x.grad)\n"


def sources():
    yield from (e.source for e in EXAMPLES)
    yield from list(PROGRAMS.values())[:10]
    yield from TRACE_PROGRAMS.values()
    yield PYPLOT
    yield "import torch\nfor i in range(3):\n    print(i)\nraise ValueError('no')\n"
    yield "while True:\n    pass\n"


def test_every_timeline_the_runner_makes_passes():
    for source in sources():
        text = browser_json(source, max_seconds=0.5) if "while True" in source else run(source).to_json()
        assert checked(text, source).to_json() == text
    text = stopped("x = 1\n", "the program was stopped", 1, kind="Stopped").to_json()
    assert checked(text, "x = 1\n").error["type"] == "Stopped"


def timeline():
    return json.loads(run(GOOD).to_json())


def broken(change):
    data = timeline()
    change(data)
    return json.dumps(data)


def event_of(data, kind):
    for packed in data["events"]:
        names = data["keys"][packed[0]]
        if names and packed[1] == kind:
            return names, packed
    raise LookupError(kind)


def set_field(data, kind, name, value):
    names, packed = event_of(data, kind)
    packed[names.index(name) + 1] = value


@pytest.mark.parametrize("change, says", [
    (lambda d: d.update(source="import os\n"), "another program"),
    (lambda d: d.pop("loops"), "a timeline's object"),
    (lambda d: d.update(extra=1), "a timeline's object"),
    (lambda d: d["events"].append([99]), "not packed"),
    (lambda d: d["events"].append([0]), "not packed"),
    (lambda d: set_field(d, "op", "kind", "script"), "no kind"),
    (lambda d: set_field(d, "op", "line", 99), "no line"),
    (lambda d: set_field(d, "op", "line", "1"), "no line"),
    (lambda d: set_field(d, "op", "id", -1), "has a id"),
    (lambda d: set_field(d, "op", "name", ["<img src=x onerror=alert(1)>"]), "has a name"),
    (lambda d: set_field(d, "op", "name", "x" * 20_000), "has a name"),
    (lambda d: set_field(d, "op", "requires_grad", 1), "has a requires_grad"),
    (lambda d: set_field(d, "op", "value", DEEP), "has a value"),
    (lambda d: d["keys"].append(["kind", "line", "text", "html"]) or d["events"].append(
        [len(d["keys"]) - 1, "print", 1, "hi\n", "<b>"]), "fields"),
    (lambda d: d.update(output="not printed\n"), "output"),
    (lambda d: d["keys"].append(["kind", "line", "type", "message"]) or d["events"].insert(
        0, [len(d["keys"]) - 1, "error", 1, "E", "m"]), "error before the last"),
    (lambda d: d.update(loops=[{"line": 1, "iterations": [[0, 5, 10**9]]}]), "loops"),
    (lambda d: d.update(modules=[{"name": "m", "label": "L", "start": 0, "end": 1, "parent": 0, "line": 1}]),
     "module calls"),
])
def test_a_broken_timeline_is_refused(change, says):
    with pytest.raises(ValueError, match=says):
        checked(broken(change), GOOD)


def test_sizes_are_refused_before_they_are_parsed():
    with pytest.raises(ValueError, match="bigger than 32 MB"):
        checked(" " * (MAX_BYTES + 1), GOOD)
    data = timeline()
    data["events"] = [data["events"][0]] * (MAX_EVENTS + 1)
    with pytest.raises(ValueError, match="more than"):
        checked(json.dumps(data), GOOD)
    with pytest.raises(ValueError, match="not JSON"):
        checked("[" * 100_000, GOOD)
    with pytest.raises(ValueError, match="not JSON text"):
        checked(None, GOOD)


TRAINING = """import torch
import torch.nn as nn
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.rand(8, 3)
print('start')
for i in range(100000):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_what_a_running_program_recorded_so_far_is_a_checked_timeline():
    """What the static site's program worker sends now and then while a program runs (so_far.Snapshots), for the
    wall to keep should it end the worker: each one passes the check, holds the run's first events and the
    iteration and module call running then (ended at its last event), and a stopped timeline made of it too."""
    sent = []
    final = run(TRAINING, snapshots=Snapshots(sent.append, MAX_BYTES, first=0.05, every=0.05, share=0.5,
                                                    most=MAX_BYTES),
                max_seconds=0.6)
    assert len(sent) >= 3 and final.error["type"] == "BudgetExceeded"
    kinds = [(e["kind"], e["line"]) for e in final.events]
    sizes = []
    for text in sent:
        so_far = checked(text, TRAINING)
        n = len(so_far.events)
        assert so_far.error is None and [(e["kind"], e["line"]) for e in so_far.events] == kinds[:n]
        assert so_far.output == "start\n" and so_far.loops[0]["iterations"][-1][2] == n
        sizes.append(n)
        ended = stopped(TRAINING, "the program was stopped", 8, kind="Stopped", recorded=so_far)
        assert checked(ended.to_json(), TRAINING).events == [*so_far.events, ended.error]
    assert sizes == sorted(sizes) and sizes[0] > 0
    sent.clear()
    browser_json("print(1)\nwhile True:\n    pass\n", max_seconds=0.8, recorded=sent.append)  # the worker's
    assert [checked(text, "print(1)\nwhile True:\n    pass\n").output for text in sent] == ["1\n"]
