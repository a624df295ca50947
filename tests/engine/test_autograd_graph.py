"""torch.autograd.graph on the engine against PyTorch: every grad_fn is a Node; Node.register_hook and
register_prehook (arguments, order, what their return values replace, PyTorch's checks of them, the handles);
get_gradient_edge; saved_tensors_hooks (pack when a node saves, unpack when it is read; nested and disabled
hooks); register_multi_grad_hook; increment_version."""

from __future__ import annotations

import pytest
from difftest import run_both

PROGRAMS = {
    "nodes_edges_and_saved_tensors_hooks": """
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
acc = y.grad_fn.next_functions[0][0]
Node = torch.autograd.graph.Node
print(isinstance(y.grad_fn, Node), isinstance(acc, Node), isinstance(x, Node))
e = torch.autograd.graph.get_gradient_edge(x)
print(e.node is acc, e.output_nr, torch.autograd.graph.get_gradient_edge(y).node is y.grad_fn)
try:
    torch.autograd.graph.get_gradient_edge(torch.ones(2))
except RuntimeError as err:
    print(err)
h = y.grad_fn.register_hook(lambda gi, go: print("post", gi, go))
h2 = y.grad_fn.register_prehook(lambda go: print("pre", go))
print(type(h).__name__, type(h.id).__name__)
y.sum().backward(retain_graph=True)
h.remove(); h2.remove()
y.sum().backward()
print(x.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    except RuntimeError as err:
        print(err)
    z = x * x
print(z.grad_fn._saved_self is x)
def pack(t):
    print("pack", t, torch.is_grad_enabled())
    return t * 1
def unpack(t):
    print("unpack", t)
    return t
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = a * b
    w = a.exp()
    q = a * 3
    with torch.autograd.graph.saved_tensors_hooks(lambda t: ("inner", t), lambda p: p[1]):
        r = a.sin()
print(y.grad_fn._saved_self is a, y.grad_fn._saved_self.requires_grad, y.grad_fn._saved_self.grad_fn)
print(w.grad_fn._saved_result.grad_fn is w.grad_fn, w.grad_fn._saved_result.requires_grad)
(y.sum() + w.sum() + r.sum()).backward()
print(a.grad, b.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.mul_(2), unpack):
    try:
        y = a * torch.tensor([1.0, 2.0])
    except RuntimeError as err:
        print(err)
with torch.autograd.graph.saved_tensors_hooks(lambda t: 5, lambda p: p):
    y = a * torch.tensor([1.0, 2.0])
try:
    y.sum().backward()
except TypeError as err:
    print(err)
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    s = Square.apply(a)
s.sum().backward()
print(a.grad)
""",
    "multi_grad_hooks": """
import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * b
d = a * b
def fn(grads):
    print([g is not None for g in grads], [g.tolist() if g is not None else None for g in grads])
h = torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)
print(type(h).__name__)
c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
try:
    torch.autograd.grad(c.sum(), (a, b), retain_graph=True)
except RuntimeError as e:
    print(e)
h.remove()
c.sum().backward(retain_graph=True)
h2 = torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: print("first grad", g), mode="any")
(c + d).sum().backward()
try:
    torch.autograd.graph.register_multi_grad_hook((a,), fn, mode="some")
except ValueError as e:
    print(e)
torch.autograd.graph.increment_version(a)
print(a._version)
""",
    "node_hook_checks_and_saved_attributes": """
import torch
def tryit(f):
    try:
        print("ok", f())
    except Exception as e:
        print(type(e).__name__ + ":", e)
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
y.grad_fn.register_hook(lambda gi, go: (torch.ones(3), None))
tryit(lambda: y.sum().backward())
y = x * 2
y.grad_fn.register_hook(lambda gi, go: (torch.ones(2, dtype=torch.float64), None))
tryit(lambda: (y.sum().backward(), x.grad)[1])
y = x * 2
y.grad_fn.register_hook(lambda gi, go: [gi[0], None])
tryit(lambda: y.sum().backward())
y = x * 2
y.grad_fn.register_prehook(lambda go: [go[0]])
tryit(lambda: y.sum().backward())
y = x * 2
y.grad_fn.register_prehook(lambda go: (None,))
tryit(lambda: y.sum().backward())
y = x * 3
print(y.grad_fn._saved_self)
y.sum().backward()
tryit(lambda: y.grad_fn._saved_self)
tryit(lambda: y.grad_fn._saved_other)
tryit(lambda: y.grad_fn._saved_exponent)
z = x ** 2
z.sum().backward()
tryit(lambda: z.grad_fn._saved_exponent)
s = x.sum(); s.backward()
tryit(lambda: s.grad_fn._saved_self_sym_sizes)
tryit(lambda: x.grad_fn)
a = (x*2).grad_fn.next_functions[0][0]
print(a._sequence_nr(), (x*2).grad_fn._sequence_nr() < (x*2).grad_fn._sequence_nr())
h = a.register_hook(lambda *a: None)
print(h, type(h.id), type(h).__name__)
with h: pass
""",
    "node_hooks_replace_grads": """
import torch
def tryit(f):
    try:
        print("ok", f())
    except Exception as e:
        print(type(e).__name__ + ":", e)
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
a = y.grad_fn.next_functions[0][0]
a.register_hook(lambda gi, go: print("acc post", gi, go))
a.register_prehook(lambda go: print("acc pre", go))
y.grad_fn.register_hook(lambda gi, go: print("mul post", gi, go))
y.sum().backward()
r = y.grad_fn.register_hook(lambda gi, go: (gi[0]*0,))
y = x * torch.tensor([2., 3.], requires_grad=True)
y.grad_fn.register_hook(lambda gi, go: print("mul2 post", gi, go))
y.grad_fn.register_hook(lambda gi, go: (gi[0] * 0, None))
y.grad_fn.register_hook(lambda gi, go: print("mul2 post after", gi, go))
y.grad_fn.register_prehook(lambda go: (go[0]*5,))
y.grad_fn.register_prehook(lambda go: print("pre after", go))
x.grad = None
y.sum().backward()
print(x.grad)
tryit(lambda: y.grad_fn.register_hook(3))
y = x * 2
y.grad_fn.register_prehook(lambda go: (go[0], go[0]))
tryit(lambda: y.sum().backward())
y = x * 2
y.grad_fn.register_prehook(lambda go: go[0])
tryit(lambda: y.sum().backward())
y = x * 2
y.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
tryit(lambda: y.sum().backward())
y = x * 2
y.grad_fn.register_hook(lambda gi, go: (torch.ones(3),))
tryit(lambda: y.sum().backward())
y = x * 2
y.grad_fn.register_prehook(lambda go: (torch.ones(3),))
tryit(lambda: y.sum().backward())
""",
    "node_classes_print_as_torchs": """
import torch
x = torch.ones(2, requires_grad=True)
y = (x * x).sum()
acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
print(type(y.grad_fn), type(acc), type(acc).__name__, repr(type(y.grad_fn)) == str(type(y.grad_fn)))
b = x.clone()
b[0] = 3.0
print(type(b.grad_fn), type(x.unbind()[0].grad_fn))
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
print(type(Twice.apply(x).grad_fn), Twice._backward_cls.__name__)
class Mine(torch.nn.Module):
    pass
print(type(Mine()))
""",
}


@pytest.mark.parametrize("slug", sorted(PROGRAMS))
def test_graph_program_matches_torch(slug):
    want, got = run_both(PROGRAMS[slug])
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\ntorch:\n{want.stdout}"
    assert got.warnings == want.warnings
    assert got.exc == want.exc
