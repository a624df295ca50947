"""The distributions ported last (Multinomial, NegativeBinomial, VonMises, Wishart, LKJCholesky,
GeneralizedPareto) against torch: seeded samples value for value, log_prob and its grad, moments, printing and
validation errors."""
from difftest import assert_same

PROGRAM = """
import torch
from torch.distributions import Multinomial, NegativeBinomial, VonMises, Wishart, LKJCholesky, GeneralizedPareto

torch.manual_seed(0)
m = Multinomial(10, torch.tensor([0.2, 0.3, 0.5]))
s = m.sample((4,))
print(s, m.log_prob(s), m.mean, m.variance)
p = torch.tensor([0.1, 0.6], requires_grad=True)
nb = NegativeBinomial(torch.tensor([3.0, 5.0]), probs=p)
x = nb.sample((3,))
lp = nb.log_prob(x).sum()
lp.backward()
print(x, lp, p.grad, nb.mean, nb.variance, nb.mode)
vm = VonMises(torch.tensor([0.5, -1.0]), torch.tensor([2.0, 0.3]))
print(vm.sample((3,)), vm.log_prob(torch.tensor([0.1, 0.2])), vm.mean, vm.variance, vm.mode)
w = Wishart(df=torch.tensor(4.0), covariance_matrix=torch.eye(2) * 2)
ws = w.sample((2,))
print(ws, w.log_prob(ws), w.mean, w.entropy())
lkj = LKJCholesky(3, 0.5)
ls = lkj.sample((2,))
print(ls, lkj.log_prob(ls))
g = GeneralizedPareto(torch.tensor(0.0), torch.tensor(1.5), torch.tensor([0.3, -0.2]))
gs = g.rsample((3,))
print(gs, g.log_prob(gs), g.mean, g.variance, g.entropy(), g.cdf(gs), g.icdf(torch.tensor(0.3)))
print(m, nb, vm, w, lkj, g)
try:
    Multinomial(10, torch.tensor([0.2, -0.3]))
except ValueError as e:
    print(e)
"""


def test_the_last_ported_distributions_sample_and_score_as_torch():
    assert_same(PROGRAM)
