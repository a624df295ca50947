# Source: osl202/PINNs pinn.py and train_pinn.py ("Physics Informed Neural Networks - Burgers' Equation"),
#   commits aab2f24 and 54da4a0.
# Category: autograd.grad, higher-order, functional API — a tanh PINN for u_t + u u_x = nu u_xx with u(x,0) =
#   sin(-pi x) and u(+-1,t) = 0: torch.autograd.grad with grad_outputs, create_graph=True and allow_unused=True
#   for u_t, u_x and u_xx, torch.hstack of collocation points, backward(retain_graph=True), Adam; the trained net
#   on a torch.meshgrid (without indexing=, which warns)
# Adaptations:
#  - written after the two files as one program (the search tool's terms keep their text out of commits): the
#    same model, calls and printed line, in other words;
#  - seeded (np.random.seed(0), torch.manual_seed(0)); 2000 collocation points -> 48, 10000 steps -> 5 (printed
#    every 2 instead of every 250), the 1001x1001 plot grid -> 5x5;
#  - matplotlib's contour plot goes; the net's u on the grid is printed.
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self, n_input, n_output, n_hidden, n_layers):
        super(Model, self).__init__()
        activation = nn.Tanh
        self.pinn_start = nn.Sequential(*[nn.Linear(n_input, n_hidden), activation()])
        self.pinn_hidden = nn.Sequential(*[
            nn.Sequential(*[nn.Linear(n_hidden, n_hidden), activation()]) for _ in range(n_layers - 1)])
        self.pinn_end = nn.Linear(n_hidden, n_output)

    def forward(self, x):
        x = self.pinn_start(x)
        x = self.pinn_hidden(x)
        return self.pinn_end(x)


n_sample = 48
nu = 0.01 / np.pi
pinn_model = Model(2, 1, 20, 5)

sample_space = np.random.uniform(low=-1, high=1, size=(n_sample,))
sample_time = np.random.uniform(low=0, high=1, size=(n_sample,))
sample_space = torch.tensor(sample_space, requires_grad=True).float().view(-1, 1)
sample_time = torch.tensor(sample_time, requires_grad=True).float().view(-1, 1)

optimiser = torch.optim.Adam(pinn_model.parameters(), lr=1e-3)
u_init_true = torch.sin(-sample_space * np.pi)
sample_init_time = torch.zeros(n_sample, requires_grad=True).view(-1, 1)
sample_init_space_lower = -1 * torch.ones(n_sample, requires_grad=True).view(-1, 1)
sample_init_space_upper = torch.ones(n_sample, requires_grad=True).view(-1, 1)

for i in range(5):
    optimiser.zero_grad()
    lambda1, lambda2, lambda3 = 1, 1, 1
    input = torch.hstack([sample_space, sample_time])
    input_init = torch.hstack([sample_space, sample_init_time])
    input_bc_lower = torch.hstack([sample_init_space_lower, sample_time])
    input_bc_upper = torch.hstack([sample_init_space_upper, sample_time])
    u_pred = pinn_model(input)
    u_init = pinn_model(input_init)
    u_bc_lower = pinn_model(input_bc_lower)
    u_bc_upper = pinn_model(input_bc_upper)
    loss_bc = torch.mean((u_bc_lower) ** 2) + torch.mean((u_bc_upper) ** 2)
    loss1 = torch.mean((u_init - u_init_true) ** 2)
    dudt_pred = torch.autograd.grad(u_pred, sample_time, torch.ones_like(u_pred), create_graph=True,
                                    allow_unused=True)[0]
    dudx_pred = torch.autograd.grad(u_pred, sample_space, torch.ones_like(u_pred), create_graph=True,
                                    allow_unused=True)[0]
    d2udx2_pred = torch.autograd.grad(dudx_pred, sample_space, torch.ones_like(u_pred), create_graph=True,
                                      allow_unused=True)[0]
    loss2 = torch.mean((dudt_pred + u_pred * dudx_pred - nu * d2udx2_pred) ** 2)
    loss = lambda1 * loss1 + lambda2 * loss2 + lambda3 * loss_bc
    loss.backward(retain_graph=True)
    optimiser.step()
    if i % 2 == 0:
        print("loss", i, loss)

n_plot = 5
x, t = torch.linspace(-1, 1, n_plot), torch.linspace(0, 1, n_plot)
X, T = torch.meshgrid(x, t)
xcol = X.reshape(-1, 1)
tcol = T.reshape(-1, 1)
inputplot = torch.hstack([xcol, tcol])
u = pinn_model(inputplot)
u = u.reshape(x.numel(), t.numel())
print(u)
