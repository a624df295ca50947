"""torch.autograd.gradcheck and gradgradcheck on the engine against PyTorch: the same verdicts, the same
GradcheckError texts (the numerical and analytical Jacobians printed), warnings and errors, for correct and
wrong backwards, functions of several inputs and outputs, non-differentiable outputs, backwards that ignore
grad_output or cannot take undefined grads, and second derivatives (once_differentiable, detached backward)."""

from __future__ import annotations

from difftest import run_both

PROGRAM = """import torch
from torch.autograd import gradcheck, gradgradcheck

class BadSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x * g

class NoGradOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return torch.ones_like(x) * 2

class NoMat(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2

class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g

def tryit(f):
    try:
        print("ok", f())
    except Exception as e:
        print(type(e).__name__, isinstance(e, RuntimeError), e)

x = torch.tensor([[0.5, -1.5, 2.0], [1.0, 0.25, -0.75]], dtype=torch.float64, requires_grad=True)
w = torch.tensor([0.3, -0.2, 0.9], dtype=torch.float64, requires_grad=True)
print(gradcheck(Square.apply, x))
print(gradcheck(Square.apply, (x,), eps=1e-6, atol=1e-4))
print(gradcheck(lambda a, b: (a * b).sum(1).exp(), (x, w)))
print(gradcheck(lambda a: (a.sin(), a.cos() * 3), x))
tryit(lambda: gradcheck(BadSquare.apply, x))
print(gradcheck(BadSquare.apply, x, raise_exception=False))
tryit(lambda: gradcheck(lambda a, b: BadSquare.apply(a) * b, (x, w)))
tryit(lambda: gradcheck(NoGradOut.apply, x))
tryit(lambda: gradcheck(NoMat.apply, x))
print(gradcheck(NoMat.apply, x, check_undefined_grad=False))
tryit(lambda: gradcheck(Square.apply, torch.tensor([1.0, 2.0])))
tryit(lambda: gradcheck(Square.apply, torch.tensor([1.0, 2.0], requires_grad=True)))
tryit(lambda: gradcheck(lambda a: a.round(), x))
tryit(lambda: gradcheck(lambda a: (a > 0).double(), x))
tryit(lambda: gradcheck(Square.apply, x, check_forward_ad=False, check_backward_ad=False))
print(gradgradcheck(Square.apply, x))
print(gradgradcheck(lambda a: (a ** 3).sum(), x, torch.tensor(1.0, dtype=torch.float64)))
print(gradgradcheck(lambda a, b: a * b, (x, w), (torch.ones(2, 3, dtype=torch.float64),)))
class Once(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g
print(gradcheck(Once.apply, x))
tryit(lambda: gradgradcheck(Once.apply, x, torch.ones(2, 3, dtype=torch.float64)))
class Cube2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x.detach() ** 2 * g
tryit(lambda: gradgradcheck(Cube2.apply, x, torch.ones(2, 3, dtype=torch.float64)))
tryit(lambda: gradgradcheck(lambda a: a ** 2 * 1.5 + a.detach() ** 3, x, torch.ones(2, 3, dtype=torch.float64)))
"""


def test_gradcheck_program_matches_torch():
    want, got = run_both(PROGRAM)
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\ntorch:\n{want.stdout}"
    assert got.warnings == want.warnings
    assert got.exc == want.exc
