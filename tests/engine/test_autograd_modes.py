"""Inference mode, torch.autograd.Variable and anomaly detection on the engine against PyTorch.

inference_mode: as a context and a decorator (with and without parentheses), nested with enable_grad and
inference_mode(False); inference tensors (is_inference, which ops make them) and their errors: their version,
saving one for backward, requires_grad, and writing one in place outside inference mode (PyTorch writes, then
raises). Variable(t, requires_grad=...) and isinstance. detect_anomaly / set_detect_anomaly: the warning, the nan
check and the version message's other hint. The engine does not record the traceback of the forward call that
made each node, so PyTorch's "Error detected in XBackward0. Traceback of forward call ..." warning is the one
difference, checked to be the only one."""

from __future__ import annotations

import pytest
from difftest import ENGINE_NAME, run_both

MODES = """import torch
def tryit(f):
    try:
        print("ok", f())
    except Exception as e:
        print(type(e).__name__ + ":", e)
w = torch.tensor([1., 2.], requires_grad=True)
with torch.inference_mode():
    x = torch.ones(2)
    y = w * 2
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    print(x.is_inference(), y.is_inference(), y.requires_grad)
print(torch.is_inference_mode_enabled(), x, y)
tryit(lambda: x._version)
tryit(lambda: x * w)
tryit(lambda: (x + w).grad_fn)
tryit(lambda: w * x)
tryit(lambda: x.add_(1))
tryit(lambda: x.requires_grad_())
tryit(lambda: setattr(x, "requires_grad", True))
tryit(lambda: (x * 2).is_inference())
tryit(lambda: x.clone().is_inference())
tryit(lambda: x.detach().is_inference())
tryit(lambda: x[0].is_inference())
tryit(lambda: x.view(2, 1).is_inference())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
@torch.inference_mode()
def f(a):
    return a * 2
print(f(w).requires_grad, f(w).is_inference())
@torch.inference_mode
def g(a):
    return a * 2
print(g(w).is_inference())
with torch.no_grad():
    z = torch.ones(2)
print(z.is_inference())
with torch.inference_mode():
    with torch.enable_grad():
        print(torch.is_grad_enabled())
        q = w * 2
        print(q.requires_grad, q.is_inference())
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        r = w * 2
        print(r.requires_grad, r.is_inference())
with torch.inference_mode():
    tryit(lambda: x.add_(1))
    tryit(lambda: x._version)
with torch.inference_mode():
    p = torch.nn.Parameter(torch.ones(2))
    print(p.requires_grad, p.is_inference())
tryit(lambda: p * 2)
out = (p * 2).sum()
out.backward()
print(p.grad)
a = torch.ones(2)
v = torch.autograd.Variable(a, requires_grad=True)
print(v, v is a, v.is_leaf, v.grad_fn, isinstance(a, torch.autograd.Variable), type(v) is torch.Tensor)
s = (a * 2).requires_grad_()
t = s * 3
print(torch.autograd.Variable(t), torch.autograd.Variable(t).grad_fn, torch.autograd.Variable(t, requires_grad=True))
print(torch.autograd.Variable(torch.ones(2), volatile=True), torch.autograd.Variable(torch.ones(2), volatile=True).volatile)
print(torch.autograd.Variable())
tryit(lambda: torch.autograd.Variable([1., 2.]))
tryit(lambda: torch.autograd.Variable(torch.ones(2, dtype=torch.long), requires_grad=True))
v2 = torch.autograd.Variable(a)
a.add_(1)
print(v2, v2._version)
k = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled())
    tryit(lambda: (k / k).sum().backward())
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.autograd.set_detect_anomaly(True)
tryit(lambda: (k.sqrt() * 0).sum().backward())
e = k.exp()
with torch.no_grad():
    e.add_(1)
tryit(lambda: e.sum().backward())
with torch.autograd.set_detect_anomaly(False):
    print(torch.is_anomaly_enabled())
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(True, check_nan=False)
print((k / k).sum().backward(), k.grad)
torch.autograd.set_detect_anomaly(False)
"""

WRITES = """import torch
with torch.inference_mode():
    x = torch.ones(2)
writes = (lambda: x.add_(1), lambda: x.__setitem__(0, 5.0), lambda: x.copy_(torch.tensor([7., 8.])),
          lambda: x.zero_(), lambda: x.mul_(3), lambda: x.clamp_(min=1))
for write in writes:
    try:
        write()
    except RuntimeError as e:
        print(e)
    print(x)
"""


@pytest.mark.parametrize("source", [MODES, WRITES], ids=["modes_variable_anomaly", "inference_tensor_writes"])
def test_modes_program_matches_torch(source):
    want, got = run_both(source)
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\ntorch:\n{want.stdout}"
    def untraced(warnings):
        return [w for w in warnings if not w[1].startswith("Error detected in ")]

    assert len(want.warnings) - len(untraced(want.warnings)) == (3 if source is MODES else 0)
    assert untraced(got.warnings) == untraced(want.warnings)
    assert ENGINE_NAME == "torch" or untraced(got.warnings) == got.warnings
    assert got.exc == want.exc
