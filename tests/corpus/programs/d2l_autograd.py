# Source: d2l-ai/d2l-en chapter_preliminaries/autograd.md, the PyTorch tab ("Dive into Deep Learning", §2.5
#   Automatic Differentiation, by Zhang, Lipton, Li and Smola; https://github.com/d2l-ai/d2l-en; sample code
#   under the MIT-0 licence of LICENSE-SAMPLECODE), commit c613498.
# Category: autograd basics — .grad accumulation, non-scalar backward, detach, control flow
# Adaptations:
#  - the notebook cells' bare expressions (whose value the notebook shows) are wrapped in print().
#  - torch.manual_seed(0) added before `a = torch.randn(size=(), ...)` (unseeded in the book).
import torch

torch.manual_seed(0)

x = torch.arange(4.0)
print(x)

# Can also create x = torch.arange(4.0, requires_grad=True)
x.requires_grad_(True)
print(x.grad)  # The gradient is None by default

y = 2 * torch.dot(x, x)
print(y)

y.backward()
print(x.grad)

print(x.grad == 4 * x)

x.grad.zero_()  # Reset the gradient
y = x.sum()
y.backward()
print(x.grad)

x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))  # Faster: y.sum().backward()
print(x.grad)

x.grad.zero_()
y = x * x
u = y.detach()
z = u * x
z.sum().backward()
print(x.grad == u)

x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)

def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c

a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()

print(a.grad == d / a)
