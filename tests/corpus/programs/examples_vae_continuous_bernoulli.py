# Source: pytorch/examples vae/main.py (PyTorch contributors, BSD-3-Clause licence), stored version at commit
#   0a8329c.
# Category: training loops — a VAE with the reparameterization trick, torch.clamp'ed sigmoid decoder, the
#   continuous Bernoulli's log normalising constant (torch.where, torch.max of comparisons, a Taylor branch),
#   F.binary_cross_entropy(reduction='sum') plus KL, Adam, model.train()/eval() and a no_grad test pass
# Adaptations:
#  - argparse keeps its options but --no-cuda (CPU only); defaults shrink: batch size 128 -> 8, epochs 10 -> 2,
#    log interval 10 -> 2;
#  - torchvision's MNIST becomes TensorDatasets of 32 train and 16 test random 1x28x28 "images" in [0, 1) drawn by
#    torch (labels zeros); save_image and the results directory go: the comparison and sample batches' shapes and
#    means are printed instead;
#  - sizes shrink: the hidden layer 400 -> 32, the latent 20 -> 4.
import argparse
import torch
import torch.utils.data
from torch import nn, optim
from torch.nn import functional as F


parser = argparse.ArgumentParser(description='VAE MNIST Example')
parser.add_argument('--batch-size', type=int, default=8, metavar='N',
                    help='input batch size for training (default: 8)')
parser.add_argument('--epochs', type=int, default=2, metavar='N',
                    help='number of epochs to train (default: 2)')
parser.add_argument('--seed', type=int, default=1, metavar='S',
                    help='random seed (default: 1)')
parser.add_argument('--log-interval', type=int, default=2, metavar='N',
                    help='how many batches to wait before logging training status')
args = parser.parse_args()

torch.manual_seed(args.seed)

device = torch.device("cpu")

kwargs = {}
train_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(torch.rand(32, 1, 28, 28), torch.zeros(32)),
    batch_size=args.batch_size, shuffle=True, **kwargs)
test_loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(torch.rand(16, 1, 28, 28), torch.zeros(16)),
    batch_size=args.batch_size, shuffle=True, **kwargs)


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()

        self.fc1 = nn.Linear(784, 32)
        self.fc21 = nn.Linear(32, 4)
        self.fc22 = nn.Linear(32, 4)
        self.fc3 = nn.Linear(4, 32)
        self.fc4 = nn.Linear(32, 784)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5*logvar)
        eps = torch.randn_like(std)
        return mu + eps*std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        # clamp to avoid numerical issues with the continuous Bernoulli log normalizing constant
        return torch.clamp(torch.sigmoid(self.fc4(h3)), min=1e-4, max=1.0 - 1e-4)

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


model = VAE().to(device)
optimizer = optim.Adam(model.parameters(), lr=1e-3)

def atanh(x):
    # inverse hyperbolic tangent, used to compute the log normalizing constant of the continuous Bernoulli
    return 0.5 * (torch.log(1.0 + x) - torch.log(1.0 - x))

def cont_bern_log_norm(lam, l_lim=0.49, u_lim=0.51):
    # computes the log normalizing constant of a continuous Bernoulli distribution in a numerically stable way.
    # returns the log normalizing constant for lam in (0, l_lim) U (u_lim, 1) and a Taylor approximation in
    # [l_lim, u_lim].
    cut_lam = torch.where(torch.max(torch.le(lam, l_lim), torch.gt(lam, u_lim)), lam, l_lim * torch.ones_like(lam))
    log_norm = torch.log(torch.abs(2.0 * atanh(1 - 2.0 * cut_lam))) - torch.log(torch.abs(1 - 2.0 * cut_lam))
    taylor = torch.log(torch.tensor(2.0)) + 4.0 / 3.0 * torch.pow(lam - 0.5, 2) + 104.0 / 45.0 * torch.pow(lam - 0.5, 4)
    return torch.where(torch.max(torch.le(lam, l_lim), torch.gt(lam, u_lim)), log_norm, taylor)

# Reconstruction + KL divergence losses summed over all elements and batch
def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction='sum')

    # this term correctly accounts for using a binary cross entropy reconstruction term when the data is not binarized:
    # Loaiza-Ganem and Cunningham. The continuous Bernoulli: fixing a pervasive error in variational autoencoders.
    # NeurIPS, 2019
    # https://arxiv.org/abs/1907.06845
    NLNC = -torch.sum(cont_bern_log_norm(recon_x)) # negative log normalizing constant

    # see Appendix B from VAE paper:
    # Kingma and Welling. Auto-Encoding Variational Bayes. ICLR, 2014
    # https://arxiv.org/abs/1312.6114
    # 0.5 * sum(1 + log(sigma^2) - mu^2 - sigma^2)
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())

    return BCE + NLNC + KLD


def train(epoch):
    model.train()
    train_loss = 0
    for batch_idx, (data, _) in enumerate(train_loader):
        data = data.to(device)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                       100. * batch_idx / len(train_loader),
                       loss.item() / len(data)))

    print('====> Epoch: {} Average loss: {:.4f}'.format(
        epoch, train_loss / len(train_loader.dataset)))


def test(epoch):
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for i, (data, _) in enumerate(test_loader):
            data = data.to(device)
            recon_batch, mu, logvar = model(data)
            test_loss += loss_function(recon_batch, data, mu, logvar).item()
            if i == 0:
                n = min(data.size(0), 8)
                comparison = torch.cat([data[:n],
                                        recon_batch.view(args.batch_size, 1, 28, 28)[:n]])
                print('comparison', comparison.shape, '{:.4f}'.format(comparison.mean().item()))

    test_loss /= len(test_loader.dataset)
    print('====> Test set loss: {:.4f}'.format(test_loss))

if __name__ == "__main__":
    for epoch in range(1, args.epochs + 1):
        train(epoch)
        test(epoch)
        with torch.no_grad():
            sample = torch.randn(64, 4).to(device)
            sample = model.decode(sample).cpu()
            print('sample', sample.view(64, 1, 28, 28).shape, '{:.4f}'.format(sample.mean().item()))
