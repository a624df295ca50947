"""Predict, then reveal, as pure functions: which steps ask, what the right answer is (checked against real
PyTorch: what torch prints for a leaf's .grad, typed as a guess, is judged right), how guesses are read and
judged, and the score."""

from __future__ import annotations

import json
import math
import re
import subprocess

import pytest
from browser import TORCH_PYTHON  # noqa: E402 (tests/app is on the path)

from app import timeline as tl
from app.predict import model as pm
from app.program.examples import BY_SLUG, EXAMPLES
from engine.trace.text import numel

PROGRAM = """import torch
x = torch.tensor(3.0, requires_grad=True)
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * w
z = (y * y).sum()
z.backward()
"""


def _questions(source: str):
    timeline = tl.run(source)
    asks = pm.asks(timeline.events)
    intro = tl.introduced(timeline)
    return timeline, {at: pm.questions(timeline.events, at, specs, intro) for at, specs in asks.items()}


def test_every_step_that_sends_a_grad_asks_one_question_per_edge_and_each_grad_write_asks_before_its_step():
    timeline, qs = _questions(PROGRAM)
    events = timeline.events
    sends = {i: [g for g in e["grads_out"] if g["to"] is not None] for i, e in enumerate(events)
             if e["kind"] == "node" and e["grads_out"]}
    writes = [i for i, e in enumerate(events) if e["kind"] == "grad"]
    for i, out in sends.items():
        asked = [q for q in qs[i] if q.reveal == i]
        assert [q.expected for q in asked] == [g["value"] for g in out]
    for i in writes:
        (q,) = [q for qs_at in qs.values() for q in qs_at if q.reveal == i]
        assert events[q.at]["kind"] == "node" and events[q.at]["name"] == "AccumulateGrad"
        assert events[q.at]["node"] == events[i]["node"] and q.at < i
        assert q.expected == events[i]["after"]
    assert sum(map(len, qs.values())) == sum(map(len, sends.values())) + len(writes)
    first = qs[min(qs)]
    assert first[0].prompt == "SumBackward0 (z) receives its grad. What does it send to y * y?"
    assert first[0].expected == [1.0, 1.0]


def test_the_reveal_is_the_chain_rule_of_the_edge_and_the_sum_where_grads_met():
    _, qs = _questions(PROGRAM)
    by_about = {q.about: q for at in qs.values() for q in at}
    to_x = by_about["→ x"]
    assert to_x.expected == 30.0
    assert to_x.formula[0] == "grads meet: [3,6] + [3,6] = [6,12]"
    assert any("Σ dim 0" in line for line in to_x.formula)  # x was broadcast against w: its grad is a sum
    assert "(as self)" in next(iter(q.about for at in qs.values() for q in at if "(as" in q.about))
    _, acc = _questions(BY_SLUG["accumulate"].source)
    second = [q for at in acc.values() for q in at if q.about == "x.grad"][1]
    assert second.prompt.startswith("x.grad is 6.0 now.")
    assert second.expected == 11.0 and second.formula == ("x.grad accumulates: 6.0 + 5.0 = 11.0",)


def test_big_values_and_grads_to_constants_are_not_asked():
    timeline, qs = _questions("""import torch
w = torch.ones(4, 4, requires_grad=True)
c = torch.tensor(2.0)
(w * c).sum().backward()
""")
    assert all(numel(q.expected) <= pm.MAX_ASKED for at in qs.values() for q in at)
    assert not any(q.about == "w.grad" for at in qs.values() for q in at)
    assert not any("c" == q.about[2:] for at in qs.values() for q in at)


@pytest.mark.parametrize("example", [e.slug for e in EXAMPLES if e.slug != "scalar-mlp"])
def test_every_example_asks_only_answerable_questions(example):
    timeline, qs = _questions(BY_SLUG[example].source)
    for at, asked in qs.items():
        for q in asked:
            assert q.at == at <= q.reveal < len(timeline.events)
            assert q.prompt and q.formula
            right, _ = pm.judge(pm.parse(pm.answer_text(q)), q.expected, q.dtype)
            assert right, (example, q)


@pytest.mark.parametrize("text, value", [
    ("6", 6.0), ("6.", 6.0), (" -0.5 ", -0.5), ("−0.5", -0.5), ("1/3", 1 / 3), ("2*3", 6.0), ("2^3", 8.0),
    ("2 × 3", 6.0), ("[1, 2]", [1.0, 2.0]), ("(1, 2)", [1.0, 2.0]), ("[[1, 2], [3, 4]]", [[1.0, 2.0], [3.0, 4.0]]),
    ("tensor(6.)", 6.0), ("tensor([1., 2.], grad_fn=<MulBackward0>)", [1.0, 2.0]), ("[1. 2.]", [1.0, 2.0]),
    ("tensor([[ 1., -2.]])", [[1.0, -2.0]]), ("1e-3", 0.001),
])
def test_guesses_are_read_tolerantly(text, value):
    assert pm.parse(text) == value


def test_nan_and_inf_are_read():
    assert math.isnan(pm.parse("nan")) and pm.parse("-inf") == -math.inf


@pytest.mark.parametrize("text, says", [
    ("", "Type your prediction first"), ("abc", "Cannot read “abc”"), ("x + 1", "Cannot read"),
    ("[1, [2]]", "numbers and lists are mixed"), ("[[1, 2], [3]]", "different lengths"), ("1/0", "divides by zero"),
    ("10**400", "not a real number"), ("[]", "empty list"), ("__import__('os')", "Cannot read"),
])
def test_unreadable_guesses_say_how_to_write_one(text, says):
    with pytest.raises(pm.GuessError) as error:
        pm.parse(text)
    assert says in str(error.value)


def test_judging_allows_a_relative_tolerance_and_what_pytorch_prints():
    assert pm.judge(6.0, 6.0) == (True, "")
    assert pm.judge(6.005, 6.0)[0] and not pm.judge(6.01, 6.0)[0]  # relative 1e-3
    assert pm.judge(0.3333, 1 / 3)[0]  # torch prints tensor(0.3333)
    assert not pm.judge(0.33, 1 / 3)[0]
    assert not pm.judge(0.0, 1e-5)[0]  # torch prints tensor(1.0000e-05)
    assert pm.judge([1.0, 2.0], [1.0, 2.0])[0] and not pm.judge([1.0, 2.5], [1.0, 2.0])[0]
    assert pm.judge(6.0, [6.0])[0] and pm.judge([[6.0]], 6.0)[0]  # one number is one number
    right, note = pm.judge([1.0, 2.0], [[1.0], [2.0]])
    assert not right and note == "the grad has the shape of its tensor: 2×1 values, not 2 values"
    assert pm.judge(math.nan, math.nan)[0]


def test_the_score_counts_right_guesses_of_those_asked_and_not_the_revealed():
    q = _questions(PROGRAM)[1]
    first = q[min(q)][0]
    wrong = pm.verdict("2", first)
    right = pm.verdict("[1, 1]", first)
    assert (wrong.right, right.right) == (False, True)
    shown = pm.Verdict(guess="", right=None)
    assert pm.score({6: (wrong,), 7: (right, shown)}) == pm.Score(right=1, asked=2, revealed=1)
    with pytest.raises(pm.GuessError):
        pm.verdict("two", first)


# What real PyTorch prints for each leaf's .grad after each program (a JSON list of them on stdin), one torch
# process for them all (starting torch is most of the time this takes).
_PRINTED = r"""
import contextlib, io, json, sys, torch
printed = []
for source in json.loads(sys.stdin.read()):
    ns = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(source, ns)
    printed.append({k: repr(v.grad) for k, v in ns.items() if isinstance(v, torch.Tensor) and v.grad is not None})
print(json.dumps(printed))
"""
_PRINTED_BY = ["square-of-sum", "accumulate", "broadcast", "vector", "polynomial-sum"]


@pytest.fixture(scope="module")
def printed_by_torch() -> dict[str, dict[str, str]]:
    sources = json.dumps([BY_SLUG[example].source for example in _PRINTED_BY])
    out = subprocess.run([str(TORCH_PYTHON), "-c", _PRINTED], input=sources, text=True, capture_output=True,
                         check=True).stdout
    return dict(zip(_PRINTED_BY, json.loads(out.splitlines()[-1]), strict=True))


@pytest.mark.skipif(not TORCH_PYTHON.exists(), reason="the real-PyTorch oracle is not set up")
@pytest.mark.parametrize("example", _PRINTED_BY)
def test_what_pytorch_prints_for_a_grad_is_judged_right_for_the_last_grad_question(example, printed_by_torch):
    source = BY_SLUG[example].source
    printed = printed_by_torch[example]
    _, qs = _questions(source)
    last = {q.about[:-5]: q for at in sorted(qs) for q in qs[at] if q.about.endswith(".grad")}
    assert set(printed) <= set(last) and printed
    for name, text in printed.items():
        assert pm.verdict(text, last[name]).right, (name, text, last[name].expected)
        wrong = re.sub(r"(-?\d+\.\d*)", lambda m: str(float(m.group(1)) + 1), text, count=1)
        assert pm.verdict(wrong, last[name]).right is False
