# Source: Atcold/pytorch-Deep-Learning 11-VAE.ipynb (NYU Deep Learning, Alfredo Canziani and Yann LeCun;
#   https://github.com/Atcold/pytorch-Deep-Learning, CC BY-NC-SA 4.0), commit bc404ef.
# Category: training loops — a variational autoencoder: the reparameterisation with std.new_empty(...).normal_()
#   and in-place exp_/mul_/add_, a BCE + KL loss, train/eval modes, Adam, sampling and interpolating codes
# Adaptations:
#  - the notebook's code cells, in order; torchvision/MNIST, matplotlib and display_images (plots), the t-SNE
#    cells (sklearn, res.plot_lib) and torch.cuda.manual_seed go; display_images calls are dropped;
#  - MNIST's 28x28 images become 64 training and 32 test images of 4x4 pixels drawn by torch.rand, with random
#    labels among 10, in TensorDatasets (the 784 of the views and layers -> 16); d 20 -> 4 (the interpolation
#    cell's torch.Tensor(N, 20) -> torch.Tensor(N, d)); batch_size 256 -> 16, num_workers/pin_memory go;
#  - epochs 10 -> 2; the generated samples, the interpolation's decoded codes and the collected codes' shapes
#    are printed.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

# Set random seeds

torch.manual_seed(1)

# Define data loading step

batch_size = 16

train_loader = torch.utils.data.DataLoader(
    TensorDataset(torch.rand(64, 1, 4, 4), torch.randint(10, (64,))),
    batch_size=batch_size, shuffle=True)
test_loader = torch.utils.data.DataLoader(
    TensorDataset(torch.rand(32, 1, 4, 4), torch.randint(10, (32,))),
    batch_size=batch_size, shuffle=True)

# Defining the device

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

# Defining the model

d = 4

class VAE(nn.Module):
    def __init__(self):
        super().__init__()

        self.encoder = nn.Sequential(
            nn.Linear(16, d ** 2),
            nn.ReLU(),
            nn.Linear(d ** 2, d * 2)
        )

        self.decoder = nn.Sequential(
            nn.Linear(d, d ** 2),
            nn.ReLU(),
            nn.Linear(d ** 2, 16),
            nn.Sigmoid(),
        )

    def reparameterise(self, mu, logvar):
        if self.training:
            std = logvar.mul(0.5).exp_()
            eps = std.new_empty(std.size()).normal_()
            return eps.mul_(std).add_(mu)
        else:
            return mu

    def forward(self, x):
        mu_logvar = self.encoder(x.view(-1, 16)).view(-1, 2, d)
        mu = mu_logvar[:, 0, :]
        logvar = mu_logvar[:, 1, :]
        z = self.reparameterise(mu, logvar)
        return self.decoder(z), mu, logvar

model = VAE().to(device)

# Setting the optimiser

learning_rate = 1e-3

optimizer = torch.optim.Adam(
    model.parameters(),
    lr=learning_rate,
)

# Reconstruction + β * KL divergence losses summed over all elements and batch

def loss_function(x_hat, x, mu, logvar, β=1):
    BCE = nn.functional.binary_cross_entropy(
        x_hat, x.view(-1, 16), reduction='sum'
    )
    KLD = 0.5 * torch.sum(logvar.exp() - logvar - 1 + mu.pow(2))

    return BCE + β * KLD

# Training and testing the VAE

epochs = 2
codes = dict(μ=list(), logσ2=list(), y=list())
for epoch in range(0, epochs + 1):
    # Training
    if epoch > 0:  # test untrained net first
        model.train()
        train_loss = 0
        for x, _ in train_loader:
            x = x.to(device)
            # ===================forward=====================
            x_hat, mu, logvar = model(x)
            loss = loss_function(x_hat, x, mu, logvar)
            train_loss += loss.item()
            # ===================backward====================
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        # ===================log========================
        print(f'====> Epoch: {epoch} Average loss: {train_loss / len(train_loader.dataset):.4f}')

    # Testing

    means, logvars, labels = list(), list(), list()
    with torch.no_grad():
        model.eval()
        test_loss = 0
        for x, y in test_loader:
            x = x.to(device)
            # ===================forward=====================
            x_hat, mu, logvar = model(x)
            test_loss += loss_function(x_hat, x, mu, logvar).item()
            # =====================log=======================
            means.append(mu.detach())
            logvars.append(logvar.detach())
            labels.append(y.detach())
    # ===================log========================
    codes['μ'].append(torch.cat(means))
    codes['logσ2'].append(torch.cat(logvars))
    codes['y'].append(torch.cat(labels))
    test_loss /= len(test_loader.dataset)
    print(f'====> Test set loss: {test_loss:.4f}')

# Generating a few samples

N = 16
z = torch.randn((N, d)).to(device)
sample = model.decoder(z)
print(sample[:2])

# Choose starting and ending point for the interpolation -> shows original and reconstructed

A, B = 1, 14
sample = model.decoder(torch.stack((mu[A].data, mu[B].data), 0))
print(sample)

# Perform an interpolation between input A and B, in N steps

N = 16
code = torch.Tensor(N, d).to(device)
sample = torch.Tensor(N, 28, 28).to(device)
for i in range(N):
    code[i] = i / (N - 1) * mu[B].data + (1 - i / (N - 1) ) * mu[A].data
    # sample[i] = i / (N - 1) * x[B].data + (1 - i / (N - 1) ) * x[A].data
sample = model.decoder(code)
print(code[::5])
print(sample[::5])
print({k: [v.shape for v in vs] for k, vs in codes.items()})
