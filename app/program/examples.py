"""The built-in example programs, each reachable as `?example=<slug>`. Plain PyTorch: they run unchanged
in real PyTorch, which is how the tests check what the explorer shows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Example:
    slug: str
    title: str
    source: str


def _program(text: str) -> str:
    return text.strip("\n") + "\n"


def _scalar_mlp(inputs: int = 8, hidden: int = 16, samples: int = 3) -> str:
    """An MLP written with scalar ops only: one weight tensor per connection, about 1,000 graph nodes."""
    return _program(f'''
import torch

xs = [[0.1 * (i + j) for j in range({inputs})] for i in range({samples})]
ys = [1.0, -1.0, 0.5]
w1 = [[torch.tensor(0.05 * ((i * 7 + j * 3) % 11 - 5), requires_grad=True) for j in range({inputs})]
      for i in range({hidden})]
w2 = [torch.tensor(0.1 * ((i * 5) % 7 - 3), requires_grad=True) for i in range({hidden})]
loss = torch.tensor(0.0)
for x, y in zip(xs, ys):
    out = torch.tensor(0.0)
    for i in range({hidden}):
        h = torch.tensor(0.0)
        for j in range({inputs}):
            h = h + w1[i][j] * x[j]
        out = out + w2[i] * h.tanh()
    loss = loss + (out - y) ** 2
loss.backward()
print(loss)
print(w2[0].grad)
''')


def _chain(length: int = 66) -> str:
    """About 100 graph nodes: a chain of mixed scalar ops over two leaves."""
    return _program(f'''
import torch

a = torch.tensor(0.5, requires_grad=True)
b = torch.tensor(-1.5, requires_grad=True)
h = a
for i in range({length}):
    h = (h * b).tanh() if i % 2 else h + a
h.backward()
print(a.grad, b.grad)
''')


EXAMPLES: tuple[Example, ...] = (
    Example("x2-then-x3", "y = x², then z = x³: backward y, then z", _program('''
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = x ** 3
y.backward()
print(x.grad)
z.backward()
print(x.grad)
''')),
    Example("x3-then-x2", "z = x³, then y = x²: backward z, then y", _program('''
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = x ** 3
z.backward()
print(x.grad)
y.backward()
print(x.grad)
''')),
    Example("x2-x3-zero", "y = x² and z = x³ with x.grad.zero_() between", _program('''
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = x ** 3
y.backward()
print(x.grad)
x.grad.zero_()
z.backward()
print(x.grad)
''')),
    Example("vector", "Vector output: y[i] = x[i]ⁿ with gradient=ones", _program('''
import torch

x = torch.tensor([[0.5], [2.0]], requires_grad=True)
y = torch.zeros(3, 1)
y[0] = x[0] ** 2
y[1] = x[1] ** 3
y[2] = x[1] ** 4
y.backward(gradient=torch.ones(y.size()))
print(x.grad)
''')),
    Example("square-of-sum", "z = x² + 2xy + y²", _program('''
import torch

x = torch.tensor(1.0, requires_grad=True)
y = torch.tensor(2.0, requires_grad=True)
z = x ** 2 + 2 * x * y + y ** 2
z.backward()
print(x.grad, y.grad)
''')),
    Example("accumulate", ".grad accumulates over two backward calls", _program('''
import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x
y.backward()
print(x.grad)
z = 5 * x
z.backward()
print(x.grad)
''')),
    Example("no-grad-vs-detach", "torch.no_grad() vs .detach()", _program('''
import torch

x = torch.tensor(2.0, requires_grad=True)
with torch.no_grad():
    a = x * 3
print(a.requires_grad)
b = x.detach() * 3
print(b.requires_grad)
c = x * 3 + b
c.backward()
print(x.grad)
''')),
    Example("gradient-descent", "Gradient descent on (x − 5)² for 20 steps", _program('''
import torch

x = torch.tensor(0.0, requires_grad=True)
lr = 0.1
for step in range(20):
    loss = (x - 5) ** 2
    loss.backward()
    with torch.no_grad():
        x -= lr * x.grad
    x.grad.zero_()
    print(step, round(loss.item(), 4))
print(x)
''')),
    Example("polynomial-sum", "(x·x + 3x + 1).sum()", _program('''
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x + 3 * x + 1).sum()
y.backward()
print(y)
print(x.grad)
''')),
    Example("pow-sum", "(2x + 3).pow(2).sum()", _program('''
import torch

x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
y = (2 * x + 3).pow(2).sum()
y.backward()
print(y)
print(x.grad)
''')),
    Example("broadcast", "Broadcasting: b is added to every row, so its grad sums the rows", _program('''
import torch

w = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
b = torch.tensor([0.5, -0.5, 1.0], requires_grad=True)
y = (w * 2 + b).sum()
y.backward()
print(w.grad)
print(b.grad)
''')),
    Example("pitfall-no-requires-grad", "Pitfall: forgot requires_grad", _program('''
import torch

x = torch.tensor(3.0)
y = x ** 2
print(y.requires_grad)
y.backward()
''')),
    Example("pitfall-non-scalar", "Pitfall: backward() on a non-scalar", _program('''
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.backward()
''')),
    Example("pitfall-backward-twice", "Pitfall: backward twice through freed buffers", _program('''
import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x
y.backward()
print(x.grad)
y.backward()
''')),
    Example("pitfall-inplace-saved", "Pitfall: in-place change of a saved tensor", _program('''
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x * 1
b = a ** 2
a.add_(1)
b.sum().backward()
''')),
    Example("pitfall-non-leaf-grad", "Pitfall: reading .grad of a non-leaf", _program('''
import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * 2
z = y * y
z.backward()
print(x.grad)
print(y.grad)
''')),
    Example("mlp-step", "Tiny MLP: nn.Linear, F.mse_loss, optim.SGD", _program('''
import torch
from torch import nn, optim
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    model[0].weight.fill_(0.5)
    model[0].bias.fill_(-0.1)
    model[2].weight.fill_(0.3)
    model[2].bias.fill_(0.2)
opt = optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
target = torch.tensor([[1.0], [0.0]])
loss = F.mse_loss(model(x), target)
opt.zero_grad()
loss.backward()
opt.step()
print(loss)
print(model[2].weight.grad)
print(model[2].weight)
''')),
    Example("chain-100", "Benchmark: a 100-node chain", _chain()),
    Example("scalar-mlp", "Benchmark: an MLP in scalar ops (≈1,000 nodes)", _scalar_mlp()),
)

BY_SLUG = {e.slug: e for e in EXAMPLES}
DEFAULT = EXAMPLES[0].slug
