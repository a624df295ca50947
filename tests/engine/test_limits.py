"""torch.finfo and torch.iinfo against PyTorch: every attribute, the printed form, equality, and the errors for
the wrong kind of dtype."""
from __future__ import annotations

import pytest
from difftest import run_both

PROGRAM = """
import torch
for d in (torch.float32, torch.float64, torch.float, torch.double):
    f = torch.finfo(d)
    print(f, str(f), f.bits, f.min, f.max, f.eps, f.tiny, f.smallest_normal, f.resolution, f.dtype, type(f.dtype))
    print(type(f.eps).__name__, f == torch.finfo(d), f == torch.finfo(torch.float64))
print(torch.finfo(), torch.finfo().eps == torch.finfo(torch.float32).eps)
for d in (torch.uint8, torch.int32, torch.int64, torch.int, torch.long):
    i = torch.iinfo(d)
    print(i, i.bits, i.min, i.max, i.dtype, type(i.max).__name__, i == torch.iinfo(d))
x = torch.tensor([1.0, 2.0])
print(x.clamp(min=torch.finfo(x.dtype).eps).log(), torch.full((2,), torch.iinfo(torch.int32).max))
print(torch.tensor(torch.finfo(torch.float32).max) * 2, torch.tensor([torch.finfo(torch.float32).tiny]))
"""


def test_limits_print_as_torch():
    want, got = run_both(PROGRAM)
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    assert (got.exc, got.warnings) == (want.exc, want.warnings)


@pytest.mark.parametrize("call", ["torch.finfo(torch.int32)", "torch.finfo(torch.bool)", "torch.iinfo(torch.float32)",
                                  "torch.iinfo(torch.bool)", "torch.finfo('float32')", "torch.iinfo(3)"])
def test_limits_errors_as_torch(call):
    want, got = run_both(f"import torch\n{call}")
    assert want.exc is not None and got.exc == want.exc
