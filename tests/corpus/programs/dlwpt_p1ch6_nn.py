# Source: deep-learning-with-pytorch/dlwpt-code p1ch6/1_neural_networks.ipynb and 2_activation_functions.ipynb
#   ("Deep Learning with PyTorch", Eli Stevens, Luca Antiga and Thomas Viehmann, Manning 2020, chapter 6 "Using a
#   neural network to fit the data"; Apache 2.0 licence).
# Category: nn.Module — the thermometer again with nn.Linear (batch dimension via unsqueeze(1)), nn.MSELoss,
#   nn.Sequential built positionally and from an OrderedDict, named_parameters, attribute access by name, and
#   the activation functions of chapter 6 applied to one linspace
# Adaptations:
#  - the notebooks' cells in order, as one script; a cell's displayed value is print()ed;
#  - torch.manual_seed(42) added (the book seeds nothing here);
#  - the epochs are 3000 -> 600 and 5000 -> 600, printed every 200; the plots go.
import numpy as np
import torch
import torch.optim as optim

torch.set_printoptions(edgeitems=2, linewidth=75)
torch.manual_seed(42)

t_c = [0.5,  14.0, 15.0, 28.0, 11.0,  8.0,  3.0, -4.0,  6.0, 13.0, 21.0]
t_u = [35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4]
t_c = torch.tensor(t_c).unsqueeze(1)  # <1>
t_u = torch.tensor(t_u).unsqueeze(1)  # <1>

print(t_u.shape)

n_samples = t_u.shape[0]
n_val = int(0.2 * n_samples)

shuffled_indices = torch.randperm(n_samples)

train_indices = shuffled_indices[:-n_val]
val_indices = shuffled_indices[-n_val:]

print(train_indices, val_indices)

t_u_train = t_u[train_indices]
t_c_train = t_c[train_indices]

t_u_val = t_u[val_indices]
t_c_val = t_c[val_indices]

t_un_train = 0.1 * t_u_train
t_un_val = 0.1 * t_u_val

import torch.nn as nn

linear_model = nn.Linear(1, 1)  # <1>
print(linear_model(t_un_val))

print(linear_model.weight)
print(linear_model.bias)

x = torch.ones(1)
print(linear_model(x))

x = torch.ones(10, 1)
print(linear_model(x))

linear_model = nn.Linear(1, 1)  # <1>
optimizer = optim.SGD(
    linear_model.parameters(),  # <2>
    lr=1e-2)

print(linear_model.parameters())
print(list(linear_model.parameters()))

def training_loop(n_epochs, optimizer, model, loss_fn, t_u_train, t_u_val,
                  t_c_train, t_c_val):
    for epoch in range(1, n_epochs + 1):
        t_p_train = model(t_u_train)  # <1>
        loss_train = loss_fn(t_p_train, t_c_train)

        t_p_val = model(t_u_val)  # <1>
        loss_val = loss_fn(t_p_val, t_c_val)

        optimizer.zero_grad()
        loss_train.backward()  # <2>
        optimizer.step()

        if epoch == 1 or epoch % 200 == 0:
            print(f"Epoch {epoch}, Training loss {loss_train.item():.4f},"
                  f" Validation loss {loss_val.item():.4f}")

def loss_fn(t_p, t_c):
    squared_diffs = (t_p - t_c)**2
    return squared_diffs.mean()

linear_model = nn.Linear(1, 1)  # <1>
optimizer = optim.SGD(linear_model.parameters(), lr=1e-2)

training_loop(
    n_epochs = 600,
    optimizer = optimizer,
    model = linear_model,
    loss_fn = loss_fn,
    t_u_train = t_un_train,
    t_u_val = t_un_val,
    t_c_train = t_c_train,
    t_c_val = t_c_val)

print()
print(linear_model.weight)
print(linear_model.bias)

linear_model = nn.Linear(1, 1)
optimizer = optim.SGD(linear_model.parameters(), lr=1e-2)

training_loop(
    n_epochs = 600,
    optimizer = optimizer,
    model = linear_model,
    loss_fn = nn.MSELoss(),  # <1>
    t_u_train = t_un_train,
    t_u_val = t_un_val,
    t_c_train = t_c_train,
    t_c_val = t_c_val)

print()
print(linear_model.weight)
print(linear_model.bias)

seq_model = nn.Sequential(
            nn.Linear(1, 13),  # <1>
            nn.Tanh(),
            nn.Linear(13, 1))  # <2>
print(seq_model)

print([param.shape for param in seq_model.parameters()])

for name, param in seq_model.named_parameters():
    print(name, param.shape)

from collections import OrderedDict

seq_model = nn.Sequential(OrderedDict([
    ('hidden_linear', nn.Linear(1, 8)),
    ('hidden_activation', nn.Tanh()),
    ('output_linear', nn.Linear(8, 1))
]))

print(seq_model)

for name, param in seq_model.named_parameters():
    print(name, param.shape)

print(seq_model.output_linear.bias)

optimizer = optim.SGD(seq_model.parameters(), lr=1e-3)  # <1>

training_loop(
    n_epochs = 600,
    optimizer = optimizer,
    model = seq_model,
    loss_fn = nn.MSELoss(),
    t_u_train = t_un_train,
    t_u_val = t_un_val,
    t_c_train = t_c_train,
    t_c_val = t_c_val)

print('output', seq_model(t_un_val))
print('answer', t_c_val)
print('hidden', seq_model.hidden_linear.weight.grad)

# 2_activation_functions
input_t = torch.arange(-3, 3.1, 0.1)

activation_list = [
    nn.Tanh(),
    nn.Hardtanh(),
    nn.Sigmoid(),

    nn.Softplus(),
    nn.ReLU(),
    nn.LeakyReLU(negative_slope=0.1),

    #nn.Tanhshrink(),
    #nn.Softshrink(),
    #nn.Hardshrink(),
]

for activation in activation_list:
    output_t = activation(input_t)
    print(type(activation).__name__, output_t[::10])
