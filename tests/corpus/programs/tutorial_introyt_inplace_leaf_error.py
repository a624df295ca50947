# Source: pytorch/tutorials beginner_source/introyt/autogradyt_tutorial.py, "Autograd and In-place Operations"
#   ("The Fundamentals of Autograd", Introduction to PyTorch on YouTube; https://github.com/pytorch/tutorials,
#   BSD-3-Clause), commit 199e953.
# Category: in-place ops and version errors — an in-place op on a leaf
# Ends with: an uncaught RuntimeError (as on PyTorch)
# Adaptations:
#  - the tutorial shows this cell as a literal block ("The following code cell throws a runtime error. This is
#    expected."); here it runs, and the program ends with that uncaught RuntimeError.
import torch
import math

a = torch.linspace(0., 2. * math.pi, steps=25, requires_grad=True)
torch.sin_(a)
