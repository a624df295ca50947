# Source: pytorch/pytorch docs/source/notes/autograd.rst, "Backward Hooks execution" / "Behavior of Tensor
#   hooks when Tensor is modified in-place" (https://github.com/pytorch/pytorch, BSD-3-Clause).
# Category: hooks — a tensor hook and an in-place op
# Adaptations:
#  - the note leaves `fn` undefined: here it prints the gradient it receives; the grad of the leaf is printed.
import torch

def fn(grad):
    print("hook got", grad)

leaf = torch.tensor(1., requires_grad=True)
t = leaf.sin()
t.cos_()
t.register_hook(fn)
t.backward()
print(leaf.grad)
