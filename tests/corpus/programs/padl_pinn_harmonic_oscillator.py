# Source: stephenbaek/padl-yonsei labs/03_pinn_harmonic_oscillator.ipynb (Stephen Baek, Physics-Aware Deep
#   Learning course at Yonsei, MIT licence), at commit c29d619: its code cells in order.
# Category: autograd.grad, higher-order, functional API — a PINN for the damped harmonic oscillator: the
#   analytic solution from torch.arctan/torch.sin/torch.exp, training samples by slicing with a stride and
#   torch.hstack, a SiLU MLP built with dtype=, reset_parameters() found with hasattr, then the physics loss
#   from torch.autograd.grad(..., create_graph=True) twice (x' and x'') at collocation points that require
#   grad, and last the discovery of zeta and omega0 as extra tensors in Adam's parameter list
# Adaptations:
#  - torch.manual_seed(0) added;
#  - the plots, the PNG frames, the GIFs (matplotlib, PIL, IPython.display, os.makedirs) go; the helper cell
#    keeps reset_parameters only; the last cell's printout of the discovered coefficients stays;
#  - MAX_ITER 30000, 30000 and 20000 become 8 each (the progress line printed with end='\r' at every step
#    stays).
import torch
import torch.nn as nn

torch.manual_seed(0)

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
dtype = torch.float32

def reset_parameters(model):
    for layer in model.children():
        if hasattr(layer, 'reset_parameters'):
            layer.reset_parameters()

def determineCoefficients(X0, zeta, omega0):
    ''' Determine amplitude a and phase phi.

    Inputs:
        X0: torch.tensor of size (2,) containing initial position and velocity.
        zeta: damping ratio.
        omega0: angular frequency.

    Returns:
        Amplitude a and phase phi that match the initial condition X0.
    '''
    assert zeta <= 1, "zeta must be under-/critically-damped (zeta <= 1)"

    if torch.abs((X0[1] + zeta*omega0*X0[0])) < 1e-7:
        phi = 0.5*torch.pi
    else:
        num = torch.sqrt(torch.tensor(1-zeta**2, dtype=dtype))*omega0*X0[0]
        den = X0[1] + zeta*omega0*X0[0]
        phi = torch.arctan(num/den)
    a = X0[0]/torch.sin(phi)

    return a, phi


# Initial condition
X0 = torch.tensor([1, 0], dtype=dtype)   # initial condition
omega0 = 2*torch.pi                      # angular frequency
zeta = 0.15                               # damping ratio (<= 1)

# Determine coefficients
a, phi = determineCoefficients(X0, zeta, omega0)

# Create ground truth data
Nt = 1000    # number of time steps
Tmax = 3
t = torch.linspace(0, Tmax, Nt, dtype=dtype)

# Compute the analytic solution (ground truth) for the state x(t)
ezot = torch.exp(-zeta*omega0*t)
sqrt_omega = torch.sqrt(torch.tensor(1-zeta**2, dtype=dtype))*omega0
position = a*ezot*torch.sin(sqrt_omega*t + phi)
GT = torch.unsqueeze(position,-1)

Tmax_sample = 1.2       # maximum time for training sample
sample_stride = 20       # stride between samples

Nt_sample = int(Nt*Tmax_sample/Tmax)

t_sample = torch.unsqueeze(t[0:Nt_sample:sample_stride], -1)
GT_sample = GT[0:Nt_sample:sample_stride,:]

training_data = torch.hstack((t_sample, GT_sample))  # t, x

class Backbone(nn.Module):
    def __init__(self, dtype=torch.float32):
        super().__init__()

        self.fc1 = nn.Linear(1, 32, dtype=dtype)  # input dim = 1 (t)
        self.fc2 = nn.Linear(32, 32, dtype=dtype)  # hidden dims = 32, 32
        self.fc3 = nn.Linear(32, 32, dtype=dtype)  #
        self.out = nn.Linear(32, 1, dtype=dtype)  # output dim = 1 (x)

        self.dtype = dtype

    def forward(self, x):
        x = self.fc1(x)
        x = nn.SiLU()(x)
        x = self.fc2(x)
        x = nn.SiLU()(x)
        x = self.fc3(x)
        x = nn.SiLU()(x)
        return self.out(x)
    
model = Backbone().to(device)

reset_parameters(model)
optimizer = torch.optim.Adam(model.parameters(),lr=1e-4)

MAX_ITER = 8
input = training_data[:,:1].clone().detach().to(device)    # t
output = training_data[:,1:].clone().detach().to(device)  # x
t_inference = torch.unsqueeze(t,axis=-1).clone().to(device)
for iter in range(MAX_ITER):
    optimizer.zero_grad()
    prediction = model(input)
    loss = torch.mean((output-prediction)**2)

    loss.backward()
    optimizer.step()

    print(f"{iter+1}/{MAX_ITER} - loss: {loss.detach().cpu().numpy():.5e}", end='\r')

reset_parameters(model)
        
optimizer = torch.optim.Adam(model.parameters(),lr=5e-4)

MAX_ITER = 8
N_COLLOCATION_POINTS = 30
input = training_data[:,:1].clone().detach().to(device)    # t
output = training_data[:,1:].clone().detach().to(device)  # x
collocation_t = torch.linspace(0,Tmax,N_COLLOCATION_POINTS)
collocation_pts = torch.unsqueeze(collocation_t, -1).clone().detach().requires_grad_(True).to(device)
t_inference = torch.unsqueeze(t,axis=-1).clone().to(device)
for iter in range(MAX_ITER):
    optimizer.zero_grad()
    prediction = model(input)
    data_loss = torch.mean((output-prediction)**2)
    
    prediction_colloc = model(collocation_pts)
    dx  = torch.autograd.grad(prediction_colloc, collocation_pts, torch.ones_like(prediction_colloc), create_graph=True)[0]
    ddx  = torch.autograd.grad(dx, collocation_pts, torch.ones_like(dx), create_graph=True)[0]
    residual = ddx + 2*zeta*omega0*dx + (omega0**2)*prediction_colloc
    physics_loss = torch.mean(residual**2)

    loss = data_loss + (1e-4)*physics_loss

    loss.backward()
    optimizer.step()

    print(f"{iter+1}/{MAX_ITER} - loss: {loss.detach().cpu().numpy():.5e}, physics: {physics_loss.detach().cpu().numpy():.5e}", end='\r')

Tmax_sample = 3.0        # include the entire interval for trainig
Nt_sample = int(Nt*Tmax_sample/Tmax)

t_sample = torch.unsqueeze(t[0:Nt_sample:sample_stride], -1)
GT_sample = GT[0:Nt_sample:sample_stride,:].clone()
GT_sample += 0.02*torch.randn(GT_sample.shape)     # add noise to emulate real-world

training_data = torch.hstack((t_sample, GT_sample)) 

reset_parameters(model)

# Add zeta and omega0 to the list of parameters for optimization
# We will pretend that we do not know the true zeta and omega0.
omega_pred = torch.rand(1, device=device, requires_grad=True)   # GT: 2*pi = 6.283185307178
zeta_pred = torch.rand(1, device=device, requires_grad=True)    # GT: 0.15
optimizer = torch.optim.Adam(list(model.parameters()) + [zeta_pred, omega_pred],lr=5e-4)

MAX_ITER = 8
N_COLLOCATION_POINTS = 30
input = training_data[:,:1].clone().detach().to(device)   # t
output = training_data[:,1:].clone().detach().to(device)  # x
collocation_t = torch.linspace(0,Tmax,N_COLLOCATION_POINTS)
collocation_pts = torch.unsqueeze(collocation_t, -1).clone().detach().requires_grad_(True).to(device)
t_inference = torch.unsqueeze(t,axis=-1).to(device)
for iter in range(MAX_ITER):
    optimizer.zero_grad()
    prediction = model(input)
    data_loss = torch.mean((output-prediction)**2)
    
    prediction_colloc = model(collocation_pts)
    dx  = torch.autograd.grad(prediction_colloc, collocation_pts, torch.ones_like(prediction_colloc), create_graph=True)[0]
    ddx  = torch.autograd.grad(dx, collocation_pts, torch.ones_like(dx), create_graph=True)[0]
    residual = ddx + 2*zeta_pred*omega_pred*dx + (omega_pred**2)*prediction_colloc  # note that we are using the predicted value of zeta and omega
    physics_loss = torch.mean(residual**2)

    loss = data_loss + (1e-4)*physics_loss

    loss.backward()
    optimizer.step()

    print(f"{iter+1}/{MAX_ITER} - loss: {loss.detach().cpu().numpy():.5e}, physics: {physics_loss.detach().cpu().numpy():.5e}, zeta: {zeta_pred.detach().cpu().item():.3e}, omega0: {omega_pred.detach().cpu().item():.3e}", end='\r')

print(f"Ground Truth: zeta={zeta}, omega0={omega0}")
print(f"Discovered: zeta={zeta_pred.detach().item()}, omega0={omega_pred.detach().item()}")
