# Source: pytorch/tutorials beginner_source/introyt/autogradyt_tutorial.py, "The High-Level API"
#   ("The Fundamentals of Autograd", Introduction to PyTorch on YouTube; https://github.com/pytorch/tutorials,
#   BSD-3-Clause), commit 199e953.
# Category: autograd.grad, higher-order, functional API — jacobian, vjp
# Adaptations:
#  - torch.manual_seed(0) added (the original is unseeded).
#  - the notebook cells' last expressions (whose value the notebook shows) are wrapped in print().
import torch

torch.manual_seed(0)

def exp_adder(x, y):
    return 2 * x.exp() + 3 * y

inputs = (torch.rand(1), torch.rand(1)) # arguments for the function
print(inputs)
print(torch.autograd.functional.jacobian(exp_adder, inputs))

inputs = (torch.rand(3), torch.rand(3)) # arguments for the function
print(inputs)
print(torch.autograd.functional.jacobian(exp_adder, inputs))

def do_some_doubling(x):
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    return y

inputs = torch.randn(3)
my_gradients = torch.tensor([0.1, 1.0, 0.0001])
print(torch.autograd.functional.vjp(do_some_doubling, inputs, v=my_gradients))
