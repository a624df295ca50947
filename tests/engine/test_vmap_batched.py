"""torch.func.vmap runs the function once on batched tensors, as torch does: the results' values, printed text and
the graph recorded on the batch (grad_fn names along the first path and every node's name) against torch, for
elementwise ops, reductions, views, products, nn layers, in_dims/out_dims, nested vmap, grad inside vmap, model
ensembles over stacked parameters (a meta-device base model), and what vmap refuses."""
import pytest
from difftest import run_both, with_known_gaps

PRELUDE = """import copy
import torch
import torch.nn.functional as F
from torch.func import functional_call, grad, stack_module_state, vmap
torch.manual_seed(0)


def chain(t, depth=10):
    out, fn = [], t.grad_fn
    while fn is not None and depth:
        out.append(type(fn).__name__)
        nexts = [f for f, _ in fn.next_functions if f is not None]
        fn, depth = (nexts[0] if nexts else None), depth - 1
    return out


def names(t):
    seen, todo, out = set(), [t.grad_fn], []
    while todo:
        fn = todo.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        out.append(type(fn).__name__)
        todo.extend(f for f, _ in fn.next_functions)
    return sorted(out)


def show(*results):
    for r in results:
        print(r, chain(r), names(r))


w = torch.randn(5, requires_grad=True)
W = torch.randn(4, 5, requires_grad=True)
b = torch.randn(4, requires_grad=True)
x = torch.randn(3, 5)
"""

PROGRAMS = {
    "elementwise and reductions": """
show(vmap(lambda f: f.dot(w).relu())(x), vmap(lambda f: (f * w).sum())(x), vmap(lambda f: (f * w).mean())(x))
show(vmap(lambda f: f.sin())(w.expand(3, 5)), vmap(lambda f: f ** 2)(W.expand(3, 4, 5)))
show(vmap(lambda f: f.softmax(0))(w.expand(3, 5)), vmap(lambda f: f.sum())(w.expand(3, 5)))
show(vmap(lambda f: f.max())(W.expand(3, 4, 5)), vmap(lambda a: a.sum(0))(torch.randn(3, 2, 4, requires_grad=True)))
show(vmap(lambda f: F.mse_loss(f, torch.zeros(4, 5), reduction="sum"))(W.expand(3, 4, 5)))
""",
    "views": """
show(vmap(lambda f: f.view(5, 1))(w.expand(3, 5)), vmap(lambda f: f.t())(W.expand(3, 4, 5)))
show(vmap(lambda f: f.reshape(-1))(W.expand(3, 4, 5)), vmap(lambda f: f.flatten())(W.expand(3, 4, 5)))
show(vmap(lambda f: f[1:, 2])(W.expand(3, 4, 5)), vmap(lambda f: f.flatten(1))(torch.randn(3, 2, 1, 4, 4,
                                                                                         requires_grad=True)))
show(vmap(lambda p, q: torch.cat([p, q]))(torch.randn(3, 2, requires_grad=True), torch.randn(3, 2)))
show(vmap(lambda p, q: torch.stack([p, q], 1))(torch.randn(3, 2, requires_grad=True), torch.randn(2)))
""",
    "products and layers": """
show(vmap(lambda f: f @ w)(x), vmap(lambda f: F.linear(f, W))(x), vmap(lambda f: W @ f)(x))
show(vmap(lambda f: F.linear(f, W, b))(torch.randn(3, 2, 5)), vmap(lambda f: F.linear(f[0], W, b))(torch.randn(3, 2,
                                                                                                             5)))
show(vmap(lambda p, q: p.dot(q))(torch.randn(3, 4, requires_grad=True), torch.randn(3, 4)))
show(vmap(lambda p, q: p @ q)(torch.randn(3, 2, 4, requires_grad=True), torch.randn(3, 4, 2)))
conv = torch.nn.Conv2d(1, 2, 3)
show(vmap(conv)(torch.randn(3, 2, 1, 5, 5)))
""",
    "in_dims, out_dims, nested": """
show(vmap(lambda f: f.sum(), in_dims=1)(W), vmap(lambda f: f * 2, in_dims=1)(W))
show(vmap(lambda f: f * 2, in_dims=1, out_dims=1)(W), vmap(lambda a: a.exp(), in_dims=-1)(W))
show(vmap(lambda a: a.exp().sum(), in_dims=1)(torch.randn(3, 2, 4, requires_grad=True)))
show(vmap(vmap(lambda a: a.exp().sum()))(torch.randn(3, 2, 4, requires_grad=True)))
show(*vmap(lambda a: (a * 2, a.sum()), out_dims=(1, 0))(torch.randn(3, 2, requires_grad=True)))
print(vmap(lambda a: a * 2, out_dims=(0, None))(torch.randn(3)), vmap(lambda a: torch.ones(2))(torch.randn(3)))
show(vmap(lambda p, q: p + q, in_dims=(None, 0))(torch.randn(2, requires_grad=True), torch.randn(3, 2)))
print(vmap(lambda a: a.mul_(2))(torch.randn(3, 2)), vmap(lambda a: a.sin())(torch.randn(0, 2)))
vmap(lambda a: print(a) or a)(torch.randn(3, 2))
vmap(lambda a: print(a) or a, in_dims=1)(torch.randn(3, 2))
""",
    "grad inside vmap": """
show(vmap(grad(lambda a: a.sin()))(torch.randn(4, requires_grad=True)))
show(vmap(grad(lambda a: a.sin().sum()))(torch.randn(4, 3, requires_grad=True)))
show(vmap(vmap(grad(lambda a: (a ** 3).sum())))(torch.randn(2, 3, 2, requires_grad=True)))
""",
    "ensembles": """
models = [torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2)) for _ in range(3)]
params, buffers = stack_module_state(models)
base = copy.deepcopy(models[0]).to("meta")
print(base[0].weight, base[2].bias)
fmodel = lambda p, b, x: functional_call(base, (p, b), (x,))
show(vmap(fmodel)(params, buffers, torch.randn(3, 5, 4)), vmap(fmodel, in_dims=(0, 0, None))(params, buffers,
                                                                                         torch.randn(5, 4)))
""",
    "per-sample gradients": """
def loss(w, x, t):
    return ((x.dot(w).relu() - t) ** 2).mean()
show(vmap(grad(loss), in_dims=(None, 0, 0))(w, torch.randn(3, 5), torch.randn(3)))
show(vmap(grad(loss), in_dims=(None, 0, 0))(w.detach(), torch.randn(3, 5), torch.randn(3)))
show(vmap(grad(grad(lambda a: a.sin())))(torch.randn(4)), vmap(grad(lambda a: (a.sin() * a).sum()))(x))
""",
    "nll_loss and cross_entropy": """
t = torch.tensor([[1, 2, 3, 4]] * 3)
show(vmap(F.nll_loss)(W.expand(3, 4, 5), t), vmap(F.cross_entropy)(W.expand(3, 4, 5), t))
""",
    "pooling": """
show(vmap(lambda f: F.max_pool2d(f, 2))(torch.randn(3, 2, 1, 4, 4, requires_grad=True)))
""",
}

GAPS = {
    "nll_loss and cross_entropy": "nll_loss's bind reads the batched target's numbers: the engine falls back to a "
                                  "loop per sample (StackBackward0), torch decomposes it (gather, where, sum, div)",
    "pooling": "max_pool2d has no batching rule here: a loop per sample (StackBackward0), torch folds the batch into "
               "N (ViewBackward0)",
}


@pytest.mark.parametrize("name", with_known_gaps(PROGRAMS, GAPS))
def test_vmap_records_the_batched_graph_torch_records(name):
    want, got = run_both(PRELUDE + PROGRAMS[name])
    assert got.exc == want.exc
    assert got.stdout == want.stdout


REFUSED = [
    "vmap(lambda a, b: a.add_(b), in_dims=(None, 0))(torch.randn(2), torch.randn(3, 2))",
    "vmap(lambda a: a + torch.randn(2))(torch.randn(3, 2))",
    "vmap(lambda a: a + torch.randn(2), randomness='same')(torch.randn(3, 2))",
    "vmap(lambda a: a.item())(torch.randn(3))",
    "vmap(lambda a: a * 2, out_dims=None)(torch.randn(3))",
]


def test_vmap_refuses_as_torch_does():
    source = "".join(f"try:\n    {line}\nexcept Exception as e:\n    print(type(e).__name__, e)\n" for line in REFUSED)
    want, got = run_both(PRELUDE + source)
    assert got.stdout == want.stdout
