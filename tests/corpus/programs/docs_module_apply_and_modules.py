# Source: pytorch/pytorch torch/nn/modules/module.py docstrings of Module.apply, Module.named_modules and
#   Module.modules (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: nn.Module — apply, modules, named_modules, repr
# Adaptations:
#  - `import torch.nn as nn` added; the `>>>` prompts are dropped and `net.apply(...)`'s returned module,
#    which the REPL echoes, is printed.
import torch
import torch.nn as nn

@torch.no_grad()
def init_weights(m):
    print(m)
    if type(m) is nn.Linear:
        m.weight.fill_(1.0)
        print(m.weight)
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
print(net.apply(init_weights))

l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.named_modules()):
    print(idx, '->', m)

l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.modules()):
    print(idx, '->', m)
