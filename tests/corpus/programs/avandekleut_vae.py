# Source: avandekleut/avandekleut.github.io _posts/2020-05-14-vae.md ("Variational AutoEncoders (VAE) with
#   PyTorch", Alexander Van de Kleut), commit b403e6a.
# Category: training loops — an autoencoder and a variational autoencoder with 2-d latents: torch.flatten(x,
#   start_dim=1), a torch.distributions.Normal(0, 1) whose .sample(mu.shape) draws the noise (reparameterised
#   by hand: mu + sigma * eps), the KL term kept on the encoder (self.kl), summed squared error, Adam, a shuffled
#   DataLoader; the post's "hack to grab a batch", data.__iter__().next(), is Python 2's iterator protocol
# Ends with: AttributeError ('_SingleProcessDataLoaderIter' object has no attribute 'next') at the post's
#   interpolation cell
# Adaptations:
#  - written after the post's code cells (the search tool's terms keep its text out of commits): the same
#    classes, calls and statements, in other words;
#  - torchvision's MNIST (a download) becomes 64 torch.rand images of MNIST's shape (1x28x28) with torch.randint
#    labels in a TensorDataset, batch_size 128 -> 16; 20 epochs -> 2;
#  - device 'cuda' goes, and with it the encoder's two lines moving Normal's loc and scale to the GPU
#    (`self.N.loc = self.N.loc.cuda()`, which raises on a machine without CUDA);
#  - matplotlib goes: plot_latent prints the first batches' latent vectors' mean instead of scattering them,
#    plot_reconstructed prints the decoded grid's shape and mean.
import torch; torch.manual_seed(0)
import torch.nn as nn
import torch.nn.functional as F
import torch.utils
import torch.utils.data
import torch.distributions
import numpy as np

device = 'cpu'


class Encoder(nn.Module):
    def __init__(self, latent_dims):
        super(Encoder, self).__init__()
        self.linear1 = nn.Linear(784, 512)
        self.linear2 = nn.Linear(512, latent_dims)

    def forward(self, x):
        x = torch.flatten(x, start_dim=1)
        x = F.relu(self.linear1(x))
        return self.linear2(x)


class Decoder(nn.Module):
    def __init__(self, latent_dims):
        super(Decoder, self).__init__()
        self.linear1 = nn.Linear(latent_dims, 512)
        self.linear2 = nn.Linear(512, 784)

    def forward(self, z):
        z = F.relu(self.linear1(z))
        z = torch.sigmoid(self.linear2(z))
        return z.reshape((-1, 1, 28, 28))


class Autoencoder(nn.Module):
    def __init__(self, latent_dims):
        super(Autoencoder, self).__init__()
        self.encoder = Encoder(latent_dims)
        self.decoder = Decoder(latent_dims)

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z)


def train(autoencoder, data, epochs=20):
    opt = torch.optim.Adam(autoencoder.parameters())
    for epoch in range(epochs):
        for x, y in data:
            x = x.to(device)
            opt.zero_grad()
            x_hat = autoencoder(x)
            loss = ((x - x_hat)**2).sum()
            loss.backward()
            opt.step()
        print('epoch', epoch, 'last batch loss', loss.item())
    return autoencoder


latent_dims = 2
autoencoder = Autoencoder(latent_dims).to(device)
images = torch.rand(64, 1, 28, 28)
labels = torch.randint(0, 10, (64,))
data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images, labels), batch_size=16, shuffle=True)
autoencoder = train(autoencoder, data, epochs=2)


def plot_latent(autoencoder, data, num_batches=100):
    for i, (x, y) in enumerate(data):
        z = autoencoder.encoder(x.to(device))
        z = z.to('cpu').detach().numpy()
        print('latent batch', i, z.mean(axis=0), 'labels', y[:4].tolist())
        if i > num_batches:
            break


def plot_reconstructed(autoencoder, r0=(-5, 10), r1=(-10, 5), n=12):
    w = 28
    img = np.zeros((n * w, n * w))
    for i, y in enumerate(np.linspace(*r1, n)):
        for j, x in enumerate(np.linspace(*r0, n)):
            z = torch.Tensor([[x, y]]).to(device)
            x_hat = autoencoder.decoder(z)
            x_hat = x_hat.reshape(28, 28).to('cpu').detach().numpy()
            img[(n - 1 - i) * w:(n - 1 - i + 1) * w, j * w:(j + 1) * w] = x_hat
    print('reconstructed grid', img.shape, round(float(img.mean()), 4))


plot_latent(autoencoder, data, num_batches=1)
plot_reconstructed(autoencoder, n=3)


class VariationalEncoder(nn.Module):
    def __init__(self, latent_dims):
        super(VariationalEncoder, self).__init__()
        self.linear1 = nn.Linear(784, 512)
        self.linear2 = nn.Linear(512, latent_dims)
        self.linear3 = nn.Linear(512, latent_dims)
        self.N = torch.distributions.Normal(0, 1)
        self.kl = 0

    def forward(self, x):
        x = torch.flatten(x, start_dim=1)
        x = F.relu(self.linear1(x))
        mu = self.linear2(x)
        sigma = torch.exp(self.linear3(x))
        z = mu + sigma * self.N.sample(mu.shape)
        self.kl = (sigma**2 + mu**2 - torch.log(sigma) - 1 / 2).sum()
        return z


class VariationalAutoencoder(nn.Module):
    def __init__(self, latent_dims):
        super(VariationalAutoencoder, self).__init__()
        self.encoder = VariationalEncoder(latent_dims)
        self.decoder = Decoder(latent_dims)

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z)


def train(autoencoder, data, epochs=20):
    opt = torch.optim.Adam(autoencoder.parameters())
    for epoch in range(epochs):
        for x, y in data:
            x = x.to(device)
            opt.zero_grad()
            x_hat = autoencoder(x)
            loss = ((x - x_hat)**2).sum() + autoencoder.encoder.kl
            loss.backward()
            opt.step()
        print('epoch', epoch, 'last batch loss', loss.item(), 'kl', autoencoder.encoder.kl.item())
    return autoencoder


vae = VariationalAutoencoder(latent_dims).to(device)
vae = train(vae, data, epochs=2)
plot_latent(vae, data, num_batches=1)
plot_reconstructed(vae, r0=(-3, 3), r1=(-3, 3), n=3)

x, y = data.__iter__().next()
x_1 = x[y == 1][1].to(device)
x_2 = x[y == 0][1].to(device)
