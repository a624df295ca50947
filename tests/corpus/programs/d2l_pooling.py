# Source: d2l-ai/d2l-en chapter_convolutional-neural-networks/pooling.md, stored version at commit 155d0e1, the
#   PyTorch tab ("Dive into Deep Learning", §7.5 Pooling, by Zhang, Lipton, Li and Smola; sample code under the
#   MIT-0 licence of LICENSE-SAMPLECODE).
# Category: tensors — max and average pooling by hand, nn.MaxPool2d with padding and stride, channels
# Adaptations:
#  - the bare notebook expressions are printed; a backward through nn.MaxPool2d added at the end (its
#    gradient routing is what a learner inspects).
import torch
from torch import nn

def pool2d(X, pool_size, mode='max'):
    p_h, p_w = pool_size
    Y = torch.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            if mode == 'max':
                Y[i, j] = X[i: i + p_h, j: j + p_w].max()
            elif mode == 'avg':
                Y[i, j] = X[i: i + p_h, j: j + p_w].mean()
    return Y

X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
print(pool2d(X, (2, 2)))
print(pool2d(X, (2, 2), 'avg'))

X = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4))
print(X)
pool2d = nn.MaxPool2d(3)
# Pooling has no model parameters, hence it needs no initialization
print(pool2d(X))

pool2d = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d(X))

pool2d = nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))
print(pool2d(X))

X = torch.cat((X, X + 1), 1)
print(X)

pool2d = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d(X))

X.requires_grad_()
out = pool2d(X)
out.sum().backward()
print(out.grad_fn)
print(X.grad)
