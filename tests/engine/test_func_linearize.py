"""torch.func.linearize against torch: the output, the jvp function at any tangents, and its checks of the
tangents' structure, shapes and dtypes. (torch also warns from inside its fx constant folding, a warning about its
own graph module that says nothing of the program; the engine does not trace a graph, so only the printed
text is compared.)"""
from difftest import run_both

PROGRAM = """
import torch
from torch.func import linearize
x = torch.tensor([0.5, -1.0, 2.0])
out, jvp_fn = linearize(torch.sin, x)
print(out, jvp_fn(torch.ones(3)), jvp_fn(torch.tensor([1.0, 0.0, 2.0])))
def f(a, b):
    return (a * b).sum(), a.exp()
out, jf = linearize(f, x, x * 2)
print(out, jf(torch.ones(3), torch.zeros(3)))
for bad in ((torch.ones(2),), (torch.ones(3, dtype=torch.float64),)):
    try:
        jvp_fn(*bad)
    except RuntimeError as e:
        print(e)
try:
    jf(torch.ones(3))
except RuntimeError as e:
    print(e)
"""


def test_linearize_as_torch():
    want, got = run_both(PROGRAM)
    assert (got.exc, got.stdout) == (want.exc, want.stdout)
    assert want.stdout.count("tangent:0") == 2
