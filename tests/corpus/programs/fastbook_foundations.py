# Source: fastai/fastbook clean/17_foundations.ipynb ("A Neural Net from the Foundations", Deep Learning for Coders
#   with fastai and PyTorch, Howard and Gugger; https://github.com/fastai/fastbook, GPL-3.0), commit cf9fae1.
# Category: autograd basics — matmul from loops, broadcasting, expand_as and stride(), einsum, init scales, a
#   forward and backward pass written by hand that stores gradients as attributes (inp.g = ...), the same as
#   classes, then torch.autograd.Function and nn.Module
# Adaptations:
#  - the notebook's code cells, in order; the fastbook setup and nbdoc cells, the %time/%timeit cells (each
#    matmul version is called once and compared with m1@m2 instead), the SymPy sidebar and the last cell (fastai's
#    Module) go;
#  - cells that showed a value by ending with it print it; torch.manual_seed(0) after the imports;
#  - the cells that only define the hand-written passes are run once (forward_and_backward, the Model classes,
#    MyRelu.apply, the two Model modules) and the .g attributes they set are compared with autograd's gradients;
#  - sizes shrink: m1 5x784 -> 2x12, m2 784x10 -> 12x3; x 200x100 -> 20x10 and the layers 100->50->1 ->
#    10->5->1 (the init experiments' 100x100 matrices -> 10x10, sqrt(2/100) -> sqrt(2/10)).
import torch
from torch import tensor
torch.manual_seed(0)

def matmul(a,b):
    ar,ac = a.shape # n_rows * n_cols
    br,bc = b.shape
    assert ac==br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            for k in range(ac): c[i,j] += a[i,k] * b[k,j]
    return c

m1 = torch.randn(2,12)
m2 = torch.randn(12,3)

t1=matmul(m1, m2)
print(torch.allclose(t1, m1@m2, atol=1e-5))

a = tensor([10., 6, -4])
b = tensor([2., 8, 7])
print(a + b)

print(a < b)

print((a < b).all(), (a==b).all())

print((a + b).mean().item())

m = tensor([[1., 2, 3], [4,5,6], [7,8,9]])
print(m*m)

n = tensor([[1., 2, 3], [4,5,6]])
try:
    m*n
except RuntimeError as e:
    print(e)

def matmul(a,b):
    ar,ac = a.shape
    br,bc = b.shape
    assert ac==br
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc): c[i,j] = (a[i] * b[:,j]).sum()
    return c

t3 = matmul(m1,m2)
print(torch.allclose(t3, m1@m2, atol=1e-5))

a = tensor([10., 6, -4])
print(a > 0)

m = tensor([[1., 2, 3], [4,5,6], [7,8,9]])
print((m - 5) / 2.73)

c = tensor([10.,20,30])
m = tensor([[1., 2, 3], [4,5,6], [7,8,9]])
print(m.shape,c.shape)

print(m + c)

print(c.expand_as(m))

t = c.expand_as(m)
print(t.stride(), t.shape)

print(c + m)

c = tensor([10.,20,30])
m = tensor([[1., 2, 3], [4,5,6]])
print(c+m)

c = tensor([10.,20])
m = tensor([[1., 2, 3], [4,5,6]])
try:
    c+m
except RuntimeError as e:
    print(e)

c = tensor([10.,20,30])
m = tensor([[1., 2, 3], [4,5,6], [7,8,9]])
c = c.unsqueeze(1)
print(m.shape,c.shape)

print(c+m)

t = c.expand_as(m)
print(t.stride(), t.shape)

c = tensor([10.,20,30])
print(c.shape, c.unsqueeze(0).shape,c.unsqueeze(1).shape)

print(c.shape, c[None,:].shape,c[:,None].shape)

print(c[None].shape,c[...,None].shape)

def matmul(a,b):
    ar,ac = a.shape
    br,bc = b.shape
    assert ac==br
    c = torch.zeros(ar, bc)
    for i in range(ar):
#       c[i,j] = (a[i,:]          * b[:,j]).sum() # previous
        c[i]   = (a[i  ].unsqueeze(-1) * b).sum(dim=0)
    return c

t4 = matmul(m1,m2)
print(torch.allclose(t4, m1@m2, atol=1e-5))

def matmul(a,b): return torch.einsum('ik,kj->ij', a, b)

t5 = matmul(m1,m2)
print(torch.allclose(t5, m1@m2, atol=1e-5))

def lin(x, w, b): return x @ w + b

x = torch.randn(20, 10)
y = torch.randn(20)

w1 = torch.randn(10,5)
b1 = torch.zeros(5)
w2 = torch.randn(5,1)
b2 = torch.zeros(1)

l1 = lin(x, w1, b1)
print(l1.shape)

print(l1.mean(), l1.std())

x = torch.randn(20, 10)
for i in range(50): x = x @ torch.randn(10,10)
print(x[0:5,0:5])

x = torch.randn(20, 10)
for i in range(50): x = x @ (torch.randn(10,10) * 0.01)
print(x[0:5,0:5])

x = torch.randn(20, 10)
for i in range(50): x = x @ (torch.randn(10,10) * 0.1)
print(x[0:5,0:5])

print(x.std())

x = torch.randn(20, 10)
y = torch.randn(20)

from math import sqrt
w1 = torch.randn(10,5) / sqrt(10)
b1 = torch.zeros(5)
w2 = torch.randn(5,1) / sqrt(5)
b2 = torch.zeros(1)

l1 = lin(x, w1, b1)
print(l1.mean(),l1.std())

def relu(x): return x.clamp_min(0.)

l2 = relu(l1)
print(l2.mean(),l2.std())

x = torch.randn(20, 10)
for i in range(50): x = relu(x @ (torch.randn(10,10) * 0.1))
print(x[0:5,0:5])

x = torch.randn(20, 10)
for i in range(50): x = relu(x @ (torch.randn(10,10) * sqrt(2/10)))
print(x[0:5,0:5])

x = torch.randn(20, 10)
y = torch.randn(20)

w1 = torch.randn(10,5) * sqrt(2 / 10)
b1 = torch.zeros(5)
w2 = torch.randn(5,1) * sqrt(2 / 5)
b2 = torch.zeros(1)

l1 = lin(x, w1, b1)
l2 = relu(l1)
print(l2.mean(), l2.std())

def model(x):
    l1 = lin(x, w1, b1)
    l2 = relu(l1)
    l3 = lin(l2, w2, b2)
    return l3

out = model(x)
print(out.shape)

def mse(output, targ): return (output.squeeze(-1) - targ).pow(2).mean()

loss = mse(out, y)
print(loss)

def mse_grad(inp, targ):
    # grad of loss with respect to output of previous layer
    inp.g = 2. * (inp.squeeze() - targ).unsqueeze(-1) / inp.shape[0]

def relu_grad(inp, out):
    # grad of relu with respect to input activations
    inp.g = (inp>0).float() * out.g

def lin_grad(inp, out, w, b):
    # grad of matmul with respect to input
    inp.g = out.g @ w.t()
    w.g = inp.t() @ out.g
    b.g = out.g.sum(0)

def forward_and_backward(inp, targ):
    # forward pass:
    l1 = inp @ w1 + b1
    l2 = relu(l1)
    out = l2 @ w2 + b2
    # we don't actually need the loss in backward!
    loss = mse(out, targ)

    # backward pass:
    mse_grad(out, targ)
    lin_grad(l2, out, w2, b2)
    relu_grad(l1, l2)
    lin_grad(inp, l1, w1, b1)

forward_and_backward(x, y)
print(w1.g[:2], b1.g, w2.g.t(), b2.g, x.g[0], sep='\n')

xt2, w12, b12, w22, b22 = [t.clone().requires_grad_() for t in (x, w1, b1, w2, b2)]
mse(relu(xt2 @ w12 + b12) @ w22 + b22, y).backward()
print([torch.allclose(t.g, u.grad, atol=1e-6) for t, u in zip((x, w1, b1, w2, b2), (xt2, w12, b12, w22, b22))])

class Relu():
    def __call__(self, inp):
        self.inp = inp
        self.out = inp.clamp_min(0.)
        return self.out

    def backward(self): self.inp.g = (self.inp>0).float() * self.out.g

class Lin():
    def __init__(self, w, b): self.w,self.b = w,b

    def __call__(self, inp):
        self.inp = inp
        self.out = inp@self.w + self.b
        return self.out

    def backward(self):
        self.inp.g = self.out.g @ self.w.t()
        self.w.g = self.inp.t() @ self.out.g
        self.b.g = self.out.g.sum(0)

class Mse():
    def __call__(self, inp, targ):
        self.inp = inp
        self.targ = targ
        self.out = (inp.squeeze() - targ).pow(2).mean()
        return self.out

    def backward(self):
        x = (self.inp.squeeze()-self.targ).unsqueeze(-1)
        self.inp.g = 2.*x/self.targ.shape[0]

class Model():
    def __init__(self, w1, b1, w2, b2):
        self.layers = [Lin(w1,b1), Relu(), Lin(w2,b2)]
        self.loss = Mse()

    def __call__(self, x, targ):
        for l in self.layers: x = l(x)
        return self.loss(x, targ)

    def backward(self):
        self.loss.backward()
        for l in reversed(self.layers): l.backward()

model = Model(w1, b1, w2, b2)

loss = model(x, y)
print(loss)

model.backward()
print(torch.allclose(w1.g, w12.grad, atol=1e-6), torch.allclose(x.g, xt2.grad, atol=1e-6))

class LayerFunction():
    def __call__(self, *args):
        self.args = args
        self.out = self.forward(*args)
        return self.out

    def forward(self):  raise Exception('not implemented')
    def bwd(self):      raise Exception('not implemented')
    def backward(self): self.bwd(self.out, *self.args)

class Relu(LayerFunction):
    def forward(self, inp): return inp.clamp_min(0.)
    def bwd(self, out, inp): inp.g = (inp>0).float() * out.g

class Lin(LayerFunction):
    def __init__(self, w, b): self.w,self.b = w,b

    def forward(self, inp): return inp@self.w + self.b

    def bwd(self, out, inp):
        inp.g = out.g @ self.w.t()
        self.w.g = inp.t() @ self.out.g
        self.b.g = out.g.sum(0)

class Mse(LayerFunction):
    def forward (self, inp, targ): return (inp.squeeze() - targ).pow(2).mean()
    def bwd(self, out, inp, targ):
        inp.g = 2*(inp.squeeze()-targ).unsqueeze(-1) / targ.shape[0]

model = Model(w1, b1, w2, b2)
loss = model(x, y)
model.backward()
print(loss, torch.allclose(b2.g, b22.grad, atol=1e-6))

from torch.autograd import Function

class MyRelu(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.clamp_min(0.)
        ctx.save_for_backward(i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        i, = ctx.saved_tensors
        return grad_output * (i>0).float()

xr = torch.randn(5, requires_grad=True)
r = MyRelu.apply(xr)
r.sum().backward()
print(r, r.grad_fn, xr.grad, sep='\n')

import torch.nn as nn

class LinearLayer(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_out, n_in) * sqrt(2/n_in))
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x): return x @ self.weight.t() + self.bias

lin = LinearLayer(10,2)
p1,p2 = lin.parameters()
print(p1.shape,p2.shape)

class Model(nn.Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(n_in,nh), nn.ReLU(), nn.Linear(nh,n_out))
        self.loss = mse

    def forward(self, x, targ): return self.loss(self.layers(x).squeeze(), targ)

model = Model(10, 5, 1)
loss = model(x, y)
loss.backward()
print(model)
print(loss, model.layers[0].bias.grad)
