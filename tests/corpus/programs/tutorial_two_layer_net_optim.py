# Source: pytorch/tutorials beginner_source/examples_nn/two_layer_net_optim.py
#   (https://github.com/pytorch/tutorials, "Learning PyTorch with Examples", BSD-3-Clause), commit 29c5caa.
# Category: optimizers and lr schedulers — Adam
# Adaptations:
#  - torch.manual_seed(0) added before the data and the layers' weights are drawn (the original is unseeded).
#  - D_in cut from 1000 to 100 and iterations from 500 to 50 (learner scale); the docstring is dropped.
#  - this (2017) version's APIs removed from torch since: `Variable(...)` wrappers dropped,
#    `MSELoss(size_average=False)` is `MSELoss(reduction='sum')`, `loss.data[0]` is `loss.item()` (as
#    two_layer_net_nn.py of the same tutorial has them).
import torch

torch.manual_seed(0)

# N is batch size; D_in is input dimension;
# H is hidden dimension; D_out is output dimension.
N, D_in, H, D_out = 64, 100, 100, 10

# Create random Tensors to hold inputs and outputs, and wrap them in Variables.
x = torch.randn(N, D_in)
y = torch.randn(N, D_out)

# Use the nn package to define our model and loss function.
model = torch.nn.Sequential(
          torch.nn.Linear(D_in, H),
          torch.nn.ReLU(),
          torch.nn.Linear(H, D_out),
        )
loss_fn = torch.nn.MSELoss(reduction='sum')

# Use the optim package to define an Optimizer that will update the weights of
# the model for us. Here we will use Adam; the optim package contains many other
# optimization algoriths. The first argument to the Adam constructor tells the
# optimizer which Variables it should update.
learning_rate = 1e-4
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
for t in range(50):
  # Forward pass: compute predicted y by passing x to the model.
  y_pred = model(x)

  # Compute and print loss.
  loss = loss_fn(y_pred, y)
  print(t, loss.item())
  
  # Before the backward pass, use the optimizer object to zero all of the
  # gradients for the variables it will update (which are the learnable weights
  # of the model)
  optimizer.zero_grad()

  # Backward pass: compute gradient of the loss with respect to model parameters
  loss.backward()

  # Calling the step function on an Optimizer makes an update to its parameters
  optimizer.step()
