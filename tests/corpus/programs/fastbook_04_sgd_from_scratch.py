# Source: fastai/fastbook 04_mnist_basics.ipynb, sections "Calculating Gradients", "An End-to-End SGD Example",
#   "The MNIST Loss Function", "SGD and Mini-Batches", "Putting It All Together" and "Creating an Optimizer"
#   ("Deep Learning for Coders with fastai and PyTorch", Jeremy Howard and Sylvain Gugger, chapter 4; GPL-3.0
#   licence for the notebooks' code).
# Category: training loops — requires_grad_() on a scalar and a vector, backward of x**2 and its sum, fitting a
#   quadratic to speeds with params.data -= lr * params.grad.data and params.grad = None, a linear model on 28x28
#   images with init_params, torch.where in mnist_loss, sigmoid, DataLoader over a range and over (x, y) pairs,
#   p.grad.zero_(), batch_accuracy/validate_epoch, a BasicOptim class, nn.Linear and a small nn.Sequential
# Adaptations:
#  - fastai is not installed: its `tensor` is torch.tensor, `first(dl)` is next(iter(dl)), `L(...)` is list(...);
#    fastai's SGD and Learner cells go;
#  - the MNIST 3s and 7s (6131 + 6265 images) become 128 + 128 training and 32 + 32 validation images drawn with
#    torch.rand (the 7s brighter), flattened and labelled 1/0 as in the book;
#  - torch.manual_seed(42) added; the plots go; training runs 3 epochs where the book runs 20; a displayed value
#    is print()ed.
import string

import torch
from torch import nn
from torch.utils.data import DataLoader

tensor = torch.tensor

torch.manual_seed(42)

def f(x): return x**2

xt = tensor(3.).requires_grad_()
yt = f(xt)
print(yt)
yt.backward()
print(xt.grad)

xt = tensor([3.,4.,10.]).requires_grad_()
print(xt)

def f(x): return (x**2).sum()

yt = f(xt)
print(yt)
yt.backward()
print(xt.grad)

time = torch.arange(0,20).float(); print(time)
speed = torch.randn(20)*3 + 0.75*(time-9.5)**2 + 1

def f(t, params):
    a,b,c = params
    return a*(t**2) + (b*t) + c

def mse(preds, targets): return ((preds-targets)**2).mean()

params = torch.randn(3).requires_grad_()
orig_params = params.clone()
preds = f(time, params)
loss = mse(preds, speed)
print(loss)
loss.backward()
print(params.grad)
print(params.grad * 1e-5)
print(params)
lr = 1e-5
params.data -= lr * params.grad.data
params.grad = None
preds = f(time,params)
print(mse(preds, speed))

def apply_step(params, prn=True):
    preds = f(time, params)
    loss = mse(preds, speed)
    loss.backward()
    params.data -= lr * params.grad.data
    params.grad = None
    if prn: print(loss.item())
    return preds

for i in range(10): apply_step(params)

params = orig_params.detach().requires_grad_()

threes = torch.rand(128, 28, 28) * 0.6
sevens = torch.rand(128, 28, 28) * 0.6 + 0.3
valid_3_tens = torch.rand(32, 28, 28) * 0.6
valid_7_tens = torch.rand(32, 28, 28) * 0.6 + 0.3

train_x = torch.cat([threes, sevens]).view(-1, 28*28)
train_y = tensor([1]*len(threes) + [0]*len(sevens)).unsqueeze(1)
print(train_x.shape,train_y.shape)

dset = list(zip(train_x,train_y))
x,y = dset[0]
print(x.shape,y)

valid_x = torch.cat([valid_3_tens, valid_7_tens]).view(-1, 28*28)
valid_y = tensor([1]*len(valid_3_tens) + [0]*len(valid_7_tens)).unsqueeze(1)
valid_dset = list(zip(valid_x,valid_y))

def init_params(size, std=1.0): return (torch.randn(size)*std).requires_grad_()

weights = init_params((28*28,1))
bias = init_params(1)
print((train_x[0]*weights.T).sum() + bias)

def linear1(xb): return xb@weights + bias
preds = linear1(train_x)
print(preds[:4])

corrects = (preds>0.0).float() == train_y
print(corrects[:4])
print(corrects.float().mean().item())

with torch.no_grad(): weights[0] *= 1.0001
preds = linear1(train_x)
print(((preds>0.0).float() == train_y).float().mean().item())

trgts  = tensor([1,0,1])
prds   = tensor([0.9, 0.4, 0.2])

def mnist_loss(predictions, targets):
    return torch.where(targets==1, 1-predictions, predictions).mean()

print(torch.where(trgts==1, 1-prds, prds))
print(mnist_loss(prds,trgts))
print(mnist_loss(tensor([0.9, 0.4, 0.8]),trgts))

def sigmoid(x): return 1/(1+torch.exp(-x))

def mnist_loss(predictions, targets):
    predictions = predictions.sigmoid()
    return torch.where(targets==1, 1-predictions, predictions).mean()

coll = range(15)
dl = DataLoader(coll, batch_size=5, shuffle=True)
print(list(dl))

ds = list(enumerate(string.ascii_lowercase))
print(ds[:3])
dl = DataLoader(ds, batch_size=6, shuffle=True)
print(list(dl))

weights = init_params((28*28,1))
bias = init_params(1)

dl = DataLoader(dset, batch_size=64, shuffle=True)
xb,yb = next(iter(dl))
print(xb.shape,yb.shape)

valid_dl = DataLoader(valid_dset, batch_size=64)

batch = train_x[:4]
print(batch.shape)

preds = linear1(batch)
print(preds)

loss = mnist_loss(preds, train_y[:4])
print(loss)

loss.backward()
print(weights.grad.shape,weights.grad.mean(),bias.grad)

def calc_grad(xb, yb, model):
    preds = model(xb)
    loss = mnist_loss(preds, yb)
    loss.backward()

calc_grad(batch, train_y[:4], linear1)
print(weights.grad.mean(),bias.grad)

calc_grad(batch, train_y[:4], linear1)
print(weights.grad.mean(),bias.grad)

weights.grad.zero_()
bias.grad.zero_();

def train_epoch(model, lr, params):
    for xb,yb in dl:
        calc_grad(xb, yb, model)
        for p in params:
            p.data -= p.grad*lr
            p.grad.zero_()

print((preds>0.0).float() == train_y[:4])

def batch_accuracy(xb, yb):
    preds = xb.sigmoid()
    correct = (preds>0.5) == yb
    return correct.float().mean()

print(batch_accuracy(linear1(batch), train_y[:4]))

def validate_epoch(model):
    accs = [batch_accuracy(model(xb), yb) for xb,yb in valid_dl]
    return round(torch.stack(accs).mean().item(), 4)

print(validate_epoch(linear1))

lr = 1.
params = weights,bias
train_epoch(linear1, lr, params)
print(validate_epoch(linear1))

for i in range(3):
    train_epoch(linear1, lr, params)
    print(validate_epoch(linear1), end=' ')
print()

linear_model = nn.Linear(28*28,1)

w,b = linear_model.parameters()
print(w.shape,b.shape)

class BasicOptim:
    def __init__(self,params,lr): self.params,self.lr = list(params),lr

    def step(self, *args, **kwargs):
        for p in self.params: p.data -= p.grad.data * self.lr

    def zero_grad(self, *args, **kwargs):
        for p in self.params: p.grad = None

opt = BasicOptim(linear_model.parameters(), lr)

def train_epoch(model):
    for xb,yb in dl:
        calc_grad(xb, yb, model)
        opt.step()
        opt.zero_grad()

print(validate_epoch(linear_model))

def train_model(model, epochs):
    for i in range(epochs):
        train_epoch(model)
        print(validate_epoch(model), end=' ')
    print()

train_model(linear_model, 3)

simple_net = nn.Sequential(
    nn.Linear(28*28,30),
    nn.ReLU(),
    nn.Linear(30,1)
)
print(simple_net)
