"""Reading a graph: module calls drawn as boxes, the camera's focus, the hovered line's nodes, and the
legibility of every example: at the default zoom no box or label overlaps another (app/graph/legibility.py)."""

from __future__ import annotations

import pytest

from app.graph import camera_model, legibility, module_boxes
from app.graph import columns as gc
from app.graph import model as gm
from app.graph.view import GraphView
from app.program.examples import BY_SLUG, EXAMPLES
from app.store import Store

LEARNER = """
import torch
import torch.nn.functional as F
from torch import nn, optim

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
        self.out = nn.Linear(3, 1)

    def forward(self, x):
        return self.out(torch.tanh(self.line(x)))

x = torch.linspace(-1, 1, 12).reshape(4, 3)
y = torch.ones(4, 1)
model = Net()
opt = optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def _store(source: str, step=None) -> Store:
    s = Store()
    s.load(source, step=step)
    return s


def _titles(model: gm.GraphModel, state: dict) -> dict[str, str]:
    cols = gc.box_columns(model, state)
    return {gm.key(b): f"{cols['title'][i]}|{cols['fn'][i]}" for i, b in enumerate(model.boxes)}


def test_mlp_layers_are_boxes_named_after_their_modules():
    s = _store(BY_SLUG["mlp-step"].source, step="end")
    g = s.graph
    assert sorted(g.modules.values()) == [("model.0", "Linear(2→2)"), ("model.1", "Tanh"),
                                          ("model.2", "Linear(2→1)")]
    titles = _titles(g, s.state)
    assert titles[gm.key(next(b for b, m in g.modules.items() if m[0] == "model.0"))] == "model.0|Linear(2→2)"
    params = [t.split("|")[0] for t in titles.values() if ".weight" in t or ".bias" in t]
    assert sorted(params) == ["model.0.bias", "model.0.weight", "model.2.bias", "model.2.weight"]  # each once
    assert len(g.sinks) == 4  # one AccumulateGrad per parameter
    box = {name: b for b, (name, _) in g.modules.items()}
    edges = set(g.edges)
    weight0 = next(b for b in g.boxes if s.state["nodes"][b]["name"] == "model.0.weight")
    assert (gm.key(weight0), gm.key(box["model.0"])) in edges
    assert (gm.key(box["model.0"]), gm.key(box["model.1"])) in edges
    assert (gm.key(box["model.1"]), gm.key(box["model.2"])) in edges
    assert not any(u == v for u, v in g.edges)


def test_a_module_box_opens_in_place_to_its_ops():
    s = _store(BY_SLUG["mlp-step"].source, step="end")
    before = len(s.graph.boxes)
    s.open_module("model.0")
    assert sorted(name for name, _ in s.graph.modules.values()) == ["model.1", "model.2"]
    ops = {s.state["nodes"][b].get("op") for b in s.graph.boxes}
    assert {"t", "addmm"} <= ops
    assert len(s.graph.boxes) == before + 1  # model.0's box became its two ops
    s.open_modules((module_boxes.ALL,))
    assert s.graph.modules == {}
    s.open_modules(())
    assert len(s.graph.modules) == 3


def test_backward_through_a_module_box_lights_it_and_its_parameters_edge():
    s = _store(BY_SLUG["mlp-step"].source, step=-1)
    box = {name: b for b, (name, _) in s.graph.modules.items()}
    seen = set()
    for k in range(s.last + 1):
        s.goto(k)
        step = gc.current_step(s.graph, s.state)
        if step is None or step["name"] != "AddmmBackward0":
            continue
        active = gc.active_key(s.graph, s.state)
        seen.add(active)
        flows = {s.graph.edges[i] for i in gc._flowing_edges(s.graph, s.state)}
        assert all(v == active for _, v in flows) and flows
    assert seen == {gm.key(box["model.0"]), gm.key(box["model.2"])}


def test_a_learners_modules_in_a_training_loop():
    s = _store(LEARNER, step="end")
    assert len(s.iterations) == 3
    for j in range(3):
        s.goto_iteration(j)
        names = sorted(name for name, _ in s.graph.modules.values())
        # Net calls modules: drawn as its modules' boxes and its own ops (the tanh); Line and Linear are boxes.
        assert names == ["model.line", "model.out"], names
        assert sum(1 for b in s.graph.boxes if s.state["nodes"][b].get("op") == "tanh") == 1
        assert len(s.graph.sinks) == 4
    s.open_module("model.line")
    assert sorted(name for name, _ in s.graph.modules.values()) == ["model.out"]


def test_the_model_is_one_box_that_opens_to_its_layers_then_to_their_ops():
    s = _store(BY_SLUG["mlp-step"].source, step="end")
    s.open_modules((module_boxes.TOP,))
    assert sorted(s.graph.modules.values()) == [("model", "Sequential")]
    assert len(s.graph.sinks) == 4  # the parameters stay boxes of their own, with their AccumulateGrad
    model = gm.key(next(iter(s.graph.modules)))
    assert sum(1 for u, v in s.graph.edges if v == model) >= 5  # x, and the four parameters, go into it
    s.open_module("model")
    assert sorted(name for name, _ in s.graph.modules.values()) == ["model.0", "model.1", "model.2"]
    s.open_module("model.0")
    assert sorted(name for name, _ in s.graph.modules.values()) == ["model.1", "model.2"]


def test_a_learners_own_model_is_one_box_per_iteration():
    s = _store(LEARNER, step="end")
    s.open_modules((module_boxes.TOP,))
    for j in range(3):
        s.goto_iteration(j)
        assert sorted(s.graph.modules.values()) == [("model", "Net")]
        assert not any(s.state["nodes"][b].get("op") == "tanh" for b in s.graph.boxes)  # inside the box
    s.open_module("model")
    assert sorted(name for name, _ in s.graph.modules.values()) == ["model.line", "model.out"]
    assert sum(1 for b in s.graph.boxes if s.state["nodes"][b].get("op") == "tanh") == 1


def _every_view(s: Store, stride: int):
    """Every step (or every stride-th) of every segment."""
    for k in range(-1, s.last + 1, stride):
        s.goto(k)
        yield k


@pytest.mark.parametrize("slug", [e.slug for e in EXAMPLES])
def test_no_box_or_label_overlaps_another_at_the_default_zoom(slug):
    s = _store(BY_SLUG[slug].source, step=-1)
    stride = 1 if s.last < 400 else 53
    found, checked = set(), set()

    def check(at: str) -> None:
        # problems() is a pure function of what is drawn: a view drawn exactly as one checked already (a program
        # without modules opens none) is not checked again (scalar-mlp's 1,117 boxes take ~0.2 s a view)
        drawn = (tuple(legibility.shapes(s.graph, s.state)), tuple(legibility.labels(s.graph, s.state)))
        if drawn not in checked:
            checked.add(drawn)
            found.update(f"{at}: {p}" for p in legibility.problems(s.graph, s.state))

    for opened in ((), (module_boxes.TOP,), (module_boxes.ALL,)):
        s.open_modules(opened)
        for k in _every_view(s, stride):
            check(f"step {k}")
        s.goto(s.last)
        check("end")
    assert not found, sorted(found)[:10]


def test_a_learners_training_loop_is_legible_in_every_iteration():
    s = _store(LEARNER, step=-1)
    problems = [p for _ in _every_view(s, 1) for p in legibility.problems(s.graph, s.state)]
    assert not problems, problems[:10]


def test_the_overlap_check_finds_overlaps():
    s = _store(BY_SLUG["square-of-sum"].source, step="end")
    assert not legibility.problems(s.graph, s.state)
    squeezed = legibility.problems(s.graph, s.state, scale=0.5 * gm.SCALE)
    assert any("does not fit" in p for p in squeezed)
    g = s.graph
    a, b = g.boxes[:2]
    g.pos[gm.key(b)] = (g.pos[gm.key(a)][0] + 0.3, g.pos[gm.key(a)][1])
    assert any(p.startswith(f"boxes {gm.key(a)} and {gm.key(b)} overlap") or p.startswith(
        f"boxes {gm.key(b)} and {gm.key(a)} overlap") for p in legibility.problems(g, s.state))


def test_every_graph_label_is_at_least_11_px():
    view = GraphView(store=_store(BY_SLUG["mlp-step"].source))
    sizes = [r.glyph.text_font_size for r in view.figure.renderers if hasattr(r.glyph, "text_font_size")]
    assert len(sizes) >= 8
    assert all(float(str(size).removesuffix("px")) >= 11 for size in sizes), sizes


def test_the_camera_follows_the_node_each_step_acts_on():
    s = _store(BY_SLUG["chain-100"].source, step=-1)
    assert camera_model.focus(s.graph, s.state) is None
    s.goto(5)
    made = s.state["event"]["id"]
    assert camera_model.focus(s.graph, s.state) == s.graph.pos[gm.key(made)]
    s.goto(s._backward_starts[0])
    root = s.state["event"]["root"]
    assert s.state["event"]["kind"] == "backward"
    assert camera_model.focus(s.graph, s.state) == s.graph.pos[gm.key(s.graph.box_of[root])]  # where backward starts
    s.goto(s._backward_starts[0] + 3)
    assert camera_model.focus(s.graph, s.state) == s.graph.pos[gc.active_key(s.graph, s.state)]


def test_a_step_that_acts_on_no_node_looks_where_the_last_step_that_did_acted():
    s = _store(BY_SLUG["scalar-mlp"].source, step="end")  # prints come last: they act on no node
    assert s.state["event"]["kind"] == "print"
    last = max(k for k in range(s.last + 1) if s.timeline.events[k]["kind"] == "node")
    s.goto(last)
    acted = camera_model.focus(s.graph, s.state)
    assert acted == s.graph.pos[gc.active_key(s.graph, s.state)]
    s.goto(s.last)
    assert camera_model.focus(s.graph, s.state) == acted


def test_a_hovered_line_lights_the_nodes_it_made():
    s = _store(BY_SLUG["mlp-step"].source, step="end")
    s.light(14)  # loss = F.mse_loss(model(x), target)
    cols = gc.box_columns(s.graph, s.state, None, s.lit)
    lit = {gm.key(b) for b, colour in zip(s.graph.boxes, cols["line"]) if colour == gm.COLOURS["lit"]}
    expected = {gm.key(b) for b, (name, _) in s.graph.modules.items()}
    expected.add(gm.key(next(b for b in s.graph.boxes if s.state["nodes"][b]["name"] == "loss")))
    assert lit == expected
    s.light(None)
    cols = gc.box_columns(s.graph, s.state, None, s.lit)
    assert gm.COLOURS["lit"] not in cols["line"]
