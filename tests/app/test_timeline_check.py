"""app.timeline_check: what the static site's program worker sends is used only once it is a timeline of the
schema and sizes the wall allows (docs/security.md, defence in depth). Every real timeline passes; each way of
breaking one is refused with what is wrong."""

from __future__ import annotations

import json

import pytest

from app.program.examples import EXAMPLES
from app.timeline_check import MAX_BYTES, MAX_EVENTS, checked, streamed
from engine.trace import run
from engine.trace.isolated import browser_json, stopped
from engine.trace.packing import TABLED
from engine.trace.so_far import Stream
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
        if "while True" in source:
            sent = []
            last = browser_json(source, max_seconds=0.5, recorded=sent.append)
            assert streamed(sent, last, source)[0].error["type"] == "BudgetExceeded"
            continue
        text = run(source).to_json()
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
    """Sets an event's field, through the table for a field that refers to it (packing.TABLED)."""
    names, packed = event_of(data, kind)
    if name in TABLED:
        data["table"].append(value)
        value = len(data["table"]) - 1
    packed[names.index(name) + 1] = value


@pytest.mark.parametrize("change, says", [
    (lambda d: d.update(source="import os\n"), "another program"),
    (lambda d: d.pop("loops"), "a timeline's object"),
    (lambda d: d.update(extra=1), "a timeline's object"),
    (lambda d: d["events"].append([99]), "not packed"),
    (lambda d: d["events"].append([0]), "not packed"),
    (lambda d: d.update(table=d["table"][:1]), "not packed"),
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
    """The pieces the static site's program worker sends while a program runs (so_far.Stream), which the wall keeps
    should it end the worker: each run of them makes a timeline that passes the check, with the run's first events
    and the iteration and module call running then (ended at its last event), and a stopped timeline made of it too;
    all of them and the last message make the run's timeline."""
    sent = []
    stream = Stream(lambda data: sent.append(data.decode()), MAX_BYTES, every=0.05)
    final = run(TRAINING, stream=stream, max_seconds=0.6)
    assert len(sent) >= 3 and final.error["type"] == "BudgetExceeded"
    kinds = [(e["kind"], e["line"]) for e in final.events]
    sizes = []
    for k in range(1, len(sent) + 1):
        so_far, capped = streamed(sent[:k], None, TRAINING)
        n = len(so_far.events)
        assert so_far.error is None and not capped and [(e["kind"], e["line"]) for e in so_far.events] == kinds[:n]
        assert so_far.output == "start\n" and so_far.loops[0]["iterations"][-1][2] == n
        assert all(m["end"] is not None and m["end"] <= n for m in so_far.modules)
        sizes.append(n)
        ended = stopped(TRAINING, "the program was stopped", 8, kind="Stopped", recorded=so_far)
        assert checked(ended.to_json(), TRAINING).events == [*so_far.events, ended.error]
    assert sizes == sorted(sizes) and sizes[0] > 0
    assert streamed(sent, stream.tail(final).decode(), TRAINING)[0].to_json() == final.to_json()


SMALL = "import torch\nx = torch.ones(2, requires_grad=True)\nfor i in range(3):\n    y = x * i\nprint(y)\n"


@pytest.mark.parametrize("change, says", [
    (lambda p: p.update(source="import os\n"), "another program"),
    (lambda p: p.update(html=1), "a piece's object"),
    (lambda p: p["renames"].append([0, None]), "renames are not"),
    (lambda p: p["events"].append([0]), "not packed"),
    (lambda p: p["keys"].append(["kind", "line", "html"]) or p["events"].append(
        [len(p["keys"]) - 1, "html", 1, "<b>x</b>"]), "no kind"),
    (lambda p: p["iterations"].append([3, 0, 0, 10**6]), "ranges of its events"),
    (lambda p: p.update(output="not printed\n"), "output"),
    (lambda p: [p.pop("source"), p.pop("output")], "its last message is not the last piece"),
])
def test_broken_pieces_are_refused(change, says):
    last = json.loads(Stream().tail(run(SMALL)))
    assert streamed([], json.dumps(last), SMALL)[0].to_json() == run(SMALL).to_json()
    change(last)
    with pytest.raises(ValueError, match=says):
        streamed([], json.dumps(last), SMALL)
