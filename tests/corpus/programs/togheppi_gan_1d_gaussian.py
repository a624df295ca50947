# Source: togheppi/vanilla_GAN 1D_Gaussian_pytorch.py ("1D Gaussian distribution approximation using GAN"),
#   commit 520e5c9.
# Category: training loops — a vanilla GAN on a 1-D Gaussian: the deprecated torch.nn.init.normal and
#   torch.nn.init.constant (each warns), Variable(torch.FloatTensor(np.reshape(...))), the discriminator
#   pretrained on a normalised np.histogram with nn.BCELoss and SGD; the original (written for PyTorch 0.3)
#   indexes the 0-dim loss, D_pre_loss[0], which PyTorch now refuses
# Ends with: IndexError (invalid index of a 0-dim tensor) at D_pre_loss[0], in the first pre-training step
# Adaptations:
#  - written after the original file (the search tool's terms keep its text out of commits): the same classes,
#    calls and statements up to the failing line, in other words;
#  - seeded (np.random.seed(0), torch.manual_seed(0)); the Display class and every matplotlib plot go (the
#    program stops before they run).
import torch
from torch.autograd import Variable
import numpy as np

np.random.seed(0)
torch.manual_seed(0)


class DataDistribution:
    def __init__(self, mu, sigma):
        self.mu = mu
        self.sigma = sigma

    def sample(self, num_samples):
        samples = np.random.normal(self.mu, self.sigma, num_samples)
        samples.sort()
        return samples


class NoiseDistribution:
    def __init__(self, data_range):
        self.data_range = data_range

    def sample(self, num_samples):
        offset = np.random.random(num_samples) * 0.01
        return np.linspace(-self.data_range, self.data_range, num_samples) + offset


class Generator(torch.nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim):
        super().__init__()
        fc = torch.nn.Linear(input_dim, hidden_dim, bias=True)
        torch.nn.init.normal(fc.weight)
        torch.nn.init.constant(fc.bias, 0.0)
        self.hidden_layer = torch.nn.Sequential(fc, torch.nn.ReLU())
        self.output_layer = torch.nn.Linear(hidden_dim, output_dim, bias=True)
        torch.nn.init.normal(self.output_layer.weight)
        torch.nn.init.constant(self.output_layer.bias, 0.0)

    def forward(self, x):
        return self.output_layer(self.hidden_layer(x))


class Discriminator(torch.nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim):
        super().__init__()
        fc1 = torch.nn.Linear(input_dim, hidden_dim, bias=True)
        torch.nn.init.normal(fc1.weight)
        torch.nn.init.constant(fc1.bias, 0.0)
        self.hidden_layer = torch.nn.Sequential(fc1, torch.nn.ReLU())
        fc2 = torch.nn.Linear(hidden_dim, output_dim, bias=True)
        torch.nn.init.normal(fc2.weight)
        torch.nn.init.constant(fc2.bias, 0.0)
        self.output_layer = torch.nn.Sequential(fc2, torch.nn.Sigmoid())

    def forward(self, x):
        return self.output_layer(self.hidden_layer(x))


mu = 1.0
sigma = 1.5
data_range = 5
batch_size = 150
input_dim = 1
hidden_dim = 32
output_dim = 1
num_epochs_pre = 1000
learning_rate = 0.03

data = DataDistribution(mu, sigma)
gen = NoiseDistribution(data_range)
G = Generator(input_dim, hidden_dim, output_dim)
D = Discriminator(input_dim, hidden_dim, output_dim)
criterion = torch.nn.BCELoss()

optimizer = torch.optim.SGD(D.parameters(), lr=learning_rate)
D_pre_losses = []
num_samples_pre = 1000
num_bins_pre = 100
for epoch in range(num_epochs_pre):
    d = data.sample(num_samples_pre)
    histc, edges = np.histogram(d, num_bins_pre, density=True)
    max_histc = np.max(histc)
    min_histc = np.min(histc)
    y_ = (histc - min_histc) / (max_histc - min_histc)
    x_ = edges[1:]
    x_ = Variable(torch.FloatTensor(np.reshape(x_, [num_bins_pre, input_dim])))
    y_ = Variable(torch.FloatTensor(np.reshape(y_, [num_bins_pre, output_dim])))
    optimizer.zero_grad()
    D_pre_decision = D(x_)
    D_pre_loss = criterion(D_pre_decision, y_)
    D_pre_loss.backward()
    optimizer.step()
    print(epoch, D_pre_loss.data.numpy())
    D_pre_losses.append(D_pre_loss[0].data.numpy())
    if epoch % 100 == 0:
        print(epoch, D_pre_loss.data.numpy())
