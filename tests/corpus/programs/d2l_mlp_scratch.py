# Source: d2l-ai/d2l-en chapter_multilayer-perceptrons/mlp-scratch.md, stored version at commit ed3dd63, the
#   PyTorch tab ("Dive into Deep Learning", §5.2 Implementation of Multilayer Perceptrons from Scratch, by Zhang,
#   Lipton, Li and Smola; sample code under the MIT-0 licence of LICENSE-SAMPLECODE).
# Category: training loops — hand-written ReLU and parameters, nn.CrossEntropyLoss(reduction='none'), SGD
# Adaptations:
#  - no download: the Fashion-MNIST loaders become DataLoaders (batch 64) over TensorDatasets of 256 training and
#    128 test random 1x28x28 images with random labels, drawn after torch.manual_seed(0) (the book is unseeded).
#  - `from d2l import torch as d2l` is not available: d2l.train_ch3 becomes a short loop printing each epoch's
#    mean training loss and test accuracy; the updater is torch.optim.SGD as in the book; epochs cut from 10 to 2.
import torch
from torch import nn

torch.manual_seed(0)
train_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(
    torch.rand(256, 1, 28, 28), torch.randint(0, 10, (256,))), 64, shuffle=True)
test_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(
    torch.rand(128, 1, 28, 28), torch.randint(0, 10, (128,))), 64)

num_inputs, num_outputs, num_hiddens = 784, 10, 256

W1 = nn.Parameter(torch.randn(
    num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(
    num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))

params = [W1, b1, W2, b2]

def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)

def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X@W1 + b1)  # Here '@' stands for matrix multiplication
    return (H@W2 + b2)

loss = nn.CrossEntropyLoss(reduction='none')

num_epochs, lr = 2, 0.1
updater = torch.optim.SGD(params, lr=lr)
for epoch in range(num_epochs):
    total, n = 0.0, 0
    for X, y in train_iter:
        l = loss(net(X), y)
        updater.zero_grad()
        l.mean().backward()
        updater.step()
        total += float(l.sum())
        n += y.numel()
    with torch.no_grad():
        correct = sum(float((net(X).argmax(axis=1) == y).sum()) for X, y in test_iter)
    print(f'epoch {epoch + 1}, loss {total / n:.6f}, test acc {correct / 128:.4f}')
print(relu(torch.tensor([-1.0, 0.0, 2.0])))
