# Source: yunjey/pytorch-tutorial tutorials/03-advanced/variational_autoencoder/main.py (Yunjey Choi, MIT
#   licence), stored version at commit 78c6afe.
# Category: training loops — a VAE: encoder to (mu, log_var), the reparameterization trick with randn_like,
#   F.sigmoid decoder, F.binary_cross_entropy(size_average=False) plus the closed-form KL term, Adam
# Adaptations:
#  - torch.manual_seed(0) added; the device is the CPU (CUDA goes);
#  - torchvision's MNIST becomes a TensorDataset of 64 random 28x28 "images" in [0, 1) drawn by torch (labels
#    zeros); the samples directory and save_image go: the sampled and reconstructed batches' shapes and means
#    are printed instead;
#  - sizes shrink: h_dim 400 -> 32, z_dim 20 -> 4, num_epochs 15 -> 2, batch_size 128 -> 16, print every 2 steps
#    instead of every 10.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# Device configuration
device = torch.device('cpu')

# Hyper-parameters
image_size = 784
h_dim = 32
z_dim = 4
num_epochs = 2
batch_size = 16
learning_rate = 1e-3

# MNIST dataset
dataset = torch.utils.data.TensorDataset(torch.rand(64, 1, 28, 28), torch.zeros(64, dtype=torch.long))

# Data loader
data_loader = torch.utils.data.DataLoader(dataset=dataset,
                                          batch_size=batch_size,
                                          shuffle=True)


# VAE model
class VAE(nn.Module):
    def __init__(self, image_size=784, h_dim=400, z_dim=20):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(image_size, h_dim)
        self.fc2 = nn.Linear(h_dim, z_dim)
        self.fc3 = nn.Linear(h_dim, z_dim)
        self.fc4 = nn.Linear(z_dim, h_dim)
        self.fc5 = nn.Linear(h_dim, image_size)

    def encode(self, x):
        h = F.relu(self.fc1(x))
        return self.fc2(h), self.fc3(h)

    def reparameterize(self, mu, log_var):
        std = torch.exp(log_var/2)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h = F.relu(self.fc4(z))
        return F.sigmoid(self.fc5(h))

    def forward(self, x):
        mu, log_var = self.encode(x)
        z = self.reparameterize(mu, log_var)
        x_reconst = self.decode(z)
        return x_reconst, mu, log_var

model = VAE(image_size, h_dim, z_dim).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

# Start training
for epoch in range(num_epochs):
    for i, (x, _) in enumerate(data_loader):
        # Forward pass
        x = x.to(device).view(-1, image_size)
        x_reconst, mu, log_var = model(x)

        # Compute reconstruction loss and kl divergence
        # For KL divergence, see Appendix B in VAE paper or http://yunjey47.tistory.com/43
        reconst_loss = F.binary_cross_entropy(x_reconst, x, size_average=False)
        kl_div = - 0.5 * torch.sum(1 + log_var - mu.pow(2) - log_var.exp())

        # Backprop and optimize
        loss = reconst_loss + kl_div
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        if (i+1) % 2 == 0:
            print ("Epoch[{}/{}], Step [{}/{}], Reconst Loss: {:.4f}, KL Div: {:.4f}"
                   .format(epoch+1, num_epochs, i+1, len(data_loader), reconst_loss.item(), kl_div.item()))

    with torch.no_grad():
        # Save the sampled images
        z = torch.randn(batch_size, z_dim).to(device)
        out = model.decode(z).view(-1, 1, 28, 28)
        print('sampled', out.shape, '{:.4f}'.format(out.mean().item()))

        # Save the reconstructed images
        out, _, _ = model(x)
        x_concat = torch.cat([x.view(-1, 1, 28, 28), out.view(-1, 1, 28, 28)], dim=3)
        print('reconst', x_concat.shape, '{:.4f}'.format(x_concat.mean().item()))
