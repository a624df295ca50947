"""The runner's admitted surface as an inventory: each standard-library module and numpy namespace tutorials
import, with a harmless program that must run through the runner and print what plain Python prints; each
module that reaches outside, refused at its import with its reason; and what the admitted views hold back."""
from __future__ import annotations

import contextlib
import io

import pytest

from engine.trace import run
from engine.trace.importable import REFUSED_MODULES, STDLIB_NAMES

ADMITTED = {
    "math": "import math\nprint(math.sqrt(2), math.factorial(5), math.isclose(0.1 + 0.2, 0.3))",
    "random": "import random\nrandom.seed(3)\nprint(random.random(), random.choice('abc'), random.sample(range(9), 3))",
    "collections": "from collections import Counter, OrderedDict, defaultdict, deque, namedtuple\n"
                   "d = defaultdict(list)\nd['a'].append(1)\nP = namedtuple('P', 'x y')\n"
                   "print(Counter('abca').most_common(1), deque([1, 2], maxlen=1), dict(d), P(1, 2)._asdict(),\n"
                   "      OrderedDict(b=1))",
    "itertools": "import itertools\nprint(list(itertools.product([1, 2], repeat=2)), list(itertools.islice(\n"
                 "    itertools.count(), 3)), list(itertools.accumulate([1, 2, 3])))",
    "functools": "import functools\n@functools.lru_cache(maxsize=None)\ndef fib(n):\n"
                 "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
                 "print(fib(30), functools.reduce(lambda a, b: a * b, [1, 2, 3, 4]), functools.partial(pow, 2)(5))",
    "dataclasses": "from dataclasses import dataclass, field, asdict\n@dataclass\nclass Config:\n    lr: float = 0.1\n"
                   "    layers: list = field(default_factory=lambda: [4, 2])\nprint(Config(), asdict(Config(lr=1.0)))",
    "types": "from types import SimpleNamespace\ncfg = SimpleNamespace(lr=0.1)\ncfg.epochs = 2\nprint(cfg, vars(cfg))",
    "typing": "from typing import Dict, List, Optional, Tuple\n"
              "def f(x: Optional[List[int]] = None) -> Tuple[int, Dict[str, int]]:\n    return 1, {'a': 2}\nprint(f())",
    "enum": "from enum import Enum, IntEnum, auto\nclass Phase(Enum):\n    TRAIN = auto()\n    EVAL = auto()\n"
            "class Level(IntEnum):\n    LOW = 1\n    HIGH = 2\n"
            "print(Phase.TRAIN, Phase['EVAL'].value, list(Phase), Level.HIGH > Level.LOW, Phase(1).name)",
    "time": "import time\nstart = time.perf_counter()\ntime.sleep(0.001)\nprint(time.perf_counter() > start)",
    "copy": "import copy\na = [[1, 2]]\nb = copy.deepcopy(a)\nb[0].append(3)\nprint(a, b, copy.copy(a) is a)",
    "statistics": "import statistics\nprint(statistics.mean([1, 2, 4]), statistics.stdev([1.0, 2.0, 4.0]),\n"
                  "      statistics.median([3, 1, 2]))",
    "string": "import string\nprint(string.ascii_lowercase[:5], string.capwords('hello world'), string.digits)",
    "textwrap": "import textwrap\nprint(textwrap.dedent('''\n    a\n      b'''),\n"
                "      textwrap.fill('the quick brown fox', 10))\n"
                "print(textwrap.indent('x\\ny', '> '), textwrap.shorten('hello world again', 12), "
                "textwrap.wrap('a b c', 3))",
    "pprint": "import pprint\npprint.pprint({'layers': [64, 32], 'lr': 0.001, 'name': 'mlp' * 10})\n"
              "print(pprint.pformat(list(range(30)), width=40))\npprint.pp({'b': 1, 'a': 2})",
    "json": "import json\ntext = json.dumps({'loss': [0.5, 0.25], 'ok': True, 'none': None}, indent=2,\n"
            "                  sort_keys=True)\n"
            "print(text, json.loads(text)['loss'])\ntry:\n    json.loads('{')\nexcept json.JSONDecodeError as e:\n"
            "    print('bad', e.msg)",
    "operator": "import operator\nfrom functools import reduce\nrows = [(2, 'b'), (1, 'a')]\n"
                "print(sorted(rows, key=operator.itemgetter(0)), reduce(operator.mul, [1, 2, 3]), operator.add(2, 3),\n"
                "      operator.neg(4), operator.pow(2, 10), operator.contains([1], 1), operator.truth(0))",
    "abc": "from abc import ABC, abstractmethod\nclass Shape(ABC):\n    @abstractmethod\n    def area(self):\n"
           "        ...\nclass Square(Shape):\n    def area(self):\n        return 4\ntry:\n    Shape()\n"
           "except TypeError as e:\n    print('abstract')\nprint(Square().area(), isinstance(Square(), Shape))",
    "warnings": "import warnings\nwarnings.warn('this API is deprecated', DeprecationWarning)\nprint('after')",
    "numbers": "import numbers\nprint(isinstance(3, numbers.Integral), isinstance(2.5, numbers.Real),\n"
               "      isinstance('a', numbers.Number))",
    "heapq": "import heapq\nh = []\nfor x in [5, 1, 4]:\n    heapq.heappush(h, x)\n"
             "print(heapq.heappop(h), heapq.nsmallest(2, [9, 3, 7]), heapq.nlargest(1, [9, 3, 7]),\n"
             "      list(heapq.merge([1, 4], [2, 3])))",
    "bisect": "import bisect\na = [10, 20, 30]\nbisect.insort(a, 25)\n"
              "print(a, bisect.bisect_left(a, 20), bisect.bisect(a, 20))",
    "datetime": "import datetime\nd = datetime.date(2024, 2, 28) + datetime.timedelta(days=2)\n"
                "t = datetime.datetime(2024, 1, 1, 12, 30)\nprint(d, d.weekday(), t.strftime('%Y-%m-%d %H:%M'),\n"
                "      (t - datetime.datetime(2024, 1, 1)).total_seconds())",
    "inspect": "import inspect\nimport torch\nprint('fused' in inspect.signature(torch.optim.AdamW).parameters)\n"
               "def f(a, b=2, *, c=(1, 'x')):\n    return a\nsig = inspect.signature(f)\n"
               "print(sig, list(sig.parameters), sig.parameters['b'].default, sig.bind(1, b=3).arguments)",
    "sys": "import sys\nsys.stdout.write('predicted: ')\nsys.stdout.write('ihello\\n')\nsys.stdout.flush()\n"
           "print('x', file=sys.stdout)\nprint(sys.maxsize, sys.float_info.epsilon, sys.version_info >= (3, 8))",
    "numpy": "import numpy as np\na = np.arange(6).reshape(2, 3)\n"
             "print(a.sum(axis=0), np.mean(a), np.linspace(0, 1, 3))",
    "numpy.random": "import numpy as np\nnp.random.seed(0)\nrng = np.random.default_rng(1)\n"
                    "print(np.random.rand(2).round(4), rng.normal(size=2).round(4), rng.integers(0, 10, 3))",
    "numpy.linalg": "import numpy as np\nA = np.array([[2.0, 1.0], [1.0, 3.0]])\n"
                    "print(np.linalg.norm(A).round(6), np.linalg.inv(A).round(6), np.linalg.det(A).round(6),\n"
                    "      np.linalg.solve(A, np.ones(2)).round(6), np.linalg.eigh(A)[0].round(6))",
    "numpy.fft": "import numpy as np\nx = np.array([1.0, 2.0, 0.0, -1.0])\n"
                 "print(np.fft.fft(x), np.fft.rfft(x, n=8).shape, np.fft.fftfreq(4), np.fft.ifft(np.fft.fft(x)).real)",
    "numpy.testing": "import numpy as np\nnp.testing.assert_allclose(np.ones(3), np.ones(3) + 1e-9)\n"
                     "np.testing.assert_array_equal([1, 2], np.array([1, 2]))\ntry:\n"
                     "    np.testing.assert_allclose(np.ones(2), np.zeros(2))\nexcept AssertionError:\n"
                     "    print('differ')\nprint('done')",
}


def plain_python(source):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<program>", "exec"), {"__name__": "__main__"})  # noqa: S102 - the reference run
    return out.getvalue()


def test_the_inventory_names_every_admitted_standard_module():
    assert set(STDLIB_NAMES) - {"argparse", "unicodedata"} <= set(ADMITTED)


@pytest.mark.parametrize("name", sorted(ADMITTED))
def test_an_admitted_module_runs_as_in_python(name):
    timeline = run(ADMITTED[name])
    assert timeline.error is None, timeline.error
    assert timeline.output == plain_python(ADMITTED[name])


@pytest.mark.parametrize("name", sorted(REFUSED_MODULES))
def test_a_module_that_reaches_outside_is_refused_with_its_reason(name):
    timeline = run(f"print('before')\nimport {name}\nprint('after')")
    assert timeline.output == "before\n"
    assert timeline.error["type"] == "GuardError" and timeline.error["line"] == 2, timeline.error
    assert timeline.error["message"].endswith(f"not allowed ({name!r}): {REFUSED_MODULES[name]}")


HELD_BACK = {
    "pprint to a stream": ("import io, pprint\npprint.pprint([1], stream=io.StringIO())", "GuardError",
                           "program's output only"),
    "a huge json indent": ("import json\njson.dumps([1, [2]], indent=10**6)", "GuardError", "longer than 64"),
    "a huge textwrap indent": ("import textwrap\ntextwrap.indent('a\\n' * 10**4, 'x' * 10**4)", "BudgetExceeded",
                               "elements"),
    "a huge product through operator": ("import operator\noperator.mul('ab', 10**12)", "BudgetExceeded", "elements"),
    "a huge power through operator": ("import operator\noperator.pow(3, 10**9)", "BudgetExceeded", "bits"),
    "abstractmethod on another's function": ("import abc, math\nabc.abstractmethod(math.sqrt)", "GuardError",
                                             "own functions"),
    "numbers' registry": ("import numbers\nnumbers.Number.register(str)", "AttributeError", "register"),
    "sys's interpreter": ("import sys\nsys.modules", "AttributeError", "no attribute 'modules'"),
    "sys.stdout's own attributes": ("import sys\nsys.stdout.write = print", "GuardError", "setting attributes"),
    "json's file functions": ("from json import dump", "ImportError", "cannot import name 'dump'"),
    "numpy.fft sized": ("import numpy as np\nnp.fft.fft(np.ones(2), n=10**9)", "BudgetExceeded", "elements"),
    "a warnings filter's regular expression": ("import warnings\nwarnings.filterwarnings('ignore', message='(a+)+$')",
                                               "GuardError", "plain text with .* only"),
}


@pytest.mark.parametrize("name", sorted(HELD_BACK))
def test_what_the_admitted_views_hold_back(name):
    source, kind, words = HELD_BACK[name]
    timeline = run(source)
    assert timeline.error is not None and timeline.error["type"] == kind, timeline.error
    assert words in timeline.error["message"], timeline.error


def test_a_run_registers_only_with_its_own_abc():
    program = ("from abc import ABC\nclass Base(ABC):\n    pass\nBase.register(int)\n"
               "print(isinstance(1, Base), issubclass(int, ABC))")
    assert run(program).output == plain_python(program) == "True True\n"
    assert run("from abc import ABC\nprint(isinstance(1, ABC))").output == "False\n"


def test_a_program_filters_the_warnings_it_is_shown():
    """warnings.filterwarnings / simplefilter, as notebooks start: for this run only, as Python would."""
    program = "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\n{}print(y.grad)\n"
    shown = [e for e in run(program.format("")).events if e["kind"] == "warning"]
    assert [e["category"] for e in shown] == ["UserWarning"]
    for line in ("warnings.filterwarnings('ignore')\n", "warnings.filterwarnings('ignore', message='.*non-leaf.*')\n",
                 "warnings.simplefilter('ignore', UserWarning)\n"):
        timeline = run("import warnings\n" + program.format(line))
        assert timeline.error is None and not [e for e in timeline.events if e["kind"] == "warning"], line
    assert [e["kind"] for e in run(program.format("")).events].count("warning") == 1


def test_vars_reads_the_programs_own_objects():
    """`for arg in vars(args)`, as training scripts print their configuration; a copy of the attributes."""
    program = ("import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument('--lr', type=float, "
               "default=0.1)\nargs = parser.parse_args([])\nfor arg in vars(args):\n"
               "    print(arg, getattr(args, arg))\n"
               "class Config:\n    def __init__(self):\n        self.epochs = 3\nprint(vars(Config()), vars(args))")
    assert run(program).output == plain_python(program)


def test_delattr_deletes_what_a_del_statement_may():
    """delattr(model, name) then setattr, as the forward-AD tutorial swaps a Linear's parameters for dual tensors."""
    program = ("import torch\ntorch.manual_seed(0)\nm = torch.nn.Linear(2, 2)\n"
               "for name, p in list(m.named_parameters()):\n    delattr(m, name)\n"
               "    setattr(m, name, p.detach() * 2)\n"
               "print(m(torch.ones(1, 2)), list(m.parameters()))\n"
               "class Box:\n    pass\nb = Box()\nb.size = 3\ndelattr(b, 'size')\nprint(hasattr(b, 'size'))")
    assert run(program).output == plain_python(program)


def test_dir_lists_names_as_python_does():
    """`dir(optim)` and `dir(obj)` as tutorials look around: the same names (a module's view lists what it holds)."""
    program = ("import torch\nimport torch.optim as optim\nclass Config:\n    def __init__(self):\n"
               "        self.epochs = 3\nprint([n for n in dir(Config()) if not n.startswith('_')])\n"
               "print([n for n in dir(optim) if n in ('Adam', 'SGD', 'lr_scheduler')],\n"
               "      'backward' in dir(torch.ones(1)))")
    assert run(program).output == plain_python(program)


def test_setattr_sets_what_an_assignment_may():
    """setattr(self, 'fc%i' % i, fc), as tutorials register layers in a loop: the module holds them (its
    parameters, its printout), and a program's own objects and private attributes take it too."""
    program = ("import torch\nclass Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
               "        for i in range(2):\n            setattr(self, 'fc%i' % i, torch.nn.Linear(2, 2))\n"
               "        setattr(self, '_depth', 2)\nnet = Net()\nprint(net, len(list(net.parameters())), net._depth)\n"
               "class Box:\n    pass\nb = Box()\nsetattr(b, 'size', 3)\nprint(b.size, getattr(b, 'size'))")
    assert run(program).output == plain_python(program)


def test_a_simple_namespace_holds_a_configuration():
    """`types.SimpleNamespace` as scripts keep their settings: made, set, compared, printed and read by vars();
    the rest of `types` (FunctionType, CodeType: making functions from code objects) is not there."""
    program = ("import types\nfrom types import SimpleNamespace\ncfg = SimpleNamespace(lr=0.1, epochs=2)\n"
               "cfg.batch = 4\nprint(cfg, repr(cfg), vars(cfg))\n"
               "print(cfg == types.SimpleNamespace(lr=0.1, epochs=2, batch=4))")
    assert run(program).output == plain_python(program)
    assert "has no attribute 'FunctionType'" in run("import types\ntypes.FunctionType\n").error["message"]


def test_the_types_a_program_prints_are_torchs_and_numpys():
    """`print(type(x))`, as beginners' tutorials do: the engine's tensor, parameter, size, dtype and device classes and
    the runner's numpy array print as torch's and numpy's."""
    from engine.trace import run

    source = ("import torch\nimport numpy as np\nx = torch.ones(2)\n"
              "print(type(x), type(torch.nn.Parameter(x)), type(x.shape), type(x.dtype), type(torch.device('cpu')),"
              " type(np.zeros(2)), torch.Tensor, x.__class__)\n")
    assert run(source).output == (
        "<class 'torch.Tensor'> <class 'torch.nn.parameter.Parameter'> <class 'torch.Size'> <class 'torch.dtype'> "
        "<class 'torch.device'> <class 'numpy.ndarray'> <class 'torch.Tensor'> <class 'torch.Tensor'>\n")
