# Source: pytorch/pytorch torch/autograd/graph.py docstring of register_multi_grad_hook
#   (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: hooks — register_multi_grad_hook, backward(inputs=...)
# Adaptations:
#  - the REPL example's `>>>` prompts are dropped; torch.manual_seed(0) added (the example's rand is unseeded).
import torch

torch.manual_seed(0)

a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b

def fn(grads):
    print([g is not None for g in grads])

torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)

c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
