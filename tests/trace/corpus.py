"""Programs that exercise the tracer beyond tests/programs.py: functions, loops, views written in place,
retained grads, fan-in, hooks that print, warnings and uncaught errors. Each prints what real PyTorch
prints for it (checked by test_trace_torch.py)."""

from __future__ import annotations

TRACE_PROGRAMS: dict[str, str] = {}


def _add(slug: str, source: str) -> None:
    assert slug not in TRACE_PROGRAMS, slug
    TRACE_PROGRAMS[slug] = source.lstrip("\n")


_add("trace_function_and_loop", """
import torch

def f(a, b):
    c = a * b
    return c.sum() + a.pow(2).mean()

w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
for i in range(3):
    loss = f(w, torch.tensor([0.5, 0.25, 2.0]))
    loss.backward()
    print(i, round(loss.item(), 4), w.grad)
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad.zero_()
print(w)
""")

_add("trace_inplace_on_view", """
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
v = y[1:]
v.mul_(3)
print(y)
y.sum().backward()
print(x.grad)
""")

_add("trace_retain_grad", """
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.exp()
b.retain_grad()
c = (b * a).sum()
c.backward()
print(a.grad)
print(b.grad)
""")

_add("trace_fan_in", """
import torch

x = torch.tensor([0.5, -1.0], requires_grad=True)
a = x * 2
b = x * 3
c = a * b
d = a + c
e = (d * b).sum()
e.backward()
print(x.grad)
""")

_add("trace_matvec_activations", """
import torch

W = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
v = torch.tensor([1.0, -1.0])
h = W @ v
out = (h.tanh() * h.sigmoid()).sum()
out.backward()
print(W.grad)
""")

_add("trace_comprehension_sum", """
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
ys = [x * k for k in range(1, 4)]
total = sum(ys).sum()
total.backward()
print(f"{total.item():.2f}", x.grad)
""")

_add("trace_backward_inputs", """
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
loss = ((w * 3 + b) ** 2).sum()
loss.backward(inputs=[w])
print(w.grad, b.grad)
""")

_add("trace_backward_twice_uncaught", """
import torch

x = torch.tensor(1.5, requires_grad=True)
y = x.sin() * x
y.backward()
print(round(x.grad.item(), 4))
y.backward()
print("never printed")
""")

_add("trace_shape_error_uncaught", """
import torch

a = torch.ones(2, requires_grad=True)
b = a * 2
print(b)
c = b + torch.ones(3)
""")

_add("trace_name_error_uncaught", """
import torch

x = torch.tensor(1.0, requires_grad=True)
print(x)
print(undefined_name)
""")

_add("trace_nonleaf_grad_warning_loop", """
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(2):
    y = x * 2
    y.sum().backward()
    print(i, y.grad, x.grad)
""")

_add("trace_zero_grad_kinds", """
import torch

p = torch.tensor([1.0, -1.0], requires_grad=True)
opt = torch.optim.SGD([p], lr=0.1)
for step in range(2):
    loss = (p * p).sum()
    loss.backward()
    print(step, p.grad)
    opt.step()
    opt.zero_grad(set_to_none=(step == 0))
    print(p.grad)
p.grad = torch.tensor([5.0, 5.0])
print(p.grad)
""")

_add("trace_einsum_attention", """
import torch

q = torch.tensor([[[1.0, 2.0], [3.0, 4.0]]], requires_grad=True)
k = torch.tensor([[[0.5, -1.0], [2.0, 1.0], [0.0, 1.5]]], requires_grad=True)
scores = torch.einsum("bqd,bkd->bqk", q, k)
weights = scores.softmax(-1)
mixed = torch.einsum("bqk,bkd->bqd", [weights, k])
trace = torch.einsum("ii", mixed[0] @ q[0].t())
(mixed.sum() + trace).backward()
print(scores, trace, q.grad, k.grad, sep="\\n")
torch.einsum("ij,jk->ik", q[0], k[0])
""")
