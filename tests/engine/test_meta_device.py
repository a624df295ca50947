"""The 'meta' device against torch: tensors made there or moved there, modules moved there or built there
(`device="meta"` of every layer taking factory kwargs, lazy ones shaped there, to_empty), (the base model of
torch.func's ensembling recipe), their printed text, ops on them (shapes, dtypes, grad_fn), and torch's errors where
their data would be read or a meta tensor meets a CPU one."""
from difftest import ENGINE_NAME, run_both, run_fresh

PROGRAM = """
import copy
import torch
torch.manual_seed(0)


def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)


m = torch.empty(3, 4, device="meta")
print(m, m.device, m.shape, m.dtype, m.is_meta, m.requires_grad, torch.device("meta"))
attempt(lambda: torch.zeros(2, device="meta"))
attempt(lambda: torch.ones(2, 3, device=torch.device("meta"), dtype=torch.float64))
attempt(lambda: torch.randn(2, device="meta"))
print(torch.rand(1))  # a meta draw draws nothing
attempt(lambda: torch.tensor([1.0, 2.0], device="meta"))
attempt(lambda: torch.arange(3, device="meta"))
attempt(lambda: torch.full((2,), 7, device="meta"))
attempt(lambda: torch.zeros_like(m))
x = torch.randn(2, 3, requires_grad=True)
y = x.to("meta")
print(y, y.is_leaf, y.to("meta") is y)
attempt(lambda: (y * 2).sum())
attempt(lambda: y.sum().item())
attempt(lambda: y.tolist())
attempt(lambda: y.numpy())
attempt(lambda: float(y.sum()))
attempt(lambda: bool(y.sum()))
attempt(lambda: y + x)
attempt(lambda: x + y)
attempt(lambda: y + torch.tensor(1.0))
attempt(lambda: y.to("cpu"))
attempt(lambda: y.cpu())
attempt(lambda: torch.empty(2, device="meta").exp().shape)
attempt(lambda: torch.empty(2, 2, device="meta", dtype=torch.int64))
attempt(lambda: torch.empty(0, device="meta"))
attempt(lambda: torch.empty((), device="meta"))
attempt(lambda: y[0])
attempt(lambda: y.t().reshape(-1).unsqueeze(0))
attempt(lambda: torch.empty(2, device="meta") == torch.empty(2, device="meta"))
attempt(lambda: torch.allclose(torch.empty(2, device="meta"), torch.empty(2, device="meta")))
z = torch.empty(2, device="meta")
z.add_(1)
print(z)
lin = torch.nn.Linear(2, 3)
ml = copy.deepcopy(lin).to("meta")
print(ml, ml.weight, ml.bias.device, lin.weight.device, copy.deepcopy(ml.weight))
attempt(lambda: ml(torch.randn(4, 2)))
attempt(lambda: ml(torch.randn(4, 2, device="meta")))
s = (y * y).sum()
print(s.grad_fn)
attempt(lambda: s.backward())
print(x.grad)
"""


LAYERS = """
import torch
import torch.nn as nn
torch.manual_seed(0)
built = [nn.Linear(3, 4, device="meta"), nn.Bilinear(2, 3, 4, device="meta", dtype=torch.float64),
         nn.Conv2d(2, 3, 3, device="meta"), nn.ConvTranspose1d(2, 3, 3, device="meta"),
         nn.Embedding(5, 3, device="meta"), nn.EmbeddingBag(5, 3, device="meta"),
         nn.BatchNorm1d(3, device="meta", dtype=torch.float64),
         nn.InstanceNorm1d(3, affine=True, track_running_stats=True, device="meta"), nn.GroupNorm(2, 4, device="meta"),
         nn.LayerNorm(4, device="meta"), nn.RMSNorm(4, device="meta"), nn.PReLU(device="meta"),
         nn.GRUCell(3, 4, device="meta"), nn.LSTM(3, 4, device="meta"), nn.MultiheadAttention(4, 2, device="meta"),
         nn.TransformerEncoderLayer(4, 2, 8, device="meta"), nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4], device="meta"),
         nn.Linear(2, 2, dtype=torch.float64)]
print(torch.randn(2))  # a layer built on meta draws nothing
for m in built:
    print(type(m).__name__, [(n, t.device, t.dtype, tuple(t.shape), isinstance(t, nn.Parameter))
                             for n, t in list(m.named_parameters()) + list(m.named_buffers())][:4])
lin = built[0]
print(lin.weight, lin(torch.randn(2, 3, device="meta")))
try:
    lin(torch.randn(2, 3))
except RuntimeError as e:
    print(e)
bn = built[6].to_empty(device="cpu")
print(bn.weight.shape, bn.weight.device, type(bn.weight).__name__, bn.running_mean.device, bn.num_batches_tracked.dtype)
print(nn.Sequential(nn.Linear(3, 4, device="meta"), nn.ReLU()).to_empty(device="meta")[0].bias)
shapes = {nn.LazyConvTranspose2d: (2, 4, 3, 3), nn.LazyConv1d: (2, 4, 5), nn.LazyInstanceNorm1d: (2, 4, 5)}
for m in (nn.LazyLinear(3, device="meta"), nn.LazyBatchNorm1d(device="meta", dtype=torch.float64),
          nn.LazyConv1d(3, 2, device="meta"), nn.LazyConvTranspose2d(3, 2, device="meta"),
          nn.LazyInstanceNorm1d(affine=True, track_running_stats=True, device="meta")):
    print(m.weight, [(n, str(b)) for n, b in m.named_buffers()])
    y = m(torch.randn(*shapes.get(type(m), (2, 4)), device="meta"))
    print(type(m).__name__, y.shape, y.device, m.weight, [(n, b.device, tuple(b.shape)) for n, b in m.named_buffers()])
print(torch.randn(2))  # nor does a lazy one shaped there
"""


def test_layers_built_on_meta_as_torch():
    want, got = run_both(LAYERS)
    assert (got.exc, got.stdout) == (want.exc, want.stdout)


def test_meta_tensors_as_torch():
    want, got = run_both(PROGRAM)
    assert (got.exc, got.stdout) == (want.exc, want.stdout)
    if got.warnings != want.warnings:  # torch warns some things once per process: an earlier test may have used it
        (want,), (got,) = run_fresh((PROGRAM,), "torch"), run_fresh((PROGRAM,), ENGINE_NAME)
    assert got.warnings == want.warnings


def test_once_the_meta_device_is_in_use_an_op_on_a_nested_list_walks_each_distinct_list_once():
    # (the meta device's check runs before every op from then on: it must not walk `[row] * 1000` a thousand
    # times, nor recurse through a list nested deeper than Python's recursion limit)
    import engine
    from engine.meta import _tensors

    engine.ones(1, device="meta")
    row = [0.0] * 1000
    shared = [[row] * 1000] * 1000
    deep = [engine.ones(1)]
    for _ in range(5000):
        deep = [deep]
    inputs = [engine.ones(2), shared, (deep, engine.ones(3))]
    assert [t.numel() for t in _tensors(inputs)] == [2, 1, 3]
