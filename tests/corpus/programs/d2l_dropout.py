# Source: d2l-ai/d2l-en chapter_multilayer-perceptrons/dropout.md, stored version at commit 0dc735e, the PyTorch
#   tab ("Dive into Deep Learning", §5.6 Dropout, by Zhang, Lipton, Li and Smola; sample code under the MIT-0
#   licence of LICENSE-SAMPLECODE).
# Category: seeded random numbers — dropout from scratch with torch.rand, nn.Dropout in train and eval mode
# Adaptations:
#  - torch.manual_seed(0) added (the book is unseeded); the from-scratch model (a d2l.Classifier) becomes a plain
#    nn.Module of the same layers, and the concise one an nn.Sequential of the book's layers, each run forward on
#    a seeded random batch of 4 in training and in evaluation mode instead of trained on Fashion-MNIST;
#    nn.LazyLinear becomes nn.Linear with its input size (784, 32, 16); hidden sizes cut from 256 to 32 and 16.
import torch
from torch import nn

torch.manual_seed(0)

def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1: return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)

X = torch.arange(16, dtype = torch.float32).reshape((2, 8))
print('dropout_p = 0:', dropout_layer(X, 0))
print('dropout_p = 0.5:', dropout_layer(X, 0.5))
print('dropout_p = 1:', dropout_layer(X, 1))

class DropoutMLPScratch(nn.Module):
    def __init__(self, num_outputs, num_hiddens_1, num_hiddens_2,
                 dropout_1, dropout_2):
        super().__init__()
        self.dropout_1, self.dropout_2 = dropout_1, dropout_2
        self.lin1 = nn.Linear(784, num_hiddens_1)
        self.lin2 = nn.Linear(num_hiddens_1, num_hiddens_2)
        self.lin3 = nn.Linear(num_hiddens_2, num_outputs)
        self.relu = nn.ReLU()

    def forward(self, X):
        H1 = self.relu(self.lin1(X.reshape((X.shape[0], -1))))
        if self.training:
            H1 = dropout_layer(H1, self.dropout_1)
        H2 = self.relu(self.lin2(H1))
        if self.training:
            H2 = dropout_layer(H2, self.dropout_2)
        return self.lin3(H2)

model = DropoutMLPScratch(10, 32, 16, 0.5, 0.5)
X = torch.rand(4, 1, 28, 28)
y = torch.randint(0, 10, (4,))
loss = nn.functional.cross_entropy(model(X), y)
loss.backward()
print(loss, model.lin1.weight.grad.abs().sum())
model.eval()
print(model(X).argmax(dim=1))

net = nn.Sequential(
    nn.Flatten(), nn.Linear(784, 32), nn.ReLU(),
    nn.Dropout(0.5), nn.Linear(32, 16), nn.ReLU(),
    nn.Dropout(0.5), nn.Linear(16, 10))
out = net(X)
print(out.grad_fn, out.sum())
net.eval()
print(net(X).sum())
