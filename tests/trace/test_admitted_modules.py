"""The modules admitted by the surface inventory (uuid, hashlib, fractions, decimal, numpy.typing, pickle of plain
values, shutil and tempfile over the run's files; torch.types,
torch.distributed, torch.utils.data.distributed, torch.multiprocessing, torch.nn.parallel, torch.nn.attention,
torch.profiler and torch.autograd.profiler) print what Python and torch 2.13 print; what the explorer does not do
raises at its line with its reason; the modules it refuses name their own reason."""
from __future__ import annotations

import re

import pytest

from engine.trace.importable import REFUSED_MODULES
from engine.trace.runner import run
from tests.engine.difftest import run_source
from tests.trace.test_admitted_surface import python

NUMBERS = """from fractions import Fraction
from decimal import Decimal, ROUND_HALF_UP, InvalidOperation
import fractions, decimal, uuid, hashlib
import numpy as np
import numpy.typing as npt
f = Fraction(1, 3) + Fraction('0.25')
print(f, repr(f), type(f), isinstance(f, Fraction), f ** 2, float(f))
print(Fraction(0.5), Fraction('1e3'), f.limit_denominator(5))
print(isinstance(Fraction(1, 2), fractions.Fraction), sum([Fraction(1, n) for n in range(1, 6)]), 2 ** Fraction(3))
d = Decimal('1.10') + Decimal('2.205')
print(d, repr(d), d.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP), isinstance(d, Decimal), type(d))
print(Decimal(1) / Decimal(7))
try:
    Decimal('abc')
except InvalidOperation as e:
    print('invalid', type(e).__name__)
print(uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org'), uuid.uuid3(uuid.NAMESPACE_URL, 'x'))
print(uuid.UUID('12345678123456781234567812345678'))
u = uuid.uuid4()
print(u.version, len(str(u)), u == uuid.UUID(str(u)))
print(hashlib.sha256(b'abc').hexdigest(), hashlib.md5('x'.encode()).hexdigest(), hashlib.new('sha1', b'a').hexdigest())
h = hashlib.sha256()
h.update(b'ab')
h.update(b'c')
print(h.hexdigest() == hashlib.sha256(b'abc').hexdigest(), h.name, h.digest_size)
def f(x: npt.NDArray[np.float32], y: npt.ArrayLike) -> npt.NDArray:
    return np.asarray(x)
print(f(np.ones(2), [1]), npt.NDArray[np.float32])
"""

TORCH = """import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data.distributed import DistributedSampler
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.nn.attention import sdpa_kernel, SDPBackend
from torch.profiler import record_function, ProfilerActivity
import torch.autograd.profiler as profiler
import torch.types
print(dist.is_available(), dist.is_initialized(), dist.is_nccl_available(), dist.ReduceOp.SUM)
for f in (dist.get_rank, dist.get_world_size, dist.barrier):
    try:
        f()
    except ValueError as e:
        print(type(e).__name__, e)
print(mp.get_start_method(allow_none=True), mp.get_all_start_methods())
mp.set_start_method('spawn', force=True)
print(mp.get_start_method())
ds = list(range(10))
s = DistributedSampler(ds, num_replicas=2, rank=1, shuffle=True, seed=0)
s.set_epoch(1)
print(list(s), len(s), list(DistributedSampler(ds, num_replicas=3, rank=2, shuffle=False)))
print(list(DistributedSampler(ds, num_replicas=3, rank=0, drop_last=True)))
print(torch.utils.data.DistributedSampler is DistributedSampler)
try:
    DistributedSampler(ds, num_replicas=2, rank=2)
except ValueError as e:
    print(e)
try:
    DistributedSampler(ds)
except ValueError as e:
    print(e)
loader = torch.utils.data.DataLoader(ds, batch_size=2, sampler=DistributedSampler(ds, num_replicas=2, rank=0))
print([b.tolist() for b in loader])
torch.manual_seed(0)
m = nn.Linear(2, 2)
dp = nn.DataParallel(m)
print(dp, dp.module is m, dp.device_ids, isinstance(dp, torch.nn.parallel.DataParallel))
print(dp(torch.ones(1, 2)))
try:
    DDP(m)
except ValueError as e:
    print(e)
model = m.module if isinstance(m, DDP) else m
print(model is m)
q = torch.randn(1, 2, 3, 4, requires_grad=True)
print(SDPBackend.MATH, repr(SDPBackend.FLASH_ATTENTION))
with sdpa_kernel(SDPBackend.MATH) as k:
    print(k, F.scaled_dot_product_attention(q, q, q).grad_fn.name())
with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]):
    print(F.scaled_dot_product_attention(q, q, q).grad_fn.name())
print(F.scaled_dot_product_attention(q, q, q).grad_fn.name())
try:
    with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION]):
        F.scaled_dot_product_attention(q, q, q)
except RuntimeError as e:
    print(e)
with record_function("forward"):
    y = m(torch.ones(2))
with profiler.record_function("loss") as r:
    print(r.name)
print(ProfilerActivity.CPU, torch.types.Number, isinstance(3, torch.types.Number))
"""


def test_numbers_ids_and_digests_print_what_python_prints(tmp_path):
    want, code = python(NUMBERS, tmp_path)
    assert code == 0, want
    timeline = run(NUMBERS)
    assert timeline.error is None, timeline.error
    assert timeline.output == want


def test_uuid4_draws_the_same_ids_every_run():
    source = "import uuid\nprint(uuid.uuid4(), uuid.uuid4())"
    assert run(source).output == run(source).output


def test_torch_modules_for_more_than_one_process_answer_as_torch_does_in_one():
    want = run_source(TORCH, "torch")
    assert want.exc is None, want.exc
    timeline = run(TORCH)
    assert timeline.error is None, timeline.error
    assert timeline.output == want.stdout


@pytest.mark.parametrize("source, kind", [
    ("x = Fraction(3, 2) ** 10**6", "BudgetExceeded"),
    ("x = 2 ** Fraction(10**6)", "BudgetExceeded"),
    ("x = Fraction('1e999999')", "BudgetExceeded"),
    ("x = Fraction(2**60000, 3) * Fraction(2**60000, 7)", "BudgetExceeded"),
    ("x = Fraction(1, 2**60000) + Fraction(1, 2**60000 + 1)", "BudgetExceeded"),
    ("x = pow(Fraction(3, 2), 10**7)", "BudgetExceeded"),
    ("x = sum([Fraction(1, 2**1000 + k) for k in range(200)])", "BudgetExceeded"),
    ("x = Decimal('1e999999999')", "GuardError"),
    ("x = Decimal((0, (1,), -10**9))", "GuardError"),
])
def test_exact_numbers_are_sized_before_they_are_made(source, kind):
    timeline = run(f"from fractions import Fraction\nfrom decimal import Decimal\n{source}\nprint('after')")
    assert (timeline.error["type"], timeline.error["line"]) == (kind, 3) and timeline.output == ""


def test_decimal_gives_no_context_to_change():
    for name in ("getcontext", "setcontext", "localcontext", "Context"):
        timeline = run(f"import decimal\ndecimal.{name}")
        assert timeline.error["type"] == "AttributeError", name


@pytest.mark.parametrize("call, reason", [
    ("import torch.distributed as dist\ndist.init_process_group('gloo')", "joins no process group"),
    ("import torch.multiprocessing as mp\nmp.spawn(print, nprocs=2)", "starts no others"),
    ("import torch.multiprocessing as mp\nmp.Process(target=print)", "starts no others"),
    ("import torch\nwith torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:\n    pass",
     "does not profile"),
    ("import torch.autograd.profiler as profiler\nwith profiler.profile() as prof:\n    pass", "does not profile"),
    ("import torch\nsched = torch.profiler.schedule(wait=1, warmup=1, active=2)", "does not profile"),
    ("import uuid\nuuid.uuid1()", "has no attribute 'uuid1'"),
    ("import hashlib\nhashlib.pbkdf2_hmac('sha256', b'p', b's', 10**9)", "has no attribute 'pbkdf2_hmac'"),
])
def test_what_the_explorer_does_not_do_raises_at_its_line_saying_why(call, reason):
    timeline = run(call + "\nprint('after')")
    assert timeline.error["line"] == 2 and reason in timeline.error["message"], timeline.error
    assert timeline.output == ""


@pytest.mark.parametrize("module", ["threading", "multiprocessing", "signal", "weakref", "array", "torch.hub",
                                    "torch.onnx", "torch.export", "torch.quantization", "torch.ao.quantization",
                                    "torch.library", "torch.overrides", "torch.sparse", "torch.utils.benchmark"])
def test_a_refused_module_says_why_it_is_refused(module):
    timeline = run(f"print('before')\nimport {module}\nprint('after')")
    parts = module.split(".")
    reason = next(REFUSED_MODULES[".".join(parts[:n])] for n in range(len(parts), 0, -1)
                  if ".".join(parts[:n]) in REFUSED_MODULES)
    assert timeline.error["type"] == "GuardError" and timeline.error["line"] == 2
    assert timeline.error["message"].endswith(reason) and timeline.output == "before\n"


TABLES = """import torch
import torch.nn as nn
import torch.nn.utils.prune as prune
torch.manual_seed(0)
m = nn.Linear(3, 2)
print(m._parameters.keys(), list(m._buffers), m._forward_pre_hooks, m._forward_hooks)
prune.l1_unstructured(m, 'weight', amount=0.5)
print(list(m._parameters.keys()), list(m._buffers.keys()), len(m._forward_pre_hooks))
for hook in m._forward_pre_hooks.values():
    print(type(hook).__name__, hook._tensor_name if False else '')
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
print(net._modules)
for name, sub in net._modules.items():
    print(name, sub, name in net._modules, net._modules['0'] is net[0], net._modules.get('9'))
h = net.register_forward_hook(lambda mod, i, o: None)
print(len(net._forward_hooks), getattr(net, '_modules') == dict(net._modules), dict(net._parameters))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1, 1)
        self.register_buffer('running', torch.zeros(1))
n = Net()
print(n._modules, n._buffers, [k for k in n._parameters], hasattr(n, '_modules'), hasattr(n, '_buffers'))
"""


def test_a_modules_tables_read_and_print_as_torchs():
    """module._parameters, _buffers, _modules, _forward_pre_hooks, _forward_hooks: read-only views (module_tables.py)
    printed as torch's dicts and OrderedDicts (torch's pruning tutorial prints module._forward_pre_hooks)."""
    want = run_source(TABLES, "torch")
    assert want.exc is None, want.exc
    timeline = run(TABLES)
    assert timeline.error is None, timeline.error
    address = re.compile("0x[0-9a-f]+")
    assert address.sub("0x", timeline.output) == address.sub("0x", want.stdout)


@pytest.mark.parametrize("tail", ["m._parameters['weight'] = m[0].bias", "del m._modules['0']", "m._buffers.x = 1",
                                  "t = m._forward_hooks\nt |= {}", "m._parameters = {}"])
def test_a_modules_tables_cannot_be_changed_through_them(tail):
    timeline = run("import torch\nm = torch.nn.Sequential(torch.nn.Linear(1, 1))\n" + tail + "\nprint('after')")
    assert timeline.error["type"] == "GuardError" and timeline.output == "", timeline.error


FILE_TOOLS = """import os
import pickle
import shutil
import tempfile
from collections import OrderedDict, defaultdict
import io
data = {'a': [1, 2.5, 'x', None, True], 'b': (1, 2), 'c': {3, 4}, 'd': b'\\x00\\x01', 'e': OrderedDict(k=1),
        'f': 1 + 2j, 'g': frozenset([1]), 'h': defaultdict(list, {'z': [1]})}
blob = pickle.dumps(data)
back = pickle.loads(blob)
print(back == data, back['e'], back['f'], type(back['h']).__name__, back['h']['new'])
print(pickle.loads(pickle.dumps([1, 2], protocol=0)), pickle.HIGHEST_PROTOCOL >= 5)
with open('cache.pkl', 'wb') as f:
    pickle.dump({'epoch': 3}, f)
    pickle.dump([1, 2, 3], f)
with open('cache.pkl', 'rb') as f:
    print(pickle.load(f), pickle.load(f))
buf = io.BytesIO()
pickle.dump((1, 'two'), buf)
buf.seek(0)
print(pickle.load(buf))
os.makedirs('runs/a/b', exist_ok=True)
with open('runs/a/x.txt', 'w') as f:
    f.write('hello')
with open('runs/a/b/y.txt', 'w') as f:
    f.write('deep')
print(shutil.copy('runs/a/x.txt', 'runs'), shutil.copyfile('runs/a/x.txt', 'copy.txt'), open('copy.txt').read())
print(shutil.copytree('runs/a', 'backup'), sorted(os.listdir('backup')), open('backup/b/y.txt').read())
print(shutil.move('copy.txt', 'runs'), os.path.exists('copy.txt'), sorted(os.listdir('runs')))
shutil.rmtree('backup')
print(os.path.exists('backup'), os.path.exists('backup/b/y.txt'))
shutil.rmtree('nope', ignore_errors=True)
try:
    shutil.rmtree('nope')
except FileNotFoundError as e:
    print(type(e).__name__)
print(tempfile.gettempdir())
with tempfile.TemporaryDirectory() as d:
    p = os.path.join(d, 'model.txt')
    with open(p, 'w') as f:
        f.write('w')
    print(os.path.exists(p), os.path.dirname(p) == d, d.startswith('/tmp/tmp'))
print(os.path.exists(p))
d2 = tempfile.mkdtemp(prefix='exp_')
print(os.path.isdir(d2), os.path.basename(d2).startswith('exp_'))
"""

PICKLE_REFUSALS = """import pickle
import torch
for bad in (b"cos\\nsystem\\n(S'echo hi'\\ntR.", b'\\x80\\x04\\x8c\\x08builtins\\x8c\\x04eval\\x93.'):
    try:
        pickle.loads(bad)
    except pickle.UnpicklingError as e:
        print('refused', str(e).rsplit('; ', 1)[1])
class A:
    pass
for obj in (A(), torch.ones(2), print, [A]):
    try:
        pickle.dumps(obj)
    except pickle.PicklingError as e:
        print('refused', str(e).rsplit('; ', 1)[1])
"""


def test_pickle_shutil_and_tempfile_work_on_the_runs_files_as_python_on_its(tmp_path, monkeypatch):
    want, code = python(FILE_TOOLS, tmp_path)
    assert code == 0, want
    (tmp_path / "runner").mkdir()
    monkeypatch.chdir(tmp_path / "runner")
    timeline = run(FILE_TOOLS)
    assert timeline.error is None, timeline.error
    assert timeline.output == want
    assert list((tmp_path / "runner").iterdir()) == []  # nothing touched the disk


def test_pickle_keeps_plain_values_and_rebuilds_nothing_else():
    timeline = run(PICKLE_REFUSALS)
    assert timeline.error is None, timeline.error
    assert timeline.output == ("refused this pickle names os.system\nrefused this pickle names builtins.eval\n"
                               "refused not A objects\nrefused not Tensor objects\nrefused not method objects\n"
                               "refused not type objects\n")
