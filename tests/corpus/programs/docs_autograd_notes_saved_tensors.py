# Source: pytorch/pytorch docs/source/notes/autograd.rst, "Saved tensors" and "Hooks for saved tensors"
#   (https://github.com/pytorch/pytorch, BSD-3-Clause), the 2.x version of the note.
# Category: hooks — saved tensors: _saved_*, _raw_saved_*, saved_tensors_hooks
# Adaptations:
#  - torch.manual_seed(0) added (the examples' randn is unseeded).
#  - the note's pack_hook / unpack_hook write files; here they print (the note allows any pair whose unpack
#    returns the packed tensor's content).
#  - the note's prose claim about the last example ("x, y.grad_fn._saved_self and _saved_other all refer to
#    the same tensor object" without hooks, not with them) is printed as `is` checks.
import torch

torch.manual_seed(0)

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))  # True
print(x is y.grad_fn._saved_self)  # True

x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))  # True
print(y is y.grad_fn._saved_result)  # False

def pack_hook(tensor):
    print("pack", tensor)
    return tensor

def unpack_hook(tensor):
    print("unpack", tensor)
    return tensor

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)

x = torch.randn(5, requires_grad=True)
y = x * x
print(x is y.grad_fn._saved_self, x is y.grad_fn._saved_other)

with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
    x = torch.randn(5, requires_grad=True)
    y = x * x
print(x is y.grad_fn._saved_self, x is y.grad_fn._saved_other)
