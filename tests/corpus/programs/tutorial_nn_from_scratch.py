# Source: pytorch/tutorials beginner_source/nn_tutorial.py, sections "MNIST data setup" to "Using
#   torch.nn.functional" ("What is torch.nn really?", by Jeremy Howard, fast.ai;
#   https://github.com/pytorch/tutorials, BSD-3-Clause), commit 05e7ce2.
# Category: training loops — hand-written model, loss and SGD
# Adaptations:
#  - no download: MNIST (50,000 images) is replaced by 320 random images and labels drawn with
#    torch.manual_seed(0) (torch.rand / torch.randint), already tensors, so `map(torch.tensor, ...)` is dropped.
#  - pyplot.imshow, `from IPython.core.debugger import set_trace` and the notebook's bare expressions dropped.
#  - the weights' torch.randn is seeded by the same manual_seed (the original is unseeded).
import torch
import math

torch.manual_seed(0)
x_train, y_train = torch.rand(320, 784), torch.randint(0, 10, (320,))
x_valid, y_valid = torch.rand(128, 784), torch.randint(0, 10, (128,))
print(x_train.shape)

n, c = x_train.shape
print(x_train, y_train)
print(x_train.shape)
print(y_train.min(), y_train.max())

weights = torch.randn(784, 10) / math.sqrt(784)
weights.requires_grad_()
bias = torch.zeros(10, requires_grad=True)

def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)

def model(xb):
    return log_softmax(xb @ weights + bias)

bs = 64  # batch size

xb = x_train[0:bs]  # a mini-batch from x
preds = model(xb)  # predictions
print(preds[0], preds.shape)

def nll(input, target):
    return -input[range(target.shape[0]), target].mean()

loss_func = nll

yb = y_train[0:bs]
print(loss_func(preds, yb))

def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()

print(accuracy(preds, yb))

lr = 0.5  # learning rate
epochs = 2  # how many epochs to train for

for epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        #         set_trace()
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)

        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()

print(loss_func(model(xb), yb), accuracy(model(xb), yb))

import torch.nn.functional as F

loss_func = F.cross_entropy

def model(xb):
    return xb @ weights + bias

print(loss_func(model(xb), yb), accuracy(model(xb), yb))
