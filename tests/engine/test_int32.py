"""torch.int32 (torch.int, IntTensor, x.int()): made, printed, promoted, reduced, cast and used as an index as
PyTorch does, compared with real PyTorch's printed text; a cast to an integer dtype records no grad."""
from __future__ import annotations

from difftest import run_both

PROGRAM = '''
a = torch.tensor([1, 2, 3], dtype=torch.int32)
print(a, a.dtype, torch.int, a.int().dtype, torch.IntTensor([4, 5]), torch.IntTensor([4, 5]).type())
print(a + 1, a + torch.tensor([1, 2, 3]), a * 2.5, a / 2, a.sum(), a.sum().dtype, a.float(), a.long())
print(a.max(), a.argmax(), (a > 1), a.cumsum(0))
print(torch.arange(4, dtype=torch.int32), torch.zeros(2, dtype=torch.int))
print(torch.ones(2, 2, dtype=torch.int32) @ torch.ones(2, 2, dtype=torch.int32))
import numpy as np
print(torch.from_numpy(np.array([1, 2], dtype=np.int32)), torch.tensor(np.array([1, 2], dtype=np.int32)).dtype)
torch.manual_seed(0); x = torch.randn(5, 3)
print(x[torch.tensor([0, 2], dtype=torch.int32)], x.index_select(0, torch.tensor([1, 1], dtype=torch.int32)))
print(torch.nn.functional.embedding(torch.tensor([1, 0], dtype=torch.int32), torch.eye(3)))
print(a.to(torch.float64), a.numpy().dtype, a.tolist(), a[1].item(), type(a[1].item()), a.abs(), -a, a.clamp(min=2))
print(torch.tensor([2**31 - 1], dtype=torch.int32) + 1)
print(torch.randint(0, 5, (3,), dtype=torch.int32, generator=torch.Generator().manual_seed(0)))
print(repr(torch.int32), torch.int32.is_floating_point)
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.int32).T, a.double().requires_grad_().int())
print(torch.cat([a, a]), torch.stack([a, a]).shape, torch.where(a > 1, a, 0), torch.where(a > 1, a, torch.tensor(0)))
try:
    torch.tensor([1.0, 2.0], requires_grad=True).int().requires_grad_()
except Exception as e: print(type(e).__name__, e)
'''


def test_int32_program_prints_as_torch():
    want, got = run_both("import torch\n" + PROGRAM)
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    assert (got.exc, got.warnings) == (want.exc, want.warnings)
