"""The chain rule on the edges and the saved tensors on the graph, as pure functions of the timeline, with the
numbers they show checked against real PyTorch: the grads on the edges are the grads torch's nodes send (seen
by node hooks), the sums where grads meet add up torch's, and the failures are torch's errors at torch's node."""

from __future__ import annotations

import functools
import json
import subprocess

import pytest
from browser import TORCH_PYTHON, Oracle  # noqa: E402 (tests/app is on the path)

from app import timeline as tl
from app.graph import chain_model as cm
from app.graph import model as gm
from app.graph import saved_model as sm
from app.graph import teach_columns as tc
from app.program.examples import BY_SLUG

pytestmark = pytest.mark.skipif(not TORCH_PYTHON.exists(), reason="the real-PyTorch oracle is not set up")

# Runs programs (a JSON list on stdin) in real PyTorch, each in a namespace of its own, and prints for each, for
# every node every backward call runs, what it sends along next_functions (a node's post-hook sees its
# grad_inputs), in the order torch runs them.
_SENT = r"""
import json, sys, torch
sent = []
original = torch.autograd.backward
def backward(tensors, *args, **kwargs):
    roots = [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)
    seen, stack, handles = set(), [t.grad_fn for t in roots if t.grad_fn is not None], []
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        name = type(node).__name__
        if name != "AccumulateGrad":
            handles.append(node.register_hook(lambda gi, go, name=name: sent.append(
                [name, [None if g is None else g.tolist() for g in gi]])))
        stack.extend(f for f, _ in node.next_functions if f is not None)
    try:
        return original(tensors, *args, **kwargs)
    finally:
        for h in handles:
            h.remove()
torch.autograd.backward = backward
results = []
for source in json.loads(sys.stdin.read()):
    sent = []
    try:
        exec(compile(source, "<program>", "exec"), {})
    except RuntimeError:
        pass
    results.append(sent)
print(json.dumps(results))
"""

EDGE_SLUGS = ["square-of-sum", "broadcast", "vector", "pitfall-backward-twice", "pow-sum"]
FAN_IN = "import torch\nx = torch.tensor(3.0, requires_grad=True)\n(x * x).backward()\n"


@functools.cache
def _all_sent() -> dict[str, list]:
    """What torch's nodes send in every program this module asks about, from one torch process (a process each
    took most of the module's time)."""
    sources = [BY_SLUG[slug].source for slug in EDGE_SLUGS] + [FAN_IN]
    out = subprocess.run([str(TORCH_PYTHON), "-c", _SENT], input=json.dumps(sources), capture_output=True,
                         text=True, check=True, timeout=120)
    return dict(zip(sources, json.loads(out.stdout.splitlines()[-1]), strict=True))  # after what they printed


def torch_sent(source: str) -> list:
    return _all_sent()[source]


@pytest.fixture(scope="module")
def oracle():
    o = Oracle()
    yield o
    o.close()


def recorded(slug: str):
    timeline = tl.run(BY_SLUG[slug].source)
    final = tl.state_at(timeline, len(timeline.events) - 1)
    return timeline, gm.build(timeline.events, final["nodes"])


def index_of(timeline, model):
    return sm.saved_index(model, tl.introduced(timeline))


@pytest.mark.parametrize("slug", EDGE_SLUGS)
def test_edges_show_the_grads_torchs_nodes_send(slug):
    timeline, _ = recorded(slug)
    intro = tl.introduced(timeline)
    steps = [e for e in timeline.events if e["kind"] == "node" and e["name"] != "AccumulateGrad"]
    want = torch_sent(BY_SLUG[slug].source)
    assert [s["name"] for s in steps] == [name for name, _ in want]
    shown = 0
    for step, (_, grads) in zip(steps, want):
        for j, sent in enumerate(step["grads_out"]):
            if sent["value"] is None:
                continue
            lines = cm.edge_lines(step, j, intro)
            # the last line ends with what torch sends (for a broadcast input, the sum over the broadcast dims)
            assert lines[-1].endswith("= " + cm._text(grads[j])), (lines, grads[j])
            shown += 1
    assert shown >= 2


def test_the_local_derivative_and_the_product_on_an_edge():
    timeline, _ = recorded("square-of-sum")
    intro = tl.introduced(timeline)
    pow_y = next(e for e in timeline.events if e["kind"] == "node" and e["name"] == "PowBackward0")
    assert cm.edge_lines(pow_y, 0, intro) == ["× 2 · y^(2−1)", "1.0 × 2 · 2.0^(2−1) = 4.0"]
    two_x_y = next(e for e in timeline.events if e["kind"] == "node" and e["name"] == "MulBackward0")
    assert cm.edge_lines(two_x_y, 0, intro)[0] == "× y"


def test_fan_in_writes_out_the_sum_torch_makes(oracle):
    timeline, _ = recorded("pitfall-backward-twice")
    events = timeline.events
    i = next(i for i, e in enumerate(events) if e["kind"] == "node" and e["name"] == "AccumulateGrad")
    (name, sent), = torch_sent(FAN_IN)
    grad = oracle.run(FAN_IN, ["x"])
    assert cm.fan_in(events, i) == f"{sent[0]} + {sent[1]} = {grad['grads']['x']}" == "3.0 + 3.0 = 6.0"
    first = next(i for i, e in enumerate(events) if e["kind"] == "node")
    assert cm.fan_in(events, first) is None  # only the seed arrived there


def test_the_seed_of_a_vector_output_is_the_v_of_a_vector_jacobian_product():
    timeline, _ = recorded("vector")
    backward = next(e for e in timeline.events if e["kind"] == "backward")
    text = cm.seed(backward, tl.introduced(timeline)(backward["root"]))
    assert text.startswith("gradient= v = [[1],[1],[1]]") and "vᵀ·J" in text
    timeline, _ = recorded("square-of-sum")
    backward = next(e for e in timeline.events if e["kind"] == "backward")
    assert cm.seed(backward, tl.introduced(timeline)(backward["root"])) == "seed 1.0 = ∂z/∂z"


def test_broadcast_sum_over_the_broadcast_dims():
    rows = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert cm.broadcast_sum(rows, [5.0, 7.0, 9.0]) == "Σ dim 0: [1,2,3] + [4,5,6] = [5,7,9]"
    assert cm.broadcast_sum([[1.0, 2.0], [3.0, 4.0]], [[3.0], [7.0]]) == "Σ dim 1: [1,3] + [2,4] = [[3],[7]]"
    assert cm.broadcast_sum([[[1.0]] * 3] * 2, [[1.0]]).startswith("Σ dims 0, 1 of")


def test_an_in_place_change_foretells_the_failure_torch_reports_at_its_node(oracle):
    timeline, model = recorded("pitfall-inplace-saved")
    events, index = timeline.events, index_of(timeline, model)
    k_inplace = next(i for i, e in enumerate(events) if e["kind"] == "inplace")
    b = model.box_of[next(e["id"] for e in events if e.get("name") == "b")]
    assert sm.warnings(model, tl.state_at(timeline, k_inplace - 1), index) == []
    for k in range(k_inplace, len(events) - 1):
        assert sm.warnings(model, tl.state_at(timeline, k), index) == [
            (b, "⚠ backward will fail at PowBackward0: saved a@v0, a is now v1")]
    chip = next(c for c in sm.chips(model, tl.state_at(timeline, k_inplace), index) if c.box == b)
    assert (chip.text, chip.status) == ("saved self=a@v0 ✗ now v1", "outdated")
    torch_error = oracle.run(BY_SLUG["pitfall-inplace-saved"].source)["error"]
    end = tl.state_at(timeline, len(events) - 1)
    assert sm.failure(model, end) == (b, f"RuntimeError: {torch_error['message']}")
    assert tc.note_columns(model, end, index)["text"][0].startswith("RuntimeError: one of the variables needed")


def test_a_second_backward_through_freed_buffers_is_foretold_and_fails_at_the_freed_node(oracle):
    timeline, model = recorded("pitfall-backward-twice")
    events, index = timeline.events, index_of(timeline, model)
    k_free = next(i for i, e in enumerate(events) if e["kind"] == "free")
    y = model.box_of[next(e["id"] for e in events if e.get("name") == "y")]
    assert [c.status for c in sm.chips(model, tl.state_at(timeline, k_free - 1), index)] == ["kept"]
    assert [c.status for c in sm.chips(model, tl.state_at(timeline, k_free), index)] == ["freed"]
    second = [i for i, e in enumerate(events) if e["kind"] == "backward"][1]
    assert sm.warnings(model, tl.state_at(timeline, second - 1), index) == []
    (box, text), = sm.warnings(model, tl.state_at(timeline, second), index)
    assert box == y and text.startswith("⚠ backward will fail at MulBackward0: its saved tensors were freed")
    torch_error = oracle.run(BY_SLUG["pitfall-backward-twice"].source)["error"]
    assert sm.failure(model, tl.state_at(timeline, len(events) - 1)) == (y, f"RuntimeError: {torch_error['message']}")


def test_an_in_place_ops_saved_copy_is_never_outdated(oracle):
    source = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\nw = torch.tensor([3.0, 4.0], "
              "requires_grad=True)\na = x * 1\na.mul_(w)\na.sum().backward()\nprint(x.grad)\n")
    timeline = tl.run(source)
    assert timeline.error is None and oracle.run(source)["error"] is None
    final = tl.state_at(timeline, len(timeline.events) - 1)
    model = gm.build(timeline.events, final["nodes"])
    index = index_of(timeline, model)
    k = next(i for i, e in enumerate(timeline.events) if e["kind"] == "inplace")
    assert sm.warnings(model, tl.state_at(timeline, k), index) == []
    assert "self=copy of a@v0" in " ".join(c.text for c in sm.chips(model, tl.state_at(timeline, k), index))


def test_labels_of_edges_into_one_node_do_not_cover_each_other():
    timeline, model = recorded("pitfall-backward-twice")
    k = next(i for i, e in enumerate(timeline.events) if e["kind"] == "node")
    cols = tc.edge_label_columns(model, tl.state_at(timeline, k), timeline)
    assert len(cols["y"]) == 2 and abs(cols["y"][0] - cols["y"][1]) >= 2 * tc.LINE_H
    assert cols["text"][0].split("\n") == ["→ x: × x", "1.0 × 3.0 = 3.0"]
    paths = tc.pulse_columns(model, tl.state_at(timeline, k))
    x_box = model.pos[gm.key(0)]
    assert len(paths["xs"]) == 2 and all(xs[0] > xs[-1] > x_box[0] for xs in paths["xs"])  # from y back to x


def test_a_leafs_seed_goes_above_it_when_other_leaves_are_stacked_under_it(record):
    """`a.backward()` from a leaf (the canvas builder writes such calls): its seed label would cover the next
    leaf's title, so it goes above the leaf; an output's seed stays under it."""
    source = ("import torch\na = torch.tensor(2.0, requires_grad=True)\nb = torch.tensor(3.0, requires_grad=True)\n"
              "c = torch.tensor(4.0, requires_grad=True)\nd = a * b + c\na.backward()\nd.backward()\n")
    timeline = record(source)
    final = tl.state_at(timeline, len(timeline.events) - 1)
    model = gm.build(timeline.events, final["nodes"])
    for i, e in enumerate(timeline.events):
        if e["kind"] != "backward":
            continue
        cols = tc.arrival_columns(model, tl.state_at(timeline, i), timeline)
        [x], [top], [text] = cols["x"], cols["y"], cols["text"]
        k = gm.key(model.box_of[e["root"]])
        left = x - tc.width(text) / gm.SCALE
        assert not tc._covers_a_box(model, k, left, x, top), (text, top)
        assert (top > model.pos[k][1]) == (text == "seed 1.0 = ∂a/∂a"), text  # above the leaf, under d
