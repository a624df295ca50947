# Source: pytorch/pytorch torch/autograd/graph.py docstring of saved_tensors_hooks
#   (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: hooks — saved_tensors_hooks
# Adaptations:
#  - the REPL example's `>>>` prompts are dropped.
import torch

def pack_hook(x):
    print("Packing", x)
    return x.detach()

def unpack_hook(x):
    print("Unpacking", x)
    return x

a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
