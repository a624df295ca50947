# Source: grumpybavarian/simple_pytorch_gan gan_1d_gaussian.py ("Simple PyTorch GAN": a GAN approximating a 1-D
#   normal distribution), commit 16c7028.
# Category: training loops — a GAN on synthetic 1-D Gaussian data: ELU generator and discriminator (F.sigmoid
#   output), nn.BCELoss, two Adam optimizers, the discriminator pretrained on np.split batches, three D steps per G
#   step with backward on the real and the fake loss separately (grads accumulate), torch.no_grad sampling
# Adaptations:
#  - written after the original file (the search tool's terms keep its text out of commits): the same classes,
#    calls and printed line, in other words;
#  - seeded (np.random.seed(0), torch.manual_seed(0)); 2048 data points -> 64 (8 batches of 8), 1000 epochs -> 3
#    (printed every epoch instead of every 10), 50000 samples -> 1000;
#  - the device lines go (CPU); np.save of the sampled distributions goes; their mean and std are printed.
import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.functional as F
import numpy as np

np.random.seed(0)
torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.layer1 = nn.Linear(1, 32)
        self.layer2 = nn.Linear(32, 32)
        self.logits = nn.Linear(32, 1)

    def forward(self, x):
        y = F.elu(self.layer1(x))
        y = F.elu(self.layer2(y))
        return self.logits(y)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.layer1 = nn.Linear(1, 32)
        self.layer2 = nn.Linear(32, 32)
        self.logits = nn.Linear(32, 1)

    def forward(self, x):
        y = F.elu(self.layer1(x))
        y = F.elu(self.layer2(y))
        return F.sigmoid(self.logits(y))


def generate_real_data(n):
    return np.random.normal(0, 1, (n, 1))


def main():
    g = Generator()
    d = Discriminator()
    n = 64
    data = generate_real_data(n)
    batched_data = np.split(data, n / 8)
    g_optim = optim.Adam(g.parameters(), lr=1e-4)
    d_optim = optim.Adam(d.parameters(), lr=1e-4)
    criterion = nn.BCELoss()

    for i, batch in enumerate(batched_data):
        d_optim.zero_grad()
        labels_real = torch.ones((batch.shape[0], 1))
        d_prediction_real = d(torch.from_numpy(batch).float())
        d_loss_real = criterion(d_prediction_real, labels_real)
        d_loss_real.backward()
        labels_fake = torch.zeros((batch.shape[0], 1))
        inputs_fake = torch.rand((batch.shape[0], 1))
        batch_fake = g(inputs_fake)
        d_prediction_fake = d(batch_fake)
        d_loss_fake = criterion(d_prediction_fake, labels_fake)
        d_loss_fake.backward()
        d_optim.step()

    num_epochs = 3
    num_samples = 1000
    dists = np.zeros((num_epochs, num_samples))
    for epoch in range(num_epochs):
        g_loss_mean = 0.
        d_loss_mean = 0.
        for i, batch in enumerate(batched_data):
            for _ in range(3):
                d_optim.zero_grad()
                labels_real = torch.ones((batch.shape[0], 1))
                d_prediction_real = d(torch.from_numpy(batch).float())
                d_loss_real = criterion(d_prediction_real, labels_real)
                d_loss_real.backward()
                labels_fake = torch.zeros((batch.shape[0], 1))
                inputs_fake = torch.rand((batch.shape[0], 1))
                batch_fake = g(inputs_fake)
                d_prediction_fake = d(batch_fake)
                d_loss_fake = criterion(d_prediction_fake, labels_fake)
                d_loss_fake.backward()
                d_loss_mean += d_loss_fake.item() + d_loss_real.item()
                d_optim.step()
            g_optim.zero_grad()
            inputs_fake = torch.rand((batch.shape[0], 1))
            batch_fake = g(inputs_fake)
            d_prediction_fake = d(batch_fake)
            g_loss = criterion(d_prediction_fake, torch.ones((batch.shape[0], 1)))
            g_loss_mean += g_loss.item()
            g_loss.backward()
            g_optim.step()
        print("Epoch {}: g: {}, d: {}".format(epoch, g_loss_mean / i, d_loss_mean / (i * 3)))
        with torch.no_grad():
            inputs = torch.rand((num_samples, 1))
            outputs = g(inputs).numpy().flatten()
            dists[epoch] = outputs
    print(dists.mean(axis=1), dists.std(axis=1))


if __name__ == '__main__':
    main()
