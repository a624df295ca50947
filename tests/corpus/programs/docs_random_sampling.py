# Source: pytorch/pytorch torch/_torch_docs.py docstrings of torch.rand, randn, randint, randperm, normal,
#   multinomial, bernoulli (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: seeded random numbers — rand, randn, randint, randperm, normal, multinomial, bernoulli
# Adaptations:
#  - the `>>>` prompts are dropped and echoed results printed; torch.manual_seed(0) added (the docstrings'
#    values come from unseeded runs); multinomial's "ERROR!" line is printed inside try/except.
import torch

torch.manual_seed(0)

print(torch.rand(4))
print(torch.rand(2, 3))

print(torch.randn(4))
print(torch.randn(2, 3))

print(torch.randint(3, 5, (3,)))
print(torch.randint(10, (2, 2)))
print(torch.randint(3, 10, (2, 2)))

print(torch.randperm(4))

print(torch.normal(mean=torch.arange(1., 11.), std=torch.arange(1, 0, -0.1)))
print(torch.normal(mean=0.5, std=torch.arange(1., 6.)))
print(torch.normal(mean=torch.arange(1., 6.)))
print(torch.normal(2, 3, size=(1, 4)))

weights = torch.tensor([0, 10, 3, 0], dtype=torch.float) # create a tensor of weights
print(torch.multinomial(weights, 2))
try:
    torch.multinomial(weights, 5) # ERROR!
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.multinomial(weights, 4, replacement=True))

a = torch.empty(3, 3).uniform_(0, 1)  # generate a uniform random matrix with range [0, 1]
print(a)
print(torch.bernoulli(a))
a = torch.ones(3, 3) # probability of drawing "1" is 1
print(torch.bernoulli(a))
a = torch.zeros(3, 3) # probability of drawing "1" is 0
print(torch.bernoulli(a))
