"""A training loop in the explorer: the loop found, its iterations and their losses, one iteration's graph at
a time (iterations of one shape share a layout; a parameter is one box in all of them), the phases of a
training step, and the store moving between iterations."""

import pytest

from app import timeline as tl
from app.graph import model as gm
from app.graph.views import GraphViews
from app.inspector.model import rows
from app.page import Explorer
from app.player import iterations as it
from app.player.caption import caption, formula
from app.program.links import encode_code

POLY = """import torch

x = torch.linspace(-1.0, 1.0, 100)
y = x ** 3
a = torch.tensor(0.5, requires_grad=True)
b = torch.tensor(-0.5, requires_grad=True)
for t in range(6):
    y_pred = a + b * x
    loss = (y_pred - y).pow(2).sum()
    print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= 0.01 * a.grad
        b -= 0.01 * b.grad
        a.grad = None
        b.grad = None
print(a, b)
"""

EPOCHS = """import torch
from torch import nn, optim

torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = optim.SGD(model.parameters(), lr=0.1)
data = [torch.ones(3, 2) * i for i in range(4)]
for epoch in range(3):
    for batch in data:
        loss = model(batch).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
"""


def loop_of(record, source):
    timeline = record(source)
    return timeline, it.training_loop(timeline.events, timeline.loops)


def test_the_training_loop_and_its_iterations(record):
    timeline, its = loop_of(record, POLY)
    events = timeline.events
    assert its.line == 7 and len(its) == 6 and its.numbers == list(range(6))
    printed = [float(line.split()[1]) for line in timeline.output.splitlines()[:6]]
    assert its.loss == pytest.approx(printed, rel=1e-6)
    assert its.bounds[0] == 0 and its.bounds[1] == its.starts[0]  # the events before the loop: a segment
    for j, (a, b) in enumerate(zip(its.starts, its.ends)):
        assert its.iteration(a) == its.iteration(b - 1) == j
        assert its.span(its.segment_of[j], len(events)) == (a, b)
        assert [e["kind"] for e in events[a:b]].count("backward") == 1
    assert its.iteration(-1) is None and its.iteration(len(events) - 1) is None  # the final print
    assert its.segment(len(events) - 1) == len(its.bounds) - 1


def test_batches_not_epochs_are_the_iterations(record):
    timeline, its = loop_of(record, EPOCHS)
    assert its.line == 9 and len(its) == 12 and its.numbers == [0, 1, 2, 3] * 3
    assert all(loss is not None for loss in its.loss)


def test_a_program_without_a_training_loop_is_one_segment(record):
    timeline, its = loop_of(record, "import torch\nx = torch.tensor(2.0, requires_grad=True)\nfor i in range(3):\n"
                                    "    x = x * 2\nx.backward()\n")
    assert len(its) == 0 and its.bounds == [0] and its.segment(5) == 0 and its.iteration(3) is None


def test_phases_of_a_training_step(record):
    timeline, its = loop_of(record, POLY)
    names = [name for name, _, _ in it.phases(timeline.events, its.starts[2], its.ends[2])]
    assert names == ["forward", "backward", "optimizer step", "zero_grad"]
    timeline, its = loop_of(record, EPOCHS)
    names = [name for name, _, _ in it.phases(timeline.events, its.starts[2], its.ends[2])]
    assert names == ["forward", "zero_grad", "backward", "optimizer step"]


def test_iterations_share_a_layout_and_a_parameter_is_one_box(record):
    timeline, its = loop_of(record, POLY)
    final = tl.state_at(timeline, len(timeline.events) - 1)["nodes"]
    views = GraphViews(timeline, its, final)
    models = [views.model(its.segment_of[j]) for j in range(len(its))]
    assert len({m.shape for m in models}) == 1 and len(views.layouts) <= 2
    a = next(e["id"] for e in timeline.events if e.get("name") == "a" and e["kind"] == "leaf")
    for j, model in enumerate(models):
        assert gm.key(a) in model.pos and model.pos[gm.key(a)] == models[0].pos[gm.key(a)]
        assert model.sinks.count(a) == 1  # one AccumulateGrad for the parameter
        versions = [final[m]["version"] for m in model.members[a]]
        assert versions == [j, j + 1]  # as the iteration found it, and after its update
        assert [box for box in model.boxes if final[box]["name"] == "a"] == [a]


def test_the_store_moves_between_iterations(record):
    explorer = Explorer({"code": encode_code(POLY)})
    s = explorer.store
    its = s.iterations
    a = next(e["id"] for e in s.timeline.events if e.get("name") == "a" and e["kind"] == "leaf")
    s.goto(its.starts[1] + 3)
    s.select(gm.key(a))
    s.goto_iteration(4)
    assert s.k == its.starts[4] + 3 and its.iteration(s.k) == 4  # the same place in the other iteration
    assert s.selected == gm.key(a)  # a parameter stays selected
    heading, table = rows(s.timeline, s.state, s.selected, s.graph)
    assert heading == "a" and dict(table)["version"] == "4"
    final = tl.state_at(s.timeline, s.last)["nodes"]
    loss_box = next(b for b in s.graph.boxes if final[b]["name"] == "loss")
    s.select(gm.key(loss_box))
    s.goto_iteration(5)
    assert s.selected != gm.key(loss_box) and final[int(s.selected[1:])]["name"] == "loss"
    s.goto(its.ends[5] + 1)  # after the loop
    assert its.iteration(s.k) is None and s.segment == len(its.bounds) - 1
    bar = explorer.iterations
    assert bar.row.visible and "after the training loop" in bar.label.text
    s.goto_iteration(2)
    assert "iteration <b>3</b> of 6" in bar.label.text and bar.slider.value == 3
    assert [name for name, *_ in bar.phases.items] == ["forward", "backward", "optimizer step", "zero_grad"]


def test_an_update_step_shows_its_rule_with_numbers(record):
    timeline = record(EPOCHS)
    ix = [k for k, e in enumerate(timeline.events) if e["kind"] == "inplace" and "update" in e]
    state = tl.state_at(timeline, ix[0])
    ev = state["event"]
    before = state["nodes"][ev["inputs"][0]]["value"]
    grad = ev["update"]["values"]["grad"]
    assert ev["update"]["rule"] == "param − lr · grad" and ev["update"]["scalars"] == {"lr": 0.1}
    assert state["formula"].startswith("param − lr · grad = ")
    for got, b, g in zip(ev["value"][0], before[0], grad[0]):
        assert got == pytest.approx(b - 0.1 * g, rel=1e-6)
    assert caption(state, len(timeline.events)) == "Line 13: SGD's step updates model.weight in place (version 2)."
    assert formula(state) == state["formula"]


def test_the_loss_curve_is_one_figure_linear_or_log_as_the_losses_span(record):
    """Loading a program whose losses span 20x or more after one that does not: the bar holds one curve (two, once
    both were visible together under a long-running `?code=` link), on a log axis now."""
    explorer = Explorer({"code": encode_code(POLY)})  # losses 69 → 27
    bar = explorer.iterations
    assert [pane.object.y_scale.__class__.__name__ for pane in bar.curve.objects] == ["LinearScale"]
    explorer.store.load(EPOCHS)  # 0.34 → 0.0004
    assert [pane.object.y_scale.__class__.__name__ for pane in bar.curve.objects] == ["LogScale"]
    explorer.store.load(POLY)
    assert [pane.object.y_scale.__class__.__name__ for pane in bar.curve.objects] == ["LinearScale"]
