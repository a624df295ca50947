"""Lazy modules (LazyLinear, the lazy batch and instance norms and convolutions) and the distance modules, against
torch: uninitialized parameters printed and kept in state_dict, shapes and seeded initial values from the first
input, the same Parameter objects before and after (an optimizer made first steps them), the default dtype, error
texts; CosineSimilarity, PairwiseDistance and DataParallel on a machine without accelerators."""
from difftest import assert_same

PRELUDE = "import copy\nimport torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"


def _same(source):
    assert_same(PRELUDE + source)


def test_lazy_linear_takes_its_shape_and_initial_values_from_the_first_call():
    _same("""
m = nn.LazyLinear(3)
print(m, m.weight)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x = torch.randn(4, 5)
y = m(x)
print(m, y)
y.sum().backward(); opt.step(); print(m.weight)
""")


def test_lazy_norms_and_convolutions():
    _same("""
bn = nn.LazyBatchNorm1d(); print(bn, bn.running_mean)
print(bn(torch.randn(4, 3)), bn, bn.running_mean, bn.num_batches_tracked)
ins = nn.LazyInstanceNorm1d(); print(ins(torch.randn(2, 3, 5)), ins)
try:
    nn.LazyInstanceNorm1d()(torch.randn(3, 5))
except ValueError as e:
    print("ValueError:", e)
c = nn.LazyConv2d(2, 3); print(c(torch.randn(1, 2, 4, 4)).shape, c, c.bias)
try:
    nn.LazyConv2d(2, 3)(torch.randn(1, 2, 4, 4, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.LazyLinear(2)(torch.randn(2, 4, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
""")


def test_distance_modules_and_data_parallel():
    _same("""
print(nn.CosineSimilarity(dim=0)(torch.randn(3), torch.randn(3)))
print(nn.PairwiseDistance(p=1)(torch.randn(2, 3), torch.randn(2, 3)))
dp = nn.DataParallel(nn.Linear(2, 2)); print(dp, list(dp.state_dict()), dp(torch.ones(1, 2)))
s = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1)); print(s(torch.randn(2, 3)), s)
print(copy.deepcopy(nn.LazyLinear(2)).weight)
print(nn.LazyLinear(3).state_dict())
""")


def test_load_state_dict_materializes_a_lazy_module_and_an_uninitialized_parameter_refuses_use():
    _same("""def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
src = torch.nn.Linear(3, 2)
lazy = torch.nn.LazyLinear(2)
print(lazy)
print(lazy.load_state_dict(src.state_dict()))
print(lazy, type(lazy).__name__, lazy.weight, type(lazy.weight).__name__)
print(lazy(torch.ones(1, 3)), lazy)
lz = torch.nn.LazyLinear(2)
attempt(lambda: lz.weight + 1)
attempt(lambda: lz.weight.shape)
attempt(lambda: lz.weight.sum())
attempt(lambda: lz.weight.numel())
attempt(lambda: lz.weight.size())
attempt(lambda: print(lz.weight))
attempt(lambda: lz.weight.dim())
attempt(lambda: lz.weight.data)
attempt(lambda: lz.load_state_dict({"weight": torch.ones(2, 3)}))
lz2 = torch.nn.LazyLinear(2, bias=False)
attempt(lambda: lz2.load_state_dict({"weight": torch.ones(2, 3)}))
print(lz2, lz2.weight)
c = torch.nn.LazyConv2d(4, 3)
attempt(lambda: c.load_state_dict(torch.nn.Conv2d(2, 4, 3).state_dict()))
print(c, c.weight.shape)
bn = torch.nn.LazyBatchNorm1d()
attempt(lambda: bn.load_state_dict(torch.nn.BatchNorm1d(5).state_dict()))
print(bn, bn.running_mean, bn.num_batches_tracked)
seq = torch.nn.Sequential(torch.nn.LazyLinear(4), torch.nn.ReLU(), torch.nn.LazyLinear(1))
eager = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
attempt(lambda: seq.load_state_dict(eager.state_dict()))
print(seq)
lz3 = torch.nn.LazyLinear(2)
attempt(lambda: torch.optim.SGD(lz3.parameters(), lr=0.1))
attempt(lambda: lz3.weight.mean())
attempt(lambda: lz3.weight * 2)
attempt(lambda: lz3.weight.grad)
attempt(lambda: lz3.weight.requires_grad)
attempt(lambda: lz3.state_dict())
""")
