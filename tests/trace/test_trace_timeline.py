"""The timeline of the tutorial programs: well formed, JSON round trip, and state_at consistent at every
step and agreeing at the end with the .grad values the engine left behind."""

from __future__ import annotations

import pytest

from engine import Tensor
from engine.nn.modules import Module
from engine.trace import formula_at, guard, run, state_at
from tests.programs import PROGRAMS
from tests.trace.checks import check_timeline, same
from tests.trace.corpus import TRACE_PROGRAMS

ALL = {**PROGRAMS, **TRACE_PROGRAMS}


def traced(source, monkeypatch):
    """The timeline and the program's globals at its end (None if it stopped on an error)."""
    spaces = []
    real = guard.run

    def capturing(*args, **kwargs):
        spaces.append(real(*args, **kwargs))
        return spaces[-1]

    monkeypatch.setattr(guard, "run", capturing)
    timeline = run(source)
    return timeline, spaces[0] if spaces else None


def leaves(namespace):
    """{id(tensor): (tensor, names it is bound to)} for the leaves that require grad, modules' included."""
    found = {}
    for name, obj in namespace.items():
        pairs = [(name, obj)]
        if isinstance(obj, Module):
            pairs = [(f"{name}.{p}", t) for p, t in obj.named_parameters()]
        for n, t in pairs:
            if isinstance(t, Tensor) and t.grad_fn is None and t.requires_grad:
                found.setdefault(id(t), (t, []))[1].append(n)
    return found


@pytest.mark.parametrize("slug", sorted(ALL))
def test_timeline_is_consistent_at_every_step(slug):
    check_timeline(run(ALL[slug]))


@pytest.mark.parametrize("slug", sorted(ALL))
def test_last_state_has_the_engines_grads(slug, monkeypatch):
    timeline, namespace = traced(ALL[slug], monkeypatch)
    if namespace is None:
        pytest.skip("the program stops on an error")
    state = state_at(timeline, len(timeline.events) - 1)
    for t, bound in leaves(namespace).values():
        shown = [n for n in bound if n in state["grads"]]
        assert shown, f"none of {bound} is in the grads shown"
        want = None if t._grad is None else t._grad.tolist()
        for n in shown:
            assert same(state["grads"][n], want), n
        newest = max(node["id"] for node in state["nodes"].values() if node["name"] in shown)
        assert same(state["nodes"][newest]["grad"], want)


def test_events_of_a_small_program():
    t = run(PROGRAMS["two_variables"])
    kinds = [ev["kind"] for ev in t.events]
    assert kinds[:2] == ["leaf", "leaf"] and kinds[-1] == "print"
    x, y = t.events[:2]
    assert (x["name"], x["line"], x["value"], x["requires_grad"]) == ("x", 3, 3.0, True)
    assert (y["name"], y["line"], y["value"]) == ("y", 4, -2.0)
    z = next(ev for ev in t.events if ev.get("name") == "z")
    assert (z["name"], z["op"], z["grad_fn"], z["line"], z["value"]) == ("z", "add", "AddBackward0", 5, 1.0)
    back = next(ev for ev in t.events if ev["kind"] == "backward")
    assert (back["root"], back["seed"], back["call"], back["api"]) == (z["id"], 1.0, 0, "backward")
    k, pow_x = next((k, ev) for k, ev in enumerate(t.events)
                    if ev["kind"] == "node" and ev["name"] == "PowBackward0" and ev["node"] == 2)
    assert state_at(t, k)["formula"] == formula_at(t, 2, len(t.events) - 1) == (
        "∂/∂self = exponent · self^(exponent−1) · grad = 2 · 3.0^(2−1) · 1.0 = 6.0")
    assert pow_x["grads_out"] == [{"to": 0, "value": 6.0}]
    grads = [(ev["name"], ev["before"], ev["contribution"], ev["after"]) for ev in t.events if ev["kind"] == "grad"]
    assert sorted(grads) == [("x", None, 2.0, 2.0), ("y", None, 2.0, 2.0)]


def test_state_at_steps_through_a_backward_pass():
    t = run(PROGRAMS["accumulate_two_backwards"])
    first = next(k for k, ev in enumerate(t.events) if ev["kind"] == "node")
    s = state_at(t, first)
    assert s["call"] == 0 and s["active"] == t.events[first]["node"]
    assert s["sent"] == [{"from": s["active"], "to": g["to"], "value": g["value"]}
                         for g in t.events[first]["grads_out"]]
    assert s["nodes"][s["active"]]["grad_in"] == 1.0
    assert state_at(t, -1) == {"k": -1, "event": None, "nodes": {}, "active": None, "sent": [], "grads": {},
                               "call": None, "output": "", "formula": None}
    x_grads = [state_at(t, k)["grads"]["x"] for k in range(len(t.events))]
    assert x_grads[0] is None and x_grads[-1] == 48.0 and 24.0 in x_grads
    with pytest.raises(IndexError):
        state_at(t, len(t.events))


def test_names_follow_the_program():
    t = run(TRACE_PROGRAMS["trace_function_and_loop"])
    names = [ev["name"] for ev in t.events if ev["kind"] in ("leaf", "op")]
    assert names.count("loss") == 3 and "w" in names and "c" in names
    assert "w.grad" in names  # the .grad read by `w -= 0.1 * w.grad`
    zeroed = [ev for ev in t.events if ev["kind"] == "zero_grad"]
    assert [(ev["name"], ev["how"], ev["line"]) for ev in zeroed] == [("w", "zero_", 14)] * 3
    lin = run(PROGRAMS["linear_mse_sgd"])
    assert {"lin.weight", "lin.bias", "X", "Y", "pred", "loss"} <= {ev.get("name") for ev in lin.events}


def test_temporaries_of_one_value_keep_their_own_grads():
    t = run("import torch\nx = torch.tensor(2.0, requires_grad=True)\nw = torch.tensor(0.5, requires_grad=True)\n"
            "loss = sum(torch.tensor(0.5, requires_grad=True) * x for i in range(2))\nloss.backward()\n")
    leaves = [e["name"] for e in t.events if e["kind"] == "leaf"]
    assert leaves == ["x", "w", "0.5", "0.5 #2"]  # a named tensor leaves the value's name free
    assert state_at(t, len(t.events) - 1)["grads"] == {"x": 1.0, "w": None, "0.5": 2.0, "0.5 #2": 2.0}


def test_a_detached_tensor_is_a_leaf_named_where_the_program_detaches_it():
    t = run("import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x.detach()\nz = y * x\n"
            "w = x.detach() * x\n(z + w).backward()\n")
    leaves = [(e["name"], e["line"], e.get("detached_from"), e["requires_grad"]) for e in t.events
              if e["kind"] == "leaf"]
    assert leaves == [("x", 2, None, True), ("y", 3, 0, False), ("x.detach()", 5, 0, False)]
    assert state_at(t, len(t.events) - 1)["grads"] == {"x": 4.0}


def test_items_of_nested_lists_are_named_by_their_indices():
    t = run("import torch\nw = [[torch.tensor(0.5, requires_grad=True) for j in range(2)] for i in range(2)]\n"
            "loss = w[0][0] * w[1][1] + w[0][1]\nloss.backward()\n")
    assert [e["name"] for e in t.events if e["kind"] == "leaf"] == ["w[0][0]", "w[0][1]", "w[1][0]", "w[1][1]"]


def test_warnings_are_events_not_output():
    t = run(PROGRAMS["nonleaf_grad_warning"])
    warning = next(ev for ev in t.events if ev["kind"] == "warning")
    assert warning["category"] == "UserWarning"
    assert ".grad attribute of a Tensor that is not a leaf" in warning["message"]
    assert warning["line"] == 6
    assert "Warning" not in t.output


def test_errors_end_the_timeline():
    t = run(TRACE_PROGRAMS["trace_backward_twice_uncaught"])
    assert t.error["type"] == "RuntimeError" and t.error["line"] == 7
    assert t.output == "1.1036\n"
    refused = run("import subprocess\nprint(1)\n")
    assert [ev["kind"] for ev in refused.events] == ["error"]
    assert refused.error["type"] == "GuardError" and refused.error["line"] == 1
    syntax = run("x = (\n")
    assert syntax.error["type"] == "SyntaxError" and syntax.error["line"] == 1


def test_budgets_end_the_timeline_cleanly():
    endless = run("while True:\n    pass\n", max_seconds=0.2)
    assert endless.error["type"] == "BudgetExceeded" and endless.error["line"] in (1, 2)
    huge = run("import torch\nx = torch.ones(10**9)\n")
    assert huge.error["type"] == "BudgetExceeded" and huge.error["line"] == 2
    many = run("import torch\nx = torch.tensor(1.0)\nfor i in range(1000):\n    x = x + 1\n", max_events=50)
    assert many.error["type"] == "BudgetExceeded" and len(many.events) == 51
    check_timeline(many)


def test_the_engine_is_left_as_it_was():
    import engine
    from engine import observe

    t = run("import torch\ntorch.set_grad_enabled(False)\nx = torch.randn(2)\nprint(x)\n")
    assert t.error is None and engine.is_grad_enabled() and not observe.active()
    assert run("import torch\nx = torch.randn(2)\nprint(x)\n").output == t.output  # the same seed every run
