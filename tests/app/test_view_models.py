"""Views as pure functions of (timeline, k): the data each Bokeh source and pane gets."""

import pytest

from app import timeline as tl
from app.grad_history.model import history
from app.graph import columns as gc
from app.graph import model as gm
from app.graph import teach_columns as tc
from app.graph.saved_model import saved_index
from app.inspector.model import rows
from app.player.caption import caption
from app.program.console import console_parts

PROGRAM = """import torch

x = torch.tensor(3.0, requires_grad=True)
y = torch.tensor(2.0, requires_grad=True)
z = x * y + x
z.backward()
print(x.grad)
"""


@pytest.fixture
def mul(record):
    timeline = record(PROGRAM)
    events = timeline.events
    final = tl.state_at(timeline, len(events) - 1)
    return timeline, gm.build(events, final["nodes"])


def index_of(events, **match):
    return next(i for i, e in enumerate(events) if all(e.get(k) == v for k, v in match.items()))


def by_name(model, state, column):
    cols = gc.box_columns(model, state)
    return {state["nodes"][n]["name"]: cols[column][i] for i, n in enumerate(model.boxes)
            if n in state["nodes"] and state["nodes"][n]["name"]}


def test_graph_has_leaves_ops_sinks_and_fan_in(mul):
    timeline, model = mul
    kinds = sorted(model.kinds.values())
    assert kinds.count("leaf") == 2 and kinds.count("output") == 1 and kinds.count("op") == 1
    assert len(model.sinks) == 2
    x = next(n for n in model.boxes if model.kinds[n] == "leaf")
    users = [v for u, v in model.edges if u == gm.key(x)]
    assert len(users) == 2, "x feeds both the product and the sum"
    xs = {k: p[0] for k, p in model.pos.items()}
    for u, v in model.edges:
        assert xs[u] < xs[v]


def test_nodes_appear_step_by_step_and_grads_only_after_their_grad_event(mul):
    timeline, model = mul
    events = timeline.events
    before = gc.box_columns(model, tl.state_at(timeline, -1))
    assert set(before["alpha"]) == {gm.GHOST_ALPHA} and set(before["title"]) == {""}
    forward_done = tl.backward_starts(events)[0] - 1
    built = tl.state_at(timeline, forward_done)
    assert set(gc.box_columns(model, built)["alpha"]) == {1.0}
    assert set(by_name(model, built, "grad").values()) == {""}
    k_x = index_of(events, kind="grad", name="x")
    assert by_name(model, tl.state_at(timeline, k_x - 1), "grad")["x"] == ""
    assert by_name(model, tl.state_at(timeline, k_x), "grad")["x"] == "grad 3.0"


def test_backward_step_highlights_node_and_labels_the_flowing_grads(mul):
    timeline, model = mul
    events = timeline.events
    k = index_of(events, kind="node", name="MulBackward0")
    state = tl.state_at(timeline, k)
    active = gc.active_key(model, state)
    assert model.kinds[int(active[1:])] == "op"
    assert sorted(t.split("\n")[-1] for t in tc.edge_label_columns(model, state, timeline)["text"]) == [
        "1.0 × 2.0 = 2.0", "1.0 × 3.0 = 3.0"]
    edges = gc.edge_columns(model, state)
    segments = gc.edge_geometry(model)["edge"]
    assert len({segments[i] for i, c in enumerate(edges["colour"]) if c == gm.COLOURS["flow"]}) == 2
    cols = gc.box_columns(model, state)
    assert cols["line"][model.boxes.index(int(active[1:]))] == gm.COLOURS["active"]
    k_acc = index_of(events, kind="node", name="AccumulateGrad")
    assert gc.active_key(model, tl.state_at(timeline, k_acc)).startswith("a")


def test_saved_tensors_orange_then_grey_once_freed(mul):
    timeline, model = mul
    events = timeline.events
    k_free = index_of(events, kind="free")
    kept, freed = tc.CHIP_STYLE["kept"][0], tc.CHIP_STYLE["freed"][0]
    index = saved_index(model, tl.introduced(timeline))
    assert tc.chip_columns(model, tl.state_at(timeline, k_free - 1), index)["fill"] == [kept]
    assert tc.chip_columns(model, tl.state_at(timeline, k_free), index)["fill"] == [freed]


def test_caption_in_words(mul):
    timeline, model = mul
    events = timeline.events
    total = len(events)
    assert caption(tl.state_at(timeline, -1), total).startswith("Before the program runs")
    k = index_of(events, kind="node", name="MulBackward0")
    assert caption(tl.state_at(timeline, k), total).endswith("sends 2.0 to x and 3.0 to y.")
    k_x = index_of(events, kind="grad", name="x")
    assert "x.grad" in caption(tl.state_at(timeline, k_x), total)


def test_caption_of_autograd_grad_does_not_claim_a_grad_is_written(record):
    timeline = record("import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * x\nz = y * 3\n"
                      "g = torch.autograd.grad(z, [x, y])\n")
    events = timeline.events
    said = [caption(tl.state_at(timeline, k), len(events)) for k, e in enumerate(events) if e["kind"] == "node"]
    assert said[-1] == ("Line 5: torch.autograd.grad takes 12.0 as the gradient for x and returns it; "
                        "AccumulateGrad does not run, so x.grad is not changed.")
    assert "returns the 3.0 it receives as the gradient for y" in said[1]
    assert not any(e["kind"] == "grad" for e in events)


def test_node_list_follows_the_picture_and_the_step(mul):
    from app.graph.node_list_model import items

    timeline, model = mul
    events = timeline.events
    assert items(model, tl.state_at(timeline, -1)) == []
    first = items(model, tl.state_at(timeline, 0))
    assert [label for _, label, _ in first] == ["x"]  # its AccumulateGrad appears with the first op that uses x
    last = items(model, tl.state_at(timeline, len(events) - 1))
    keys = [key for key, _, _ in last]
    assert sorted(keys) == sorted([gm.key(b) for b in model.boxes] + [gm.sink_key(b) for b in model.sinks])
    xs = [model.pos[key][0] for key in keys]
    assert xs == sorted(xs), "left to right, as drawn"
    said = dict((key, text) for key, _, text in last)
    assert said[gm.key(model.boxes[0])] == "x: leaf"
    assert items(model, tl.state_at(timeline, len(events) - 2)) == last, "numbers do not change the list"


def test_inspector_rows(mul):
    timeline, model = mul
    events = timeline.events
    last = tl.state_at(timeline, len(events) - 1)
    prod = next(n for n in model.boxes if model.kinds[n] == "op")
    heading, table = rows(timeline, last, gm.key(prod))
    table = dict(table)
    assert heading == "x * y"
    assert table["value"] == "6.0" and table["grad_fn"] == "MulBackward0"
    assert table["next_functions"] == "((AccumulateGrad, 0), (AccumulateGrad, 0))"
    assert "freed" in table["saved tensors"]
    assert table["vjp"] == "∂/∂self = other · grad = 2.0 · 1.0 = 2.0; ∂/∂other = self · grad = 3.0 · 1.0 = 3.0"
    x = next(n for n in model.boxes if last["nodes"][n]["name"] == "x")
    assert dict(rows(timeline, last, gm.key(x))[1])["grad"] == "3.0"
    assert rows(timeline, last, None)[1][0][1].startswith("Click a node")


SAVED_KINDS = """import torch

x = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 7.0]], requires_grad=True)
idx = torch.tensor([0, 2])
a = x[:, idx]
m = x.max(1).values
c = x.clamp(torch.zeros(3))
loss = torch.nn.functional.nll_loss(x.log_softmax(1), torch.tensor([2, 0]))
"""


def test_inspector_shows_what_torch_saves(record):
    """grad_fn._saved_indices of x[:, idx] is (None, idx); max keeps its int64 indices, nll_loss its target and
    total weight, clamp its tensor bound: each is shown by name, value or None."""
    timeline = record(SAVED_KINDS)
    last = tl.state_at(timeline, len(timeline.events) - 1)
    saved = {last["nodes"][n]["name"]: dict(rows(timeline, last, f"t{n}")[1])["saved tensors"]
             for n in last["nodes"] if last["nodes"][n].get("grad_fn")}
    assert saved["a"] == "indices[0] = None, indices[1] = idx (kept)"
    assert saved["m"] == "indices = [1, 2] (kept)"
    assert saved["c"] == "self = x, min = [0.0, 0.0, 0.0] (kept)"
    assert saved["loss"] == "self = x.log_softmax(1), target = [2, 0], total_weight = 2.0 (kept)"


def test_grad_history_and_console(mul):
    timeline, model = mul
    h = history(timeline.events)
    assert h.calls == 1
    assert dict(zip(h.lines["name"], h.lines["ys"])) == {"y.grad": [3.0], "x.grad": [3.0]}
    assert h.loss["y"] == [9.0]
    out, err = console_parts(timeline.events, len(timeline.events) - 1)
    assert out == "tensor(3.)\n" and err == ""
    assert console_parts(timeline.events, 0) == ("", "")


def test_history_marks_zero_and_none():
    events = [
        {"kind": "backward", "call": 0, "root": 1, "line": 1},
        {"kind": "grad", "name": "x", "after": 2.0, "line": 1},
        {"kind": "backward", "call": 1, "root": 1, "line": 2},
        {"kind": "grad", "name": "x", "after": 5.0, "line": 2},
        {"kind": "zero_grad", "name": "x", "how": "zero_", "line": 3},
        {"kind": "backward", "call": 2, "root": 1, "line": 4},
        {"kind": "grad", "name": "x", "after": 3.0, "line": 4},
    ]
    h = history(events)
    assert h.lines["ys"] == [[2.0, 5.0, 0.0, 3.0]]
    assert h.lines["xs"] == [[1.0, 2.0, 2.5, 3.0]]
    assert h.points["marker"] == ["circle", "circle", "square", "circle"]
    assert h.now == [1.0, 1.0, 2.0, 2.0, 2.5, 3.0, 3.0]


def test_the_sparklines_draw_solid_exactly_the_points_step_k_has_reached():
    import re

    from app import timeline as tl
    from app.grad_history.view import history_html
    from app.program.examples import BY_SLUG

    for slug in ("x2-x3-zero", "accumulate", "gradient-descent", "mlp-step"):
        timeline = tl.run(BY_SLUG[slug].source)
        h = history(timeline.events)
        for k in range(-1, len(timeline.events), 3):
            html = history_html(h, tl.state_at(timeline, k) if k >= 0 else {}, k)
            reached = sum(1 for m, at in zip(h.points["marker"], h.points["k"]) if m != "x" and at <= k)
            if k >= 0:
                assert html.count('class="g"') == len(tl.state_at(timeline, k)["grads"]), (slug, k)
            assert len(re.findall(r'<(?:circle|rect) [^>]*opacity="1.0"', html)) == reached, (slug, k)


def test_the_node_list_view_shows_the_models_items_at_every_step():
    import json

    from app.graph.node_list import NodeList
    from app.graph.node_list_model import items
    from app.program.examples import BY_SLUG
    from app.store import Store

    s = Store()
    s.load(BY_SLUG["mlp-step"].source, step=-1)
    view = NodeList(store=s)
    for k in [*range(-1, s.last + 1), 3, s.last, -1]:
        s.goto(k)
        assert json.loads(view.buttons.items) == items(s.graph, s.state), k
    s.open_module("model.0")
    assert json.loads(view.buttons.items) == items(s.graph, s.state)
