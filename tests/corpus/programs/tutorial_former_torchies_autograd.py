# Source: pytorch/tutorials beginner_source/former_torchies/autograd_tutorial.py
#   ("Autograd" for former Torch users; https://github.com/pytorch/tutorials, BSD-3-Clause), commit 6d0edbb.
# Category: grad accumulation, retain_graph, retain_grad — retain_graph and accumulation
# Adaptations:
#  - torch.manual_seed(0) added before the first random tensor (the original is unseeded).
#  - the module docstring is dropped.
#  - `a = a.requires_grad_(True)` raises a TypeError on torch 2.13 (`to` lost that keyword); it is
#    `a = a.requires_grad_(True)` here.
import torch

torch.manual_seed(0)

x = torch.ones(2, 2, requires_grad=True)
print(x)

###############################################################
#
print(x.data)

###############################################################
#
print(x.grad)

###############################################################
#

print(x.grad_fn)  # we've created x ourselves

###############################################################
# Do an operation of x:

y = x + 2
print(y)

###############################################################
# y was created as a result of an operation,
# so it has a grad_fn
print(y.grad_fn)

###############################################################
# More operations on y:

z = y * y * 3
out = z.mean()

print(z, out)

###############################################################
# ``.to(requires_grad= ... )`` method also lets you change this flag
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a = a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)

###############################################################
# Gradients
# ---------
#
# let's backprop now and print gradients d(out)/dx

out.backward()
print(x.grad)


###############################################################
# By default, gradient computation flushes all the internal buffers
# contained in the graph, so if you even want to do the backward on some
# part of the graph twice, you need to pass in ``retain_variables = True``
# during the first pass.

x = torch.ones(2, 2, requires_grad=True)
y = x + 2
y.backward(torch.ones(2, 2), retain_graph=True)
# the retain_variables flag will prevent the internal buffers from being freed
print(x.grad)

###############################################################
#
z = y * y
print(z)

###############################################################
#
# just backprop random gradients

gradient = torch.randn(2, 2)

# this would fail if we didn't specify
# that we want to retain variables
y.backward(gradient)

print(x.grad)

###############################################################
# You can also stops autograd from tracking history on Tensors
# with requires_grad=True by wrapping the code block in
# ``with torch.no_grad():``
print(x.requires_grad)
print((x ** 2).requires_grad)

with torch.no_grad():
	print((x ** 2).requires_grad)
