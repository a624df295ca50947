"""A timeline that scales to a training loop: big values as summaries computed in batches, shared grads, JSON
that does not repeat its keys, formulas with numbers rendered when shown (and equal to what the live backward
step held), a lazy mapping of nodes, and budgets a learner's training script stays within."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import engine
from engine import generator, observe
from engine.graph import AccumulateGrad
from engine.trace import Timeline, formula_at, formulas, run, state_at, values
from engine.trace.runner import LIMITS
from engine.trace.text import number, short_array
from engine.trace.timeline import index
from tests.programs import PROGRAMS
from tests.trace.checks import check_timeline, same
from tests.trace.corpus import TRACE_PROGRAMS

ROOT = Path(__file__).resolve().parents[2]
POLYNOMIAL = (ROOT / "benchmarks" / "loops" / "polynomial.py").read_text()


def test_digits_are_the_formatted_numbers():
    rng = np.random.default_rng(0)
    xs = np.concatenate([rng.standard_normal(20_000) * 10.0 ** rng.integers(-40, 40, 20_000),
                         [0.0, -0.0, 1e-310, -5e-324, 123456789.0, 9.9999999, 0.3, 1e22, 1e23, 3.4e38]])
    for a in (xs, xs.astype(np.float32).astype(np.float64)):
        want = [float(f"{x:.7g}") for x in a.tolist()]
        got = values._digits(a).tolist()
        assert got == want
    special = values._digits(np.array([np.nan, np.inf, -np.inf])).tolist()
    assert math.isnan(special[0]) and special[1:] == [np.inf, -np.inf]


def _arrays(dtype):
    rng = np.random.default_rng(1)
    arrays = [(rng.standard_normal(n) * 50).astype(dtype) for n in (65, 2000, 2000, 300)]
    arrays.append(np.full(100, np.nan if np.dtype(dtype).kind == "f" else 7, dtype=dtype))
    return arrays


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int64, np.int32, np.uint8])
def test_summaries_in_batches_are_each_arrays_statistics(dtype):
    arrays = _arrays(dtype)
    recorder = values.Values()
    got = [recorder.record(a) for a in arrays]
    arrays[1][:] = 0  # a tensor changed after it was recorded: its summary keeps the value it had
    recorder.flush()
    exact = np.dtype(dtype).kind != "f"
    for a, summary in zip(_arrays(dtype), got):
        wide = a.astype(np.float64)
        want = {"shape": list(a.shape), "head": a[:3].tolist(), "min": a.min().item(), "max": a.max().item(),
                "mean": float(f"{wide.sum() / a.size:.7g}"), "norm": float(f"{math.sqrt(wide @ wide):.7g}")}
        if not exact:
            want.update(head=[float(f"{x:.7g}") for x in want["head"]], min=float(f"{want['min']:.7g}"),
                        max=float(f"{want['max']:.7g}"))
        assert list(summary) == ["shape", "head", "min", "max", "mean", "norm"]
        for key in want:  # sums in another order may round the 7th digit the other way
            assert same(summary[key], want[key]) or math.isclose(summary[key], want[key], rel_tol=2e-7), key
    assert recorder.record(np.arange(64)) == list(range(64))  # small tensors stay exact lists
    assert values.record(np.ones(100, bool)) == {"shape": [100], "head": [True, True, True]}


def test_json_is_packed_and_round_trips():
    t = run(PROGRAMS["two_variables"])
    data = json.loads(t.to_json())
    assert set(data) == {"source", "output", "loops", "modules", "keys", "table", "events"}
    assert len(data["keys"]) < len(data["events"])
    names = [ev["name"] for ev in t.events if "name" in ev]
    assert len(set(names)) < len(names)
    assert sum(v in set(names) for v in data["table"] if isinstance(v, str)) == len(set(names))  # each name once
    back = Timeline.from_json(t.to_json())
    assert back.events == t.events and back.to_json() == t.to_json()


class _LiveFormulas:
    """An observer that writes each backward step's formula with numbers from the engine's live step: the
    saved tensors and attributes the node holds while it runs (the oracle for the rendered formulas)."""

    def __init__(self):
        self.seen = []

    def on_step(self, step):
        node = step.node
        if isinstance(node, AccumulateGrad):
            self.seen.append(short_array(step.grad_in._data, formulas.SMALL) if step.grad_in is not None else None)
            return
        if not node.next_functions or not step.grads_out:
            self.seen.append(None)
            return
        parts, known = [], {}
        names = formulas._arg_names(node)
        for name, text, (fn, _), out in zip(names, node.formula(), node.next_functions, step.grads_out):
            if fn is None or out is None:
                continue
            filled = self._filled(text, node, step.grad_in, known)
            result = short_array(out._data, formulas.SMALL)
            parts.append(f"∂/∂{name} = {text} = {result}" if filled in (None, result) else
                         f"∂/∂{name} = {text} = {filled} = {result}")
        self.seen.append("; ".join(parts) or None)

    @staticmethod
    def _filled(text, node, grad, known):
        symbols, pieces = formulas._template(text)
        if symbols is None:
            return None
        terms = {}
        for w in symbols:
            if w not in known:
                if w == "grad" or w in node._saved:
                    data = grad._data if w == "grad" else node._saved[w].tensor._data
                    t = short_array(data, formulas.SMALL) if data.size <= formulas.SMALL else None
                    known[w] = f"({t})" if t is not None and t.startswith("-") else t
                elif w in formulas._SCALAR_ATTRS:
                    v = node.attrs.get(w, formulas._SCALAR_ATTRS[w])
                    ok = isinstance(v, (int, float)) and not isinstance(v, bool)
                    known[w] = (f"({number(v)})" if v < 0 else number(v)) if ok else None
                else:
                    known[w] = None
            if known[w] is None:
                return None
            terms[w] = known[w]
        return "".join(terms.get(p, p) if i % 2 else p for i, p in enumerate(pieces))


@pytest.mark.parametrize("name", sorted({**PROGRAMS, **TRACE_PROGRAMS}))
def test_formulas_rendered_from_the_timeline_are_the_live_steps(name):
    live = _LiveFormulas()
    observe.add(live)
    try:
        t = run({**PROGRAMS, **TRACE_PROGRAMS}[name])
    finally:
        observe.remove(live)
    steps = [k for k, ev in enumerate(t.events) if ev["kind"] == "node"]
    assert len(steps) == len(live.seen)
    ix = index(t)
    for k, want in zip(steps, live.seen):
        ev = t.events[k]
        got = ix.formula(k)
        if ev["name"] == "AccumulateGrad":
            want = None if not ev["ran"] or want is None else \
                f"{want} goes into {ix.introduced(ev['node'])['name']}.grad at the next step"
        assert got == want, (k, ev)
        if ev["node"] is not None:
            assert formula_at(t, ev["node"], k) == got
            assert state_at(t, k)["formula"] == got


def test_state_nodes_are_built_when_asked_for():
    t = run(PROGRAMS["two_variables"])
    last = len(t.events) - 1
    nodes = state_at(t, last)["nodes"]
    assert len(nodes) == len(list(nodes)) and list(nodes) == sorted(nodes)
    assert nodes == {nid: nodes[nid] for nid in nodes}  # a Mapping equal to the dict of its items
    assert 0 in nodes and len(nodes) not in nodes and "0" not in nodes
    assert nodes.get(len(nodes)) is None
    assert state_at(t, last)["nodes"][0] is nodes[0]  # built once, shared by the states that show it


def test_the_polynomial_tutorial_runs_its_2000_iterations_within_the_default_budgets():
    """The training loop of issue 13: recorded to its end (no budget stops it), in a timeline whose values
    do not grow with its tensors, and whose JSON round-trips."""
    t = run(POLYNOMIAL)
    assert t.error is None, t.error
    want = engine_output(POLYNOMIAL)
    assert t.output == want
    assert len(t.events) < LIMITS["max_events"] / 2
    text = t.to_json()
    assert len(text.encode()) < 20e6
    back = Timeline.from_json(text)
    assert back.to_json() == text
    last = len(t.events) - 1
    state = state_at(t, last)
    assert set(state["grads"]) >= {"a", "b", "c", "d"}
    x = state["nodes"][0]
    assert x["value"]["shape"] == [2000] and x["value"]["min"] == pytest.approx(-math.pi, rel=1e-6)
    check_timeline(Timeline(POLYNOMIAL, t.events[:400], ""), every_k=False)


def engine_output(source):
    """What the program prints run on the engine untraced (torch bound to the engine)."""
    import builtins
    import contextlib
    import io

    real = builtins.__import__

    def bind(name, *args, **kwargs):
        return real("engine" + name[len("torch"):] if name.split(".")[0] == "torch" else name, *args, **kwargs)

    out = io.StringIO()
    engine.manual_seed(generator.DEFAULT_SEED)  # where the runner starts every program
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<program>", "exec"), {"__builtins__": {**vars(builtins), "__import__": bind}})
    return out.getvalue()


def test_lines_and_names_where_statements_share_a_line_or_a_hook_runs_in_backward():
    t = run("import torch\nx = torch.tensor(2.0, requires_grad=True)\na = x * 2; b = (a + 1) * 3\n"
            "def hook(g):\n    print('hook', g)\n\nb.register_hook(hook)\nb.backward()\nprint(x.grad)\n")
    assert [e["name"] for e in t.events if e["kind"] == "op"] == ["a", "a + 1", "b"]
    lines = [(e["kind"], e["line"]) for e in t.events if e.get("call") == 0]
    assert ("print", 5) in lines and all(line == 8 for kind, line in lines if kind != "print")


NESTED_LOOPS = """import torch
w = torch.tensor(1.0, requires_grad=True)
def step(w):
    total = 0
    for i in range(2):
        total = total + w * i
    return total
for epoch in range(3):
    for b in range(2):
        loss = step(w) * b
        loss.backward()
    if epoch == 1:
        continue
    print(epoch)
for i in range(3):
    pass
print(w.grad)
"""


def test_loops_iterations_are_ranges_of_events():
    t = run(NESTED_LOOPS)
    loops = {loop["line"]: loop["iterations"] for loop in t.loops}
    assert sorted(loops) == [5, 8, 9]  # the loop that makes no event has no iterations
    assert [i for i, _, _ in loops[8]] == [0, 1, 2] and [i for i, _, _ in loops[9]] == [0, 1] * 3
    assert [i for i, _, _ in loops[5]] == [0, 1] * 6
    for iterations in loops.values():
        for _, start, end in iterations:
            assert 0 <= start < end <= len(t.events)
    epochs = loops[8]
    assert [start for _, start, _ in epochs[1:]] == [end for _, _, end in epochs[:-1]]
    for _, start, end in epochs:  # each epoch holds its two batches and, but for epoch 1, its print
        inner = [(s, e) for _, s, e in loops[9] if start <= s < end]
        assert len(inner) == 2 and inner[0][0] == start and inner[1][1] <= end
        kinds = [ev["kind"] for ev in t.events[start:end]]
        assert kinds.count("backward") == 2
    assert [ev["kind"] for ev in t.events[epochs[-1][2]:]] == ["print"]  # print(w.grad) is after the loop
    assert all(ev["line"] in (6, 10, 11) for ev in t.events[loops[9][0][1]:loops[9][0][2]])
    assert Timeline.from_json(t.to_json()).loops == t.loops
