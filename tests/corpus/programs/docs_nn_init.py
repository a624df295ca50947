# Source: pytorch/pytorch torch/nn/init.py docstrings of uniform_, normal_, constant_, ones_, zeros_, eye_,
#   xavier_uniform_, xavier_normal_, kaiming_uniform_, kaiming_normal_, trunc_normal_, orthogonal_, sparse_
#   and calculate_gain (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: seeded random numbers — nn.init
# Adaptations:
#  - `import torch.nn as nn` added; torch.manual_seed(0) added; each example's result is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

w = torch.empty(3, 5)
nn.init.uniform_(w)
print(w)
w = torch.empty(3, 5)
nn.init.normal_(w)
print(w)
w = torch.empty(3, 5)
nn.init.constant_(w, 0.3)
print(w)
w = torch.empty(3, 5)
nn.init.ones_(w)
print(w)
w = torch.empty(3, 5)
nn.init.zeros_(w)
print(w)
w = torch.empty(3, 5)
nn.init.eye_(w)
print(w)
w = torch.empty(3, 5)
nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("relu"))
print(w)
w = torch.empty(3, 5)
nn.init.xavier_normal_(w)
print(w)
w = torch.empty(3, 5)
nn.init.kaiming_uniform_(w, mode="fan_in", nonlinearity="relu")
print(w)
w = torch.empty(3, 5)
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print(w)
w = torch.empty(3, 5)
nn.init.trunc_normal_(w)
print(w)
w = torch.empty(3, 5)
nn.init.orthogonal_(w)
print(w)
w = torch.empty(3, 5)
nn.init.sparse_(w, sparsity=0.1)
print(w)
print(nn.init.calculate_gain("leaky_relu", 0.2))
