# Source: pytorch/pytorch torch/autograd/function.py docstrings of Function, FunctionCtx.save_for_backward,
#   mark_dirty, mark_non_differentiable and set_materialize_grads (https://github.com/pytorch/pytorch,
#   BSD-3-Clause), commit 006b3e6.
# Category: custom autograd.Function — once_differentiable, mark_dirty, mark_non_differentiable
# Adaptations:
#  - `from torch.autograd import Function` and `from torch.autograd.function import once_differentiable`
#    added (the docstrings assume them); the `>>>` prompts are dropped.
#  - the docstrings mostly only define the functions: a few lines call each one and print its outputs and
#    grads; mark_dirty's `b.backward()` (shown raising) is printed inside try/except.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable

class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result

input = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
output = Exp.apply(input)
print(output)
output.sum().backward()
print(input.grad)

class Func(Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, z: int):
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z  # z is not a tensor
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        x, y, w, out = ctx.saved_tensors
        z = ctx.z
        gx = grad_out * (y + y * z)
        gy = grad_out * (x + z + w)
        gz = None
        return gx, gy, gz

a = torch.tensor(1., requires_grad=True, dtype=torch.double)
b = torch.tensor(2., requires_grad=True, dtype=torch.double)
c = 4
d = Func.apply(a, b, c)
print(d)
d.backward()
print(a.grad, b.grad)

class Inplace(Function):
    @staticmethod
    def forward(ctx, x):
        x_npy = x.numpy() # x_npy shares storage with x
        x_npy += 1
        ctx.mark_dirty(x)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        return grad_output

a = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
b = a * a
Inplace.apply(a)  # This would lead to wrong gradients!
                  # but the engine would not know unless we mark_dirty
try:
    b.backward() # RuntimeError: one of the variables needed for gradient
                 # computation has been modified by an inplace operation
except RuntimeError as e:
    print("RuntimeError:", e)

class Func(Function):
    @staticmethod
    def forward(ctx, x):
        sorted, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):  # still need to accept g2
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input

x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
s, i = Func.apply(x)
print(s, i, i.requires_grad)
(s * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)

class SimpleFunc(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        return g1 + g2  # No check for None necessary

# We modify SimpleFunc to handle non-materialized grad outputs
class Func(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:  # We must check for None now
            grad_input += g1
        if g2 is not None:
            grad_input += g2
        return grad_input

a = torch.tensor(1., requires_grad=True)
b, _ = Func.apply(a)  # induces g2 to be undefined
b.backward()
print(a.grad)
a = torch.tensor(1., requires_grad=True)
b, _ = SimpleFunc.apply(a)
b.backward()
print(a.grad)
