# Source: d2l-ai/d2l-en chapter_multilayer-perceptrons/numerical-stability-and-init.md, stored version at commit
#   26d5d3d, the PyTorch tab ("Dive into Deep Learning", §5.4 Numerical Stability and Initialization, by Zhang,
#   Lipton, Li and Smola; sample code under the MIT-0 licence of LICENSE-SAMPLECODE).
# Category: autograd basics — the sigmoid's vanishing gradient, a product of 100 random matrices exploding
# Adaptations:
#  - torch.manual_seed(0) added (the book is unseeded); the plot becomes prints of a few gradient values; the
#    matrices are printed as in the book.
import torch

torch.manual_seed(0)

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))
print(x.grad[::20])
print(y.grad_fn, x.grad.max(), x.grad.argmax())

M = torch.normal(0, 1, size=(4, 4))
print('a single matrix \n',M)
for i in range(100):
    M = M @ torch.normal(0, 1, size=(4, 4))
print('after multiplying 100 matrices\n', M)
