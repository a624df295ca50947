"""The runner admits torch.func, torch.save / torch.load with io.BytesIO and io.StringIO, and the settings of
torch (print options, default dtype, backends' flags, torch.compile) with the same guarantees: no file is read or
written (a path stops at its line, saying so), what a buffer holds is charged to the budget, and every setting
is put back after the run (docs/security.md)."""
from __future__ import annotations

import pytest

import engine
from engine.trace import run
from engine.trace.files_view import FILE_REFUSAL
from tests.engine.difftest import run_source

PROGRAM = """import io
import torch
from torch.func import grad, vmap, functional_call
torch.set_printoptions(precision=2)
torch.set_default_dtype(torch.float64)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.backends.cuda.matmul.allow_tf32 = True
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
buffer = io.BytesIO()
torch.save({"model": model.state_dict(), "step": 3}, buffer)
buffer.seek(0)
checkpoint = torch.load(buffer, weights_only=True)
print(checkpoint["step"], checkpoint["model"]["weight"])
params = {k: v.detach() for k, v in model.named_parameters()}
loss = lambda p, x: functional_call(model, p, (x,)).pow(2).sum()
print(vmap(grad(loss), in_dims=(None, 0))(params, torch.randn(2, 3))["bias"])
text = io.StringIO()
text.write("saved")
print(text.getvalue(), torch.get_default_dtype(), torch.backends.cudnn.deterministic)
"""


@pytest.fixture
def torch_defaults():
    """PROGRAM run on torch changes torch's own settings in this process: put them back for the tests after."""
    yield
    run_source("import torch\ntorch.set_printoptions(profile='default')\ntorch.set_default_dtype(torch.float32)\n"
               "torch.backends.cudnn.deterministic = False\ntorch.backends.cuda.matmul.allow_tf32 = False\n", "torch")


def test_a_program_saving_loading_and_transforming_records_what_torch_prints(torch_defaults):
    want = run_source(PROGRAM, "torch")
    timeline = run(PROGRAM)
    assert timeline.error is None and want.exc is None
    assert timeline.output == want.stdout
    kinds = {e["kind"] for e in timeline.events}
    assert {"op", "backward", "node"} <= kinds  # grad's backward pass is recorded, for the learner to step through


def test_the_settings_a_program_changes_are_put_back():
    run(PROGRAM)
    assert engine.get_default_dtype() is engine.float32 and engine.printing.PRINT_OPTS.precision == 4
    assert not engine.backends.cudnn.deterministic and not engine.are_deterministic_algorithms_enabled()
    assert run("import torch\nprint(torch.tensor([0.123456]))").output == "tensor([0.1235])\n"


@pytest.mark.parametrize("call", ["torch.save(x, 'model.pt')\nprint(torch.load('model.pt'))",
                                  "torch.save(x, f='model.pt')\nprint(torch.load(f='model.pt'))",
                                  "getattr(torch, 'sa' + 've')(x, 'model.pt')\nprint(torch.load('./model.pt'))"])
def test_a_file_path_is_a_file_of_the_runs_own(call, tmp_path, monkeypatch):
    """torch.save / torch.load to a path: the run's in-memory files (files_view.py), nothing on the disk."""
    monkeypatch.chdir(tmp_path)
    timeline = run(f"import torch\nx = torch.ones(2)\nprint('before')\n{call}\nprint('after')\n")
    assert timeline.error is None and timeline.output == "before\ntensor([1., 1.])\nafter\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("call", ["torch.load('model.pt')", "torch.load(f='/etc/passwd')",
                                  "torch.save(x, b'model.pt')"])
def test_a_file_the_program_did_not_write_is_not_there(call, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "model.pt").write_bytes(b"on the disk")
    timeline = run(f"import torch\nx = torch.ones(2)\nprint('before')\n{call}\nprint('after')\n")
    assert timeline.output == "before\n" and timeline.error["line"] == 4
    if "b'" in call:
        assert timeline.error["message"] == FILE_REFUSAL.format("save")
    else:
        path = call.split("'")[1]
        assert (timeline.error["type"], timeline.error["message"]) == (
            "FileNotFoundError", f"[Errno 2] No such file or directory: {path!r}")
    assert [p.name for p in tmp_path.iterdir()] == ["model.pt"]


@pytest.mark.parametrize("source", ["import torch\ntorch.backends.cudnn.is_available = print",
                                    "import torch\ntorch.backends.cudnn.benchmark = 1",
                                    "import torch.backends.cudnn as c\nc.version = 3",
                                    "import torch\ntorch.backends.cuda.matmul.x = 1",
                                    "import torch\ntorch.backends.mps.is_available = print",
                                    "import io\nio.open('x')", "import io\nio.FileIO('x')",
                                    "from io import TextIOWrapper", "import io\nio.BytesIO.write = print"])
def test_io_holds_only_its_buffers_and_backends_only_their_flags(source, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(source).error is not None
    assert list(tmp_path.iterdir()) == []


def test_what_a_buffer_holds_is_charged_to_the_budget():
    timeline = run("import io\nb = io.BytesIO()\nchunk = b'0123456789' * 100000\nwhile True:\n    b.write(chunk)\n",
                   max_total_elements=50_000_000)
    assert timeline.error is not None and timeline.error["line"] == 5
    assert "in all" in timeline.error["message"] or "memory" in timeline.error["message"]
