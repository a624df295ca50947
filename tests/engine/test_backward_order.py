"""The order in which backward runs the graph's nodes equals PyTorch's (docs/torch-facts.md (c)).

Observed through the public API: a prehook (`grad_fn.register_prehook`) on every node of the graph, the
AccumulateGrad nodes included (reached through next_functions). The torch and engine graphs are paired
node by node (difftest.GraphMap), so the comparison is of node identities, not just names.
"""

from __future__ import annotations

import numpy as np
import pytest
from difftest import GraphMap, load_engine, node_name, run_both, to_numpy, torch

GRAPHS = {
    "two_var_square": """
x = torch.tensor(1., requires_grad=True)
y = torch.tensor(2., requires_grad=True)
root = x**2 + 2*x*y + y**2
""",
    "vector_copyslices": """
x = torch.tensor([[0.5], [0.25]], requires_grad=True)
y = torch.zeros(3, 1)
y[0] = x[0] ** 2
y[1] = x[1] ** 3
y[2] = x[1] ** 4
root = y
grad = torch.ones(y.size())
""",
    "quadratic_sum": """
x = torch.tensor([1., 2.], requires_grad=True)
root = (x*x + 3*x + 1).sum()
""",
    "affine_pow_sum": """
x = torch.tensor([1., 2.], requires_grad=True)
root = (2*x + 3).pow(2).sum()
""",
    "diamond": """
x = torch.tensor(2., requires_grad=True)
y = torch.tensor(3., requires_grad=True)
a = x*y
b = a + x
root = b * a
""",
    "two_branches": """
x = torch.tensor(2., requires_grad=True)
y = torch.tensor(3., requires_grad=True)
root = y.exp() + x.sin()
""",
    "mlp_modules": """
torch.manual_seed(0)
l1 = nn.Linear(2, 3)
l2 = nn.Linear(3, 1)
X = torch.tensor([[1., 2.], [3., -1.]])
T = torch.tensor([[1.], [0.]])
root = F.mse_loss(l2(F.relu(l1(X))), T)
""",
    "mlp_modules_1d_input": """
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 2))
root = F.cross_entropy(net(torch.tensor([[1., 2.], [0.5, -1.]])), torch.tensor([1, 0]))
""",
    "mlp_manual": """
W1 = torch.ones(3, 2, requires_grad=True)
b1 = torch.zeros(3, requires_grad=True)
W2 = torch.ones(1, 3, requires_grad=True)
xin = torch.tensor([1., 2.])
h = (W1 @ xin + b1).tanh()
root = ((W2 @ h) ** 2).sum()
""",
    "long_chain_then_short": """
x = torch.tensor(0.5, requires_grad=True)
root = x.exp().exp().exp() + x*2
""",
    "short_then_long_chain": """
x = torch.tensor(0.5, requires_grad=True)
root = x*2 + x.exp().exp().exp()
""",
    "interleaved_branches": """
x = torch.tensor(0.5, requires_grad=True)
y = torch.tensor(0.3, requires_grad=True)
a = x.exp()
b = y.sin()
c = a.cos()
d = b.tanh()
root = c + d
""",
    "five_leaves_stack": """
a, b, c, d, e = (torch.tensor(float(i), requires_grad=True) for i in range(5))
root = torch.stack([a, b, c, d, e]).sum()
""",
    "seven_leaves_cat": """
ls = [torch.ones(1, requires_grad=True) for i in range(7)]
root = torch.cat(ls).sum()
""",
    "four_leaves_products": """
a, b, c, d = (torch.tensor(float(i + 1), requires_grad=True) for i in range(4))
root = (a * b) * (c * d)
""",
    "many_leaves_mixed": """
ws = [torch.tensor(float(i) / 4, requires_grad=True) for i in range(6)]
root = ws[0] * ws[1] + ws[2] * ws[3] * ws[4] + ws[5].exp() + ws[0]
""",
    "inplace_chain": """
x = torch.tensor([1., 2.], requires_grad=True)
a = x * 2
a.add_(1)
a.mul_(x)
root = a.sum()
""",
    "reused_intermediate": """
x = torch.tensor([1., -2., 3.], requires_grad=True)
h = x.tanh()
root = (h * h).sum() + h.relu().mean() + (h @ x)
""",
}


def _leaf_pairs(tenv, eenv):
    pairs = []
    for k, tv in tenv.items():
        ev = eenv.get(k)
        if isinstance(tv, torch.Tensor):
            pairs.append((tv, ev))
        elif isinstance(tv, torch.nn.Module):
            pairs.extend(zip(tv.parameters(), ev.parameters()))
        elif isinstance(tv, (list, tuple)):
            pairs.extend((a, b) for a, b in zip(tv, ev) if isinstance(a, torch.Tensor))
    return pairs


def _build(code):
    engine = load_engine()
    tenv = {"torch": torch, "nn": torch.nn, "F": torch.nn.functional}
    eenv = {"torch": engine, "nn": engine.nn, "F": engine.nn.functional}
    exec(code, tenv)
    exec(code, eenv)
    gm = GraphMap(_leaf_pairs(tenv, eenv))
    gm.match(tenv["root"].grad_fn, eenv["root"].grad_fn, "root.grad_fn")
    return tenv, eenv, gm


def _hook_all(gm):
    torder, eorder = [], []
    for i, (tf, ef) in enumerate(zip(gm.t_nodes, gm.e_nodes)):
        tf.register_prehook(lambda *a, i=i: torder.append(i))
        ef.register_prehook(lambda *a, i=i: eorder.append(i))
    return torder, eorder


def _names(gm, order):
    out = []
    for i in order:
        fn = gm.t_nodes[i]
        out.append(node_name(fn) + (f"#{i}" if node_name(fn) == "AccumulateGrad" else ""))
    return out


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_backward_order(name):
    tenv, eenv, gm = _build(GRAPHS[name])
    torder, eorder = _hook_all(gm)
    tenv["root"].backward(tenv.get("grad"))
    eenv["root"].backward(eenv.get("grad"))
    assert len(torder) == len(gm.t_nodes)  # torch ran every node once
    assert _names(gm, eorder) == _names(gm, torder)


@pytest.mark.parametrize("name", ["two_var_square", "diamond", "mlp_manual", "many_leaves_mixed"])
def test_autograd_grad_runs_only_needed_nodes_in_order(name):
    tenv, eenv, gm = _build(GRAPHS[name])
    torder, eorder = _hook_all(gm)
    # the grad w.r.t. the first leaf that requires grad, in a list of leaves in creation order
    target_t, target_e = [(t, e) for t, e in _leaf_pairs(tenv, eenv) if t.is_leaf and t.requires_grad][0]
    (tg,) = torch.autograd.grad(tenv["root"], target_t, grad_outputs=tenv.get("grad"))
    (eg,) = load_engine().autograd.grad(eenv["root"], target_e, grad_outputs=eenv.get("grad"))
    assert _names(gm, eorder) == _names(gm, torder)
    np.testing.assert_allclose(to_numpy(eg), to_numpy(tg), rtol=1e-5)


@pytest.mark.parametrize("name", ["two_var_square", "mlp_manual", "diamond"])
def test_backward_inputs_runs_only_needed_nodes_in_order(name):
    tenv, eenv, gm = _build(GRAPHS[name])
    torder, eorder = _hook_all(gm)
    pairs = _leaf_pairs(tenv, eenv)
    tl, el = [p for p in pairs if p[0].is_leaf and p[0].requires_grad][-1]
    tenv["root"].backward(tenv.get("grad"), inputs=[tl])
    eenv["root"].backward(eenv.get("grad"), inputs=[el])
    assert _names(gm, eorder) == _names(gm, torder)
    for t, e in pairs:
        if t.is_leaf:
            assert (e.grad is None) == (t.grad is None)


HOOK_TIMING = """
import torch

x = torch.tensor([1., 2.], requires_grad=True)
log = []
y = x * 3
z = y.exp()
root = z.sum()
x.register_hook(lambda g: log.append(('x tensor hook', g)))
y.register_hook(lambda g: log.append(('y tensor hook', g)))
y.retain_grad()
y.register_hook(lambda g: log.append(('y tensor hook 2', g)) or g * 2)
z.grad_fn.register_prehook(lambda go: log.append(('ExpBackward0 prehook', None)))
y.grad_fn.register_prehook(lambda go: log.append(('MulBackward0 prehook', None)))
acc = y.grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: log.append(('AccumulateGrad prehook', None)))
root.backward()
for e in log:
    print(e)
print('y.grad', y.grad)
print('x.grad', x.grad)
"""


def test_hook_timing_matches_torch():
    want, got = run_both(HOOK_TIMING)
    assert want.exc is None
    assert got.exc == want.exc
    assert got.stdout == want.stdout
