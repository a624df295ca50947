"""The escape corpus (escapes.py) is refused cleanly and leaves the process as it was; no code of a program
runs once its run is over (the threat model: docs/security.md)."""

from __future__ import annotations

import builtins
import gc
import sys
import time
import warnings

import pytest

from engine.trace import guard
from engine.trace import run as trace
from engine.trace.guard import BudgetExceeded, GuardError, Limits
from tests.trace.escapes import ANY, CATEGORIES, CORPUS
from tests.trace.guard_fakes import FAKE, QUICK, run


def _check_outcome(error, kind, line, words):
    assert isinstance(error, kind), repr(error)
    if isinstance(kind, tuple):  # one of several outcomes: the one it was
        kind = next(k for k in kind if isinstance(error, k))
    assert words in str(error)
    if isinstance(error, GuardError):
        assert error.kind == kind.kind and (line is ANY or error.line == line), (error.kind, error.line)
        assert str(error) == error.message == (f"line {error.line}: {error.reason}" if error.line else error.reason)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_escape_is_refused(name, tmp_path, monkeypatch):
    source, kind, line, words = CORPUS[name]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(Exception) as caught:
        run(source, limits=QUICK)
    _check_outcome(caught.value, kind, line, words)
    assert list(tmp_path.iterdir()) == []


def test_process_is_healthy_after_the_corpus(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("import torch\nimport math")  # warm up: the imports the guard itself makes
    before = dict(vars(builtins)), dict(sys.modules), sys.getrecursionlimit()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # generators the corpus leaves open, closed after their run
        for source, kind, *_ in CORPUS.values():
            with pytest.raises(kind):
                run(source, limits=Limits(max_seconds=0.1))
        gc.collect()
    assert (dict(vars(builtins)), dict(sys.modules), sys.getrecursionlimit()) == before
    assert guard.active_budget() is None
    assert list(tmp_path.iterdir()) == []
    assert run("import torch\nprint(torch.tensor(2.0) * 3)") == "tensor(6.0)\n"


def test_corpus_is_large_enough():
    sizes = {category: len(entries) for category, entries in CATEGORIES.items()}
    assert all(n >= 8 for n in sizes.values()), sizes
    assert len(CORPUS) >= 250


# --- nothing of a program runs after its run -------------------------------------------------------

LEFT_BEHIND = """
class A:
    def __repr__(self):
        return "A"
    def __eq__(self, other):
        return True
    def __hash__(self):
        return 1
    def __len__(self):
        return 1
def f():
    return 1
g = lambda: 2
def gen():
    try:
        yield 1
    finally:
        print("closing")
def catching():
    try:
        yield 1
    except:
        print("caught")
        yield 2
resumed, closed, caught = gen(), gen(), catching()
for started in (resumed, closed, caught):
    next(started)
a = A()
"""


def test_no_function_method_or_generator_of_a_program_runs_after_its_run():
    printed = []
    namespace = guard.run(LEFT_BEHIND, print_fn=lambda text, end="": printed.append(text), modules=FAKE)
    a = namespace["a"]
    for call in (lambda: repr(a), lambda: a == 1, lambda: hash(a), lambda: len(a), namespace["f"],
                 namespace["g"], lambda: next(namespace["resumed"]), namespace["closed"].close,
                 namespace["caught"].close):
        with pytest.raises(BudgetExceeded, match="the program has ended"):
            call()
    assert printed == []  # neither the finally block nor the bare except ran


def test_a_generator_collected_after_its_run_changes_no_engine_state():
    """A generator suspended inside `with torch.enable_grad():`, kept alive by a reference cycle, is closed
    when the garbage collector finds it, after its run: its `with` block's exit must not set the grad mode
    that the runner restored (every later program would run without grad)."""
    import engine

    source = ("import torch\ntorch.set_grad_enabled(False)\ndef g():\n    with torch.enable_grad():\n"
              "        yield 1\nclass Holder:\n    pass\nh = Holder()\nh.me = h\nh.gen = g()\nnext(h.gen)\n")
    assert trace(source).error is None
    gc.collect()
    assert engine.is_grad_enabled()
    later = trace("import torch\nx = torch.ones(1, requires_grad=True)\nprint((x * 2).requires_grad)\n")
    assert later.output == "True\n"


def test_a_finished_budget_refuses_every_tick():
    budget = guard.Budget()
    budget.close()
    for spend in (budget.tick, budget.enter, lambda: budget.charge_elements(1), lambda: budget.charge_output(1),
                  budget.check):
        with pytest.raises(BudgetExceeded, match="the program has ended"):
            spend()


def test_the_recorder_runs_no_method_of_a_programs_module():
    """After the run the recorder names what the last statements bound: it reads a module's parameters from
    its dicts, not through a method the program may have replaced."""
    source = ("import torch\nclass M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
              "        self.w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))\n"
              "    def named_parameters(self, *args, **kwargs):\n        while True:\n            pass\n"
              "    def parameters(self, *args):\n        while True:\n            pass\n"
              "m = M()\nloss = (m.w * 2).sum()\nloss.backward()\n")
    start = time.process_time()
    timeline = trace(source)
    assert time.process_time() - start < 1.5  # no endless named_parameters, even within the 2 s budget
    assert timeline.error is None
    assert "m.w" in {ev.get("name") for ev in timeline.events}


def test_a_programs_error_is_described_within_its_budget():
    """str() of the error that ended a program may be the program's own __str__: it runs before the budget
    closes, as Python's traceback would show it; one that fails shows as Python shows it."""
    told = trace("class Bad(Exception):\n    def __str__(self):\n        return 'told ' + str(len(self.args))\n"
                 "raise Bad(1, 2)\n")
    assert (told.error["type"], told.error["message"], told.error["line"]) == ("Bad", "told 2", 4)
    endless = trace("class Bad(Exception):\n    def __str__(self):\n        while True:\n            pass\n"
                    "raise Bad()\n", max_seconds=0.2)
    assert (endless.error["type"], endless.error["message"]) == ("Bad", "<exception str() failed>")

