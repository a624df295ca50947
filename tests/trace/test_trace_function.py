"""A custom autograd.Function in the explorer's timeline: its application is one op event (labelled
`MyReLU.apply(x)`, its node named `MyReLUBackward`, its saved tensors listed, the ops of its forward not shown),
and its node's formula is the user's own backward code: the source of its `return` statements, read from the
program at the lines its code object gives. The backward pass steps through it like any node.

Each program runs twice: with the Recorder observing the engine directly (as engine/trace/runner.py wires it,
without the guard), and through engine.trace.run (the guard admits classes); both timelines must agree and pass
the checks every timeline passes (tests/trace/checks.py)."""

from __future__ import annotations

import ast
import builtins

import pytest

import engine
from engine import observe
from engine.trace import run
from engine.trace.errors import FILENAME
from engine.trace.names import Statements
from engine.trace.recorder import Recorder
from engine.trace.timeline import Timeline
from tests.trace.checks import check_timeline

RELU = """import torch

class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input

x = torch.tensor([-1.0, 2.0, 3.0], requires_grad=True)
y = MyReLU.apply(x)
z = (y * 2).sum()
z.backward()
print(x.grad)
"""

SPLIT = """import torch

class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k, x * 3

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g1, g2):
        return (g1 * ctx.k
                + g2 * 3), None

x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Split.apply(x, 2.0)
loss = (b * 10).sum()
loss.backward()
print(x.grad)
"""

DIRTY_AND_DOUBLE = """import torch

class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        if g is None:
            return None
        return 3 * x ** 2 * g

w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 1
Double.apply(h)
c = Cube.apply(h)
g, = torch.autograd.grad(c.sum(), w, create_graph=True)
g.sum().backward()
print(w.grad)
"""


def _recorded(source):
    """The timeline of source with the Recorder observing the engine directly (no guard)."""
    rec = Recorder(Statements(ast.parse(source)), None, source)
    real_import = builtins.__import__

    def imp(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            name = "engine" + name[len("torch"):]
        return real_import(name, globals, locals, fromlist, level)

    namespace = {"__builtins__": {**builtins.__dict__, "__import__": imp, "print": lambda *a, **k: rec.on_print(
        " ".join(map(str, a)), k.get("end", "\n"))}, "__name__": "__main__"}
    observe.add(rec)
    try:
        exec(compile(source, FILENAME, "exec"), namespace)
    finally:
        observe.remove(rec)
        engine.set_grad_enabled(True)
    rec.finish()
    return Timeline(source=source, events=rec.events, output="".join(rec.texts))


def _both(source):
    direct = _recorded(source)
    guarded = run(source)
    assert guarded.error is None, guarded.error
    assert direct.to_json() == guarded.to_json(), "the guarded run records what the direct one does"
    check_timeline(direct)
    return direct.events


def _by(events, kind, **fields):
    return [e for e in events if e["kind"] == kind and all(e.get(k) == v for k, v in fields.items())]


def test_function_application_is_one_op_with_the_users_backward_as_formula():
    events = _both(RELU)
    (op,) = _by(events, "op", op="MyReLU")
    assert op["name"] == "y" and op["expr"] == "MyReLU.apply({0})" and op["grad_fn"] == "MyReLUBackward"
    assert op["line"] == 17 and op["inputs"] == [0] and op["requires_grad"] and op["value"] == [0.0, 2.0, 3.0]
    assert op["saved"] == [{"name": "saved_tensors[0]", "node": 0}]
    assert op["formula"] == "return grad_input"
    assert not _by(events, "op", op="clamp"), "the ops of the Function's forward are not the program's"
    (step,) = _by(events, "node", name="MyReLUBackward")
    assert step["node"] == op["id"] and step["grad_in"] == [2.0, 2.0, 2.0]
    assert step["grads_out"] == [{"to": 0, "value": [0.0, 2.0, 2.0]}]
    assert step["formula"] == "return grad_input ⇒ ∂/∂input = [0.0, 2.0, 2.0]"
    names = [e["name"] for e in events if e["kind"] == "node"]
    assert names == ["SumBackward0", "MulBackward0", "MyReLUBackward", "AccumulateGrad"]
    free = _by(events, "free", node=op["id"])
    assert free and events.index(free[0]) > events.index(step)


def test_several_outputs_a_multi_line_return_and_once_differentiable():
    events = _both(SPLIT)
    outs = _by(events, "op", op="Split")
    assert [(o["name"], o["expr"], o["grad_fn"]) for o in outs] == [
        ("a", "Split.apply({0}, 2.0)[0]", "SplitBackward"), ("b", "Split.apply({0}, 2.0)[1]", "SplitBackward")]
    assert outs[0]["formula"] == "return (g1 * ctx.k + g2 * 3), None" and outs[1]["formula"] is None
    (mul,) = _by(events, "node", name="MulBackward0")
    assert mul["grads_out"][0]["to"] == outs[1]["id"], "a grad for the second output goes to that output's node"
    (step,) = _by(events, "node", name="SplitBackward")
    assert step["node"] == outs[0]["id"]
    assert step["grad_in"] is None and step["grads_in"] == [None, [10.0, 10.0]]
    assert step["formula"] == "return (g1 * ctx.k + g2 * 3), None ⇒ ∂/∂x = [30.0, 30.0]"


def test_a_dirty_input_is_a_new_version_and_create_graph_records_the_backward_code_ops():
    events = _both(DIRTY_AND_DOUBLE)
    (dirty,) = _by(events, "inplace", op="Double")
    assert dirty["name"] == "h" and dirty["grad_fn"] == "DoubleBackward" and dirty["version"] == 2
    (cube,) = _by(events, "op", op="Cube")
    assert cube["inputs"] == [dirty["id"]] and cube["formula"] == "return None\nreturn 3 * x ** 2 * g"
    calls = _by(events, "backward")
    assert [c["create_graph"] for c in calls] == [True, False]
    during_first = [e for e in events if e.get("call") == calls[0]["call"] and e["kind"] == "op"]
    assert {e["op"] for e in during_first} >= {"pow", "mul"}, "with create_graph the backward's ops are shown"
    (cube_step,) = _by(events, "node", name="CubeBackward")
    assert cube_step["formula"] == "return None\nreturn 3 * x ** 2 * g ⇒ ∂/∂x = [12.0, 48.0]"
    double_steps = _by(events, "node", name="DoubleBackward")
    assert [s["call"] for s in double_steps] == [c["call"] for c in calls], "both passes step through Double's node"
    assert double_steps[1]["formula"] == "return g * 2 ⇒ ∂/∂x = [48.0, 96.0]"


@pytest.mark.parametrize("source", [RELU, SPLIT, DIRTY_AND_DOUBLE], ids=["relu", "split", "dirty_double"])
def test_output_is_pytorchs(source):
    torch = pytest.importorskip("torch")
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<torch>", "exec"), {"torch": torch, "__name__": "__main__"})
    assert _recorded(source).output == out.getvalue()
