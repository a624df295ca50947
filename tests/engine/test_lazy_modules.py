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
