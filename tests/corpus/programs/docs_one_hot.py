# Source: pytorch/pytorch torch/nn/functional.py docstring of one_hot (https://github.com/pytorch/pytorch,
#   BSD-3-Clause), as shipped in torch 2.13.0.
# Category: tensors — F.one_hot
# Adaptations:
#  - `import torch.nn.functional as F` added; `>>>` prompts dropped and echoed results printed.
import torch
import torch.nn.functional as F

print(F.one_hot(torch.arange(0, 5) % 3))
print(F.one_hot(torch.arange(0, 5) % 3, num_classes=5))
print(F.one_hot(torch.arange(0, 6).view(3,2) % 3))
