# Source: pytorch/functorch notebooks/colab/jacobians_hessians_colab.ipynb ("Jacobians, Hessians, hvp, vhp, and
#   more: composing functorch transforms"; https://github.com/pytorch/functorch, BSD-3-Clause), commit b71aa0b.
# Category: autograd.grad, higher-order, functional API — jacobian rows by autograd.grad, vjp+vmap, jacrev,
#   jacfwd, hessian, batched jacobians with vmap(in_dims=), hvp by jvp(grad) and by vjp(grad)
# Adaptations:
#  - the notebook's code cells, in order; `from functorch import ...` becomes `from torch.func import ...`
#    (functorch's transforms moved there; the names and signatures are the same);
#  - the torch.utils.benchmark timing cells (Timer, get_perf) are dropped: they time, they compute nothing;
#  - sizes shrink (D 16 -> 4; the tall/wide and hessian cells' Din/Dout 32/2048 and 512/32 -> 3/5 and 6/2; the
#    batch 64x31x33 -> 3x4x5; the hvp vector 2048 -> 6);
#  - cells that showed a value by ending with it (torch.allclose(...), batch_hess.shape) print it, and the
#    jacobians and hessians the notebook computes are printed.
import torch
import torch.nn as nn
import torch.nn.functional as F
from functools import partial
_ = torch.manual_seed(0)

def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()

D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D) # feature vector

def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0]
                     for vec in unit_vectors]
    return torch.stack(jacobian_rows)

xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)

jacobian = compute_jac(xp)

print(jacobian.shape)
print(jacobian[0])  # show first row

from torch.func import vmap, vjp

_, vjp_fn = vjp(partial(predict, weight, bias), x)

ft_jacobian, = vmap(vjp_fn)(unit_vectors)

# lets confirm both methods compute the same result
assert torch.allclose(ft_jacobian, jacobian)

from torch.func import jacrev

ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)

# confirm
assert torch.allclose(ft_jacobian, jacobian)

# note the change in input via argnums params of 0,1 to map to weight and bias
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(ft_jac_bias)

from torch.func import jacrev, jacfwd

Din = 3
Dout = 5
weight = torch.randn(Dout, Din)

bias = torch.randn(Dout)
x = torch.randn(Din)

# remember the general rule about taller vs wider...here we have a taller matrix:
print(weight.shape)
print(torch.allclose(jacfwd(predict, argnums=2)(weight, bias, x), jacrev(predict, argnums=2)(weight, bias, x)))

from torch.func import hessian

Din = 6
Dout = 2
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(Din)

hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
#hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)

print(torch.allclose(hess_api, hess_fwdfwd))
print(hess_api.shape)
print(hess_api[0, :2])

batch_size = 3
Din = 4
Dout = 5

weight = torch.randn(Dout, Din)
print(f"weight shape = {weight.shape}")

bias = torch.randn(Dout)

x = torch.randn(batch_size, Din)

compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, x)

def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)

batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
assert torch.allclose(batch_jacobian0, batch_jacobian1)
print(batch_jacobian0[1])

compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))

batch_hess = compute_batch_hessian(weight, bias, x)
print(batch_hess.shape)

from torch.func import jvp, grad, vjp

def hvp(f, primals, tangents):
  return jvp(grad(f), primals, tangents)[1]

def f(x):
  return x.sin().sum()

x = torch.randn(6)
tangent = torch.randn(6)

result = hvp(f, (x,), (tangent,))
print(result)

def hvp_revrev(f, primals, tangents):
  _, vjp_fn = vjp(grad(f), *primals)
  return vjp_fn(*tangents)

result_hvp_revrev = hvp_revrev(f, (x,), (tangent,))
assert torch.allclose(result, result_hvp_revrev[0])
