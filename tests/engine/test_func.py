"""torch.func against torch: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call and
stack_module_state, as the function-transforms tutorials use them (per-sample gradients, ensembles, Jacobians,
Hessians, NTKs): printed values, grad_fn names and error texts."""
import pytest
from difftest import run_both

PRELUDE = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nfrom functools import partial\n" \
          "from torch.func import grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call, " \
          "stack_module_state\ntorch.manual_seed(0)\n"


def _same(source):
    want, got = run_both(PRELUDE + source)
    assert got.exc == want.exc
    assert got.stdout == want.stdout
    # torch's first jvp imports its decompositions, which warn of TorchScript's deprecation: not the program's
    assert got.warnings == [w for w in want.warnings if w[0] != "DeprecationWarning"]
    return want


PROGRAMS = {
    "grad": """
x = torch.tensor([1.0, 2.0, 3.0])
print(grad(lambda x: (x ** 2).sum())(x), grad(lambda x: x.sin().sum())(x))
print(grad(lambda x, y: (x * y).sum(), argnums=1)(x, torch.ones(3)))
print(grad(lambda x, y: (x * y ** 2).sum(), argnums=(0, 1))(x, torch.ones(3)))
print(grad(lambda x: (x.exp().sum(), x.cos()), has_aux=True)(x))
print(grad_and_value(lambda x: (x ** 3).sum())(x))
print(grad_and_value(lambda x: ((x ** 3).sum(), {"n": x.sum()}), has_aux=True)(x))
print(grad(lambda x: torch.tensor(2.0))(x), grad(lambda p: (p["w"] * 2).sum() + p["b"] ** 2)(
    {"w": x, "b": torch.tensor(1.5)}))
""",
    "nested grad": """
f = lambda x: x.sin()
x = torch.tensor(0.7)
print(grad(f)(x), grad(grad(f))(x), grad(grad(grad(f)))(x))
print(grad(lambda x: grad(lambda y: (x * y ** 2))(x))(x))
""",
    "outer graph": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
g = grad(lambda x: (x ** 3).sum())(x)
print(g)
g.sum().backward()
print(x.grad)
w = torch.tensor(2.0, requires_grad=True)
print(grad(lambda x: (x * w).sum())(torch.ones(2)), jacrev(lambda a: a * w)(torch.ones(2)))
out, fn = vjp(lambda a: a * w, torch.ones(2))
print(out, fn(torch.ones(2)))
with torch.no_grad():
    print(grad(lambda x: (x * w).sum())(torch.ones(2)), grad(grad(torch.sin))(torch.tensor(1.0)))
""",
    "vmap of grad by an outer tensor": """
w = torch.randn(5, requires_grad=True)
ex, t = torch.randn(3, 5), torch.randn(3)
loss = lambda w, e, t: ((e.dot(w).relu() - t) * 2).mean()
g = vmap(grad(loss), in_dims=(None, 0, 0))(w, ex, t)
print(g, vmap(grad(lambda w, e: (e * w).tanh().sum()), in_dims=(None, 0))(w, ex))
g.sum().backward()
print(w.grad)
""",
    "vjp and jvp": """
x = torch.tensor([0.5, 1.0, 2.0])
out, fn = vjp(lambda x: x.tanh() * 2, x)
print(out, fn(torch.ones(3)), fn(torch.tensor([1.0, 0.0, -1.0])))
out, fn, aux = vjp(lambda x, y: (x * y, x.sum()), x, torch.ones(3), has_aux=True)
print(out, fn(torch.ones(3)), aux)
print(jvp(lambda x: x.exp(), (x,), (torch.ones(3),)))
print(jvp(lambda x, y: x * y.sin(), (x, torch.ones(3)), (torch.ones(3), torch.ones(3))))
print(jvp(lambda x: (x.sum(), x ** 2), (x,), (torch.tensor([1.0, 2.0, 3.0]),)))
""",
    "jacobians and hessians": """
def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()
D = 4
weight, bias, x = torch.randn(D, D), torch.randn(D), torch.randn(D)
xp = x.clone().requires_grad_()
rows = torch.stack([torch.autograd.grad(predict(weight, bias, xp), xp, v)[0] for v in torch.eye(D)])
print(rows[0])
_, vjp_fn = vjp(partial(predict, weight, bias), x)
ft, = vmap(vjp_fn)(torch.eye(D))
print(torch.allclose(ft, rows), ft[1])
print(jacrev(predict, argnums=2)(weight, bias, x))
print(jacfwd(predict, argnums=2)(weight, bias, x)[2])
jw, jb = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(jw.shape, jb[1])
h = hessian(predict, argnums=2)(weight, bias, x)
print(h.shape, torch.allclose(h, jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)))
print(torch.allclose(h, jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)))
xb = torch.randn(3, D)
b0 = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, xb)
b1 = jacrev(lambda w, b, x: predict(w, b, x).sum(0), argnums=2)(weight, bias, xb).movedim(1, 0)
print(b0.shape, torch.allclose(b0, b1), vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))(weight, bias,
      xb).shape)
f = lambda x: x.sin().sum()
x, t = torch.randn(5), torch.randn(5)
hvp = jvp(grad(f), (x,), (t,))[1]
print(hvp, torch.allclose(hvp, vjp(grad(f), x)[1](t)[0]))
print(jacrev(lambda x: (x.exp(), x.sum()))(torch.tensor([1.0, 2.0])))
x = torch.tensor([1.0, -2.0, 0.5, 3.0])
print(hessian(f)(x), jacfwd(torch.cos)(x), jacfwd(lambda x: (x.tanh() * x).sum())(x))
""",
    "vmap": """
x = torch.arange(6.0).reshape(2, 3)
print(vmap(lambda a: a.sum())(x), vmap(lambda a: a.sum(), in_dims=1)(x), vmap(lambda a: a * 2, out_dims=1)(x))
print(vmap(lambda a, b: a * b, in_dims=(0, None))(x, torch.tensor([1.0, 10.0, 100.0])))
print(vmap(lambda a: (a, a.max()))(x), vmap(lambda a: {"k": a.mean()})(x))
print(vmap(vmap(lambda a: a ** 2))(x), vmap(torch.dot)(x, x), vmap(lambda a: a.sum(), in_dims=-1)(x))
print(vmap(lambda a, b: a + b["k"], in_dims=(0, {"k": None}))(x, {"k": torch.ones(3)}))
w = torch.ones(3, requires_grad=True)
y = vmap(lambda a: (a * w).sum())(x)
print(y.requires_grad, y.detach())
y.sum().backward()
print(w.grad)
""",
    "per-sample gradients": """
class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.fc1 = nn.Linear(36, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        return F.log_softmax(self.fc1(torch.flatten(x, 1)), dim=1)

data, targets = torch.randn(4, 1, 8, 8), torch.randint(10, (4,))
model = SimpleCNN()

def compute_grad(sample, target):
    loss = F.nll_loss(model(sample.unsqueeze(0)), target.unsqueeze(0))
    return torch.autograd.grad(loss, list(model.parameters()))

loop = [torch.stack(s) for s in zip(*[compute_grad(data[i], targets[i]) for i in range(4)])]
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}

def compute_loss(params, buffers, sample, target):
    predictions = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.nll_loss(predictions, target.unsqueeze(0))

ft = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
print([(k, v.shape, v.grad_fn) for k, v in ft.items()])
print([torch.allclose(a, b, atol=3e-3, rtol=1e-5) for a, b in zip(loop, ft.values())], ft["fc1.bias"][0])
""",
    "ensembles": """
models = [nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)) for _ in range(3)]
params, buffers = stack_module_state(models)
print({k: (v.shape, v.requires_grad, v.is_leaf) for k, v in params.items()}, buffers)
def fmodel(params, buffers, x):
    return functional_call(models[0], (params, buffers), (x,))
minibatches = torch.randn(3, 5, 3)
out = vmap(fmodel)(params, buffers, minibatches)
print(out.shape, torch.allclose(out, torch.stack([m(b) for m, b in zip(models, minibatches)])))
out2 = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatches[0])
print(torch.allclose(out2, torch.stack([m(minibatches[0]) for m in models])))
print(models[0][0].weight.shape, functional_call(models[0], {"0.weight": torch.zeros(4, 3)}, torch.ones(3)))
""",
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_transforms_as_torch(name):
    _same(PROGRAMS[name])


ERRORS = [
    "grad(lambda x: x * 2)(torch.ones(2))", "grad(lambda x: 3.0)(torch.ones(2))",
    "grad(lambda x: x.sum(), argnums=1)(torch.ones(2))", "grad(lambda x: (x.sum(), 1))(torch.ones(2))",
    "grad(lambda x: x.sum(), has_aux=True)(torch.ones(2))", "grad(lambda x: x.sum())(torch.tensor([1, 2]))",
    "vmap(lambda a, b: a * b)(torch.ones(2), torch.ones(3))", "vmap(lambda a: 1.0)(torch.ones(2))",
    "vmap(lambda a: a.sum(), in_dims=2)(torch.ones(2, 3))", "vmap(lambda a: a.item())(torch.ones(2))",
    "vmap(lambda a: torch.randn(2))(torch.ones(2))", "vmap(lambda a: a)(3.0)",
    "vmap(lambda a, b: a * b, in_dims=(0,))(torch.ones(2), torch.ones(3))",
    "vmap(lambda a: a, in_dims='x')(torch.ones(2))", "vmap(lambda a: a)()",
    "vmap(lambda a: a, randomness='x')(torch.ones(2))", "vmap(lambda a: a, out_dims=(0, 1))(torch.ones(2, 3))",
    "vmap(lambda a: a.sum())(torch.tensor(1.0))", "jvp(torch.sin, torch.ones(2), torch.ones(2))",
    "stack_module_state([])", "stack_module_state([nn.Linear(1, 1), nn.Linear(1, 1).eval()])",
    "functional_call(nn.Linear(2, 1), {'weight': torch.ones(1, 2)}, torch.ones(2), strict=True)",
    "functional_call(nn.Linear(2, 1), 3, torch.ones(2))",
    "functional_call(nn.Linear(2, 1), ({'bias': torch.ones(1)}, {'bias': torch.ones(1)}), torch.ones(2))",
]


@pytest.mark.parametrize("source", ERRORS)
def test_errors_as_torch(source):
    assert _same(f"print({source})\n").exc is not None
