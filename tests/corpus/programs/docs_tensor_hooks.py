# Source: pytorch/pytorch torch/_tensor.py docstrings of Tensor.register_hook and
#   Tensor.register_post_accumulate_grad_hook (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped
#   in torch 2.13.0.
# Category: hooks — Tensor.register_hook, post-accumulate-grad hooks
# Adaptations:
#  - the REPL examples' `>>>` prompts are dropped and echoed expressions printed; the second example's v is
#    printed after a second backward once its hook is removed.
import torch

v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)  # double the gradient
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)

h.remove()  # removes the hook

v = torch.tensor([0., 0., 0.], requires_grad=True)
lr = 0.01
# simulate a simple SGD update
h = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))
v.backward(torch.tensor([1., 2., 3.]))
print(v)

h.remove()  # removes the hook
v.backward(torch.tensor([1., 2., 3.]))
print(v, v.grad)
