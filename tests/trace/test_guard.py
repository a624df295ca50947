"""The guard: sandbox escapes and runaway programs are refused cleanly, tutorial programs run unchanged.

Most tests bind `torch` to a small fake engine (built below) so that they do not depend on the real one;
the real engine is used too when it is importable.
"""

from __future__ import annotations

import ast
import builtins
import math
import sys
import time
import traceback
import types

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.trace import guard
from engine.trace.guard import BudgetExceeded, GuardError, GuardSyntaxError, Limits

FAKE_TORCH = '''
import os, sys                      # modules the guard must never hand out
from pathlib import Path            # a class from elsewhere: not exported
import numpy as np
from engine.trace.guard import charge_elements

loader = open                       # a builtin: not exported
registry = {}                       # shared mutable state: not exported
pi = 3.14
float32 = np.dtype("float32")

def _t(x):
    return x if isinstance(x, Tensor) else Tensor(float(x))

class Tensor:
    """A scalar with just enough autograd for the tests."""

    def __init__(self, value, requires_grad=False, parents=()):
        self.value, self.requires_grad, self.grad, self.parents = value, requires_grad, None, parents

    def __repr__(self):
        return f"tensor({self.value})"

    def __add__(self, other):
        other = _t(other)
        return Tensor(self.value + other.value, self.requires_grad or other.requires_grad,
                      ((self, 1.0), (other, 1.0)))

    __radd__ = __add__

    def __sub__(self, other):
        return self + _t(other) * -1.0

    def __mul__(self, other):
        other = _t(other)
        return Tensor(self.value * other.value, self.requires_grad or other.requires_grad,
                      ((self, other.value), (other, self.value)))

    __rmul__ = __mul__

    def __pow__(self, k):
        return Tensor(self.value ** k, self.requires_grad, ((self, k * self.value ** (k - 1)),))

    def backward(self, seed=1.0):
        if not self.requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
        if not self.parents:
            self.grad = (self.grad or 0.0) + seed
        for parent, local in self.parents:
            if parent.requires_grad:
                parent.backward(seed * local)

    def item(self):
        return self.value

    def sum(self):
        return self

    def numpy(self):
        return np.array(self.value)

def tensor(value, requires_grad=False):
    return Tensor(float(value[0] if isinstance(value, list) else value), requires_grad)

def ones(*shape):
    n = 1
    for size in shape:
        n *= size
    charge_elements(n)              # what the real engine does through its on_alloc observers
    return Tensor(float(n))

def save(obj, path):                # writes files: never exported
    with open(path, "w") as f:
        f.write(repr(obj))

class no_grad:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
'''

FAKE_NN = '''
from faketorch import Tensor

class Linear:
    def __init__(self, n_in, n_out):
        self.weight, self.bias = Tensor(0.5, requires_grad=True), Tensor(0.0, requires_grad=True)

    def __call__(self, x):
        return self.weight * x + self.bias

    def parameters(self):
        return [self.weight, self.bias]
'''

FAKE_FUNCTIONAL = '''
from faketorch import Tensor

def relu(x):
    return Tensor(max(x.value, 0.0), x.requires_grad, ((x, float(x.value > 0)),))
'''

FAKE_OPTIM = '''
class SGD:
    def __init__(self, params, lr):
        self.params, self.lr = list(params), lr

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def step(self):
        for p in self.params:
            p.value -= self.lr * p.grad
'''

FAKE_AUTOGRAD = '''
from faketorch import no_grad
'''


def _fake_modules():
    modules = {}
    for name, source in [("faketorch", FAKE_TORCH), ("faketorch.nn", FAKE_NN),
                         ("faketorch.nn.functional", FAKE_FUNCTIONAL), ("faketorch.optim", FAKE_OPTIM),
                         ("faketorch.autograd", FAKE_AUTOGRAD)]:
        module = types.ModuleType(name)
        sys.modules[name] = module  # so that the fakes can import each other
        exec(compile(source, f"<{name}>", "exec"), module.__dict__)
        modules[name] = module
    for name, module in modules.items():
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(modules[parent], child, module)
    return {name.replace("faketorch", "torch"): m for name, m in modules.items()} | {"math": math}


FAKE = _fake_modules()
QUICK = Limits(max_seconds=0.15)


class Output:
    def __init__(self):
        self.parts = []

    def __call__(self, text, end="\n"):
        self.parts.append(text + end)

    @property
    def text(self):
        return "".join(self.parts)


def run(source, limits=QUICK, modules=FAKE):
    out = Output()
    guard.run(source, print_fn=out, limits=limits, modules=modules)
    return out.text


def run_plain(source, modules):
    """The program under plain Python (no guard), `import torch` bound to the same modules."""
    def import_(name, globals=None, locals=None, fromlist=(), level=0):
        return modules[name] if fromlist else modules[name.partition(".")[0]]

    out = Output()
    names = dict(vars(builtins), __import__=import_,
                 print=lambda *args, sep=" ", end="\n": out(sep.join(map(str, args)), end=end))
    exec(compile(source, "<plain>", "exec"), {"__builtins__": names, "__name__": "__main__"})
    return out.text


def outcome(fn, *args):
    try:
        return fn(*args), None
    except Exception as e:
        return None, f"{type(e).__name__}: {e}"


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


def _real_engine():
    try:
        modules = guard.default_modules()
    except Exception:
        return None
    return modules if callable(getattr(modules.get("torch"), "tensor", None)) else None


REAL = _real_engine()


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


@needs_engine
@pytest.mark.parametrize("slug", sorted(_programs()))
def test_learner_programs_run_unchanged(slug):
    source = _programs()[slug]
    guarded = outcome(run, source, Limits(max_seconds=10), None)
    try:
        guard.check(source)
    except GuardError as e:  # refused before it runs (a class, type(x).__name__): nothing to compare
        assert guarded == (None, f"GuardError: {e}")
        return
    assert guarded == outcome(run_plain, source, REAL)


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


# --- the escape corpus ------------------------------------------------------------------------------
# (source, error type, line, words in the message). Each must be refused cleanly, or fail harmlessly.

E, B, S = GuardError, BudgetExceeded, GuardSyntaxError
ANY = object()  # any line
CORPUS = {
    "subclasses_walk": ("x = 1\n().__class__.__bases__[0].__subclasses__()", E, 2, "starting with '_'"),
    "mro_walk": ("[].__class__.__mro__", E, 1, "'__mro__'"),
    "mro_method": ("str.mro()", E, 1, "'mro'"),
    "generator_frame": ("g = (x for x in [])\ng.gi_frame.f_back.f_globals", E, 2, "is not allowed"),
    "generator_code": ("g = (x for x in [1])\ng.gi_code", E, 2, "'gi_code'"),
    "frame_attribute": ("def f():\n    pass\nf.f_back", E, 3, "'f_back'"),
    "sys_getframe": ("import sys\nsys._getframe()", E, 1, "('sys')"),
    "format_attribute": ("'{0.__class__}'.format(1)", E, 1, "'format'"),
    "format_map": ("'{x.__globals__}'.format_map({'x': print})", E, 1, "'format_map'"),
    "bare_format": ("f = ''.format", E, 1, "'format'"),
    "format_builtin": ("format(1, '>10')", E, 1, "'format' is not allowed"),
    "getattr_concat": ("getattr(1, '__cl' + 'ass__')", E, 1, "'getattr' is not allowed"),
    "setattr": ("setattr(print, 'x', 1)", E, 1, "'setattr' is not allowed"),
    "traceback_frame": ("try:\n    1 / 0\nexcept Exception as e:\n    e.__traceback__", E, 4, "'__traceback__'"),
    "tb_attribute": ("try:\n    1 / 0\nexcept Exception as e:\n    t = e.with_traceback(None)\n    t.tb_frame",
                     E, 5, "'tb_frame'"),
    "type_one_arg": ("type(1)", E, 1, "'type' is not allowed"),
    "type_three_args": ("A = type('A', (), {})", E, 1, "'type' is not allowed"),
    "vars": ("vars()", E, 1, "'vars' is not allowed"),
    "globals": ("x = 1\ng = globals()", E, 2, "'globals' is not allowed"),
    "locals": ("locals()", E, 1, "'locals' is not allowed"),
    "lambda_code": ("f = lambda: 0\nf.__code__", E, 2, "'__code__'"),
    "function_globals": ("def f():\n    pass\nf.__globals__", E, 3, "'__globals__'"),
    "func_globals": ("def f():\n    pass\nf.func_globals", E, 3, "'func_globals'"),
    "print_self": ("print.__self__", E, 1, "'__self__'"),
    "print_class": ("print.__class__", E, 1, "'__class__'"),
    "builtins_name": ("__builtins__['open']", E, 1, "'__builtins__'"),
    "dunder_import": ("__import__('os')", E, 1, "'__import__'"),
    "import_os": ("import os", E, 1, "('os')"),
    "from_os": ("x = 1\nfrom os import system", E, 2, "('os')"),
    "import_operator": ("import operator\noperator.attrgetter('__class__')", E, 1, "('operator')"),
    "import_importlib": ("import importlib", E, 1, "('importlib')"),
    "relative_import": ("from . import guard", E, 1, "('.')"),
    "private_torch_name": ("from torch import _C", E, 1, "'_C'"),
    "torch_dict": ("import torch\ntorch.__dict__", E, 2, "'__dict__'"),
    "torch_numpy_module": ("import torch\ntorch.np.os", AttributeError, None, "has no attribute 'np'"),
    "torch_os_module": ("import torch\ntorch.os.system('true')", AttributeError, None, "no attribute 'os'"),
    "torch_reexported_open": ("import torch\ntorch.loader('/etc/passwd')", AttributeError, None, "'loader'"),
    "torch_foreign_class": ("import torch\ntorch.Path('/etc/passwd').read_text()", AttributeError, None,
                            "'Path'"),
    "torch_save": ("import torch\ntorch.save(1, 'x.txt')", E, 2, "'save'"),
    "numpy_class": ("import torch\nt = torch.tensor(1.0)\nt.numpy().__class__", E, 3, "'__class__'"),
    "numpy_repeat": ("import torch\na = torch.tensor(1.0).numpy()\nb = a.repeat(10 ** 10)", E, 3, "ndarray.repeat"),
    "numpy_tofile": ("import torch\ntorch.tensor(1.0).numpy().tofile('x.bin')", E, 2, "'tofile'"),
    "torch_star_import": ("from torch import *\nos.system('true')", NameError, None, "'os'"),
    "set_class_attribute": ("import torch\ntorch.Tensor.backward = print", E, 2, "type objects"),
    "set_module_attribute": ("import torch\ntorch.tensor = print", E, 2, "module objects"),
    "set_math_attribute": ("import math\nmath.pi = 3", E, 2, "module objects"),
    "set_function_attribute": ("def f():\n    pass\nf.x = 1", E, 3, "function objects"),
    "set_shared_object": ("import torch\ntorch.float32.x = 1", E, 2, "not allowed"),
    "class_definition": ("x = 1\nclass A:\n    pass", E, 2, "classes are not allowed"),
    "decorator": ("@print\ndef f():\n    pass", E, 2, "decorators"),
    "global": ("def f():\n    global x", E, 2, "'global'"),
    "nonlocal": ("def f():\n    nonlocal x", E, 2, "'nonlocal'"),
    "async": ("async def f():\n    pass", E, 1, "async"),
    "generator_function": ("def g():\n    yield 1", E, 2, "generators"),
    "match": ("match 1:\n    case x:\n        pass", E, 1, "'match'"),
    "with_open": ("with open('/etc/passwd') as f:\n    pass", E, 1, "'with' is only allowed"),
    "open": ("open('/etc/passwd')", E, 1, "'open' is not allowed"),
    "eval": ("eval('1')", E, 1, "'eval' is not allowed"),
    "exec": ("exec('x = 1')", E, 1, "'exec' is not allowed"),
    "compile": ("compile('1', 'f', 'eval')", E, 1, "'compile' is not allowed"),
    "system_exit": ("raise SystemExit", E, 1, "'SystemExit' is not allowed"),
    "exit": ("exit()", E, 1, "'exit' is not allowed"),
    "quit": ("quit(0)", E, 1, "'quit' is not allowed"),
    "keyboard_interrupt": ("raise KeyboardInterrupt", E, 1, "'KeyboardInterrupt'"),
    "base_exception": ("try:\n    pass\nexcept BaseException:\n    pass", E, 3, "'BaseException'"),
    "breakpoint": ("breakpoint()", E, 1, "'breakpoint' is not allowed"),
    "input": ("input()", E, 1, "'input' is not allowed"),
    "help": ("help()", E, 1, "'help' is not allowed"),
    "memoryview": ("memoryview(b'x')", E, 1, "'memoryview' is not allowed"),
    "object_subclasses": ("object.__subclasses__()", E, 1, "'__subclasses__'"),
    "object": ("x = object", E, 1, "'object' is not allowed"),
    "super": ("super()", E, 1, "'super' is not allowed"),
    "to_bytes": ("(1).to_bytes(10 ** 10, 'big')", E, 1, "'to_bytes'"),
    "fstring_dunder": ("f'{print.__self__}'", E, 1, "'__self__'"),
    "fstring_nested_spec": ("f'{1:{10 ** 9}}'", E, 1, "format specs"),
    "fstring_wide": ("f'{1:>999999999}'", E, 1, "format widths"),
    "percent_wide": ("s = '%0999999999d' % 1", E, 1, "format widths"),
    "percent_star": ("s = '%*d' % (10 ** 9, 1)", E, 1, "format widths"),
    "aliased_join": ("j = ''.join\nj(['a'])", E, 1, "'.join' can only be called directly"),
    "unbound_ljust": ("f = str.ljust", E, 1, "'.ljust'"),
    "except_star": ("try:\n    pass\nexcept* ValueError:\n    pass", E, 1, "except*"),
    "syntax_error": ("x = 1\nif x\n    pass", S, 2, ""),
    "null_byte": ("x = 1\0", S, ANY, ""),
    "return_outside_function": ("x = 1\nreturn x", S, 2, "outside function"),
    "deep_nesting": ("x = " + "-" * 300 + "1", E, 1, "nested too deeply"),
    "too_long": ("x = 1\n" * 20_000, E, None, "longer than"),
    # runaway programs
    "endless_while": ("x = 0\nwhile True:\n    pass", B, 2, "ran longer than"),
    "catch_the_budget": ("while True:\n    try:\n        while True:\n            pass\n"
                         "    except Exception as e:\n        print(e)", B, 3, "ran longer than"),
    "bare_except": ("while True:\n    try:\n        while True:\n            pass\n    except:\n        pass",
                    B, 3, "ran longer than"),
    "finally_return": ("def f():\n    try:\n        while True:\n            pass\n    finally:\n"
                       "        return 1\nf()\nprint('not reached')", B, 3, "ran longer than"),
    "iter_callable": ("for i in iter(int, 1):\n    pass", E, 1, "'iter' is not allowed"),
    "busy_comprehensions": ("while 1:\n    x = [y for y in range(10)]", B, ANY, "ran longer than"),
    "endless_comprehension": ("a = [1]\nb = [a.append(x) for x in a]", B, 2, "ran longer than"),
    "huge_range": ("x = [i for i in range(10 ** 18)]", B, 1, "ran longer than"),
    "huge_range_in_c": ("x = sum(range(10 ** 15))", B, 1, "ran longer than"),
    "list_of_huge_range": ("x = list(range(10 ** 12))", B, 1, "ran longer than"),
    "recursion": ("def f():\n    f()\nf()", B, 1, "nested more than 100 deep"),
    "mutual_recursion": ("def a():\n    b()\ndef b():\n    a()\na()", B, 1, "nested more than"),
    "lambda_recursion": ("f = lambda: f()\nf()", B, 1, "nested more than"),
    "recursion_caught": ("def f():\n    try:\n        f()\n    except Exception:\n        f()\nf()", B, 1,
                         "nested more than"),
    "print_flood": ("while True:\n    print('x' * 100)", B, 2, "printed more than"),
    "big_list": ("x = 1\ny = [0] * 10 ** 10", B, 2, "10,000,000,000 elements"),
    "big_string": ("s = 'a' * 10 ** 10", B, 1, "10,000,000,000 elements"),
    "big_string_chain": ("s = 'a' * 10 ** 5 * 10 ** 5", B, 1, "elements at once"),
    "big_power": ("x = 2 ** 10 ** 10", B, 1, "bits are too big"),
    "big_power_tower": ("x = 10 ** 10 ** 10", B, 1, "bits are too big"),
    "big_shift": ("x = 1 << 10 ** 10", B, 1, "bits are too big"),
    "big_pow_builtin": ("x = pow(10, 10 ** 10)", B, 1, "bits are too big"),
    "squaring_loop": ("x = 3\nwhile True:\n    x = x * x", B, 3, "bits are too big"),
    "doubling_string": ("s = 'a'\nwhile True:\n    s = s + s", B, 3, "elements"),
    "doubling_list": ("a = [0]\nwhile True:\n    a += a", B, 3, "elements"),
    "doubling_extend": ("a = [0]\nwhile True:\n    a.extend(a)", B, 3, "elements"),
    "doubling_multiply": ("a = [0]\nwhile True:\n    a *= 2", B, 3, "elements"),
    "huge_ljust": ("s = 'x'.ljust(10 ** 10)", B, 1, "elements"),
    "huge_join": ("s = ','.join(['x' * 10 ** 5] * 10 ** 5)", B, 1, "elements"),
    "huge_replace": ("s = ('a' * 1000).replace('', 'b' * 10 ** 4)", B, 1, "elements"),
    "sum_of_lists": ("x = sum([[0] * 1000] * 1000, [])", E, 1, "sum() can't add up lists"),
    "big_factorial": ("import math\nx = math.factorial(10 ** 7)", B, 2, "math.factorial"),
    "big_prod": ("import math\nx = math.prod([10 ** 5000] * 100)", B, 2, "bits are too big"),
    "huge_tensor": ("import torch\nx = torch.ones(2)\ny = torch.ones(10 ** 9)", B, 3, "elements at once"),
    "many_tensors": ("import torch\nwhile True:\n    x = torch.ones(10 ** 6)", B, 3, "in all"),
    "print_many_args": ("s = 'x' * 1000\nprint(*[s] * 1000)", B, 2, "too big to show"),
    "many_fstring_parts": ("s = 'x' * 90000\nt = f'" + "{s}" * 1000 + "'", B, 2, "in all"),
    "round_huge_digits": ("x = round(5, -10 ** 9)", E, 1, "round() to more than"),
    "nested_print": ("a = [[[0] * 100] * 100] * 100\nprint(a)", B, 2, "too big to show"),
    "nested_fstring": ("a = [0] * 1000\nb = [a] * 1000\ns = f'{b}'", B, 3, "too big to show"),
    "nested_percent": ("a = [0] * 1000\nb = [a] * 1000\ns = '%s' % (b,)", B, 3, "too big to show"),
}


def _check_outcome(error, kind, line, words):
    assert isinstance(error, kind), repr(error)
    assert words in str(error)
    if isinstance(error, GuardError):
        assert error.kind == kind.kind and (line is ANY or error.line == line)
        assert str(error) == error.message == (f"line {error.line}: {error.reason}" if error.line else error.reason)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_escape_is_refused(name, tmp_path, monkeypatch):
    source, kind, line, words = CORPUS[name]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(Exception) as caught:
        run(source)
    _check_outcome(caught.value, kind, line, words)
    assert list(tmp_path.iterdir()) == []


def test_process_is_healthy_after_the_corpus(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("import torch\nimport math")  # warm up: the imports the guard itself makes
    before = dict(vars(builtins)), dict(sys.modules), sys.getrecursionlimit()
    for source, kind, *_ in CORPUS.values():
        with pytest.raises(kind):
            run(source, limits=Limits(max_seconds=0.1))
    assert (dict(vars(builtins)), dict(sys.modules), sys.getrecursionlimit()) == before
    assert guard.active_budget() is None
    assert list(tmp_path.iterdir()) == []
    assert run("import torch\nprint(torch.tensor(2.0) * 3)") == "tensor(6.0)\n"


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 30


# --- budgets ---------------------------------------------------------------------------------------


def test_endless_loop_stops_within_the_default_two_seconds():
    start = time.perf_counter()
    with pytest.raises(BudgetExceeded, match="ran longer than 2 s") as caught:
        run("x = 0\nwhile True:\n    x = x + 1", limits=Limits())
    assert time.perf_counter() - start < 2 + 1  # the limit, plus a second for a loaded machine
    assert caught.value.line == 2 and caught.value.kind == "BudgetExceeded"  # the loop's line


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
        run(program)


def test_a_programs_own_errors_propagate_as_themselves():
    with pytest.raises(ZeroDivisionError) as caught:
        run("x = 1\ny = x / 0")
    innermost = traceback.extract_tb(caught.value.__traceback__)[-1]
    assert (innermost.filename, innermost.lineno) == (guard.FILENAME, 2)
    with pytest.raises(NameError):
        run("hash(1)")
    with pytest.raises(RuntimeError, match="does not require grad"):
        run("import torch\ntorch.tensor(1.0).backward()")


def test_injected_names_are_out_of_reach():
    names = guard.run("x = 1", modules=FAKE)
    assert all(name.startswith("__") for name in names if name != "x")
    for name in names:
        if name not in ("__name__", "x"):
            with pytest.raises(GuardError, match="starting with '_'"):
                run(f"{name}(1)")


# --- fuzzing: nothing but GuardError or the program's own errors escapes, nothing hangs ---------------

FUZZ_LIMITS = Limits(max_steps=20_000, max_seconds=0.3, max_elements=100_000, max_total_elements=1_000_000,
                     max_output_chars=10_000, max_depth=30)
PROGRAM_ERRORS = (GuardError, ArithmeticError, AssertionError, AttributeError, ImportError, LookupError,
                  NameError, RuntimeError, StopIteration, TypeError, ValueError)
TOKENS = ["import", "torch", "os", "math", "from", "as", "(", ")", "[", "]", "{", "}", ".", ",", ":", "=",
          "==", "+", "*", "**", "<<", "%", "-", "/", ";", "\n", "\n    ", "\n\t", " ", "lambda", "def", "return",
          "while", "for", "in", "if", "else", "try", "except", "Exception", "e", "print", "range", "x", "y",
          "f", "1", "0", "10", "2.5", "'a'", '"{0}"', "True", "None", "__class__", "__dict__", "gi_frame",
          "f_back", "format", "join", "ljust", "type", "getattr", "open", "yield", "class", "with", "no_grad",
          "tensor", "requires_grad", "backward", "grad", "not", "and", "or", "pass", "break", "continue",
          "del", "global", "raise", "assert"]
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
