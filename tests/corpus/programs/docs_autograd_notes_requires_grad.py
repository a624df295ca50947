# Source: pytorch/pytorch docs/source/notes/autograd.rst, "Excluding subgraphs from backward" /
#   requires_grad (https://github.com/pytorch/pytorch, BSD-3-Clause), commit 01bcc2a.
# Category: autograd basics — requires_grad propagation
# Adaptations:
#  - the REPL example's `>>>` prompts are dropped and the echoed expressions are printed;
#    torch.manual_seed(0) added (the example's randn is unseeded).
import torch

torch.manual_seed(0)

x = torch.randn(5, 5)  # requires_grad=False by default
y = torch.randn(5, 5)  # requires_grad=False by default
z = torch.randn((5, 5), requires_grad=True)
a = x + y
print(a.requires_grad)
b = a + z
print(b.requires_grad)
