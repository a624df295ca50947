# Source: pytorch/tutorials beginner_source/nn_tutorial.py, sections "Refactor using nn.Module",
#   "Refactor using nn.Linear" and "Refactor using optim" ("What is torch.nn really?", by Jeremy Howard,
#   fast.ai; https://github.com/pytorch/tutorials, BSD-3-Clause), commit 05e7ce2.
# Category: nn.Module — Parameter, Linear, optim.SGD
# Adaptations:
#  - no download: MNIST is replaced by 320 random images and labels drawn with torch.manual_seed(0).
#  - the names the tutorial set up in earlier sections (n, bs, lr, epochs, the first mini-batch xb, yb,
#    loss_func = F.cross_entropy) are set at the top.
import torch
import math
import torch.nn.functional as F

torch.manual_seed(0)
x_train, y_train = torch.rand(320, 784), torch.randint(0, 10, (320,))
n, c = x_train.shape
bs = 64
lr = 0.5
epochs = 2
xb, yb = x_train[0:bs], y_train[0:bs]
loss_func = F.cross_entropy

from torch import nn

class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(784, 10) / math.sqrt(784))
        self.bias = nn.Parameter(torch.zeros(10))

    def forward(self, xb):
        return xb @ self.weights + self.bias

model = Mnist_Logistic()

print(loss_func(model(xb), yb))

def fit():
    for epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            start_i = i * bs
            end_i = start_i + bs
            xb = x_train[start_i:end_i]
            yb = y_train[start_i:end_i]
            pred = model(xb)
            loss = loss_func(pred, yb)

            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()

fit()

print(loss_func(model(xb), yb))

class Mnist_Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(784, 10)

    def forward(self, xb):
        return self.lin(xb)

model = Mnist_Logistic()
print(loss_func(model(xb), yb))

fit()

print(loss_func(model(xb), yb))

from torch import optim

def get_model():
    model = Mnist_Logistic()
    return model, optim.SGD(model.parameters(), lr=lr)

model, opt = get_model()
print(loss_func(model(xb), yb))

for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        opt.step()
        opt.zero_grad()

print(loss_func(model(xb), yb))
