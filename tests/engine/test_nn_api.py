"""The nn layers and losses, the Module API and the construction and device vocabulary, as small programs run on
real PyTorch and on the engine (only `import torch` bound differently): the same printed text (values, grad_fn
names, reprs), the same warnings and the same uncaught error."""
from __future__ import annotations

import pytest
from difftest import load_engine, printed_alike, run_both, torch

from tests.corpus.corpus import reset_globals

PROGRAMS = {
    "deepcopy": """
import copy
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
model[0].weight.grad = torch.ones(2, 2)
twin = copy.deepcopy(model)
print(twin, twin[0].weight, twin[0].weight.grad, twin[0].weight is model[0].weight)
best = copy.deepcopy(model.state_dict())
with torch.no_grad():
    model[2].bias.add_(1.0)
print(best["2.bias"], model[2].bias, type(best).__name__)
t = torch.tensor([1.0, 2.0], requires_grad=True)
t.grad = torch.tensor([0.5, 0.5])
pair = copy.deepcopy([t, t])
print(pair[0] is pair[1], pair[0].grad, pair[0].requires_grad, pair[0].is_leaf, pair[0].grad_fn)
i = copy.deepcopy(torch.arange(3))
print(i, i.dtype, copy.copy(nn.Linear(1, 1)).weight.shape)
try:
    copy.deepcopy(t * 2)
except RuntimeError as e:
    print(e)
""",
    "sequential_api": """
import torch
import torch.nn as nn
from collections import OrderedDict
torch.manual_seed(0)
named = nn.Sequential(OrderedDict([("fc1", nn.Linear(2, 3)), ("act", nn.ReLU()), ("fc2", nn.Linear(3, 1))]))
print(named, named.fc1, named[0] is named.fc1, named[-1], len(named))
print(named[1:], type(named[:2]).__name__, [name for name, _ in named.named_parameters()])
s = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
s.append(nn.Linear(2, 1)).insert(1, nn.ReLU())
s.extend([nn.Sigmoid()])
s[0] = nn.Linear(2, 2, bias=False)
del s[1]
print(s, len(s))
print(s(torch.ones(1, 2)).shape)
for call in [lambda: s[7], lambda: s["a"], lambda: nn.Sequential(1), lambda: s.insert(9, nn.ReLU()),
             lambda: s.insert(0, 3)]:
    try:
        call()
    except Exception as e:
        print(type(e).__name__, e)
""",
    "losses_with_options": """
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(5, 4, requires_grad=True)
t = torch.tensor([1, 0, 3, -100, 2])
w = torch.tensor([1.0, 2.0, 0.5, 3.0])
for kw in [{}, {"weight": w}, {"weight": w, "reduction": "sum"}, {"reduction": "none"}, {"label_smoothing": 0.1},
           {"weight": w, "label_smoothing": 0.2}, {"ignore_index": 3, "label_smoothing": 0.3, "reduction": "sum"}]:
    loss = F.cross_entropy(x, t, **kw)
    g, = torch.autograd.grad(loss.sum(), x)
    print(kw, loss, g)
p = torch.randn(5, 4).softmax(1)
for kw in [{}, {"label_smoothing": 0.25}, {"weight": w, "reduction": "none"}]:
    print(F.cross_entropy(x, p, **kw))
print(F.nll_loss(x.log_softmax(1), t, weight=w), torch.nn.NLLLoss(ignore_index=3)(x.log_softmax(1), t))
y = torch.rand(5, 4)
print(F.binary_cross_entropy_with_logits(x, y), torch.nn.BCEWithLogitsLoss(pos_weight=w)(x, y))
print(torch.nn.BCEWithLogitsLoss(weight=w, reduction="none")(x, y))
print(F.huber_loss(x, y, delta=0.5), torch.nn.SmoothL1Loss(beta=0.3, reduction="sum")(x, y))
print(torch.nn.KLDivLoss(reduction="batchmean")(x.log_softmax(1), p), F.kl_div(x, p.log(), log_target=True,
      reduction="sum"))
""",
    "activations_pooling_and_norms": """
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 5, 5, requires_grad=True)
w = torch.arange(150.0).view(2, 3, 5, 5) / 100
for m in [nn.SiLU(), nn.ELU(), nn.Softplus(), nn.Mish(), nn.Hardtanh(), nn.ReLU6(), nn.ELU(alpha=0.5, inplace=True),
          nn.Softplus(beta=2, threshold=10), nn.Hardtanh(-2, 2), nn.SiLU(inplace=True), nn.Mish(inplace=True),
          nn.ReLU6(inplace=True), nn.AdaptiveAvgPool2d(1), nn.AdaptiveAvgPool2d((2, 3)),
          nn.AdaptiveAvgPool2d((None, 2)), nn.BatchNorm2d(3), nn.BatchNorm2d(3, momentum=None, affine=False)]:
    y = m(x * 1 if "inplace=True" in repr(m) else x)
    g, = torch.autograd.grad((y * w[..., :y.shape[-2], :y.shape[-1]]).sum(), x)
    print(m, y.grad_fn, y.shape, y.flatten()[:4], g[0, 0, 0])
bn = nn.BatchNorm2d(3)
for _ in range(2):
    out = bn(x)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x)[0, 0, 0], bn(x).grad_fn)
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), torch.zeros(2, 3)])
pl.append(nn.Parameter(torch.randn(1)))
print(pl, len(pl), [n for n, _ in pl.named_parameters()], pl[-1], pl[1:], type(pl[1]).__name__)
print(F.normalize(x[0, 0]), F.cosine_similarity(x[0, 0], x[1, 0]), F.cosine_similarity(x[0, 0], x[1, 0, 0], dim=0))
print(F.elu(x[0, 0, 0]), F.hardtanh(x[0, 0, 0], -0.5, 0.5), F.relu6(x[0, 0, 0] * 4), F.mish(x[0, 0, 0]))
print(x[0, 0].clamp_min(0.2), x[0, 0, 0].clamp_max(x[1, 0, 0]))
for bad in [lambda: nn.BatchNorm2d(3)(torch.randn(2, 3, 4)), lambda: nn.BatchNorm2d(3)(torch.randn(1, 3, 1, 1)),
            lambda: nn.Hardtanh(1, 0), lambda: F.adaptive_avg_pool2d(torch.randn(3, 3), 2),
            lambda: F.adaptive_avg_pool2d(torch.randn(2, 0, 3), 2),
            lambda: F.adaptive_avg_pool2d(torch.randn(2, 3, 3), (2, 2, 2)), lambda: pl[5], lambda: pl(x),
            lambda: torch.baddbmm(x[0], x[0], x[1]), lambda: torch.baddbmm(x[0, :2, :3, :4], x[0, :3, :3, 0], x[0]),
            lambda: torch.baddbmm(torch.ones(3, 3), x[0, :2], x[0, :2]), lambda: torch.randn(2, 3, 5).expand(3, 4, 5)]:
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
""",
    "loss_errors": """
import torch
import torch.nn.functional as F
x = torch.randn(3, 4)
for call in [lambda: F.cross_entropy(x, torch.tensor([1, 2, 4])),
             lambda: F.cross_entropy(x, torch.tensor([0.5, 1.0, 2.0])),
             lambda: F.cross_entropy(x, torch.tensor([1, 2, 3]), label_smoothing=1.5),
             lambda: F.nll_loss(x, torch.tensor([1, 2])),
             lambda: F.binary_cross_entropy_with_logits(x, torch.rand(3)),
             lambda: F.one_hot(torch.tensor([1, -1])),
             lambda: F.one_hot(torch.tensor([1, 5]), 3),
             lambda: F.one_hot(torch.tensor([1.0]))]:
    try:
        call()
    except Exception as e:
        print(type(e).__name__, e)
""",
    "layers": """
import torch
from torch import nn
torch.manual_seed(0)
model = nn.Sequential(nn.Flatten(), nn.Linear(6, 4), nn.LogSoftmax(dim=1), nn.Unflatten(1, (2, 2)))
x = torch.randn(3, 2, 3)
out = model(x)
print(model, out, out.grad_fn)
emb = nn.Embedding(5, 3, padding_idx=1)
e = emb(torch.tensor([[0, 1], [4, 1]]))
e.sum().backward()
print(emb, e, emb.weight.grad)
print(nn.Embedding(4, 2, max_norm=0.5)(torch.tensor([0, 2, 0])))
print(nn.functional.one_hot(torch.tensor([0, 2, 1])), nn.functional.one_hot(torch.arange(3) % 2, num_classes=4))
""",
    "embeddings_from_pretrained": """
import torch
from torch import nn
table = torch.tensor([[1.0, 2.3, 3.0], [4.0, 5.1, 6.3], [0.5, -1.0, 2.0]])
emb = nn.Embedding.from_pretrained(table)
print(emb, emb.weight.requires_grad, emb(torch.tensor([[1, 0]])))
table[0, 0] = 9.0  # the weight is the table's memory
print(emb.weight[0], type(emb.weight).__name__)
tuned = nn.Embedding.from_pretrained(table.clone(), freeze=False, padding_idx=2, max_norm=1.0)
out = tuned(torch.tensor([2, 1, 1]))
out.sum().backward()
print(tuned, out, tuned.weight.grad, tuned.weight.requires_grad)
bag = nn.EmbeddingBag.from_pretrained(table, mode="sum")
print(bag, bag.weight.requires_grad, bag(torch.tensor([[0, 2], [1, 1]])))
bag = nn.EmbeddingBag.from_pretrained(table, freeze=False, mode="max", padding_idx=0)
print(bag, bag.weight.requires_grad, bag(torch.tensor([0, 1, 2]), torch.tensor([0, 2])))
for bad in (lambda: nn.Embedding.from_pretrained(torch.ones(3)),
            lambda: nn.EmbeddingBag.from_pretrained(torch.ones(2, 2, 2)),
            lambda: nn.Embedding(3, 2, _weight=torch.ones(2, 2))):
    try:
        bad()
    except AssertionError as e:
        print(type(e).__name__, e)
""",
    "batch_norm_and_hooks": """
import torch
from torch import nn
torch.manual_seed(0)
bn = nn.BatchNorm1d(3)
seen = []
handle = bn.register_forward_hook(lambda m, args, out: seen.append((type(m).__name__, out.shape)))
bn.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
x = torch.randn(4, 3, requires_grad=True)
y = bn(x)
(y * torch.arange(12.0).reshape(4, 3)).sum().backward()
print(bn, y, x.grad, bn.weight.grad, bn.bias.grad, y.grad_fn)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked, list(bn.state_dict()), seen)
handle.remove()
bn.eval()
z = bn(torch.randn(2, 3, 5))
print(z, z.grad_fn, seen)
m = nn.BatchNorm1d(2, momentum=None, affine=False)
for _ in range(3):
    m(torch.randn(5, 2))
print(m, m.running_mean, m.running_var)
try:
    bn.train()(torch.randn(1, 3))
except ValueError as e:
    print(e)
""",
    "layer_norm": """
import torch
from torch import nn
torch.manual_seed(0)
ln = nn.LayerNorm(4)
x = torch.randn(2, 3, 4, requires_grad=True)
y = ln(x)
print(y.grad_fn._saved_normalized_shape, y.grad_fn._saved_result1.shape, y.grad_fn._saved_result2[0, 0])
(y * torch.arange(24.0).reshape(2, 3, 4)).sum().backward()
print(ln, y, y.grad_fn, x.grad, ln.weight.grad, ln.bias.grad, list(ln.state_dict()))
ln2 = nn.LayerNorm((3, 4), eps=1e-3, bias=False)
z = ln2(x * 3)
print(ln2, z[1], z.grad_fn.next_functions[2], [n for n, _ in ln2.named_parameters()])
print(nn.LayerNorm(2, elementwise_affine=False), list(nn.LayerNorm(2, elementwise_affine=False).parameters()))
print(nn.GELU(), nn.GELU('tanh'), nn.Sequential(nn.Linear(4, 2), nn.GELU())(x[0]))
print(nn.functional.layer_norm(torch.tensor([[1.0, 2.0], [2.0, 3.0]]), (2,)))
print(nn.LayerNorm(3, dtype=torch.float64)(torch.arange(6.0, dtype=torch.float64).reshape(2, 3)))
try:
    ln(torch.ones(2, 3))
except RuntimeError as e:
    print(e)
""",
    "module_api": """
import torch
from torch import nn
torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.ModuleList([nn.Linear(2, 3), nn.ReLU()]) if hasattr(nn, "ModuleList") else None
        self.head = nn.Linear(3, 1)
        self.register_buffer("steps", torch.zeros(()))
        self.register_parameter("scale", nn.Parameter(torch.ones(1)))

    def forward(self, x):
        return self.head(x) * self.scale

net = Net()
net.head.register_buffer("temp", torch.ones(2), persistent=False)
print([n for n, _ in net.named_parameters()], [n for n, _ in net.named_buffers()])
print([n for n, _ in net.named_modules()], list(net.state_dict()))
other = Net()
print(other.load_state_dict(net.state_dict()))
try:
    other.head.load_state_dict({"weight": torch.zeros(2, 3)})
except RuntimeError as e:
    print(e)
print(other.head.load_state_dict({"weight": torch.zeros(1, 3), "extra": torch.ones(1)}, strict=False))
names = []
net.apply(lambda m: names.append(type(m).__name__))
print(names, net.train(False).training, net.head.training)
try:
    net.register_parameter("head", nn.Parameter(torch.ones(1)))
except KeyError as e:
    print("KeyError", e)
try:
    net.scale = torch.ones(1)
except TypeError as e:
    print(e)
""",
    "construction_and_devices": """
import torch
print(torch.Tensor([1, 2]), torch.Tensor([[1.5]]).dtype, torch.Tensor(2, 3).shape, torch.FloatTensor([1, 2]))
print(torch.LongTensor([1, 2]), torch.DoubleTensor([0.5]), torch.zeros(size=(2,)), torch.randn(size=(1, 2)).shape)
cpu = torch.device("cpu")
print(cpu, repr(torch.device("cuda", 1)), repr(torch.device("cuda:0")), torch.device("cpu") == cpu)
print(torch.ones(2).device, torch.ones(2, device=cpu).to(cpu), torch.ones(2).to("cpu", torch.float64))
print(torch.cuda.is_available(), torch.cuda.device_count(), torch.backends.mps.is_available())
print(torch.accelerator.is_available(), torch.accelerator.current_accelerator())
for call in [lambda: torch.zeros(2, device="cuda"), lambda: torch.ones(2).cuda(),
             lambda: torch.ones(2).to("cuda"), lambda: torch.device("gpu"), lambda: torch.nn.Linear(1, 1).to("cuda"),
             lambda: torch.cuda.current_device()]:
    try:
        call()
    except (AssertionError, RuntimeError) as e:
        print(type(e).__name__, e)
torch.set_default_device("cpu")
print(torch.get_default_device(), torch.ones(1))
""",
    "keywords_out_and_remainder": """
import torch
x = torch.arange(6.0).reshape(2, 3)
print(x.sum(axis=0), x.sum(1, keepdims=True), x.mean(axis=1), x.argmax(axis=1), torch.max(x, axis=0))
print((x > 2).all(dim=1), (x > 2).any(dim=0, keepdim=True), torch.matmul(input=x, other=x.T))
out = torch.zeros(5)
print(torch.matmul(x, x.T, out=out), out)
try:
    torch.add(torch.ones(2), 1.5, out=torch.zeros(2, dtype=torch.long))
except RuntimeError as e:
    print(e)
y = torch.tensor([-7.0, 7.5, 3.0], requires_grad=True)
r = y % 3
s = y.remainder(torch.tensor([2.0, -2.0, 4.0]))
(r.sum() + s.sum()).backward()
print(r, s, y.grad, torch.tensor([-7, 7]) % 3)
""",
}


@pytest.fixture
def _globals_reset():
    yield
    reset_globals(*(m for m in (torch, load_engine()) if m is not None))  # construction_and_devices' default device


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.usefixtures("_globals_reset")
def test_program_prints_what_pytorch_prints(name):
    want, got = run_both(PROGRAMS[name])
    assert printed_alike(got.stdout, want.stdout), f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    assert got.exc == want.exc
