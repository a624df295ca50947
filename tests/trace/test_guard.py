"""The guard: tutorial programs run unchanged, its API, the module views, the budgets, and fuzzing.

Most tests bind `torch` to a small fake engine (guard_fakes.py) so that they do not depend on the real one;
the real engine is used too when it is importable. The escape corpus is test_guard_escapes.py; the language
learners write (classes, decorators, generators, format) is test_guard_language.py.
"""

from __future__ import annotations

import ast
import builtins
import time
import traceback

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.trace import guard
from engine.trace.guard import BudgetExceeded, GuardError, Limits
from tests.engine.difftest import ADDRESS
from tests.trace.escapes import CORPUS
from tests.trace.guard_fakes import FAKE, outcome, real_engine, run, run_plain

# --- what learners write runs, and prints what plain Python prints ------------------------------------

TUTORIALS = {
    "gradient": """
import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 2 + 3 * x
y.backward()
print(x.grad)
""",
    "loops_and_functions": """
import torch
def f(x):
    return x * x + 1
total = 0
for i in range(5):
    total += f(torch.tensor(float(i))).item()
while total > 10:
    total = total / 2
squares = [i * i for i in range(4) if i % 2 == 0]
print(total, squares, {k: v for k, v in zip("ab", (1, 2))}, {n % 3 for n in range(9)})
print(sum(n for n in range(10)), max(range(5), key=lambda n: -n), list(map(abs, [-1, 2])))
""",
    "errors": """
import torch
try:
    torch.tensor(1.0).backward()
except RuntimeError as e:
    print("error:", e)
try:
    print(1 / 0)
except Exception as e:
    print(e)
finally:
    print("done")
""",
    "no_grad": """
import torch
w = torch.tensor(1.0, requires_grad=True)
with torch.no_grad():
    v = w * 2
with torch.autograd.no_grad():
    u = w * 3
print(v, u)
""",
    "imports": """
import torch
import torch as t
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch import nn as nn2, optim as optim2
from torch.nn import functional as F2
import math
from math import pi, sqrt
print(t is torch, nn is nn2, optim is optim2, F is F2, torch.nn.functional is F, math.pi == pi, sqrt(16))
print(F.relu(torch.tensor(-1.0)), math.factorial(5), math.prod([2, 3]))
""",
    "training": """
import torch
from torch import nn, optim
model = nn.Linear(1, 1)
opt = optim.SGD(model.parameters(), lr=0.05)
for _ in range(20):
    opt.zero_grad()
    loss = ((model(torch.tensor([2.0])) - 3.0) ** 2).sum()
    loss.backward()
    opt.step()
print(round(loss.item(), 6))
""",
    "strings": """
import torch
x = torch.tensor(0.5)
name = "loss"
print(f"{name}: {x.item():.3f} {x.item()!r:>8} {[1, 2]=}")
print("%s = %5.2f" % (name, 2.5), ", ".join(str(i) for i in range(3)), "ab".ljust(4, "."), "x".zfill(3))
s = "ab"
s += "c"
s *= 2
print(s, s.replace("a", "A"), "a\\tb".expandtabs(4), str.join("-", ["p", "q"]))
""",
    "sequences": """
a = [1, 2, 3, 4]
a[1:3] += [9]
a += (5,)
a.extend(range(2))
b = [0] * 3 + [1] * 2
b[0] += 7
d = {"k": [1]}
d["k"] *= 2
print(a, b, d, sorted(a, reverse=True), divmod(7, 2), pow(2, 10), 2 ** 10, 1 << 5, -7 % 3)
""",
    "attributes": """
import torch
x = torch.tensor(1.0, requires_grad=True)
x.value += 1.5
x.grad = None
x.requires_grad = False
print(x, x.grad, x.requires_grad)
""",
    "main_and_names": """
import torch
input = torch.tensor(3.0)
type = "mine"
iter = [1]
if __name__ == "__main__":
    print(input, type, iter)
""",
    "recursion": """
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
fact = lambda n: 1 if n == 0 else n * fact(n - 1)
print(fib(15), fact(20))
""",
    "walrus_and_unpacking": """
first, *rest = [1, 2, 3]
if (n := len(rest)) > 1:
    print(first, rest, n, *rest)
""",
}


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_tutorial_runs_as_in_plain_python(name):
    source = TUTORIALS[name]
    assert run(source, limits=Limits(max_seconds=5)) == run_plain(source, FAKE)


REAL = real_engine()


def needs_engine(test):
    return test


def test_the_real_engine_is_importable():
    assert REAL is not None


@needs_engine
@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_tutorial_on_the_real_engine(name):
    source = TUTORIALS[name]
    guarded = outcome(run, source, Limits(max_seconds=10), None)
    assert guarded == outcome(run_plain, source, REAL)


def _programs():
    try:
        from tests.programs import PROGRAMS
    except ImportError:
        return {}
    return PROGRAMS


def _masked(result):
    return tuple(None if part is None else ADDRESS.sub("0x…", part) for part in result)


@needs_engine
@pytest.mark.parametrize("slug", sorted(_programs()))
def test_learner_programs_run_unchanged(slug):
    source = _programs()[slug]
    guarded = outcome(run, source, Limits(max_seconds=10), None)
    assert _masked(guarded) == _masked(outcome(run_plain, source, REAL))


@needs_engine
def test_the_engine_charges_its_allocations():
    with pytest.raises(BudgetExceeded, match="1,000,000,000 elements") as caught:
        run("import torch\nx = torch.ones(2)\ny = torch.ones(1000, 1000, 1000)", modules=None)
    assert caught.value.line == 3


@pytest.mark.parametrize("source", [
    "import torch\nlayer = torch.nn.Linear(100000, 100000)",  # allocated while the engine mutes its watchers
    "import torch\ny = torch.ones(40000, 1) * torch.ones(1, 40000)",  # an op's result, sized before computed
])
def test_the_engine_charges_what_it_allocates_inside(source):
    with pytest.raises(BudgetExceeded, match="elements at once") as caught:
        run(source, modules=None)
    assert caught.value.line == 2


def test_check_returns_the_tree_and_compile_program_code():
    tree = guard.check("import torch\nx = 1")
    assert isinstance(tree, ast.Module)
    code = guard.compile_program("x = 1", guard.Budget())
    namespace = guard.safe_globals(print, guard.Budget(), FAKE)
    exec(code, namespace)
    assert namespace["x"] == 1
    assert namespace["__builtins__"]["print"] is not builtins.print


def test_print_goes_to_the_callers_print():
    seen = []
    guard.run("print(1, 'a', sep='-', end='!')\nprint()", print_fn=lambda text, end: seen.append(text + end),
              modules=FAKE)
    assert seen == ["1-a!", "\n"]


def test_the_modules_a_program_sees_are_public_views():
    namespace = guard.run("import torch\nimport math", modules=FAKE)
    torch = namespace["torch"]
    assert isinstance(torch, guard.SafeModule)
    names = set(vars(torch))
    assert {"tensor", "ones", "Tensor", "no_grad", "pi", "float32", "nn", "optim", "autograd"} <= names
    assert not names & {"os", "sys", "np", "Path", "loader", "registry", "save", "charge_elements"}
    assert "lcm" not in vars(namespace["math"])


def test_runs_share_only_what_cannot_change():
    """The checked code of a program and the engine's views are kept across runs (sessions): each run still
    starts with fresh globals, and the shared views stay read-only."""
    source = "import torch\ntry:\n    seen\nexcept NameError:\n    seen = 0\nseen = seen + 1\nprint(seen)"
    outputs = []
    for _ in range(2):
        namespace = guard.run(source, print_fn=lambda text, end: outputs.append(text))
    assert outputs == ["1\n", "1\n"]
    assert guard.compile_program(source) is guard.compile_program(source)
    assert namespace["torch"] is guard.run("import torch")["torch"]
    for attempt in ("torch.tensor = print", "torch.nn.Linear = print", "torch.tensor.x = 1", "math.prod.x = 1"):
        with pytest.raises(GuardError, match="not allowed|read-only"):
            guard.run(f"import torch, math\n{attempt}")


# --- budgets ---------------------------------------------------------------------------------------


def test_endless_loop_stops_within_the_default_two_seconds():
    start = time.perf_counter()
    with pytest.raises(BudgetExceeded, match="ran longer than 2 s") as caught:  # steps unbounded: the clock stops it
        run("x = 0\nwhile True:\n    x = x + 1", limits=Limits(max_steps=10**15))
    assert time.perf_counter() - start < 2 + 1  # the limit, plus a second for a loaded machine
    assert caught.value.line == 2 and caught.value.kind == "BudgetExceeded"  # the loop's line


def test_endless_loop_stops_by_whichever_default_budget_comes_first():
    """A fast machine runs 10 million steps in under 2 s, a slow one does not: either budget ends the loop."""
    start = time.perf_counter()
    with pytest.raises(BudgetExceeded, match="ran longer than 2 s|more than 10,000,000 steps") as caught:
        run("x = 0\nwhile True:\n    x = x + 1", limits=Limits())
    assert time.perf_counter() - start < 2 + 1
    assert caught.value.line == 2


def test_step_budget():
    with pytest.raises(BudgetExceeded, match="more than 1,000 steps") as caught:
        run("for i in range(10):\n    for j in range(1000):\n        pass", limits=Limits(max_steps=1000))
    assert caught.value.line == 2


def test_memory_budget_where_the_platform_reports_memory():
    if guard.memory_mb() is None:
        pytest.skip("no /proc/self/statm here")
    program = "keep = []\na = list(range(10 ** 6))\nwhile True:\n    keep.append(list(a))"
    with pytest.raises(BudgetExceeded, match="more than 100 MB") as caught:
        run(program, limits=Limits(max_memory_mb=100, max_seconds=10))
    assert caught.value.line == 3


def test_event_budget_is_for_the_recorder():
    budget = guard.Budget(Limits(max_events=2))
    budget.charge_events()
    budget.charge_events()
    with pytest.raises(BudgetExceeded, match="more than 2 events"):
        budget.charge_events()
    with pytest.raises(BudgetExceeded):  # once exceeded, a budget stays exceeded
        budget.tick(1)


def test_charge_elements_outside_a_run_is_a_no_op():
    guard.charge_elements(10 ** 12)


def test_budget_errors_cannot_be_swallowed():
    program = "def f():\n    try:\n        g()\n    except Exception:\n        return 0\ndef g():\n    g()\nf()"
    with pytest.raises(BudgetExceeded, match="nested more than"):
        run(program, limits=Limits(max_seconds=10))  # (the depth budget is tested: 0.15 s may run out first)


def test_a_programs_own_errors_propagate_as_themselves():
    with pytest.raises(ZeroDivisionError) as caught:
        run("x = 1\ny = x / 0")
    innermost = traceback.extract_tb(caught.value.__traceback__)[-1]
    assert (innermost.filename, innermost.lineno) == (guard.FILENAME, 2)
    with pytest.raises(NameError):
        run("ascii(1)")
    with pytest.raises(RuntimeError, match="does not require grad"):
        run("import torch\ntorch.tensor(1.0).backward()")


def test_injected_names_are_out_of_reach():
    names = guard.run("x = 1", modules=FAKE)
    assert all(name.startswith("_") for name in names if name != "x")
    for name in names:
        if name not in ("__name__", "x"):
            with pytest.raises(GuardError, match="starting with '_'"):
                run(f"{name}(1)")


# --- fuzzing: nothing but GuardError or the program's own errors escapes, nothing hangs ---------------

FUZZ_LIMITS = Limits(max_steps=20_000, max_seconds=0.3, max_elements=100_000, max_total_elements=1_000_000,
                     max_output_chars=10_000, max_depth=30)
# SyntaxError too: eval("1import") raises it, as in Python
PROGRAM_ERRORS = (GuardError, ArithmeticError, AssertionError, AttributeError, ImportError, LookupError,
                  NameError, OSError, RuntimeError, StopIteration, SyntaxError, TypeError, ValueError)
TOKENS = ["import", "torch", "os", "math", "from", "as", "(", ")", "[", "]", "{", "}", ".", ",", ":", "=",
          "==", "+", "*", "**", "<<", "%", "-", "/", ";", "\n", "\n    ", "\n\t", " ", "lambda", "def", "return",
          "while", "for", "in", "if", "else", "try", "except", "Exception", "e", "print", "range", "x", "y",
          "f", "1", "0", "10", "2.5", "'a'", '"{0}"', "True", "None", "__class__", "__dict__", "gi_frame",
          "f_back", "format", "join", "ljust", "type", "getattr", "open", "yield", "class", "with", "no_grad",
          "tensor", "requires_grad", "backward", "grad", "not", "and", "or", "pass", "break", "continue",
          "del", "global", "raise", "assert", "super", "__init__", "self", "@", "staticmethod", "property",
          "nonlocal", "metaclass", "__del__", "_version", "isinstance", "iter", "hasattr"]
SEEDS = list(TUTORIALS.values()) + [source for source, *_ in CORPUS.values() if len(source) < 300]


def _assert_clean(source):
    try:
        guard.run(source, print_fn=lambda text, end="": None, limits=FUZZ_LIMITS, modules=FAKE)
    except PROGRAM_ERRORS:
        pass


fuzz = settings(max_examples=100, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@fuzz
@given(st.text(max_size=200))
def test_fuzz_random_text(source):
    _assert_clean(source)


@fuzz
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_fuzz_token_soup(tokens):
    _assert_clean(" ".join(tokens))


@st.composite
def mutated_programs(draw):
    lines = draw(st.sampled_from(SEEDS)).splitlines() or [""]
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        edit = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "replace"]))
        if edit == "delete" and len(lines) > 1:
            del lines[i]
        elif edit == "duplicate":
            lines.insert(i, lines[i])
        elif edit == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif edit == "insert":
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(st.sampled_from(TOKENS)) + lines[i][at:]
        elif edit == "replace" and lines[i]:
            at = draw(st.integers(0, len(lines[i]) - 1))
            lines[i] = lines[i][:at] + draw(st.sampled_from(TOKENS)) + lines[i][at + 1:]
    return "\n".join(lines)


@fuzz
@given(mutated_programs())
def test_fuzz_mutated_programs(source):
    _assert_clean(source)
