# Source: pytorch/pytorch torch/autograd/grad_mode.py docstrings of no_grad, enable_grad, set_grad_enabled
#   and inference_mode (https://github.com/pytorch/pytorch, BSD-3-Clause), as shipped in torch 2.13.0.
# Category: no_grad, detach, grad modes — no_grad, enable_grad, set_grad_enabled, inference_mode
# Adaptations:
#  - the REPL examples' `>>>` prompts are dropped and echoed expressions printed; the four examples run in
#    one program (each redefines its names).
#  - inference_mode's `y._version` (shown raising RuntimeError) is printed inside try/except.
#  - set_grad_enabled's example leaves grad mode off; `torch.set_grad_enabled(True)` is restored before the
#    inference_mode example.
import torch

x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)
@torch.no_grad()
def doubler(x):
    return x * 2
z = doubler(x)
print(z.requires_grad)
@torch.no_grad()
def tripler(x):
    return x * 3
z = tripler(x)
print(z.requires_grad)
# factory function exception
with torch.no_grad():
    a = torch.nn.Parameter(torch.rand(10))
print(a.requires_grad)

x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)
y.backward()
print(x.grad)
@torch.enable_grad()
def doubler(x):
    return x * 2
with torch.no_grad():
    z = doubler(x)
print(z.requires_grad)
@torch.enable_grad()
def tripler(x):
    return x * 3
with torch.no_grad():
    z = tripler(x)
print(z.requires_grad)

x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)

torch.set_grad_enabled(True)

x = torch.ones(1, 2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad)
try:
    y._version
except RuntimeError as e:
    print("RuntimeError:", e)
@torch.inference_mode()
def func(x):
    return x * x
out = func(x)
print(out.requires_grad)
@torch.inference_mode()
def doubler(x):
    return x * 2
out = doubler(x)
print(out.requires_grad)
