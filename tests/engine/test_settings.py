"""torch's process-wide settings against torch: set_printoptions, the default dtype, torch.backends' flags,
deterministic algorithms, threads, float32 matmul precision and torch.compile (run eagerly)."""
import pytest
import torch
from difftest import run_both

from engine import dtypes, printing, settings
from engine.backends import flags

# Each program ends by putting the defaults back, on torch and on the engine alike (see the fixture).
RESET = ("import torch\ntorch.set_printoptions(profile='default')\ntorch.set_default_dtype(torch.float32)\n"
         "torch.use_deterministic_algorithms(False)\n")

VALUES = """
torch.manual_seed(0)
for t in [torch.tensor(3.14159), torch.tensor([1e-9, 1.0]), torch.tensor([1e10, 1.0]), torch.arange(12),
          torch.randn(4, 9), torch.randn(3, 4, 5) * 1e5, torch.arange(2000.), torch.arange(30).reshape(5, 6),
          torch.tensor([True, False]), torch.tensor([[0.5, -1.25], [100.0, 3.0]], dtype=torch.float64),
          torch.zeros(0, 3), torch.randn(2, 3, requires_grad=True) * 2, torch.tensor([float('nan'), float('inf')]),
          torch.randn(50, 50), torch.tensor([123456.789, 0.001])]:
    print(t)
"""

OPTIONS = ["precision=2", "precision=0", "precision=10", "sci_mode=True", "sci_mode=False", "linewidth=40",
           "linewidth=200", "threshold=10", "threshold=10, edgeitems=1", "edgeitems=0, threshold=5",
           "profile='short'", "profile='full', linewidth=120", "profile='short', precision=6"]


@pytest.fixture(autouse=True)
def defaults():
    yield
    run_both(RESET)
    # a compiled call in torch turns off the distributions' argument checks for the whole process (Dynamo's doing)
    torch.distributions.Distribution.set_default_validate_args(True)


def _same(source):
    want, got = run_both(RESET + source)
    assert got.exc == want.exc
    assert got.stdout == want.stdout
    # torch's own imports (Dynamo's) warn of its deprecations: not the program's
    assert got.warnings == [w for w in want.warnings if w[0] != "DeprecationWarning"]
    return got


@pytest.mark.parametrize("options", OPTIONS)
def test_printed_text_under_set_printoptions(options):
    _same(f"torch.set_printoptions({options})\n" + VALUES)


def test_printoptions_last_until_changed_and_sci_mode_resets():
    _same("torch.set_printoptions(precision=2, sci_mode=True)\nprint(torch.tensor([1.5, 2.25]))\n"
          "torch.set_printoptions(linewidth=30)\nprint(torch.tensor([1.5, 2.25]))\n"
          "torch.set_printoptions(profile='default')\nprint(torch.tensor([1.12345]), torch.arange(10))\n")


DEFAULT_DTYPE = """
print(torch.get_default_dtype())
torch.set_default_dtype(torch.float64)
print(torch.get_default_dtype(), torch.tensor([1., 2.]), torch.tensor([1, 2]) / 2, torch.ones(2), torch.zeros(1, 2))
print(torch.Tensor([1]).dtype, torch.FloatTensor([1]).dtype, torch.arange(0., 3), torch.linspace(0, 1, 3).dtype)
print(torch.empty(2).dtype, torch.eye(2), torch.full((2,), 1.5), torch.tensor(3).exp(), torch.tensor([1]).sqrt())
print(torch.tensor([1., 2.], dtype=torch.float32), torch.tensor(1) * 1.5, torch.tensor([1.], dtype=torch.float32) + 1.0)
print(torch.tensor([1.], dtype=torch.float32) + torch.tensor(1.0), torch.tensor([1, 2]).float().mean())
torch.manual_seed(0)
print(torch.randn(3), torch.rand(2), torch.nn.Linear(2, 2).weight.dtype)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 2).sum()
y.backward()
print(y, x.grad, torch.zeros(0), torch.zeros(0, dtype=torch.float32))
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.5]), torch.zeros(0, dtype=torch.float64))
"""


def test_default_dtype_changes_factories_literals_and_promotion():
    _same(DEFAULT_DTYPE)


@pytest.mark.parametrize("bad", ["torch.int64", "'float'", "None", "torch.bool"])
def test_set_default_dtype_refuses_what_torch_refuses(bad):
    assert _same(f"torch.set_default_dtype({bad})\n").exc is not None


FLAGS = """
import torch.backends.cudnn as cudnn
print(cudnn.deterministic, cudnn.benchmark, cudnn.enabled, cudnn.allow_tf32, cudnn.is_available(), cudnn.version())
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
print(torch.backends.cudnn.deterministic, cudnn.deterministic)
print(torch.backends.mps.is_available(), torch.backends.mps.is_built(), torch.backends.cuda.is_built())
print(torch.backends.cuda.matmul.allow_tf32, torch.backends.mkldnn.is_available(), torch.backends.mkldnn.enabled)
print(torch.backends.openmp.is_available())
torch.backends.cuda.matmul.allow_tf32 = True
print(torch.backends.cuda.matmul.allow_tf32)
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.deterministic = False
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(True, warn_only=True)
print(torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(False)
torch.set_num_threads(1)
print(torch.get_num_threads())
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision('high')
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision('nonsense')
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision('highest')
"""


def test_backend_flags_and_switches():
    _same(FLAGS)


@pytest.mark.parametrize("bad", [
    "torch.backends.cudnn.benchmark = 1", "torch.backends.cudnn.deterministic = None",
    "torch.backends.cudnn.enabled = 'yes'", "torch.backends.cudnn.allow_tf32 = 0",
    "torch.backends.mkldnn.enabled = 1", "torch.backends.cuda.matmul.allow_tf32 = 1",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = 1", "torch.backends.cuda.matmul.foo",
    "torch.use_deterministic_algorithms('yes')", "torch.use_deterministic_algorithms(True, True)",
    "torch.set_num_threads(0)", "torch.set_num_threads(1.5)", "torch.set_float32_matmul_precision(3)",
])
def test_switches_refuse_as_torch_does(bad):
    assert _same(bad + "\n").exc is not None


COMPILE = """
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
compiled = torch.compile(model)
print(type(compiled).__name__)
print(compiled)
print(list(compiled.state_dict()), [n for n, _ in compiled.named_parameters()])
print(compiled._orig_mod is model, compiled[0] is model[0], compiled.training, compiled.eval().training, model.training)
x = torch.ones(2, 3)
print(torch.equal(torch.compile(model, backend="eager")(x), model(x)))

@torch.compile(backend="eager")
def f(x):
    return torch.sin(x) ** 2 + torch.cos(x) ** 2

@torch.compile(backend="eager", fullgraph=True)
def g(x):
    return x * 2

y = torch.tensor([0.5, 1.0], requires_grad=True)
z = f(y).sum()
z.backward()
print(f.__name__, z.detach(), y.grad, g(torch.tensor(3.0)))
"""


def test_compile_runs_the_same_math():
    _same(COMPILE)


@pytest.mark.parametrize("bad", ["torch.compile(3)", "torch.compile(abs, mode='fast')",
                                 "torch.compile(abs, mode='default', options={})"])
def test_compile_refuses_as_torch_does(bad):
    assert _same(bad + "\n").exc is not None


FLUSH_DENORMAL = """
import torch
for v in (1, None):
    try:
        print(torch.set_flush_denormal(v))
    except RuntimeError as e:
        print(e)
x = torch.tensor([1e-320, 2.0, -1e-315], dtype=torch.float64)
print(x, torch.tensor([1e-40, -1e-41]))
print(torch.set_flush_denormal(True))
print(torch.tensor([1e-323], dtype=torch.float64), torch.tensor([1e-40, -1e-41]), torch.tensor([3e-39]) / 2)
print(x * 1, x + 0, x.sum(), x * 1e300, -x * 1, torch.tensor([1e-30]) * 1e-10)
a = torch.tensor([1e-20], requires_grad=True)
(a * a * 1e-10).sum().backward()
print(a.grad)
print(torch.set_flush_denormal(False), torch.tensor([1e-323], dtype=torch.float64), torch.tensor([1e-40]) * 1, x * 1)
"""


def test_flush_denormal_reads_and_makes_denormals_as_zeros():
    _same(FLUSH_DENORMAL)


def test_the_engine_state_is_back_to_its_defaults():
    assert dtypes.DEFAULT == [dtypes.float32] and printing.PRINT_OPTS.precision == 4
    assert not settings.STATE["deterministic"] and not flags.FLAGS["cudnn.deterministic"]
