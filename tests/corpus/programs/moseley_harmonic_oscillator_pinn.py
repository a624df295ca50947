# Source: benmoseley/harmonic-oscillator-pinn "Harmonic oscillator PINN.ipynb" (Ben Moseley, "So, what is a
#   physics-informed neural network?"; https://github.com/benmoseley/harmonic-oscillator-pinn, MIT), commit f00c5d9.
# Category: autograd.grad, higher-order, functional API — a physics-informed network: dy/dx and d2y/dx2 of the
#   network by autograd.grad(create_graph=True) in the loss of a damped harmonic oscillator, trained with Adam
# Adaptations:
#  - the notebook's code cells, in order; PIL, matplotlib and the GIF/PNG files go: plot_result and
#    save_gif_PIL are dropped, and where a frame was drawn the loss and the prediction at 5 points are printed;
#  - sizes shrink: the domain's 500 points -> 50 (the training data x[0:200:20] -> x[0:20:2]), the physics
#    points 30 -> 10, the network's width 32 -> 8, the training 1000 steps -> 30 and 20000 -> 20, a frame every
#    5 steps (every 10 and 150 there); the 1e-3/1e-4 learning rates become 1e-2/1e-3 so the short runs move.
import numpy as np
import torch
import torch.nn as nn

def oscillator(d, w0, x):
    """Defines the analytical solution to the 1D underdamped harmonic oscillator problem.
    Equations taken from: https://beltoforion.de/en/harmonic_oscillator/"""
    assert d < w0
    w = np.sqrt(w0**2-d**2)
    phi = np.arctan(-d/w)
    A = 1/(2*np.cos(phi))
    cos = torch.cos(phi+w*x)
    sin = torch.sin(phi+w*x)
    exp = torch.exp(-d*x)
    y  = exp*2*A*cos
    return y

class FCN(nn.Module):
    "Defines a connected network"

    def __init__(self, N_INPUT, N_OUTPUT, N_HIDDEN, N_LAYERS):
        super().__init__()
        activation = nn.Tanh
        self.fcs = nn.Sequential(*[
                        nn.Linear(N_INPUT, N_HIDDEN),
                        activation()])
        self.fch = nn.Sequential(*[
                        nn.Sequential(*[
                            nn.Linear(N_HIDDEN, N_HIDDEN),
                            activation()]) for _ in range(N_LAYERS-1)])
        self.fce = nn.Linear(N_HIDDEN, N_OUTPUT)

    def forward(self, x):
        x = self.fcs(x)
        x = self.fch(x)
        x = self.fce(x)
        return x

d, w0 = 2, 20

# get the analytical solution over the full domain
x = torch.linspace(0,1,50).view(-1,1)
y = oscillator(d, w0, x).view(-1,1)
print(x.shape, y.shape)

# slice out a small number of points from the LHS of the domain
x_data = x[0:20:2]
y_data = y[0:20:2]
print(x_data.shape, y_data.shape)

# train standard neural network to fit training data
torch.manual_seed(123)
model = FCN(1,1,8,3)
optimizer = torch.optim.Adam(model.parameters(),lr=1e-2)
for i in range(30):
    optimizer.zero_grad()
    yh = model(x_data)
    loss = torch.mean((yh-y_data)**2)# use mean squared error
    loss.backward()
    optimizer.step()

    # plot the result as training progresses
    if (i+1) % 5 == 0:

        yh = model(x).detach()
        print(i + 1, loss.item(), yh[::10, 0])

x_physics = torch.linspace(0,1,10).view(-1,1).requires_grad_(True)# sample locations over the problem domain
mu, k = 2*d, w0**2

torch.manual_seed(123)
model = FCN(1,1,8,3)
optimizer = torch.optim.Adam(model.parameters(),lr=1e-3)
for i in range(20):
    optimizer.zero_grad()

    # compute the "data loss"
    yh = model(x_data)
    loss1 = torch.mean((yh-y_data)**2)# use mean squared error

    # compute the "physics loss"
    yhp = model(x_physics)
    dx  = torch.autograd.grad(yhp, x_physics, torch.ones_like(yhp), create_graph=True)[0]# computes dy/dx
    dx2 = torch.autograd.grad(dx,  x_physics, torch.ones_like(dx),  create_graph=True)[0]# computes d^2y/dx^2
    physics = dx2 + mu*dx + k*yhp# computes the residual of the 1D harmonic oscillator differential equation
    loss2 = (1e-4)*torch.mean(physics**2)

    # backpropagate joint loss
    loss = loss1 + loss2# add two loss terms together
    loss.backward()
    optimizer.step()

    # plot the result as training progresses
    if (i+1) % 5 == 0:

        yh = model(x).detach()
        xp = x_physics.detach()
        print(i + 1, loss1.item(), loss2.item(), yh[::10, 0])
