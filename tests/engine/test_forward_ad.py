"""torch.autograd.forward_ad against torch: dual tensors made in a dual level carry their tangents through ops (each
op's tangent from its declared derivative; a linear op's is the op of the tangents), through a backward's saved
outputs, print with them, unpack to (primal, tangent), and torch's errors."""
from difftest import run_both

PROGRAM = """import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F
x = torch.tensor([1.0, 2.0])
try:
    fwAD.make_dual(x, torch.ones(2))
except RuntimeError as e:
    print(e)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    print(d, d.requires_grad, d.grad_fn)
    y = (d * d).sin()
    primal, tangent = fwAD.unpack_dual(y)
    print(y, primal, tangent, fwAD.unpack_dual(x))
    w = torch.tensor([[1.0, -1.0], [0.5, 2.0], [0.0, 3.0]], dtype=torch.float64)
    dd = fwAD.make_dual(x.double(), torch.tensor([1.0, 0.0], dtype=torch.float64))
    z = F.linear(dd, w, torch.zeros(3, dtype=torch.float64)).tanh().sum()
    print(z, fwAD.unpack_dual(z).tangent)
    a, b = d.unbind()
    print(fwAD.unpack_dual(a * b).tangent, d > 1, fwAD.unpack_dual(d.exp() / 2).tangent, d.mean())
    try:
        fwAD.make_dual(x, torch.ones(3))
    except RuntimeError as e:
        print(e)
    s = fwAD.make_dual(torch.tensor([1.0, -2.0, 0.5]), torch.tensor([0.0, 1.0, 0.0])).requires_grad_()
    t = s.tanh()
    g, = torch.autograd.grad(t.sin().sum(), s, create_graph=True)
    tangents = [fwAD.unpack_dual(r).tangent.detach() for r in (g, torch.stack([s, t]).view(-1)[2:],
                                                                torch.cat([s.cos(), s]))]
    print(*tangents)
print(fwAD.unpack_dual(y))
"""


def test_dual_tensors_as_torch():
    want, got = run_both(PROGRAM)
    assert got.exc == want.exc
    assert got.stdout == want.stdout
