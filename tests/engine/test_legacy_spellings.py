"""Names older programs call that the engine lacked: the legacy typed constructors (ByteTensor, CharTensor,
ShortTensor, HalfTensor), torch.ctc_loss with ATen's integer reduction, the JIT-only nuclear_norm and frobenius_norm
(with their warnings) and torch.native_dropout (output and mask, NativeDropoutBackward0): values, grads, grad_fn
names, saved attributes, warnings and error texts as torch 2.13's."""
from __future__ import annotations

import pytest

from tests.engine.difftest import run_source

NORMS_AND_TYPES = """import torch
torch.set_warn_always(True)  # (torch's once-per-process warnings: whether they come depends on the tests before)
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
for y in (torch.frobenius_norm(x, [0, 1]), torch.frobenius_norm(x, (1,), True), torch.frobenius_norm(x, 0),
          torch.nuclear_norm(x), torch.nuclear_norm(x, True), torch.nuclear_norm(x, (0, 1), keepdim=True),
          torch.nuclear_norm(x, [1, 0])):
    y.sum().backward()
    print(y, x.grad)
    x.grad = None
print(torch.ByteTensor([1, 2]), torch.CharTensor([-1]), torch.ShortTensor([1]), torch.HalfTensor([1.5]))
print(torch.ByteTensor(2).shape, torch.HalfTensor(2, 1).dtype)
lp = torch.randn(5, 2, 4).log_softmax(2).detach().requires_grad_()
t = torch.tensor([[1, 2], [1, 3]])
for r in (0, 1, 2):
    loss = torch.ctc_loss(lp, t, [5, 5], [2, 2], 0, r, False)
    loss.sum().backward()
    print(loss, lp.grad[0])
    lp.grad = None
print(torch.ctc_loss(lp, t, torch.tensor([5, 4]), torch.tensor([2, 1]), blank=0, reduction=1, zero_infinity=True))
torch.set_warn_always(False)
"""

NATIVE_DROPOUT = """import torch
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
for p, train in ((0.5, True), (0.2, True), (0.5, False), (1.0, True), (0.0, True), (0.3, None)):
    o, m = torch.native_dropout(x, p, train)
    print(o, m, o.grad_fn.name(), o.grad_fn._saved_p, o.grad_fn._saved_result1.dtype, m.requires_grad)
    o.backward(torch.arange(12.).reshape(3, 4))
    print(x.grad)
    x.grad = None
o, m = torch.native_dropout(x.t(), 0.5, True)
print(m, torch.randn(2))
o, m = torch.native_dropout(torch.ones(3, dtype=torch.float64), 0.5, None)
print(o, m)
for bad in (lambda: torch.native_dropout(torch.ones(3, dtype=torch.long), 0.5, True),
            lambda: torch.native_dropout(x, 1.5, True)):
    try:
        bad()
    except RuntimeError as e:
        print(e)
"""


@pytest.mark.parametrize("name", ["NORMS_AND_TYPES", "NATIVE_DROPOUT"])
def test_it_runs_as_torch_does(name):
    want, got = run_source(globals()[name], "torch"), run_source(globals()[name], "engine")
    assert want.exc is None and got.exc is None, (want.exc, got.exc)
    assert got.stdout == want.stdout
    assert got.warnings == want.warnings
