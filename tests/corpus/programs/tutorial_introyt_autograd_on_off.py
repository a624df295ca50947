# Source: pytorch/tutorials beginner_source/introyt/autogradyt_tutorial.py, "Turning Autograd Off and On"
#   and the vector-Jacobian example ("The Fundamentals of Autograd", Introduction to PyTorch on YouTube;
#   https://github.com/pytorch/tutorials, BSD-3-Clause), commit 199e953.
# Category: no_grad, detach, grad modes — requires_grad flag, no_grad decorator, detach
# Adaptations:
#  - torch.manual_seed(0) added before the first random tensor (the original is unseeded).
#  - the autograd profiler section in between is left out (it prints timings).
import torch

torch.manual_seed(0)

a = torch.ones(2, 3, requires_grad=True)
print(a)

b1 = 2 * a
print(b1)

a.requires_grad = False
b2 = 2 * a
print(b2)

a = torch.ones(2, 3, requires_grad=True) * 2
b = torch.ones(2, 3, requires_grad=True) * 3

c1 = a + b
print(c1)

with torch.no_grad():
    c2 = a + b

print(c2)

c3 = a * b
print(c3)

def add_tensors1(x, y):
    return x + y

@torch.no_grad()
def add_tensors2(x, y):
    return x + y


a = torch.ones(2, 3, requires_grad=True) * 2
b = torch.ones(2, 3, requires_grad=True) * 3

c1 = add_tensors1(a, b)
print(c1)

c2 = add_tensors2(a, b)
print(c2)

x = torch.rand(5, requires_grad=True)
y = x.detach()

print(x)
print(y)

x = torch.randn(3, requires_grad=True)

y = x * 2
while y.data.norm() < 1000:
    y = y * 2

print(y)

v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float) # stand-in for gradients
y.backward(v)

print(x.grad)
