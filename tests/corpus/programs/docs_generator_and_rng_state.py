# Source: pytorch/pytorch docstrings of torch.Generator.set_state, get_state, manual_seed and initial_seed
#   (https://github.com/pytorch/pytorch, BSD-3-Clause; read as `torch.Generator.set_state.__doc__` etc. of
#   torch 2.13.0), and torch.get_rng_state / set_rng_state / initial_seed (torch/random.py, no example there).
# Category: seeded random numbers — Generator objects, RNG state
# Adaptations:
#  - the Generator docstrings' `>>>` examples are combined into one program with their results printed;
#    the draws from the seeded generator and the get/set_rng_state round trip (whose functions have no
#    docstring example) are added.
import torch

g_cpu = torch.Generator()
g_cpu_other = torch.Generator()
g_cpu.set_state(g_cpu_other.get_state())
print(g_cpu.initial_seed())

g_cpu = torch.Generator()
g_cpu.manual_seed(2147483647)
print(g_cpu.initial_seed())
print(torch.rand(3, generator=g_cpu))
print(torch.randn(2, 2, generator=g_cpu))

torch.manual_seed(2147483647)
print(torch.initial_seed())
state = torch.get_rng_state()
a = torch.rand(3)
torch.set_rng_state(state)
b = torch.rand(3)
print(a, b, torch.equal(a, b))
