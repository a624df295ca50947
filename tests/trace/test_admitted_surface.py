"""The modules admitted by inventory (files_view, sys_view, pure_views, logging_view, plot_modules and the torch
submodules the engine has): each program runs through the runner and prints what `python -u program.py` prints with
real Python and torch 2.13 (stdout and stderr together, as the explorer's console shows them), nothing touching the
disk."""
from __future__ import annotations

import subprocess
import sys

import pytest

from engine.trace.runner import run
from tests.engine.difftest import run_source

FILES = """import os
import os.path
import sys
import glob
from pathlib import Path
import torch
os.environ['CUDA_VISIBLE_DEVICES'] = '0'
print(os.environ.get('CUDA_VISIBLE_DEVICES'), os.getenv('NOPE', 'd'), 'NOPE' in os.environ)
os.makedirs('checkpoints/run1', exist_ok=True)
os.makedirs('checkpoints/run1', exist_ok=True)
print(os.path.exists('checkpoints'), os.path.isdir('checkpoints/run1'), os.path.isfile('checkpoints'))
print(os.path.join('a', 'b.txt'), os.path.splitext('model.pt'), os.path.basename('/x/y.csv'), os.path.dirname('a/b'))
with open('checkpoints/log.txt', 'w') as f:
    f.write('epoch,loss\\n')
    print('1,0.5', file=f)
with open('checkpoints/log.txt', 'a') as f:
    f.write('2,0.25\\n')
with open('checkpoints/log.txt') as f:
    for line in f:
        print(line.strip())
with open('checkpoints/log.txt') as f:
    print(f.readlines()[1:], f.read() == '')
print(sorted(os.listdir('checkpoints')), os.path.getsize('checkpoints/log.txt'))
torch.manual_seed(0)
m = torch.nn.Linear(2, 1)
torch.save({'model': m.state_dict(), 'epoch': 3}, 'checkpoints/run1/model.pt')
ckpt = torch.load('checkpoints/run1/model.pt')
m2 = torch.nn.Linear(2, 1)
m2.load_state_dict(ckpt['model'])
print(ckpt['epoch'], torch.equal(m2.weight, m.weight))
print(sorted(glob.glob('checkpoints/*')), glob.glob('checkpoints/*.txt'))
p = Path('checkpoints') / 'notes.txt'
p.write_text('hi')
print(p.read_text(), p.name, p.suffix, p.stem, p.exists(), p.parent, p.is_file())
Path('out/a').mkdir(parents=True, exist_ok=True)
print(Path('out').is_dir(), sorted(q.name for q in Path('checkpoints').iterdir()))
with open('data.bin', 'wb') as f:
    f.write(b'\\x01\\x02\\x03')
with open('data.bin', 'rb') as f:
    print(f.read())
os.remove('data.bin')
print(os.path.exists('data.bin'))
sys.stdout.write('written\\n')
sys.stdout.flush()
print(sys.argv, sys.version_info[0], sys.maxsize > 2**32, sys.float_info.epsilon, sys.getrecursionlimit() > 100)
for bad in ('missing.txt', 'checkpoints'):
    try:
        open(bad)
    except (FileNotFoundError, IsADirectoryError) as e:
        print(type(e).__name__, e)
try:
    os.mkdir('checkpoints')
except FileExistsError as e:
    print(e)
try:
    os.environ['N'] = 1
except TypeError as e:
    print(e)
"""

PURE = """import __future__
import re
import cmath
import contextlib
from contextlib import contextmanager, nullcontext, suppress
import queue
import csv
import io
import struct
import traceback
import platform
import gc
import timeit
from typing_extensions import Literal, Optional
def mode(m: Literal['a', 'b'] = 'a') -> Optional[str]:
    return m
print(mode(), Literal['a'])
print(re.findall(r'\\d+', 'a1b22c333'), re.sub(r'\\s+', ' ', 'a   b\\tc'), re.split(',', 'x,y'))
m = re.match(r'(\\w+)@(\\w+)', 'me@host')
print(m.group(1), m.groups(), bool(re.compile('^a', re.I).search('Abc')), re.escape('a.b'))
print(cmath.sqrt(-1), abs(cmath.exp(1j * cmath.pi) + 1) < 1e-12, cmath.phase(-1))
@contextmanager
def timer(name):
    print('start', name)
    yield 5
    print('end', name)
with timer('x') as t:
    print('inside', t)
with nullcontext(3) as n:
    print('null', n)
with suppress(ZeroDivisionError):
    1 / 0
print('suppressed')
q = queue.Queue()
q.put(1)
q.put(2)
print(q.get(), q.qsize(), q.empty())
pq = queue.PriorityQueue()
for x in (3, 1, 2):
    pq.put(x)
print([pq.get() for _ in range(3)])
try:
    queue.Queue().get_nowait()
except queue.Empty:
    print('empty')
buf = io.StringIO()
w = csv.writer(buf)
w.writerow(['a', 'b'])
w.writerow([1, 2.5])
print(repr(buf.getvalue()))
print(list(csv.reader(io.StringIO(buf.getvalue()))))
print([dict(r) for r in csv.DictReader(io.StringIO('x,y\\n1,2\\n'))])
with open('t.csv', 'w', newline='') as f:
    d = csv.DictWriter(f, fieldnames=['x', 'y'])
    d.writeheader()
    d.writerow({'x': 1, 'y': 2})
with open('t.csv') as f:
    print(list(csv.reader(f)))
print(struct.pack('<if', 1, 2.0), struct.unpack('<i', b'\\x01\\x00\\x00\\x00'), struct.calcsize('<if'))
def f(x):
    return x[3]
try:
    f([1])
except IndexError:
    traceback.print_exc()
    text = traceback.format_exc()
print(text.splitlines()[-1])
print(platform.python_version() == '.'.join(platform.python_version_tuple()), gc.collect() >= 0)
t0 = timeit.default_timer()
print(timeit.timeit(lambda: None, number=10) >= 0, timeit.default_timer() >= t0)
"""

LOGGING = """import logging
import sys
log = logging.getLogger(__name__)
log.info('not shown')
log.warning('bare warning %d', 3)
logging.info('still not shown')
logging.warning('root warning')
logging.basicConfig(level=logging.INFO, format='%(levelname)s - %(name)s - %(message)s', force=True)
log.info('epoch %d loss %.3f', 1, 0.5)
logging.debug('no')
h = logging.StreamHandler(sys.stdout)
h.setFormatter(logging.Formatter('[%(levelname)s] %(message)s'))
other = logging.getLogger('train')
other.propagate = False
other.addHandler(h)
other.setLevel(logging.DEBUG)
other.debug('debug on')
try:
    1 / 0
except ZeroDivisionError:
    log.exception('failed')
print(log.getEffectiveLevel(), logging.getLevelName(20), log.isEnabledFor(logging.DEBUG))
logging.basicConfig(filename='train.log', level=logging.INFO, format='%(message)s', force=True)
logging.info('to the file')
print(open('train.log').read())
"""

TORCH = """import torch
from torch.nn.modules.loss import _Loss, _WeightedLoss
from torch.nn.parameter import Parameter
from torch.optim.optimizer import Optimizer, required
from torch.autograd.gradcheck import gradcheck
import torch.autograd
class MyLoss(_Loss):
    def forward(self, a, b):
        return ((a - b) ** 2).mean()
class SGD2(Optimizer):
    def __init__(self, params, lr=required):
        super().__init__(params, dict(lr=lr))
    def step(self):
        for g in self.param_groups:
            for p in g['params']:
                p.data.add_(p.grad, alpha=-g['lr'])
w = Parameter(torch.ones(3, dtype=torch.float64))
opt = SGD2([w], lr=0.1)
loss = MyLoss()(w, torch.zeros(3, dtype=torch.float64))
loss.backward()
opt.step()
print(w, MyLoss().reduction, issubclass(_WeightedLoss, _Loss), isinstance(w, torch.nn.Parameter), repr(required))
x = torch.randn(3, dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sin, (x,)), torch.autograd.gradcheck(torch.sin, (x,)))
"""

FUNCTORCH = """import torch
import functorch
from functorch import vmap, grad, jacrev
print(vmap(torch.sum)(torch.ones(2, 3)), grad(lambda x: (x ** 2).sum())(torch.ones(2)))
print(jacrev(torch.sin)(torch.zeros(2)))
"""

MATPLOTLIB = """import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
import matplotlib.cm as cm
import matplotlib.colors as mcolors
from matplotlib import animation
from mpl_toolkits.mplot3d import Axes3D
print(mcolors.to_rgb('red'), mcolors.to_rgba('C1', 0.5), mcolors.to_hex((0.1, 0.2, 0.3, 0.5)),
      mcolors.to_hex((0.1, 0.2, 0.3, 0.5), keep_alpha=True), mcolors.is_color_like('nope'))
try:
    mcolors.to_rgba('nope')
except ValueError as e:
    print(e)
print(cm.viridis.name, plt.cm.jet.name)
plt.scatter([1, 2], [3, 4], c=[0.1, 0.9], cmap=cm.viridis)
plt.imshow([[0, 1], [1, 0]], cmap=plt.cm.gray)
"""

EXITS = {"sys.exit()": "", "sys.exit(0)": "", "sys.exit('bad config')": "bad config\n", "sys.exit(2)": ""}


def python(source, tmp_path):
    """What `python -u program.py` prints (stdout and stderr as they come), its file name written <program>."""
    path = tmp_path / "program.py"
    path.write_text(source)
    done = subprocess.run([sys.executable, "-u", path.name], cwd=tmp_path, capture_output=False, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    return done.stdout.replace(f'File "{path}"', 'File "<program>"'), done.returncode


@pytest.mark.parametrize("name", ["FILES", "TORCH"])
def test_it_prints_what_torch_prints(name, tmp_path, monkeypatch):
    """(in this process: torch is imported here already; the reference run's files go to tmp_path)"""
    monkeypatch.chdir(tmp_path)
    want = run_source(globals()[name], "torch")
    assert want.exc is None, want.exc
    (tmp_path / "runner").mkdir()
    monkeypatch.chdir(tmp_path / "runner")
    timeline = run(globals()[name])
    assert timeline.error is None and timeline.output == want.stdout
    assert list((tmp_path / "runner").iterdir()) == []  # nothing touched the disk


def test_sys_stderr_is_the_console():
    timeline = run("import sys\nprint('a', file=sys.stderr)\nsys.stderr.write('b\\n')\nprint(sys.stderr.isatty())")
    assert timeline.error is None and timeline.output == "a\nb\nFalse\n"


@pytest.mark.parametrize("name", ["PURE", "LOGGING", "MATPLOTLIB"])
def test_it_prints_what_python_prints(name, tmp_path, monkeypatch):
    source = globals()[name]
    (tmp_path / "python").mkdir()
    want, code = python(source, tmp_path / "python")
    assert code == 0, want
    (tmp_path / "runner").mkdir()
    monkeypatch.chdir(tmp_path / "runner")
    timeline = run(source)
    assert timeline.error is None, timeline.error
    assert timeline.output == want
    assert list((tmp_path / "runner").iterdir()) == []  # nothing touched the disk


@pytest.mark.parametrize("call", sorted(EXITS))
def test_sys_exit_ends_the_program_as_python_does(call, tmp_path):
    source = f"import sys\nprint('before')\n{call}\nprint('after')\n"
    want, code = python(source, tmp_path)
    timeline = run(source)
    assert timeline.output == want == "before\n" + EXITS[call]
    if code == 0:
        assert timeline.error is None
    else:
        assert timeline.error == {"kind": "error", "line": 3, "type": "SystemExit",
                                  "message": f"the program exited with status {code}"}


def test_each_run_has_its_own_files_and_environment():
    run("import os\nos.environ['A'] = '1'\nos.makedirs('d')\nopen('d/x', 'w').write('x')")
    timeline = run("import os\nprint(os.environ.get('A'), os.path.exists('d'), os.listdir('.'), os.getcwd())")
    assert timeline.output == "None False [] /workspace\n"


def test_functorch_is_torch_func_warning_as_torch_does():
    want = run_source(FUNCTORCH, "torch")
    timeline = run(FUNCTORCH)
    assert timeline.error is None and timeline.output == want.stdout
    assert [(e["category"], e["message"]) for e in timeline.events if e["kind"] == "warning"] == want.warnings


AMP = """import torch
x = torch.ones(2, 2, requires_grad=True)
with torch.amp.autocast('cuda'):
    y = x @ x
print(y.dtype, y.grad_fn.name())
with torch.cuda.amp.autocast():
    y = x @ x
scaler = torch.cuda.amp.GradScaler()
other = torch.amp.GradScaler()
opt = torch.optim.SGD([x], lr=0.1)
loss = scaler.scale(y.sum())
loss.backward()
scaler.unscale_(opt)
scaler.step(opt)
scaler.update()
print(scaler.is_enabled(), scaler.get_scale(), loss.grad_fn.name(), x)
with torch.autocast(device_type='cpu', enabled=False):
    print((x @ x).dtype)
"""


def test_mixed_precision_runs_in_float32_warning_as_torch_does_without_cuda():
    """torch.amp / torch.cuda.amp (engine/amp.py) as torch 2.13's CPU build: disabled, with its warnings."""
    want = run_source(AMP, "torch")
    timeline = run(AMP)
    assert timeline.error is None and timeline.output == want.stdout
    assert [(e["category"], e["message"]) for e in timeline.events if e["kind"] == "warning"] == want.warnings
    refused = run("import torch\nwith torch.autocast('mps'):\n    pass")
    assert refused.error["type"] == "NotImplementedError" and refused.error["line"] == 2
