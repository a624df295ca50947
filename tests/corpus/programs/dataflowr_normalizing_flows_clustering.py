# Source: dataflowr/notebooks Module9/Normalizing_flows_clustering.ipynb (Marc Lelarge, "Deep Learning Do It
#   Yourself!", dataflowr, Apache-2.0), commit 043dff0.
# Category: training loops — RealNVP with masked coupling layers whose prior is a MixtureSameFamily of two
#   MultivariateNormal components (Categorical mixing), log_prob through the change of variables, sampling per
#   component by inverting the flow, Adam
# Adaptations:
#  - seeded (torch.manual_seed(0), np.random.seed(0)); pylab's rcParams and the plots go (the samples' shapes and
#    means are printed instead);
#  - sklearn is not installed: datasets.make_moons(n_samples, noise) becomes make_moons below, sklearn's two
#    half circles with normal noise (not shuffled);
#  - the coupling networks' hidden width 256 -> 8; 5001 steps printed every 500 -> 11 printed every 5; the samples
#    1000 -> 16.
import numpy as np

import torch
from torch import nn
from torch import distributions
from torch.nn.parameter import Parameter

torch.manual_seed(0)
np.random.seed(0)


def make_moons(n_samples=100, noise=None):
    n_out = n_samples // 2
    n_in = n_samples - n_out
    outer_x = np.cos(np.linspace(0, np.pi, n_out))
    outer_y = np.sin(np.linspace(0, np.pi, n_out))
    inner_x = 1 - np.cos(np.linspace(0, np.pi, n_in))
    inner_y = 1 - np.sin(np.linspace(0, np.pi, n_in)) - .5
    X = np.vstack([np.append(outer_x, inner_x), np.append(outer_y, inner_y)]).T
    X += np.random.normal(scale=noise, size=X.shape)
    return X, None


# here the scaling and translation neural networks are defined:
nets = lambda: nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(), nn.Linear(8, 8), nn.LeakyReLU(), nn.Linear(8, 2), nn.Tanh())
nett = lambda: nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(), nn.Linear(8, 8), nn.LeakyReLU(), nn.Linear(8, 2))
# functions that take no arguments and return a pytorch model, dim(X) -> dim(X)

masks = torch.from_numpy(np.array([[0, 1], [1, 0], [0, 1], [1, 0], [0, 1], [1, 0]]).astype(np.float32))
# torch.Tensor of size number_of_coupling_layers x dim(X)

print(masks.shape)

from torch import distributions
mix = distributions.Categorical(torch.ones(2))
gau = distributions.MultivariateNormal(torch.eye(2), 0.05*torch.eye(2))
prior = distributions.mixture_same_family.MixtureSameFamily(mix, gau) #distributions.MultivariateNormal(torch.tensor([0.,1.]), torch.eye(2))

z = prior.component_distribution.sample((1000,))
print(z.shape, z.mean(dim=0))

# you can compute logprob and sample from your distribution:
print(prior.log_prob(torch.Tensor([0,0])))
print(prior.sample((3,)))

class RealNVP(nn.Module):
    def __init__(self, nets, nett, mask, prior):
        super(RealNVP, self).__init__()
        # Create a flow
        # nets:  a function that returns a PyTorch neural network, e.g., nn.Sequential, s = nets(), s: dim(X) -> dim(X)
        # nett:  a function that returns a PyTorch neural network, e.g., nn.Sequential, t = nett(), t: dim(X) -> dim(X)
        # mask:  a torch.Tensor of size #number_of_coupling_layers x #dim(X)
        # prior: an object from torch.distributions e.g., torch.distributions.MultivariateNormal
        self.prior = prior
        self.mask = mask
        self.t = torch.nn.ModuleList([nett() for _ in range(len(mask))])
        self.s = torch.nn.ModuleList([nets() for _ in range(len(mask))])

    def f(self, x):
        # Compute f(x) = z and log_det_Jacobian of f,
        #    where self.mask[i], self.t[i], self.s[i] define a i-th masked coupling layer
        # x: a torch.Tensor, of shape batchSize x dim(X), is a datapoint
        # return z: a torch.Tensor of shape batchSize x dim(X), a hidden representations
        # return log_det_J: a torch.Tensor of len batchSize
        log_det_J, z = x.new_zeros(x.shape[0]), x
        for i in range(len(self.t)):
            z_ = z*self.mask[i]
            s = self.s[i](z_)*(1-self.mask[i])
            t = self.t[i](z_)*(1-self.mask[i])
            z = z * torch.exp(s) + t
            log_det_J += s.sum(dim=1)

        return z, log_det_J

    def log_prob(self, x):
        # Compute and return log p(x)
        # using the change of variable formula and log_det_J computed by f
        # return logp: torch.Tensor of len batchSize
        z, logdet = self.f(x)
        return self.prior.log_prob(z) + logdet

    def g(self, z):
        # Compute and return g(z) = x,
        #    where self.mask[i], self.t[i], self.s[i] define a i-th masked coupling layer
        # z: a torch.Tensor of shape batchSize x dim(X)
        # return x: a torch.Tensor of shape batchSize x dim(X)
        x = z
        for i in reversed(range(len(self.t))):
            x_ = self.mask[i] * x
            s = self.s[i](x_) * (1-self.mask[i])
            t = self.t[i](x_) * (1-self.mask[i])
            x = (x-t) * torch.exp(-s)
        return x

    def sample(self, batchSize):
        # Draw and return batchSize samples from flow using implementation of g
        # return x: torch.Tensor of shape batchSize x dim(X)
        z = self.prior.sample((batchSize,))
        x = self.g(z)
        return x

    def sample_cond(self,batchSize):
        # This is the new piece allowing to sample from each component of the mixture
        comp = self.prior.component_distribution
        z = comp.sample((batchSize,))
        z0 = z[:,0,:]
        z1 = z[:,1,:]
        x0 = self.g(z0)
        x1 = self.g(z1)
        return x0,x1,z0,z1

flow = RealNVP(nets, nett, masks, prior)

# Check that a flow is invertible g(f(x)) = x Hint: torch.allclose
x = torch.randn((10,2))
y, _ = flow.f(flow.g(x))
print(torch.allclose(x, y))

optimizer = torch.optim.Adam(flow.parameters(), lr=1e-4)# choose an optimizer, use module torch.optim

for t in range(11):
    noisy_moons = make_moons(n_samples=100, noise=.05)[0].astype(np.float32)
    loss = -flow.log_prob(torch.from_numpy(noisy_moons)).mean()

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

    if t % 5 == 0:
        print('iter %s:' % t, 'loss = %.3f' % loss)

noisy_moons = make_moons(n_samples=1000, noise=.05)[0].astype(np.float32)
z = flow.f(torch.from_numpy(noisy_moons))[0].detach().numpy()
print(z.shape, z.mean(axis=0))

x0,x1,z0,z1 = flow.sample_cond(16)
x0 = x0.detach().numpy()
x1 = x1.detach().numpy()
z0 = z0.detach().numpy()
z1 = z1.detach().numpy()
print(x0.mean(axis=0), x1.mean(axis=0), z0.mean(axis=0), z1.mean(axis=0))
