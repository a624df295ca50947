# Source: pytorch/pytorch torch/distributions/*.py docstrings (the Example:: of Normal, Categorical, Bernoulli,
#   Uniform, Beta, Gamma, Dirichlet, Exponential, Laplace, LogNormal, OneHotCategorical, RelaxedBernoulli,
#   RelaxedOneHotCategorical, Cauchy, HalfNormal, Chi2, StudentT, Geometric, Gumbel)
#   (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: seeded random numbers — torch.distributions' samplers: Box-Muller, multinomial, bernoulli, uniform,
#   the Marsaglia-Tsang Gamma sampler (Beta, Dirichlet, Chi2, StudentT), exponential, cauchy
# Adaptations:
#  - `>>>` prompts dropped and each sample printed; the import line and torch.manual_seed(0) added (the
#    docstrings' values come from unseeded runs); each distribution's log_prob of its sample and entropy printed
#    where it has one.
import torch
from torch.distributions import (Bernoulli, Beta, Categorical, Cauchy, Chi2, Dirichlet, Exponential, Gamma,
                                 Geometric, Gumbel, HalfNormal, Laplace, LogNormal, Normal, OneHotCategorical,
                                 RelaxedBernoulli, RelaxedOneHotCategorical, StudentT, Uniform)

torch.manual_seed(0)

m = Normal(torch.tensor([0.0]), torch.tensor([1.0]))
print(m.sample())  # normally distributed with loc=0 and scale=1
m = Categorical(torch.tensor([ 0.25, 0.25, 0.25, 0.25 ]))
print(m.sample())  # equal probability of 0, 1, 2, 3
m = Bernoulli(torch.tensor([0.3]))
print(m.sample())  # 30% chance 1; 70% chance 0
m = Uniform(torch.tensor([0.0]), torch.tensor([5.0]))
print(m.sample())  # uniformly distributed in the range [0.0, 5.0)
m = Beta(torch.tensor([0.5]), torch.tensor([0.5]))
print(m.sample())  # Beta distributed with concentration concentration1 and concentration0
m = Gamma(torch.tensor([1.0]), torch.tensor([1.0]))
print(m.sample())  # Gamma distributed with concentration=1 and rate=1
m = Dirichlet(torch.tensor([0.5, 0.5]))
print(m.sample())  # Dirichlet distributed with concentration [0.5, 0.5]
m = Exponential(torch.tensor([1.0]))
print(m.sample())  # Exponential distributed with rate=1
m = Laplace(torch.tensor([0.0]), torch.tensor([1.0]))
print(m.sample())  # Laplace distributed with loc=0, scale=1
m = LogNormal(torch.tensor([0.0]), torch.tensor([1.0]))
print(m.sample())  # log-normal distributed with mean=0 and stddev=1
m = OneHotCategorical(torch.tensor([ 0.25, 0.25, 0.25, 0.25 ]))
print(m.sample())  # equal probability of 0, 1, 2, 3
m = RelaxedBernoulli(torch.tensor([2.2]),
                     torch.tensor([0.1, 0.2, 0.3, 0.99]))
print(m.sample())
m = RelaxedOneHotCategorical(torch.tensor([2.2]),
                             torch.tensor([0.1, 0.2, 0.3, 0.4]))
print(m.sample())
m = Cauchy(torch.tensor([0.0]), torch.tensor([1.0]))
print(m.sample())  # sample from a Cauchy distribution with loc=0 and scale=1
m = HalfNormal(torch.tensor([1.0]))
print(m.sample())  # half-normal distributed with scale=1
m = Chi2(torch.tensor([1.0]))
print(m.sample())  # Chi2 distributed with shape df=1
m = StudentT(torch.tensor([2.0]))
print(m.sample())  # Student's t-distributed with degrees of freedom=2
m = Geometric(torch.tensor([0.3]))
print(m.sample())  # underlying Bernoulli has 30% chance 1; 70% chance 0
m = Gumbel(torch.tensor([1.0]), torch.tensor([2.0]))
print(m.sample())  # sample from Gumbel distribution with loc=1, scale=2
for m in (Normal(torch.tensor([0.0]), torch.tensor([1.0])), Categorical(torch.tensor([0.25, 0.25, 0.5])),
          Gamma(torch.tensor([1.0]), torch.tensor([1.0])), Beta(torch.tensor([0.5]), torch.tensor([0.5]))):
    x = m.sample((3,))
    print(x, m.log_prob(x), m.entropy())
