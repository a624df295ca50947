# Source: pytorch/pytorch torch/nn/modules/loss.py docstring of CrossEntropyLoss, "Example of target with
#   incorrectly specified class probabilities" (https://github.com/pytorch/pytorch, BSD-3-Clause), as
#   shipped in torch 2.13.0.
# Category: losses — CrossEntropyLoss with probability targets (seeded)
# Adaptations:
#  - the `>>>` prompts are dropped and echoed expressions printed; the seed is the docstring's own.
import torch
import torch.nn as nn

loss = nn.CrossEntropyLoss()
torch.manual_seed(283)
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
# Provided target class probabilities are not in range [0,1]
print(target)
# Provided target class probabilities do not sum to 1
print(target.sum(axis=1))
# No error message and possible misleading loss value
print(loss(input, target).item())

# Example of target with correctly specified class probabilities
# Use .softmax() to ensure true probability distribution
target_new = target.softmax(dim=1)
# New target class probabilities all in range [0,1]
print(target_new)
# New target class probabilities sum to 1
print(target_new.sum(axis=1))
print(loss(input, target_new).item())
