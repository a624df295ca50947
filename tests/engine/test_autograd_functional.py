"""torch.autograd.functional on the engine against PyTorch: vjp, jvp, jacobian, hessian, vhp and hvp with tensor
and tuple inputs and outputs, with and without create_graph (the grad_fns of the results), strict mode and
PyTorch's errors; then jacobian and hessian against finite differences."""

from __future__ import annotations

import numpy as np
from difftest import load_engine, run_both

PROGRAM = """import torch
from torch.autograd.functional import vjp, jvp, jacobian, hessian, vhp, hvp

def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])
print(vjp(exp_reducer, inputs, torch.ones(2)))
print(vjp(exp_reducer, inputs, torch.ones(2), create_graph=True))
def adder(x, y):
    return 2 * x + 3 * y
pair = (torch.tensor([0.5, 1.5]), torch.tensor([2.0, -1.0]))
print(vjp(adder, pair, torch.ones(2)))
print(jvp(exp_reducer, inputs, torch.ones(2, 3)))
print(jvp(exp_reducer, inputs, torch.ones(2, 3), create_graph=True))
print(jvp(adder, pair, (torch.ones(2), torch.ones(2))))
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True))
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
print(jacobian(exp_adder, pair))
print(jacobian(exp_adder, pair, vectorize=True))
print(jacobian(exp_adder, pair, vectorize=True, strategy="forward-mode"))
def two_out(x):
    return x * 2, x.sum()
print(jacobian(two_out, torch.tensor([1.0, 2.0])))
def pow_reducer(x):
    return x.pow(3).sum()
print(hessian(pow_reducer, inputs))
print(hessian(pow_reducer, inputs, create_graph=True))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
print(hessian(pow_adder_reducer, pair))
print(vhp(pow_reducer, inputs, torch.ones(2, 3)))
print(vhp(pow_reducer, inputs, torch.ones(2, 3), create_graph=True))
print(vhp(pow_adder_reducer, pair, (torch.zeros(2), torch.ones(2))))
print(hvp(pow_reducer, inputs, torch.ones(2, 3)))
print(hvp(pow_reducer, inputs, torch.ones(2, 3), create_graph=True))
print(hvp(pow_adder_reducer, pair, (torch.zeros(2), torch.ones(2))))
x = torch.tensor([1.0, 2.0], requires_grad=True)
out, g = vjp(lambda t: (t * t).sum(), x, create_graph=True)
print(out, g, g.grad_fn)
out, g = vjp(lambda t: (t * t).sum(), x)
print(out, g)
print(jacobian(lambda t: t * x, torch.tensor([3.0, 4.0]), create_graph=True))
print(hessian(lambda t: (t ** 3).sum(), torch.tensor(2.0)))
print(vjp(lambda t: t ** 2, torch.tensor(3.0)))
print(jvp(lambda t: t ** 2, torch.tensor(3.0)))
def tryit(f):
    try:
        print("ok", f())
    except Exception as e:
        print(type(e).__name__ + ":", e)
const = torch.tensor([1.0, 2.0])
tryit(lambda: vjp(lambda t: const * 2, torch.ones(2), torch.ones(2), strict=True))
tryit(lambda: vjp(lambda t: const * 2, torch.ones(2), torch.ones(2)))
tryit(lambda: jacobian(lambda a, b: a * 2, (torch.ones(2), torch.ones(2)), strict=True))
tryit(lambda: jacobian(lambda a, b: a * 2, (torch.ones(2), torch.ones(2))))
tryit(lambda: hessian(lambda t: t.sum() * 2, torch.ones(2), strict=True))
tryit(lambda: hessian(lambda t: t * 2, torch.ones(2)))
tryit(lambda: hessian(lambda t: (t * 2, t), torch.ones(2)))
tryit(lambda: vjp(lambda t: t * 2, torch.ones(2)))
tryit(lambda: vjp(lambda t: t * 2, torch.ones(2), torch.ones(3)))
tryit(lambda: vjp(lambda a, b: (a, b), (torch.ones(2), torch.ones(2)), (torch.ones(2),)))
tryit(lambda: jvp(lambda t: t * 2, [torch.ones(2)], torch.ones(2)))
tryit(lambda: jvp(lambda t: t * 2, (torch.ones(2), 3), torch.ones(2)))
tryit(lambda: vjp(lambda t: 3, torch.ones(2)))
tryit(lambda: jacobian(exp_adder, pair, strategy="fwd"))
tryit(lambda: jacobian(exp_adder, pair, strategy="forward-mode"))
tryit(lambda: jacobian(exp_adder, pair, strategy="forward-mode", create_graph=True))
tryit(lambda: jacobian(exp_adder, pair, vectorize=True, strict=True))
tryit(lambda: vhp(lambda t: t * 2, torch.ones(2), torch.ones(2)))
tryit(lambda: hvp(lambda t: (t * t).sum(), torch.ones(2), strict=True))
tryit(lambda: jvp(lambda t: const * t.sum() * 0 + const, torch.ones(2), torch.ones(2), strict=True))
print(torch.is_grad_enabled())
"""


def test_functional_program_matches_torch():
    want, got = run_both(PROGRAM)
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\ntorch:\n{want.stdout}"
    # torch's own vectorized paths warn that torch.jit.script is deprecated: its implementation, not the API's
    assert got.warnings == [w for w in want.warnings if "torch.jit.script" not in w[1]]
    assert got.exc == want.exc


def test_jacobian_and_hessian_agree_with_finite_differences():
    T = load_engine()

    def f(x, y):
        return (x.sin() * y.exp()).sum() + (x * x * y).sum()

    x0, y0 = np.array([0.3, -1.2, 0.7]), np.array([0.5, 0.1, -0.4])

    def value(a, b):
        return float(f(T.tensor(a.tolist(), dtype=T.float64), T.tensor(b.tolist(), dtype=T.float64)))

    xs = (T.tensor(x0.tolist(), dtype=T.float64), T.tensor(y0.tolist(), dtype=T.float64))
    jx, jy = T.autograd.functional.jacobian(f, xs)
    (hxx, hxy), (hyx, hyy) = T.autograd.functional.hessian(f, xs)
    eps = 1e-5
    point = np.concatenate([x0, y0])

    def at(p):
        return value(p[:3], p[3:])

    grad = np.array([(at(point + eps * e) - at(point - eps * e)) / (2 * eps) for e in np.eye(6)])
    np.testing.assert_allclose(np.concatenate([jx.tolist(), jy.tolist()]), grad, rtol=1e-7, atol=1e-9)
    hess = np.array([[(at(point + eps * (a + b)) - at(point + eps * (a - b)) - at(point - eps * (a - b))
                       + at(point - eps * (a + b))) / (4 * eps * eps) for b in np.eye(6)] for a in np.eye(6)])
    blocks = [[np.array(hxx.tolist()), np.array(hxy.tolist())], [np.array(hyx.tolist()), np.array(hyy.tolist())]]
    full = np.block(blocks)
    np.testing.assert_allclose(full, hess, rtol=1e-4, atol=1e-5)
