"""Learner programs whose printed output must be byte-for-byte what Python + real PyTorch 2.13 print.

`PROGRAMS` maps a slug to the program text. Every program imports `torch` itself; the tests run it once
with `torch` bound to real PyTorch and once bound to the engine and compare stdout, warnings and the
uncaught exception (if any). Object addresses (`0x7f...`) are masked before comparing.
"""

from __future__ import annotations

PROGRAMS: dict[str, str] = {}


def _add(slug: str, source: str) -> None:
    assert slug not in PROGRAMS, slug
    PROGRAMS[slug] = source.lstrip("\n")


_add("square_then_cube", """
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = x ** 3
y.backward()
print(x.grad)
x.grad.zero_()
z.backward()
print(x.grad)
""")

_add("cube_then_square", """
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 2
z = x ** 3
z.backward()
print(x.grad)
x.grad.zero_()
y.backward()
print(x.grad)
""")

_add("vector_copyslices", """
import torch

x = torch.tensor([[0.5], [0.25]], requires_grad=True)
y = torch.zeros(3, 1)
y[0] = x[0] ** 2
y[1] = x[1] ** 3
y[2] = x[1] ** 4
y.backward(gradient=torch.ones(y.size()))
print(x.grad)
print(y)
""")

_add("two_variables", """
import torch

x = torch.tensor(3.0, requires_grad=True)
y = torch.tensor(-2.0, requires_grad=True)
z = x**2 + 2*x*y + y**2
print(z)
z.backward()
print(x.grad, y.grad)
print(x.grad == 2 * (x + y))
""")

_add("accumulate_two_backwards", """
import torch

# micrograd (which keeps .grad on every intermediate node) would print 72 the second time
x = torch.tensor(4.0, requires_grad=True)
y = x ** 2
z = 3 * y
z.backward(retain_graph=True)
print(x.grad)
z.backward()
print(x.grad)
""")

_add("accumulate_two_graphs", """
import torch

x = torch.tensor(3.0, requires_grad=True)
(x * x * x).backward()
print(x.grad)
(x ** 3).backward()
print(x.grad)
x.grad = None
(x ** 2).backward()
print(x.grad)
""")

_add("no_grad_and_detach", """
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y, y.requires_grad, y.grad_fn)
z = x.detach()
print(z, z.requires_grad, z.is_leaf)
w = x * 3
print(w.requires_grad, w.is_leaf)
d = w.detach()
d[0] = 100.0
print(w)
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    with torch.enable_grad():
        v = x * 2
    print(v.grad_fn is not None)
with torch.set_grad_enabled(False):
    u = x + 1
print(u.requires_grad)
""")

_add("gradient_descent_20_steps", """
import torch

x = torch.tensor(0.0, requires_grad=True)
lr = 0.1
for step in range(20):
    loss = (x - 5) ** 2
    loss.backward()
    with torch.no_grad():
        x -= lr * x.grad
    print(step, loss.item(), x.item(), x.grad)
    x.grad.zero_()
print(x)
""")

_add("quadratic_sum", """
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x + 3 * x + 1).sum()
print(y)
y.backward()
print(x.grad)
""")

_add("affine_pow_sum", """
import torch

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = (2 * x + 3).pow(2).sum()
print(y)
y.backward()
print(x.grad)
""")

_add("errors_caught", """
import torch

a = torch.tensor([1.0, 2.0])
try:
    a.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
y.backward(torch.ones(2))
print(x.grad)
try:
    y.backward(torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)
""")

_add("linear_mse_sgd", """
import torch
import torch.nn as nn
import torch.nn.functional as F

lin = nn.Linear(2, 1)
lin.weight = nn.Parameter(torch.tensor([[0.5, -0.25]]))
lin.bias = nn.Parameter(torch.tensor([0.1]))
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
X = torch.tensor([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]])
Y = torch.tensor([[1.0], [2.0], [0.0]])
pred = lin(X)
print(pred)
loss = F.mse_loss(pred, Y)
print(loss)
opt.zero_grad()
loss.backward()
print(lin.weight.grad)
print(lin.bias.grad)
opt.step()
print(lin.weight)
print(lin.bias)
print(F.mse_loss(lin(X), Y))
""")

_add("adam_steps", """
import torch

p = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
opt = torch.optim.Adam([p], lr=0.1)
for i in range(5):
    opt.zero_grad()
    loss = (p ** 2).sum() + p[0] * p[1]
    loss.backward()
    opt.step()
    print(i, loss.item())
    print(p)
""")

_add("sgd_momentum_steps", """
import torch

w = torch.tensor([2.0, -1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.05, momentum=0.9)
for i in range(6):
    opt.zero_grad()
    loss = ((w - torch.tensor([1.0, 1.0])) ** 2).mean()
    loss.backward()
    opt.step()
    print(i, loss.item(), w)
print(w.grad)
""")

_add("retain_graph", """
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
y.backward(retain_graph=True)
print(x.grad)
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)
try:
    y.backward()
except RuntimeError as e:
    print(e)
""")

_add("hooks", """
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = (y ** 2).sum()

def show(name):
    def hook(g):
        print("hook", name, g)
    return hook

x.register_hook(show("x"))
y.register_hook(show("y"))
y.retain_grad()
h = y.register_hook(lambda g: g * 10)
z.backward(retain_graph=True)
print(x.grad, y.grad)
h.remove()
x.grad = None
y.grad = None
z.backward()
print(x.grad, y.grad)
""")

_add("second_derivative", """
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 4 + 3 * x ** 2
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print(dy)
(d2y,) = torch.autograd.grad(dy, x)
print(d2y)
print(x.grad)
""")

_add("autograd_grad_basics", """
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
out = (x * w).sum()
gx, gw = torch.autograd.grad(out, [x, w], retain_graph=True)
print(gx, gw)
print(x.grad, w.grad)
print(torch.autograd.grad(out, x))
unused = torch.tensor(1.0, requires_grad=True)
print(torch.autograd.grad((x * 2).sum(), [x, unused], allow_unused=True))
""")

_add("mlp_manual", """
import torch

X = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
Y = torch.tensor([[1.0], [1.0], [0.0], [0.0]])
W1 = torch.tensor([[0.5, -0.5, 0.25], [0.75, 0.5, -0.25]], requires_grad=True)
b1 = torch.zeros(3, requires_grad=True)
W2 = torch.tensor([[1.0], [-1.0], [0.5]], requires_grad=True)
b2 = torch.zeros(1, requires_grad=True)
for step in range(5):
    h = torch.tanh(X @ W1 + b1)
    out = torch.sigmoid(h @ W2 + b2)
    loss = ((out - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        for p in (W1, b1, W2, b2):
            p -= 0.5 * p.grad
            p.grad.zero_()
    print(step, loss)
print(W1)
print(b2)
""")

_add("sequential_training", """
import torch
from torch import nn

net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
print(net)
loss_fn = nn.MSELoss()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
X = torch.tensor([[1.0, 2.0], [-1.0, 0.5]])
Y = torch.tensor([[1.0], [-1.0]])
for step in range(3):
    opt.zero_grad()
    loss = loss_fn(net(X), Y)
    loss.backward()
    opt.step()
    print(step, loss)
for name, p in net.named_parameters():
    print(name, p)
""")

_add("cross_entropy_step", """
import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], requires_grad=True)
target = torch.tensor([0, 2])
print(F.softmax(logits, dim=1))
print(F.log_softmax(logits, dim=1))
loss = F.cross_entropy(logits, target)
print(loss)
loss.backward()
print(logits.grad)
""")

_add("grad_fn_inspection", """
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.sum()
print(y.grad_fn)
print(z.grad_fn.next_functions)
print(type(z.grad_fn).__name__, z.grad_fn.name())
print(y.grad_fn.next_functions[0][0].variable is x)
print(y.is_leaf, x.is_leaf, y.requires_grad)
w = 2 - x
print(w)
print((2 / x).grad_fn.next_functions)
print((2 ** x))
""")

_add("inplace_saved_error", """
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x * 2
b = a * a
a.add_(1)
try:
    b.sum().backward()
except RuntimeError as e:
    print(e)
y = x.exp()
y.add_(1)
try:
    y.sum().backward()
except RuntimeError as e:
    print(e)
""")

_add("leaf_inplace_errors", """
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
for attempt in ("add_", "iadd", "setitem"):
    try:
        if attempt == "add_":
            x.add_(1)
        elif attempt == "iadd":
            x += 1
        else:
            x[0] = 5.0
    except RuntimeError as e:
        print(attempt, "->", e)
with torch.no_grad():
    x += 1
print(x)
""")

_add("nonleaf_grad_warning", """
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.sum().backward()
print(y.grad)
print(x.grad)
""")

_add("int_requires_grad_uncaught", """
import torch

print("before")
x = torch.tensor([1, 2, 3], requires_grad=True)
print("after")
""")

_add("printing_variety", """
import torch

print(torch.tensor(3.0))
print(torch.tensor([1.0, 2.5, -3.0]))
print(torch.tensor([[1, 2], [3, 40]]))
print(torch.tensor([True, False]))
print(torch.tensor([1.0, 2.0], dtype=torch.float64))
print(torch.tensor([1e-5, 1.0, 1e5]))
print(torch.tensor([float("nan"), float("inf"), 1.0]))
print(torch.arange(12.0).reshape(2, 2, 3))
print(torch.arange(2000.0))
print(torch.zeros(2, 3).shape, torch.zeros(2, 3).dtype, torch.zeros(2, 3).size(1))
x = torch.ones(2, 12, requires_grad=True)
print(x * 1.5)
print(torch.nn.Parameter(torch.tensor([0.1, 0.2])))
print(torch.linspace(0, 1, 5))
print(torch.tensor(1.0) / 3)
print(torch.tensor([2.0]).item(), torch.tensor(7).item())
print(torch.tensor([1.5, 2.0]).tolist())
""")

_add("broadcast_grads", """
import torch

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
b = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
c = torch.tensor(2.0, requires_grad=True)
d = torch.tensor([[10.0], [20.0]], requires_grad=True)
out = (a * b + c) / d
print(out)
out.sum().backward()
print(a.grad)
print(b.grad)
print(c.grad)
print(d.grad)
""")

_add("kinks_and_ties", """
import torch

x = torch.tensor([-1.0, 0.0, 2.0, 2.0], requires_grad=True)
x.relu().sum().backward()
print(x.grad)
x.grad = None
x.abs().sum().backward()
print(x.grad)
x.grad = None
x.max().backward()
print(x.grad)
x.grad = None
x.clamp(0.0, 2.0).sum().backward()
print(x.grad)
m = torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], requires_grad=True)
values, indices = m.max(dim=1)
print(values, indices)
values.sum().backward()
print(m.grad)
s = torch.tensor([0.0, 4.0], requires_grad=True)
s.sqrt().sum().backward()
print(s.grad)
""")

_add("indexing_grads", """
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
parts = [x[0], x[:, 1], x[1, 2], x[..., 0], x[None, 1], x[torch.tensor([1, 1, 0])], x[x > 2.5]]
for p in parts:
    print(p)
total = sum(p.sum() for p in parts)
total.backward()
print(x.grad)
""")

_add("views_and_shapes", """
import torch

x = torch.arange(6.0).requires_grad_()
y = x.view(2, 3)
z = y.t() * torch.tensor([1.0, 2.0])
w = z.reshape(-1).unsqueeze(0).squeeze(0)
print(y.shape, z.shape, w.shape)
print(w)
v = torch.stack([x, x * 2]).permute(1, 0).flatten()
u = torch.cat([w, v, x.expand(2, 6)[1]])
print(u)
u.sum().backward()
print(x.grad)
""")

_add("where_and_masks", """
import torch

x = torch.tensor([-2.0, -0.5, 0.5, 2.0], requires_grad=True)
y = torch.where(x > 0, x ** 2, -x)
print(y)
y.sum().backward()
print(x.grad)
""")

_add("softmax_manual_vs_builtin", """
import torch

z = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
manual = z.exp() / z.exp().sum()
builtin = torch.softmax(z, dim=0)
print(manual)
print(builtin)
(manual * torch.tensor([1.0, 0.0, -1.0])).sum().backward()
print(z.grad)
""")

_add("zero_grad_none", """
import torch

p = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([p], lr=0.5)
(p * p).sum().backward()
print(p.grad)
opt.step()
print(p)
opt.zero_grad()
print(p.grad)
(p * p).sum().backward()
opt.zero_grad(set_to_none=False)
print(p.grad)
""")

_add("float64_and_dtypes", """
import torch

x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = (x * 3).sum()
print(y)
y.backward()
print(x.grad)
i = torch.tensor([1, 2, 3])
print(i * 2, i / 2, i.float(), i.dtype)
print(torch.ones(2, dtype=torch.int64) + 0.5)
""")

_add("module_custom", """
import torch
import torch.nn as nn

class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([0.5, -0.5]))
        self.b = nn.Parameter(torch.tensor(0.25))

    def forward(self, x):
        return (x * self.w).sum(dim=1) + self.b

m = Tiny()
print(m)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
out = m(x)
print(out)
out.sum().backward()
print(m.w.grad, m.b.grad)
print([n for n, _ in m.named_parameters()])
""")

_add("signed_zeros", """
import torch

z = torch.tensor([-0.0, 0.0, -1.0, 2.0], requires_grad=True)
print(-z)
print(z.relu())
print(z.clamp(min=0.0))
print(torch.maximum(z, torch.zeros(4)), torch.minimum(z, torch.zeros(4)))
print(z * 0, z * -1)
""")

_add("mixed_dtype_grads", """
import torch

a = torch.tensor([2.0, -1.0], requires_grad=True)
b = torch.tensor([0.5, 4.0], dtype=torch.float64, requires_grad=True)
y = a * 3
y.retain_grad()
z = (y * b).sum()
print(z)
z.backward()
print(a.grad)
print(b.grad)
print(y.grad)
""")

_add("inplace_ops_on_intermediates", """
import torch

x = torch.tensor([0.5, 2.0, -1.5], requires_grad=True)
y = x * 1
y.clamp_(-1.0, 1.0)
y.mul_(2.0)
z = x * 1
z.pow_(2)
w = (x * 1).relu_()
(y.sum() + z.sum() + w.sum()).backward()
print(y, z, w)
print(x.grad)
v = (x * 2).view(3, 1)
base = v.view(3)
base.add_(1)
print(v)
""")

_add("warnings_in_loop", """
import torch
import torch.nn.functional as F

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
for i in range(3):
    print(i, y.grad)
print(y.grad)
pred = torch.tensor([[0.5], [1.5]], requires_grad=True)
target = torch.tensor([1.0, 1.0])
for step in range(2):
    loss = F.mse_loss(pred, target)
    print(step, loss)
print(F.softmax(torch.tensor([1.0, 2.0])))
""")

_add("seeded_random_draws", """
import torch
import torch.nn.functional as F

torch.manual_seed(0)
print(torch.rand(3), torch.randn(5))
print(torch.randn(20))
print(torch.randint(0, 10, (6,)), torch.randperm(8))
w = torch.empty(4, 5)
w.t().normal_(0.0, 0.5)
print(w)
print(torch.empty(6).uniform_(-1, 1), torch.bernoulli(torch.full((6,), 0.5)))
g = torch.Generator().manual_seed(42)
print(torch.randn(3, generator=g), torch.initial_seed())
state = torch.get_rng_state()
a = torch.rand(2)
torch.set_rng_state(state)
print(torch.equal(a, torch.rand(2)))
x = torch.ones(8, requires_grad=True)
y = F.dropout(x, 0.25)
y.sum().backward()
print(y, x.grad)
print(torch.randn(4, dtype=torch.float64))
""")

_add("seeded_linear_training", """
import torch

torch.manual_seed(1)
model = torch.nn.Linear(3, 1)
print(model.weight, model.bias)
x = torch.randn(32, 3)
y = x @ torch.tensor([[2.0], [-1.0], [0.5]]) + 0.3
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(4):
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")  # at full precision float32 sums may differ in the last bit (issue 12, item 5)
print(model.weight)
""")
