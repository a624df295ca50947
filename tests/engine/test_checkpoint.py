"""torch.utils.checkpoint against torch: reentrant (CheckpointFunctionBackward, torch's warning without
use_reentrant, its refusal under autograd.grad) and not (saved tensors recomputed once per backward pass, keyword
arguments, autograd.grad), checkpoint_sequential, dropout recomputed with the forward's random state, and
torch.random.fork_rng."""
from difftest import assert_same

PROGRAM = """
import warnings
import torch
import torch.nn as nn
import torch.utils.checkpoint as cp
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.Dropout(0.3), nn.Tanh(), nn.Linear(4, 2))
x = torch.randn(5, 3, requires_grad=True)
for reentrant in (None, True, False):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        y = cp.checkpoint(net, x, use_reentrant=reentrant) if reentrant is not None else cp.checkpoint(net, x)
    print([str(m.message) for m in w], y.grad_fn.name())
    y.sum().backward()
    print(x.grad, net[0].weight.grad.sum())
    x.grad = None
    net.zero_grad()
y = cp.checkpoint_sequential(net, 2, x, use_reentrant=False)
y.pow(2).sum().backward()
print(x.grad)

def f(a, b, scale=1.0):
    return (a * b).sin() * scale

a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
out = cp.checkpoint(f, a, b, scale=2.0, use_reentrant=False)
print(torch.autograd.grad(out.sum(), (a, b)))
out = cp.checkpoint(f, a, b, use_reentrant=False)
out.sum().backward(retain_graph=True)
out.sum().backward()
print(a.grad)
out = cp.checkpoint(f, a, b, use_reentrant=True)
try:
    torch.autograd.grad(out.sum(), (a, b))
except RuntimeError as e:
    print(e)
try:
    cp.checkpoint(f, a, b, scale=2.0, use_reentrant=True)
except ValueError as e:
    print(e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    cp.checkpoint(f, torch.ones(3), torch.ones(3), use_reentrant=True)
print([str(m.message) for m in w])
with torch.random.fork_rng():
    print(torch.rand(2))
print(torch.rand(2))
"""


def test_checkpoint_as_torch():
    assert_same(PROGRAM)
