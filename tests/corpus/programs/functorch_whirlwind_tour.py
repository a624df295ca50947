# Source: pytorch/functorch notebooks/whirlwind_tour.ipynb ("Whirlwind Tour" of functorch;
#   https://github.com/pytorch/functorch, BSD-3-Clause), commit d1126fb.
# Category: autograd.grad, higher-order, functional API — grad and grad(grad), vmap of a model closing over a
#   requires_grad weight, per-example gradients by vmap(grad, in_dims=(None, 0, 0)), vjp, jvp, jacrev, vmap of
#   jacrev, jacfwd, hessians by jacrev(jacrev), jacfwd(jacrev) and hessian
# Adaptations:
#  - the notebook's code cells, in order; `from functorch import ...` becomes `from torch.func import ...`
#    (functorch's transforms moved there under the same names);
#  - torch.manual_seed(0) before the first cell (the draws were unseeded) and `import torch` at the top (the
#    first cell used torch before the second imported it);
#  - each cell's results are printed (the notebook computed them for the reader to inspect); the vmap of
#    jacrev's batch 64 -> 4 (and its assert's shape).
import torch
torch.manual_seed(0)

from torch.func import grad
x = torch.randn([])
cos_x = grad(lambda x: torch.sin(x))(x)
assert torch.allclose(cos_x, x.cos())

# Second-order gradients
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
assert torch.allclose(neg_sin_x, -x.sin())
print(x, cos_x, neg_sin_x)

import torch
from torch.func import vmap
batch_size, feature_size = 3, 5
weights = torch.randn(feature_size, requires_grad=True)

def model(feature_vec):
    # Very simple linear model with activation
    assert feature_vec.dim() == 1
    return feature_vec.dot(weights).relu()

examples = torch.randn(batch_size, feature_size)
result = vmap(model)(examples)
print(result)

from torch.func import vmap
batch_size, feature_size = 3, 5

def model(weights,feature_vec):
    # Very simple linear model with activation
    assert feature_vec.dim() == 1
    return feature_vec.dot(weights).relu()

def compute_loss(weights, example, target):
    y = model(weights, example)
    return ((y - target) ** 2).mean()  # MSELoss

weights = torch.randn(feature_size, requires_grad=True)
examples = torch.randn(batch_size, feature_size)
targets = torch.randn(batch_size)
inputs = (weights,examples, targets)
grad_weight_per_example = vmap(grad(compute_loss), in_dims=(None, 0, 0))(*inputs)
print(grad_weight_per_example)

from torch.func import vjp

inputs = torch.randn(3)
func = torch.sin
cotangents = (torch.randn(3),)

outputs, vjp_fn = vjp(func, inputs); vjps = vjp_fn(*cotangents)
print(outputs, vjps)

from torch.func import jvp
x = torch.randn(5)
y = torch.randn(5)
f = lambda x, y: (x * y)
_, output = jvp(f, (x, y), (torch.ones(5), torch.ones(5)))
assert torch.allclose(output, x + y)
print(output)

from torch.func import jacrev
x = torch.randn(5)
jacobian = jacrev(torch.sin)(x)
expected = torch.diag(torch.cos(x))
assert torch.allclose(jacobian, expected)
print(jacobian)

x = torch.randn(4, 5)
jacobian = vmap(jacrev(torch.sin))(x)
assert jacobian.shape == (4, 5, 5)

from torch.func import jacfwd
x = torch.randn(5)
jacobian = jacfwd(torch.sin)(x)
expected = torch.diag(torch.cos(x))
assert torch.allclose(jacobian, expected)

def f(x):
  return x.sin().sum()

x = torch.randn(5)
hessian0 = jacrev(jacrev(f))(x)
hessian1 = jacfwd(jacrev(f))(x)
print(torch.allclose(hessian0, hessian1), hessian0.diag())

from torch.func import hessian

def f(x):
  return x.sin().sum()

x = torch.randn(5)
hess = hessian(f)(x)
print(hess)
