"""Fuzzing the runner: random text and random programs over tensors always give a clean timeline that
ends normally or with one error event, never an exception out of run(), and leave the engine as it was."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import observe
from engine.trace import Timeline, run
from tests.trace.checks import check_timeline

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LIMITS = {"max_seconds": 0.5, "max_events": 2000}

VARS = ("a", "b", "c", "w")
VALUES = ("2.0", "-1.5", "[1.0, 2.0]", "[[1.0, -1.0], [0.5, 2.0]]", "[0.0, 3.0, -2.0]", "[1, 2]", "0.0")
FUNCS = ("sum()", "mean()", "exp()", "tanh()", "relu()", "sigmoid()", "abs()", "sqrt()", "log()", "t()", "clone()",
         "detach()", "max()", "view(-1)", "unsqueeze(0)", "pow(3)", "softmax(0)", "clamp(0.0, 1.0)", "item()")
STATEMENTS = (
    "{v} = torch.tensor({val}, requires_grad={rg})",
    "{v} = torch.tensor({val})",
    "{v} = {a} {op} {b}",
    "{v} = {a}.{fn}",
    "{v} = torch.ones(2, requires_grad=True)",
    "{a}.backward()",
    "{a}.sum().backward(retain_graph={rg})",
    "print({a})",
    "print({a}.grad)",
    "print({a}.grad_fn)",
    "{a}.grad = None",
    "{a}.grad.zero_()",
    "{a}.retain_grad()",
    "{a}.add_(1)",
    "{a}[0] = {b}",
    "{a}.requires_grad_()",
    "(g,) = torch.autograd.grad({a}.sum(), [{b}], allow_unused=True, create_graph={rg})",
    "with torch.no_grad():\n    {a} -= 0.1 * {a}.grad",
    "for i in range(3):\n    {v} = {a} * i",
    "try:\n    {a}.backward()\nexcept RuntimeError as e:\n    print('caught', e)",
    "def f(x):\n    return x {op} {b}\n{v} = f({a})",
    "{a}.register_hook(lambda g: print('hook', g))",
    "opt = torch.optim.SGD([{a}], lr=0.1)\nopt.step()\nopt.zero_grad()",
    "{v} = torch.nn.functional.mse_loss({a}, {b})",
    "{v} = torch.stack([{a}, {b}])",
    "{v} = torch.where({a} > 0, {a}, {b})",
)

statement = st.builds(
    lambda template, v, a, b, op, fn, val, rg: template.format(v=v, a=a, b=b, op=op, fn=fn, val=val, rg=rg),
    st.sampled_from(STATEMENTS), st.sampled_from(VARS), st.sampled_from(VARS), st.sampled_from(VARS),
    st.sampled_from(("+", "-", "*", "/", "**", "@")), st.sampled_from(FUNCS), st.sampled_from(VALUES),
    st.sampled_from(("True", "False")),
)
programs = st.lists(statement, min_size=1, max_size=14).map(
    lambda lines: "import torch\n" + "\n".join(f"{v} = torch.tensor([1.0, -2.0], requires_grad=True)" for v in VARS)
    + "\n" + "\n".join(lines) + "\n"
)


def assert_clean(timeline):
    assert isinstance(timeline, Timeline)
    check_timeline(timeline, every_k=False)
    assert engine.is_grad_enabled() and not observe.active()


@FUZZ
@given(programs)
def test_random_programs_give_clean_timelines(source):
    assert_clean(run(source, **LIMITS))


@FUZZ
@given(st.text(max_size=200))
def test_garbage_text_gives_clean_timelines(source):
    timeline = run(source, **LIMITS)
    assert_clean(timeline)


@FUZZ
@given(st.lists(st.sampled_from(["import torch", "x = torch.tensor(1.0, requires_grad=True)", "y = x * x", "(",
                                 "y.backward()", "print(x.grad)", "  ", "\t", "if x:", "    pass", "def", "lambda",
                                 "x.grad.zero_()", "del x", "y = y + y", "x = x.exp()"]), max_size=12))
def test_shuffled_lines_give_clean_timelines(lines):
    assert_clean(run("\n".join(lines), **LIMITS))
