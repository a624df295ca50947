"""The language learners write: classes, decorators, generators, introspection, str.format, global/nonlocal,
the private attributes PyTorch learners read. Run through the guard they print what plain Python prints (on
the fake engine) and what real PyTorch prints (on the engine, through engine.trace.run). A refused statement
costs that statement, not the program."""

from __future__ import annotations

import pytest

from engine.trace import guard, state_at
from engine.trace import run as trace
from engine.trace.guard import GuardError, GuardSyntaxError, Limits
from engine.trace.importable import IMPORTABLE
from tests.engine.difftest import printed_alike
from tests.trace.checks import check_timeline
from tests.trace.guard_fakes import FAKE, run, run_plain

# --- on the fake engine: the same output as plain Python ----------------------------------------------

ON_FAKE = {
    "private_names": """
_cache = {}


def _square(_x, _unused=None):
    _cache[_x] = _x * _x
    return _cache[_x]


_total = sum(_square(_i) for _i in range(4))
print(_total, sorted(_cache))
""",
    "classes": """
class Shape:
    sides = 0
    registry = []

    def __init__(self, name):
        self.name = name
        Shape.registry.append(name)

    def describe(self):
        return "{} with {} sides".format(self.name, self.sides)

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"

    def __str__(self):
        return self.describe()

    def __eq__(self, other):
        return isinstance(other, Shape) and self.sides == other.sides

    def __lt__(self, other):
        return self.sides < other.sides

    __hash__ = None

class Triangle(Shape):
    sides = 3

class Square(Shape):
    sides = 4

    def __init__(self, name, size):
        super(Square, self).__init__(name)
        self.size = size

    @property
    def area(self):
        return self.size ** 2

    @area.setter
    def area(self, value):
        self.size = value ** 0.5

    @staticmethod
    def unit():
        return Square("unit", 1)

    @classmethod
    def named(cls, name):
        return cls(name, 2)

shapes = [Square.named("b"), Triangle("t"), Square.unit()]
shapes[0].area = 9
print(sorted(shapes), shapes[0].area, shapes[0] == shapes[2], str(shapes[1]), Shape.registry)
print(Square.__name__, Square.__qualname__, shapes[1].__class__.__name__, issubclass(Square, Shape))
""",
    "containers_and_operators": """
class Dataset:
    def __init__(self, n):
        self.items = [i * i for i in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]

    def __contains__(self, x):
        return x in self.items

    def __iter__(self):
        for item in self.items:
            yield item

    def __bool__(self):
        return bool(self.items)

    def __call__(self, scale):
        return [x * scale for x in self]

class Vec:
    def __init__(self, *xs):
        self.xs = list(xs)

    def __add__(self, other):
        return Vec(*[a + b for a, b in zip(self.xs, other.xs)])

    def __mul__(self, k):
        return Vec(*[a * k for a in self.xs])

    __rmul__ = __mul__

    def __neg__(self):
        return self * -1

    def __matmul__(self, other):
        return sum(a * b for a, b in zip(self.xs, other.xs))

    def __iadd__(self, other):
        self.xs = (self + other).xs
        return self

    def __repr__(self):
        return "Vec({})".format(", ".join(str(x) for x in self.xs))

d = Dataset(4)
v = Vec(1, 2)
v += Vec(3, 4)
print(len(d), d[2], 4 in d, list(d), bool(Dataset(0)), d(2), [x for x in d if x])
print(v, 2 * v, -v, v @ v, iter(d) is not None, next(iter(d)))
""",
    "decorators_generators_scopes": """
import torch
calls = []

def logged(fn):
    def wrapper(*args, **kwargs):
        calls.append(fn.__name__)
        return fn(*args, **kwargs)
    return wrapper

def repeat(times):
    def decorate(fn):
        def wrapper(x):
            for _ in range(times):
                x = fn(x)
            return x
        return wrapper
    return decorate

@logged
@repeat(3)
def double(x):
    return x * 2

def counter():
    count = 0
    def step():
        nonlocal count
        count += 1
        return count
    return step

total = 0
def add(n):
    global total
    total += n

def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b

def take(gen, n):
    for _, x in zip(range(n), gen):
        yield x

def chain(*parts):
    for part in parts:
        yield from part

step = counter()
step()
add(5)
add(2)
g = fib()
print(double(1), calls, step(), total, list(take(fib(), 8)), next(g), next(g), list(chain([1], (2, 3))))
print(sum(x * x for x in take(fib(), 5)), double.__name__, __name__)
""",
    "format_and_introspection": """
import torch
x = torch.tensor(2.5)
print("{:.4f} {:>6} {:<4}| {:^5} {:+d} {:,}".format(1 / 3, "ab", "cd", "e", 7, 1234567))
print("{0} {1} {0!r} {name!s} {{literal}}".format("a", 2, name=[1]), str.format("{}{}", 1, 2))
print(format(3.14159, ".2f"), format(42, "05d"), "{:.1f}".format(x.item()))
print(type(1).__name__, type("s") is str, type(b"").__name__, type(None).__name__, type(range(2)).__name__)
print(type(print) == type(len), isinstance(1, type(2)), type([]) == list, type(x).__name__)
print(hasattr(x, "item"), hasattr(x, "nothing"), getattr(x, "nothing", "default"), getattr(x, "value"))
print(x._version, x._base, x._is_view(), callable(getattr(x, "item")))
""",
    "exceptions": """
class TrainingError(Exception):
    def __init__(self, step, loss):
        super().__init__(f"diverged at step {step}")
        self.step, self.loss = step, loss

class Diverged(TrainingError):
    def __str__(self):
        return f"step {self.step}: loss {self.loss:.1f}"

for error in (TrainingError(3, 1e9), Diverged(4, 2e9)):
    try:
        raise error
    except TrainingError as e:
        print(type(e).__name__, e, e.args, isinstance(e, Exception))
""",
    "module_subclass_and_function": """
import torch
import torch.nn as nn

class Scale(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = torch.tensor(factor, requires_grad=True)

    def forward(self, x):
        return self.factor * x

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * 3 * x ** 2

m = Scale(2.0)
y = m(torch.tensor(3.0))
y.backward()
print(y, m.factor.grad, m.training, isinstance(m, nn.Module), Cube.apply(torch.tensor(2.0)))
""",
    "class_decorators": """
registry = []


def register(cls):
    registry.append(cls.__name__)
    return cls


def replace_by_name(cls):
    return cls.__name__


@register
class A:
    pass


@replace_by_name
class B:
    pass


print(registry, B, type(A()).__name__)
""",
    "standard_library": """
import collections
import copy
import functools
import itertools
import statistics
import string
import time
import typing
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple
from dataclasses import asdict, dataclass, field, replace
from typing import List, Optional


@dataclass
class Config:
    n_embd: int = 8
    names: List[str] = field(default_factory=list)
    dropout: Optional[float] = None

    def __post_init__(self):
        self.names.append("made")


@dataclass(frozen=True, order=True)
class Point:
    x: int
    y: int = 0


@functools.total_ordering
class Version:
    def __init__(self, n):
        self.n = n

    def __eq__(self, other):
        return self.n == other.n

    def __lt__(self, other):
        return self.n < other.n


def timed(f):
    @functools.wraps(f)
    def wrapper(*args):
        return f(*args)
    return wrapper


@timed
def square(x):
    "Squares."
    return x * x


@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


c = Config(dropout=0.1)
print(c, asdict(c), replace(c, n_embd=4), sorted([Point(2, 1), Point(1, 5)]))
try:
    Point(1).x = 3
except Exception as e:
    print(type(e).__name__, e)
print(Version(2) >= Version(1), square(7), square.__name__, fib(30))
P = namedtuple("P", "x y", defaults=[0])


class Q(P):
    def norm(self):
        return abs(self.x) + abs(self.y)


print(P(1), Q(3, -4).norm(), Q(3, -4))
counts = Counter("hello world")
print(counts.most_common(2), OrderedDict(a=1, b=2), dict(defaultdict(int, a=3)))
d = deque(range(5), maxlen=3)
d.append(9)
print(d, list(itertools.islice(itertools.count(10, 2), 3)), list(itertools.chain([1], (2, 3))))
print(list(itertools.product("ab", repeat=2)), list(itertools.accumulate([1, 2, 3])),
      list(itertools.repeat("x", 3)), list(itertools.islice(itertools.cycle("ab"), 5)))
print(functools.reduce(lambda a, b: a * b, range(1, 6)), functools.partial(pow, 2)(10))
print(statistics.mean([1, 2, 3, 4]), statistics.median([3, 1, 2]), round(statistics.stdev([1.0, 2.0, 4.0]), 6))
print(string.ascii_lowercase[:5], string.digits, string.capwords("hello there"))
nested = {"a": [1, [2, 3]]}
deep, shallow = copy.deepcopy(nested), copy.copy(nested)
nested["a"][1].append(4)
print(deep, shallow, typing.cast(int, "no check"), typing.TYPE_CHECKING)
start = time.perf_counter()
time.sleep(0.01)
print(time.perf_counter() - start >= 0.01, isinstance(time.time(), float))
""",
    "private_attributes_of_own_classes": """
from collections import namedtuple


class Counter:
    _made = 0
    _names = []

    def __init__(self, name):
        self._name = name
        self._count = 0
        Counter._made += 1
        self.__class__._names.append(name)

    def _bump(self, by=1):
        self._count += by
        return self

    @property
    def _label(self):
        return f"{self._name}={self._count}"

    def __repr__(self):
        return self._bump(2)._label


class Child(Counter):
    def _bump(self, by=1):
        return super()._bump(10 * by)

    def _relabel(self):
        try:
            super()._name = "no"
        except AttributeError as e:
            print(e)
        try:
            return super()._missing
        except AttributeError as e:
            print(e)


a, b = Counter("a"), Child("b")
a._bump()._bump()
b._bump()
b._relabel()
del a._count
a._count = 7
print(a, b, Counter._made, Counter._names, getattr(b, "_count"), hasattr(a, "_missing"), hasattr(a, "_name"))
try:
    a._missing
except AttributeError as e:
    print(e)
P = namedtuple("P", "x y")
p = P(1, 2)
print(p._replace(x=5), p._asdict(), P._fields, P._make([3, 4]))
""",
}


@pytest.mark.parametrize("name", sorted(ON_FAKE))
def test_learner_language_runs_as_in_plain_python(name):
    source = ON_FAKE[name]
    assert run(source, limits=Limits(max_seconds=5)) == run_plain(source, FAKE)


def test_future_imports_are_directives_to_the_compiler():
    source = ("from __future__ import annotations, print_function, division\n"
              "def f(x: not_defined) -> int:\n    return x / 2\nprint(f(1), f.__name__, annotations.optional)\n")
    assert run(source) == "0.5 f (3, 7, 0, 'beta', 1)\n"


# --- on the engine: the same output as real PyTorch -----------------------------------------------------

WITH_TORCH = {
    "protocol_methods_called_by_name": """
import torch
from torch.utils.data import DataLoader, TensorDataset

class Squares:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor(float(i * i))

data = TensorDataset(torch.arange(6.0).reshape(3, 2), torch.tensor([0, 1, 0]))
print(data.__len__(), data.__getitem__(1), Squares(4).__len__(), Squares(4).__getitem__(3))
it = DataLoader(data, batch_size=2).__iter__()
print(it.__next__(), next(it), type(it).__name__, [1, 2].__len__(), (3, 4).__getitem__(-1))
words = iter(["a", "b"])
print(words.__next__(), "ab".__iter__().__next__())
try:
    it.next()
except AttributeError as e:
    print(e)
try:
    (5).__iter__()
except AttributeError as e:
    print(e)
""",
    "private_methods_of_a_module": """
import torch
import torch.nn as nn

class Net(nn.Module):
    _instances = 0

    def __init__(self):
        super().__init__()
        self.fc = self._make_layer(2, 3)
        self._cache = {}
        Net._instances += 1
        self.apply(self._init_weights)

    def _make_layer(self, i, o):
        return nn.Sequential(nn.Linear(i, o), nn.ReLU())

    def _init_weights(self, m):
        if isinstance(m, nn.Linear):
            nn.init.constant_(m.weight, 0.5)

    @property
    def _size(self):
        return len(self._cache)

    def forward(self, x):
        self._cache["last"] = x.shape
        return self.fc(x).sum()

torch.manual_seed(0)
net = Net()
out = net(torch.ones(1, 2))
out.backward()
print(out, net._size, Net._instances, getattr(net, "_cache"), hasattr(net, "_nothing"))
""",
    "standard_library_in_a_training_script": """
import copy
import itertools
import time
from collections import OrderedDict
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    hidden: int = 4
    lr: float = 0.1
    epochs: int = 3


cfg = Config()
torch.manual_seed(0)
encoder = nn.Sequential(OrderedDict([("fc1", nn.Linear(2, cfg.hidden)), ("act", nn.Tanh())]))
head = nn.Linear(cfg.hidden, 1)
print(encoder)
opt = torch.optim.SGD(itertools.chain(encoder.parameters(), head.parameters()), lr=cfg.lr)
x, y = torch.randn(8, 2), torch.randn(8, 1)
best, best_loss = None, float("inf")
start = time.time()
for epoch in range(cfg.epochs):
    loss = F.mse_loss(head(encoder(x)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if loss.item() < best_loss:
        best_loss, best = loss.item(), copy.deepcopy(encoder.state_dict())
    print(f"epoch {epoch}: {loss.item():.4f}")
encoder.load_state_dict(best)
clone = copy.deepcopy(head)
print(clone.weight.requires_grad, clone.weight.grad is not None, torch.equal(clone.weight, head.weight))
print(encoder.fc1.weight, time.time() - start < 60)
w = torch.ones(2, requires_grad=True)
try:
    copy.deepcopy(w * 2)
except RuntimeError as e:
    print(e)
""",
"module_training_loop": '''
import torch
import torch.nn as nn

class TwoLayer(nn.Module):
    """A learner's network: parameters set by hand, so that torch and the engine start alike."""

    def __init__(self):
        super().__init__()
        self.w1 = nn.Parameter(torch.tensor([[0.5, -0.25], [0.125, 0.75]]))
        self.b1 = nn.Parameter(torch.tensor([0.1, -0.1]))
        self.w2 = nn.Parameter(torch.tensor([0.3, -0.6]))

    def forward(self, x):
        h = torch.tanh(x @ self.w1 + self.b1)
        return h @ self.w2

model = TwoLayer()
print(model)
print([name for name, _ in model.named_parameters()])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.0, -1.5]])
y = torch.tensor([1.0, -1.0, 0.5])
for epoch in range(5):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print("epoch {}: loss {:.4f}".format(epoch, loss.item()), type(loss.grad_fn).__name__)
print(model.w2.grad, isinstance(model, nn.Module), type(model).__name__, model.__class__.__name__)
''',
"no_grad_decorator": '''
import torch

w = torch.tensor([1.0, -2.0], requires_grad=True)

@torch.no_grad()
def evaluate(v):
    out = (v * w).sum()
    return out, out.requires_grad, torch.is_grad_enabled()

@torch.enable_grad()
def train_step(v):
    return (v * w).sum()

print(evaluate(torch.tensor([3.0, 4.0])))
with torch.no_grad():
    inside = train_step(torch.tensor([1.0, 1.0]))
print(inside.requires_grad, inside.grad_fn.name(), evaluate.__name__, train_step.__name__)
inside.backward()
print(w.grad)
''',
"grad_fn_names": '''
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * 2).exp()
z = y.sum()
print(type(y.grad_fn).__name__, y.grad_fn.__class__.__name__, type(z.grad_fn).__name__)
print(type(x) == torch.Tensor, type(x) is torch.Tensor, type(x.grad_fn), isinstance(x, torch.Tensor))
node = z.grad_fn
while node is not None:
    print(type(node).__name__, len(node.next_functions))
    node = node.next_functions[0][0] if node.next_functions else None
print(type(1.5).__name__, type(z.item()).__name__, type([]).__name__)
''',
"format_numbers_and_tensors": '''
import torch

loss = torch.tensor(0.123456, requires_grad=True) * 2
print("{:.4f}".format(loss.item()))
print("{:.3f} {:>8.2f} {}".format(loss, loss.item(), [1, 2]))
print("{0} {0!r} {name:.2e}".format(1.5, name=loss.item()))
print(format(loss.item(), ".3f"), str.format("{}-{}", "a", "b"), f"{loss.item():.5f}")
''',
"saved_tensors": '''
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([0.5, 0.5, 2.0], requires_grad=True)
y = a * b
print(y.grad_fn._saved_self is a, y.grad_fn._saved_other is b)
print(y.grad_fn._saved_self, y.grad_fn._saved_other)
e = torch.exp(a)
print(e.grad_fn._saved_result.equal(e))
v = a[1:]
print(a._base is None, v._base is a)
''',
"dataset_and_generators": '''
import torch

class Squares:
    """A Dataset-style class: __len__ and __getitem__."""

    def __init__(self, n):
        self.xs = [torch.tensor(float(i)) for i in range(n)]

    def __len__(self):
        return len(self.xs)

    def __getitem__(self, i):
        x = self.xs[i]
        return x, x * x

def batches(data, size):
    for start in range(0, len(data), size):
        yield [data[i] for i in range(start, min(start + size, len(data)))]

w = torch.tensor(0.5, requires_grad=True)
data = Squares(5)
print(len(data), data[2])
for batch in batches(data, 2):
    loss = sum((w * x - y) ** 2 for x, y in batch)
    loss.backward()
    print(len(batch), round(loss.item(), 4), round(w.grad.item(), 4))
    with torch.no_grad():
        w -= 0.01 * w.grad
    w.grad = None
print(round(w.item(), 4))
''',
"custom_helpers": '''
import torch

class Counter:
    count = 0

    def __init__(self):
        Counter.count += 1
        self.id = Counter.count

    @staticmethod
    def describe():
        return "counter"

    @classmethod
    def made(cls):
        return cls.count

    @property
    def label(self):
        return "c{}".format(self.id)

class LossError(ValueError):
    def __init__(self, value):
        super().__init__("loss is {:.2f}".format(value))
        self.value = value

def scaled(factor):
    def decorate(fn):
        def wrapper(*args):
            return fn(*args) * factor
        return wrapper
    return decorate

@scaled(10)
def loss_of(x):
    return (x ** 2).sum()

total = 0
def add(v):
    global total
    total += v
    return total

c1, c2 = Counter(), Counter()
print(Counter.describe(), Counter.made(), c1.label, c2.label, hasattr(c1, "label"), getattr(c2, "id"))
x = torch.tensor([1.0, 2.0], requires_grad=True)
l = loss_of(x)
l.backward()
print(l, x.grad, add(1), add(2))
try:
    raise LossError(l.item())
except ValueError as e:
    print(type(e).__name__, e, e.value)
it = iter([x, x * 2])
print(next(it).sum().item(), next(it).sum().item())
''',
"micrograd_value": '''
import torch

class Value:
    """micrograd's scalar: what a learner writes to understand autograd, checked against torch."""

    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self.prev = children
        self.backward_step = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other))
        def backward_step():
            self.grad += out.grad
            other.grad += out.grad
        out.backward_step = backward_step
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other))
        def backward_step():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out.backward_step = backward_step
        return out

    def __pow__(self, k):
        out = Value(self.data ** k, (self,))
        def backward_step():
            self.grad += k * self.data ** (k - 1) * out.grad
        out.backward_step = backward_step
        return out

    __radd__ = __add__
    __rmul__ = __mul__

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def backward(self):
        order, seen = [], set()
        def visit(v):
            if id(v) not in seen:
                seen.add(id(v))
                for child in v.prev:
                    visit(child)
                order.append(v)
        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            v.backward_step()

    def __repr__(self):
        return "Value(data={:.4f}, grad={:.4f})".format(self.data, self.grad)

a, b = Value(2.0), Value(-3.0)
c = a * b + a ** 2 - 1 + 2 * b
c.backward()
ta = torch.tensor(2.0, requires_grad=True)
tb = torch.tensor(-3.0, requires_grad=True)
tc = ta * tb + ta ** 2 - 1 + 2 * tb
tc.backward()
print(a, b, c)
print(ta.grad.item() == a.grad, tb.grad.item() == b.grad, tc.item() == c.data)
''',
}


@pytest.mark.parametrize("name", sorted(WITH_TORCH))
def test_learner_programs_print_what_torch_prints(name):
    from tests.trace.torch_side import mask, run_torch

    source = WITH_TORCH[name]
    timeline = trace(source)
    want_out, want_exc, _ = run_torch(source)
    assert timeline.error is None and want_exc is None, (timeline.error, want_exc)
    assert printed_alike(mask(timeline.output), want_out), (timeline.output, want_out)
    check_timeline(timeline, every_k=False)


def test_a_module_subclass_shows_its_graph_and_its_parameters_by_name():
    timeline = trace(WITH_TORCH["module_training_loop"])
    names = {ev.get("name") for ev in timeline.events}
    assert {"model.w1", "model.b1", "model.w2", "loss"} <= names
    assert not any(name and name.startswith("self.") for name in names)
    last = state_at(timeline, len(timeline.events) - 1)
    assert last["grads"]["model.w2"] is not None


def test_grad_fn_class_names_and_format_run_end_to_end():
    timeline = trace("import torch\nx = torch.tensor(1.5, requires_grad=True)\ny = x.exp() * 2\n"
                     "print(type(y.grad_fn).__name__)\nloss = (y - 1) ** 2\n"
                     "print(\"{:.4f}\".format(loss.item()))\n")
    assert timeline.error is None
    assert timeline.output == f"MulBackward0\n{(2 * 2.718281828459045 ** 1.5 - 1) ** 2:.4f}\n"


# --- a refused statement costs that statement, not the program --------------------------------------

MIDDLE = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
import subprocess
print("never")
"""


def test_a_refused_statement_runs_everything_before_it():
    timeline = trace(MIDDLE)
    kinds = [ev["kind"] for ev in timeline.events]
    assert kinds[:2] == ["leaf", "op"] and "backward" in kinds and "grad" in kinds
    assert timeline.output == "tensor([2., 4.])\n"
    error = timeline.events[-1]
    assert (error["kind"], error["type"], error["line"]) == ("error", "GuardError", 6)
    assert error["message"] == (f"imports other than {IMPORTABLE} are not allowed ('subprocess'): it reaches outside "
                                "the program (processes, the network, threads or the interpreter itself)")
    assert IMPORTABLE.startswith("torch, torchvision, math, random, numpy, matplotlib.pyplot, tqdm, "
                                 "io (BytesIO, StringIO), os, ")
    assert all(ev["line"] is None or ev["line"] < 6 for ev in timeline.events[:-1])
    check_timeline(timeline)


def test_a_refused_statement_in_a_function_costs_only_when_it_runs():
    source = ("import torch\ndef risky(flag):\n    if flag:\n        return globals()\n    return 1\n"
              "print(risky(False))\nprint(risky(True))\nprint('never')\n")
    timeline = trace(source)
    assert timeline.output == "1\n"
    assert (timeline.error["type"], timeline.error["line"]) == ("GuardError", 4)
    assert "'globals' is not allowed" in timeline.error["message"]


def test_a_refused_method_fails_when_its_class_is_made():
    timeline = trace("print(1)\nclass A:\n    def ok(self):\n        return 1\n    def __del__(self):\n"
                     "        pass\nprint(2)\n")
    assert timeline.output == "1\n"
    assert (timeline.error["line"], timeline.error["message"]) == (
        5, "a class may not define '__del__' (see which dunder methods it may define in docs/security.md)")


def test_a_refused_statement_cannot_be_caught():
    timeline = trace("try:\n    x = ().__class__.__bases__\nexcept Exception:\n    print('caught')\n")
    assert timeline.output == "" and timeline.error["line"] == 2


def test_bad_syntax_still_fails_the_whole_program():
    for source, line in (("print(1)\nx = (\n", 2), ("print(1)\nimport socket\ndef f():\n    nonlocal q\n", 4)):
        timeline = trace(source)
        assert [ev["kind"] for ev in timeline.events] == ["error"]
        assert (timeline.error["type"], timeline.error["line"]) == ("SyntaxError", line)
    with pytest.raises(GuardSyntaxError):
        guard.load("x = (")


def test_check_refuses_a_whole_program_at_its_first_refused_statement():
    with pytest.raises(GuardError, match="line 2: .*'socket'"):
        guard.check("x = 1\nimport socket\nimport subprocess\n")
    program = guard.load("x = 1\nimport socket\nimport subprocess\n")
    assert [e.line for e in program.refusals] == [2, 3]


@pytest.mark.parametrize("tail,line,words", [
    ("m._backward_hooks", 5, "('_backward_hooks'): only those of the program's own"),
    ("m._forward_hooks = {}", 5, "('_forward_hooks'): only those of the program's own"),
    ("m._check_name('x', 'y', 'z')", 5, "('_check_name'): only those of the program's own"),
    ("getattr(m, '_non_persistent_buffers_set')", 5, "('_non_persistent_buffers_set'): only those of the program's"),
    ("M._hook = print", 5, "('_hook'): only those of the program's own"),
    ("class F(torch.autograd.Function):\n    pass\nF._backward_cls = M", 7,
     "('_backward_cls'): only those of the program's own"),  # set on F by Function's __init_subclass__
    ("class F(torch.autograd.Function):\n    pass\nprint(F._backward_cls)", 7,
     "('_backward_cls'): only those of the program's own"),
    ("class N(M):\n    def f(self):\n        return super()._named_members\nN().f()", 7,
     "('_named_members'): only those of the program's own"),
])
def test_the_engines_private_attributes_stay_out_of_reach_of_a_programs_subclass(tail, line, words):
    timeline = trace("import torch\nclass M(torch.nn.Module):\n    pass\nm = M()\n" + tail)
    assert (timeline.error["type"], timeline.error["line"]) == ("GuardError", line)
    assert words in timeline.error["message"]


def test_a_programs_subclass_may_not_redefine_what_the_engine_uses():
    timeline = trace("import torch\nclass M(torch.nn.Module):\n    def _named_members(self, *a):\n        return []\n")
    assert (timeline.error["type"], timeline.error["line"]) == ("GuardError", 2)
    assert "may not redefine '_named_members', which Module uses itself" in timeline.error["message"]


def test_a_program_reads_the_versions_of_torch_and_numpy():
    import numpy as np

    timeline = trace("import torch\nimport numpy as np\nprint(torch.__version__, np.__version__)")
    assert timeline.error is None and timeline.output == f"2.13.0+cpu {np.__version__}\n"


def test_a_notebooks_ipython_lines_matplotlib_inline_and_installs_pass_the_others_stop_at_their_line():
    source = ("%matplotlib inline\n!pip install torch numpy\nimport torch\nx = torch.ones(2)\nprint(x.sum())\n"
              "%pip install -q matplotlib\n!wget https://example.com/data.csv\nprint('not reached')\n")
    timeline = trace(source)
    assert timeline.output == "tensor(2.)\n"
    assert (timeline.error["type"], timeline.error["line"]) == ("GuardError", 7)
    assert timeline.error["message"] == ("!wget is a command of IPython (a notebook's), not Python: the explorer "
                                         "runs Python")
    refused = trace("!pip install d2l\nimport d2l\n").error
    assert (refused["line"], "'d2l'" in refused["message"]) == (2, True)
    assert trace("%matplotlib inline\nprint(1)\n").output == "1\n"
    assert trace("def f():\n    %timeit 1\nprint(2)\n").output == "2\n"  # refused when it runs, not before
    broken = trace("%matplotlib inline\nx = (\n")
    assert (broken.error["type"], broken.error["line"]) == ("SyntaxError", 2)
    assert trace("x = (5\n% 3)\nprint(x)\n").output == "2\n"  # Python's own % at the start of a line
