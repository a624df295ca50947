# Source: stephenbaek/padl-yonsei labs/02_autograd.ipynb (Stephen Baek, Physics-Aware Deep Learning course at
#   Yonsei, MIT licence), at commit c29d619: its code cells in order.
# Category: autograd.grad, higher-order, functional API — a course lab on autograd: backward on a hand-written
#   tanh, requires_grad_(), backward twice (the freed-graph error), retain_graph, grad accumulation and
#   x.grad.zero_(), a second derivative through backward(create_graph=True) and x.grad.clone(),
#   torch.autograd.grad with and without grad_outputs (the non-scalar backward error),
#   torch.autograd.functional.jacobian of a torch.stack, torch.tensor from 0-dim tensors that require grad
# Adaptations:
#  - torch.manual_seed(0) added;
#  - the two cells the lab runs to show an error (a second backward through a freed graph, backward of a
#    non-scalar) run inside try/except RuntimeError printing the error, so that the later cells run as they do
#    in the notebook.
import torch

torch.manual_seed(0)

x = torch.tensor(1.0, requires_grad=True)

def tanh(x):
    y = torch.exp(-2.0 * x)
    return (1.0 - y) / (1.0 + y)

y = tanh(x)

y.backward()
print(x.grad)    # Should print 0.42, since dy/dx = 1 - tanh(x)**2

def norm(x):
    return torch.sum(x**2)

x = 2*torch.rand(5) - 1   # a 5-dimensional random vector with elements ranging between -1 and 1.
x.requires_grad_()      # another way of setting requires_grad
y = norm(x)
y.backward()
print(x)
print(x.grad)
print(2*x)            # analytic gradient. `x.grad` should be the same as this one.

try:
    y.backward()        # this line should return ERROR
except RuntimeError as e:
    print(e)

x = torch.tensor(2.0, requires_grad=True)
y = x**3

y.backward(retain_graph=True)    # this will prevent PyTorch from freeing the computational graph
print(x.grad)               # should return 12, because dy/dx = 3*(x**2)

y.backward()                    # computes the gradient again
print(x.grad)               # should return 24, I'll explain why...

x = torch.tensor(2.0, requires_grad=True)
y = x**3

y.backward(retain_graph=True)
print(x.grad)

x.grad.zero_()    # observe the difference with the addition of this line

y.backward()
print(x.grad)

x = torch.tensor(2.0, requires_grad=True)
y = x**2

y.backward(create_graph=True)    # create_graph is used instead of retain_graph
dydx = x.grad.clone()       # Make a copy of x.grad

x.grad.zero_()             # reset grad

dydx.backward()         # compute d^2y/dx^2 using the same graph
d2ydx2 = x.grad

print(dydx)             # This should be 4 because dy/dx = 2*x
print(d2ydx2)           # This should be 2 because d^2y/dx^2 = 2

x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)

f = x*y + y**2

grads = torch.autograd.grad(f, (x, y))    # this is how you use torch.autograd.grad

print(grads[0])   # should print df/dx, which is 3, because df/dx = y
print(grads[1])   # should print df/dy, which is 8, because df/dy = x + 2*y
print(x.grad, y.grad)  # prints None for both. I'll explain why.

x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)

f = x*y + y**2

f.backward()
print(x.grad)
print(y.grad)

def model(x):
    return x**2    # A toy model for demo. This could be a neural network.

x = torch.rand(8, requires_grad=True)   # a batch of 8 samples, each a scalar
y = model(x)                            # this will return a batch of 8 outputs, each corresponding to an element of x

try:
    y.backward()              # this will return ERROR, because the backward() method is not for non-scalar outputs
except RuntimeError as e:
    print(e)

x = torch.rand(8, requires_grad=True)
y = model(x)

# note the `grad_outputs` argument. I'll explain it shortly...
grads = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y))

print(grads)
print(2*x)      # analytical gradient. prediction must be the same as this one.

x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(torch.pi/2, requires_grad=True)

def func(xy):
    x, y = xy
    return torch.stack([
        (x**2)*y,
        5*x + torch.sin(y)
    ])

J = torch.tensor([
    [2*x*y, x**2],
    [5, torch.cos(y)]
])

xy = torch.stack([x,y])

grads = torch.autograd.functional.jacobian(func, xy)

print(f)
print(J)
print(grads)
