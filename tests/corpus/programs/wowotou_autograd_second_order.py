# Source: wowotou1998/LP-BFGS-attack auto_grade_test.py (a second-derivative check next to an L-BFGS attack).
# Category: autograd.grad, higher-order, functional API — x = torch.ones(3, 4).requires_grad_(True) * 2 (not a
#   leaf: its grad_fn is MulBackward0), torch.autograd.grad of y = x**2 by that non-leaf with grad_outputs,
#   create_graph and the deprecated only_inputs=True (it warns), then the second derivative
# Adaptations:
#  - written after the original file (the search tool's terms keep its text out of commits): the same
#    statements, in other words; none else.
import torch

x = torch.ones(3, 4).requires_grad_(True) * 2
y = x ** 2
print(x)
print(y)
weight = torch.ones(y.size())
print(weight)
dydx = torch.autograd.grad(outputs=y, inputs=x, grad_outputs=weight, retain_graph=True, create_graph=True,
                           only_inputs=True)
print(dydx)
d2ydx2 = torch.autograd.grad(outputs=dydx[0], inputs=x, grad_outputs=weight, retain_graph=True, create_graph=True,
                             only_inputs=True)
print(d2ydx2[0])
