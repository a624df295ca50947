# Source: senya-ashukha/real-nvp-pytorch real-nvp-pytorch.ipynb (Arsenii Ashukha, "Real NVP in PyTorch"),
#   commit 6e5c335.
# Category: training loops — a RealNVP normalizing flow on two moons: affine coupling layers with masks held in
#   an nn.Parameter(requires_grad=False), ModuleLists of scale (Tanh-ended) and translation nets, a
#   distributions.MultivariateNormal prior's log_prob and sample, x.new_zeros for the log-determinant,
#   backward(retain_graph=True), Adam over the parameters that require grad
# Adaptations:
#  - written after the notebook's cells (the search tool's terms keep its text out of commits): the same class,
#    calls and printed line, in other words;
#  - sklearn's datasets.make_moons(n_samples=100, noise=.05) becomes a numpy draw of the same two half circles
#    with Gaussian noise (sklearn is not importable here); seeded (np.random.seed(0), torch.manual_seed(0));
#  - hidden width 256 -> 32, 5001 steps -> 11 (printed every 5 instead of 500);
#  - the scatter plots go; the mean and spread of 50 flow samples are printed.
import numpy as np
import torch
from torch import nn
from torch import distributions

np.random.seed(0)
torch.manual_seed(0)


def make_moons(n_samples=100, noise=None):
    n_out = n_samples // 2
    n_in = n_samples - n_out
    outer = np.stack([np.cos(np.linspace(0, np.pi, n_out)), np.sin(np.linspace(0, np.pi, n_out))], 1)
    inner = np.stack([1 - np.cos(np.linspace(0, np.pi, n_in)), 1 - np.sin(np.linspace(0, np.pi, n_in)) - .5], 1)
    X = np.vstack([outer, inner])
    if noise is not None:
        X += np.random.normal(scale=noise, size=X.shape)
    return X, np.hstack([np.zeros(n_out), np.ones(n_in)])


class RealNVP(nn.Module):
    def __init__(self, nets, nett, mask, prior):
        super(RealNVP, self).__init__()
        self.prior = prior
        self.mask = nn.Parameter(mask, requires_grad=False)
        self.t = torch.nn.ModuleList([nett() for _ in range(len(masks))])
        self.s = torch.nn.ModuleList([nets() for _ in range(len(masks))])

    def g(self, z):
        x = z
        for i in range(len(self.t)):
            x_ = x * self.mask[i]
            s = self.s[i](x_) * (1 - self.mask[i])
            t = self.t[i](x_) * (1 - self.mask[i])
            x = x_ + (1 - self.mask[i]) * (x * torch.exp(s) + t)
        return x

    def f(self, x):
        log_det_J, z = x.new_zeros(x.shape[0]), x
        for i in reversed(range(len(self.t))):
            z_ = self.mask[i] * z
            s = self.s[i](z_) * (1 - self.mask[i])
            t = self.t[i](z_) * (1 - self.mask[i])
            z = (1 - self.mask[i]) * (z - t) * torch.exp(-s) + z_
            log_det_J -= s.sum(dim=1)
        return z, log_det_J

    def log_prob(self, x):
        z, logp = self.f(x)
        return self.prior.log_prob(z) + logp

    def sample(self, batchSize):
        z = self.prior.sample((batchSize, 1))
        logp = self.prior.log_prob(z)
        x = self.g(z)
        return x


nets = lambda: nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(), nn.Linear(32, 32), nn.LeakyReLU(),  # noqa: E731
                             nn.Linear(32, 2), nn.Tanh())
nett = lambda: nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(), nn.Linear(32, 32), nn.LeakyReLU(),  # noqa: E731
                             nn.Linear(32, 2))
masks = torch.from_numpy(np.array([[0, 1], [1, 0]] * 3).astype(np.float32))
prior = distributions.MultivariateNormal(torch.zeros(2), torch.eye(2))
flow = RealNVP(nets, nett, masks, prior)

optimizer = torch.optim.Adam([p for p in flow.parameters() if p.requires_grad == True], lr=1e-4)  # noqa: E712
for t in range(11):
    noisy_moons = make_moons(n_samples=100, noise=.05)[0].astype(np.float32)
    loss = -flow.log_prob(torch.from_numpy(noisy_moons)).mean()
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()
    if t % 5 == 0:
        print('iter %s:' % t, 'loss = %.3f' % loss)

x = flow.sample(50).detach().numpy()
print(x.shape, x.reshape(-1, 2).mean(0).round(3), x.reshape(-1, 2).std(0).round(3))
