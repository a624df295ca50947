# Source: Garios2/Spectral_Acceleration src/algos/pyhessian/grad_test.py (a check of second derivatives next to
#   a PyHessian copy).
# Category: autograd.grad, higher-order, functional API — writing a leaf that requires grad element by element
#   under torch.no_grad, then torch.autograd.grad of y = x**2 with a grad_outputs weight, retain_graph,
#   create_graph and the deprecated only_inputs=True (it warns), and the second derivative from the first
# Adaptations:
#  - written after the original file (the search tool's terms keep its text out of commits): the same
#    statements, in other words;
#  - seeded (torch.manual_seed(0)); none else.
import torch

torch.manual_seed(0)
x = torch.randn(3, 4).requires_grad_(True)
for i in range(3):
    for j in range(4):
        with torch.no_grad():
            x[i][j] = i + j
y = x ** 2
print(x)
print(y)
weight = torch.tensor([[1., 1., 0., 0.], [1., 1., 1., 1.], [1., 1., 1., 1.]])
print(weight)
dydx = torch.autograd.grad(outputs=y, inputs=x, grad_outputs=weight, retain_graph=True, create_graph=True,
                           only_inputs=True)
print(dydx[0])
d2ydx2 = torch.autograd.grad(outputs=dydx[0], inputs=x, grad_outputs=weight, retain_graph=True, create_graph=True,
                             only_inputs=True)
print(d2ydx2[0])
