"""Modules as tutorials use them, against torch: forward pre-hooks and hooks with kwargs, prepended and always
called, full backward hooks and pre-hooks (BackwardHookFunctionBackward nodes, grads replaced, torch's warning when
no input requires grad), global module hooks and their handles; nn.ParameterDict; attributes a program sets on its
own tensors."""
from difftest import assert_same

PRELUDE = "import torch\nimport torch.nn as nn\nfrom collections import OrderedDict\ntorch.manual_seed(0)\n"


def _same(source):
    assert_same(PRELUDE + source)


def test_forward_hooks_with_kwargs_prepend_and_always_call():
    _same("""
class Scale(nn.Module):
    def forward(self, x, factor=1.0):
        return x * factor

m = Scale()
log = []
h1 = m.register_forward_pre_hook(lambda mod, args: log.append(("pre", args[0].tolist())))
h2 = m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {**kwargs, "factor": 3.0}), with_kwargs=True)
h3 = m.register_forward_hook(lambda mod, args, kwargs, out: out + kwargs["factor"], with_kwargs=True)
h4 = m.register_forward_hook(lambda mod, args, out: log.append(("first", out.tolist())), prepend=True)
print(m(torch.tensor([1.0, 2.0]), factor=2.0), log)
h2.remove(); h3.remove()
print(m(torch.tensor([1.0, 2.0]), factor=2.0), log[-1])
h1.remove(); h4.remove(); h4.remove()
print(m(torch.tensor([1.0])), len(log))
m.register_forward_pre_hook(lambda mod, args, kwargs: 3, with_kwargs=True)
try:
    m(torch.ones(1))
except RuntimeError as e:
    print(e)

class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("forward failed")

b = Boom()
b.register_forward_hook(lambda mod, args, out: print("always", out), always_call=True)
b.register_forward_hook(lambda mod, args, out: print("never"))
try:
    b(torch.ones(1))
except ValueError as e:
    print(e)
""")


def test_global_module_hooks():
    _same("""
import torch.nn.modules.module as module_hooks
seen = []
h = module_hooks.register_module_forward_pre_hook(lambda mod, args: seen.append(type(mod).__name__))
g = module_hooks.register_module_forward_hook(lambda mod, args, out: out * 2 if isinstance(mod, nn.Linear) else None)
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
y = net(torch.ones(1, 2))
print(y, seen)
h.remove(); g.remove()
print(net(torch.ones(1, 2)), len(seen))
""")


def test_parameter_dict_and_tensor_attributes():
    _same("""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.params = nn.ParameterDict({"b": nn.Parameter(torch.zeros(2)), "a": torch.randn(2, 2)})
        self.params["c"] = torch.ones(3, dtype=torch.float64)
    def forward(self, x):
        return x @ self.params["a"] + self.params["b"]
net = Net()
print(net)
print([n for n, _ in net.named_parameters()], len(net.params), "a" in net.params, list(net.params.keys()))
net(torch.ones(1, 2)).sum().backward()
print(net.params["a"].grad, type(net.params["c"]).__name__)
p = nn.ParameterDict(OrderedDict([("z", torch.ones(1)), ("y", torch.zeros(1))]))
print(list(p), p.pop("z"), list(p), p.get("q", 5), (p | {"w": torch.ones(2)}).keys(), p.setdefault("s", None))
for bad in (lambda: p.__setitem__(3, torch.ones(1)), lambda: p.update(3), lambda: p(1),
            lambda: p.update([(1, 2, 3)])):
    try:
        bad()
    except (TypeError, RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
x = torch.ones(2)
x.g = torch.zeros(2)
x.label = "input"
print(x.g, x.label, hasattr(x, "g"), getattr(torch.ones(1), "g", None))
""")


def test_full_backward_hooks():
    _same("""m = torch.nn.Linear(2, 1)
log = []
m.register_full_backward_hook(lambda mod, gi, go: log.append(('hook', gi, go)))
m.register_full_backward_pre_hook(lambda mod, go: log.append(('pre', go)))
x = torch.ones(1, 2, requires_grad=True)
y = m(x); print(y, type(y.grad_fn).__name__, [type(f).__name__ for f, _ in y.grad_fn.next_functions])
y.sum().backward(); print(log, x.grad)
log.clear()
y = m(torch.ones(1, 2)); y.sum().backward(); print(log)
m2 = torch.nn.Linear(2, 1)
m2.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 0,))
x = torch.ones(1, 2, requires_grad=True); m2(x).sum().backward(); print(x.grad)
m3 = torch.nn.ReLU()
h = m3.register_full_backward_hook(lambda mod, gi, go: print('relu', gi, go))
m3.register_full_backward_pre_hook(lambda mod, go: (go[0] * 10,))
x = torch.tensor([-1., 2.], requires_grad=True); y = m3(x); print(y); y.sum().backward(); print(x.grad)
h.remove(); x.grad = None; m3(x).sum().backward(); print(x.grad)
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))
for name, layer in net.named_children():
    layer.register_full_backward_hook(
        lambda mod, gi, go, name=name: print(name, [None if g is None else g.shape for g in gi], go[0].shape))
net(torch.randn(3, 2)).sum().backward()
import torch.nn.modules.module as mm
g = mm.register_module_full_backward_hook(lambda mod, gi, go: print('global', type(mod).__name__))
net(torch.randn(3, 2, requires_grad=True)).sum().backward()
g.remove()
with torch.no_grad():
    print(m(torch.ones(1, 2)))
""")


def test_full_backward_hooks_on_several_inputs_and_outputs():
    _same("""class Mix(nn.Module):
    def forward(self, a, b, scale=2.0, mode="sum"):
        return a * b + a, a - b * scale

m = Mix()
m.register_full_backward_pre_hook(lambda mod, go: print('pre', [g.tolist() for g in go]))
m.register_full_backward_hook(lambda mod, gi, go: print('hook', [None if g is None else g.tolist() for g in gi]))
m.register_full_backward_hook(lambda mod, gi, go: (gi[0] * 2, gi[1], None, None))
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
c = torch.tensor([5., 6.])
u, v = m(a, b, 3.0, "x")
print(u.grad_fn.name(), v.grad_fn.name(), u.grad_fn is v.grad_fn, u.grad_fn.next_functions)
(u.sum() + 2 * v.sum()).backward(); print(a.grad, b.grad)
a.grad = None
u, v = m(a, c); u.sum().backward(); print(a.grad)
u, v = m(c, a); v.sum().backward(); print(a.grad)
m.register_full_backward_hook(lambda mod, gi, go: (gi[0],))
u, v = m(a, b)
try:
    u.sum().backward()
except RuntimeError as e:
    print(e)
m2 = Mix()
m2.register_full_backward_pre_hook(lambda mod, go: (go[0],))
try:
    m2(a, b)[0].sum().backward()
except RuntimeError as e:
    print(e)
""")
