"""`import random` and `import numpy as np` in a program: the same output as plain Python with the real
modules (seeded alike), numbers that are the same every run and never reach the next run, numpy arrays from
tensors that share their memory, and imports of torch modules the engine does not have yet refused with
ImportError. What they refuse and size is in the runaway corpus (runaways.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.trace import run as trace
from engine.trace.guard import Limits
from engine.trace.numpy_view import numpy_views
from tests.trace.guard_fakes import FAKE, run, run_plain

NUMPY = """
import numpy as np
a = np.array([[1.0, 2.5], [3.0, -4.0]])
b = np.arange(4).reshape(2, 2)
print(a, repr(a), a.dtype, a.shape, a.ndim, a.size, len(a), a.T)
print(a + b, a * 2, a @ b, a.dot(b), np.dot(a, b), -a, abs(a), a ** 2, a / 3, a // 2, a % 2)
print(a.sum(), a.sum(axis=0), a.mean(), np.mean(a, axis=1), a.max(), a.argmin(), a.std(), np.var(a))
print(np.exp(a), np.log(np.abs(a)), np.sqrt(np.abs(a)), np.tanh(a), np.maximum(a, 0), np.sign(a))
print(a[0], a[0, 1], a[:, 1], a[[0, 1], [1, 0]], a[a > 0], a[..., None].shape, a.reshape(-1), a.ravel())
print(np.where(a > 0, a, 0), np.clip(a, -1, 1), np.concatenate([a, b]), np.stack([a, b]).shape)
print(np.zeros((2, 3)), np.ones(3, dtype=np.int64), np.full((2,), 7.0), np.eye(2), np.linspace(0, 1, 5))
print(np.zeros_like(a), np.ones_like(b), np.arange(0, 1, 0.25), np.empty(2).shape, np.identity(2))
print(np.sort(np.array([3, 1, 2])), np.argsort([3, 1, 2]), np.unique([1, 1, 2]), np.outer([1, 2], [3, 4]))
print(a.astype(np.float32), a.astype("int64"), np.array([1, 2], dtype=np.float32) / 3, np.pi)
print(isinstance(a, np.ndarray), type(a).__name__, a.tolist(), float(a[0, 0]), int(b[1, 1]), a.copy())
print(np.finfo(np.float32).eps.item(), np.finfo(float).tiny, np.iinfo(np.int64).max, np.finfo(a.dtype).max)
print(np.allclose(a, a + 1e-9), np.isnan(np.array([1.0, np.nan])), np.sum([1, 2, 3]), np.cumsum([1, 2, 3]))
m = np.array([1.0, 2.0, 3.0])
m[0] = 10
m[[1, 2]] = 0.5
m += 1
np.add(m, 1, out=m)
print(m, [float(x) for x in m], f"{m[0]:.3f}", np.round(m / 3, 2), np.tile([1, 2], 2), np.repeat([1, 2], 2))
g = np.meshgrid(np.linspace(0.05, 0.95, 3).round(2), [1, 2])
print(type(g).__name__, np.stack(g).shape, g[0], np.meshgrid([1, 2], [3, 4, 5], indexing="ij", sparse=True))
print(np.split(np.arange(6.0).reshape(6, 1), 6 / 2), np.array_split(np.arange(5), 2))
print(np.histogram([0.5, 1.5, 1.7, 3.0], 3, density=True), np.histogram([1, 2, 2], bins=[0, 1.5, 3]))
print(np.triu(np.ones((2, 3, 3)), k=1), np.tril(a), np.tril([[1, 2], [3, 4]], -1))
print(np.r_[np.ones(2), [3.0], 4], np.r_[0:3, 5], np.r_[0:1:5j], np.r_['0,2', [1, 2], [3, 4]], np.c_[[1, 2], [3, 4]])
print(np.append([1, 2], [[3, 4]]), np.append(np.ones((1, 2)), [[5, 6]], axis=0))
"""

NUMPY_RANDOM = """
import numpy as np
np.random.seed(3)
print(np.random.rand(2, 3), np.random.randn(2), np.random.randint(0, 10, size=5), np.random.random(2))
print(np.random.choice([1, 2, 3], 4), np.random.permutation(5), np.random.normal(0, 1, (2,)))
print(np.random.uniform(1, 2, size=3), np.random.standard_normal(2))
items = [1, 2, 3, 4]
np.random.shuffle(items)
print(items)
rng = np.random.default_rng(7)
print(rng.normal(size=3), rng.integers(0, 10, 4), rng.random(2), rng.permutation(4), rng.choice(5, 2))
own = np.random.RandomState(11)
print(own.uniform(low=-0.05, high=0.05, size=(4,)), own.rand(2), own.randint(0, 5, 3), own.choice(4, 2))
own.seed(2)
print(own.randn(2), own.normal(1.0, 2.0), own.permutation(3))
"""

PYTHON_RANDOM = """
import random
random.seed(42)
print(random.random(), random.randint(1, 6), random.choice('abc'), random.uniform(1, 2), random.gauss(0, 1))
items = list(range(10))
random.shuffle(items)
print(items, random.sample(range(10), 3), random.choices('xyz', k=4), random.randrange(0, 100, 5))
print(random.getrandbits(70), random.expovariate(2), random.normalvariate(1, 2), random.triangular())
"""


@pytest.mark.parametrize("source", [NUMPY, NUMPY_RANDOM, PYTHON_RANDOM], ids=["numpy", "numpy_random", "random"])
def test_the_same_output_as_plain_python(source):
    # (a budget of seconds, not QUICK's 0.15 s: after the corpus's big runs a garbage collection alone takes that)
    assert run(source, limits=Limits(max_seconds=5), modules=FAKE) == run_plain(source, {**FAKE, "numpy": np,
                                                                                         "random": random})


def test_numbers_are_the_same_every_run_and_seeded_zero():
    source = "import random\nimport numpy as np\nprint(random.random(), np.random.rand())\n"
    first, second = trace(source), trace(source)
    assert first.output == second.output
    expected = f"{random.Random(0).random()} {np.random.RandomState(0).rand()}\n"
    assert first.output == expected


def test_a_seed_does_not_reach_the_next_run():
    seeded = trace("import random\nimport numpy as np\nrandom.seed(5)\nnp.random.seed(5)\n")
    assert seeded.error is None
    after = trace("import random\nimport numpy as np\nprint(random.random(), np.random.rand())\n")
    assert after.output == f"{random.Random(0).random()} {np.random.RandomState(0).rand()}\n"


def test_arrays_and_tensors_share_memory_both_ways():
    source = ("import torch\nimport numpy as np\nt = torch.ones(3)\nn = t.numpy()\nt.add_(1)\nprint(n)\n"
              "a = np.ones(2)\nu = torch.from_numpy(a)\nnp.add(a, 1, out=a)\nprint(u, type(n).__name__)\n")
    timeline = trace(source)
    assert timeline.error is None
    assert timeline.output == "[2. 2. 2.]\ntensor([2., 2.], dtype=torch.float64) ndarray\n"


def test_numpy_holds_only_what_the_view_lists():
    names = set(vars(numpy_views(np.random.RandomState(0))["numpy"]))
    assert not names & {"lib", "load", "save", "fromfile", "frombuffer", "memmap", "ctypeslib", "loadtxt", "object_",
                        "vectorize", "frompyfunc", "einsum", "seterr"}
    assert {"array", "zeros", "empty", "exp", "sum", "random", "float32", "ndarray", "pi"} <= names
    view = numpy_views(np.random.RandomState(0))["numpy"]
    modules = {type(v).__module__.partition(".")[0] for v in vars(view).values()}
    assert modules <= {"numpy", "engine", "builtins"}


@pytest.mark.parametrize("module", ["torch.utils.data", "torch.optim.lr_scheduler", "torch.autograd.functional",
                                    "torch.autograd.graph", "torch.autograd.function"])
def test_torch_modules_the_engine_lacks_are_an_import_error(module):
    from engine.trace.guard import default_modules

    if module in default_modules():
        pytest.skip(f"the engine has {module} now")
    timeline = trace(f"try:\n    import {module}\nexcept ImportError as e:\n    print(e)\n")
    assert timeline.output == f"No module named {module!r} (the explorer does not have it yet)\n"


def test_empty_gives_zeros_not_what_memory_held():
    assert trace("import numpy as np\nprint(np.empty(3), np.empty_like(np.ones(2)))\n").output == "[0. 0. 0.] [0. 0.]\n"


NUMPY_SCALAR_TYPES = """import numpy as np
print(np.float32, np.zeros(2, dtype=np.int64).dtype, np.bool_)
a = np.float32([1.0, 2.5])
print(a, a.dtype, type(a).__name__, np.float32(2.5), np.int64(3) + 1)
print(a.astype(np.float64), np.array([1, 2], dtype=np.float32) / 3, a.dtype == np.float32, np.float32 == a.dtype)
print(np.finfo(np.float32).eps.item(), np.iinfo(np.int64).max, np.dtype(np.float32))
print(np.float32(np.expand_dims(np.ones(3), 0)).shape, np.ones(2, np.float32), np.full(2, 3, np.int32))
print(np.float32 in (np.float32, np.float64), np.asarray([1], dtype=np.uint8), np.float16(1.5))
"""


def test_numpy_scalar_types_convert_and_name_dtypes_as_numpy_does():
    """np.float32(state) (RL tutorials) converts as numpy does, and np.float32 works as dtype=, in astype and ==."""
    timeline = trace(NUMPY_SCALAR_TYPES)
    assert timeline.error is None and timeline.output == run_plain(NUMPY_SCALAR_TYPES, {})


def test_bincount_counts_as_numpy_does_and_is_charged_its_largest_value():
    program = ("import numpy as np\nprint(np.bincount(np.array([0, 1, 1, 3])), np.bincount([2, 2], minlength=5),\n"
               "      np.bincount(np.array([1, 0]), weights=np.array([0.5, 2.0])),\n"
               "      np.bincount(np.array([], dtype=int)))\n")
    assert trace(program).output == run_plain(program, {})
    timeline = trace("import numpy as np\nx = np.bincount(np.array([10**9]))\n")
    assert timeline.error["type"] == "BudgetExceeded" and timeline.error["line"] == 2
    timeline = trace("import numpy as np\nx = np.bincount(np.array([-1]))\n")
    assert timeline.error["type"] == "ValueError"


def test_a_numpy_scalar_type_called_on_a_huge_list_is_charged_its_size():
    timeline = trace("import numpy as np\nrow = [0.0] * 10**4\nx = np.float32([row] * 10**4)\n")
    assert timeline.error["type"] == "BudgetExceeded" and timeline.error["line"] == 3


