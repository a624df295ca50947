# Source: redfish64/mem1win learn_jac_hess_ex.py (a learner's copy of the start of the functorch "Jacobians,
#   hessians" notebook), commit 5b35bcf.
# Category: autograd.grad, higher-order, functional API — a Jacobian built row by row: one
#   torch.autograd.grad(predict(x), x, unit_vector) per row of torch.eye(D) (the graph is rebuilt each time),
#   torch.stack of the rows, F.linear(...).tanh()
# Adaptations:
#  - written after the original file (the search tool's terms keep its text out of commits): the same functions,
#    calls and prints, in other words; none else (D = 16 as there).
import torch
import torch.nn.functional as F

_ = torch.manual_seed(0)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


D = 16
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)


def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in unit_vectors]
    return torch.stack(jacobian_rows)


xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)
jacobian = compute_jac(xp)
print(jacobian.shape)
print(jacobian[0])
