# Source: d2l-ai/d2l-en chapter_convolutional-modern/batch-norm.md, stored version at commit 65e8a23, the PyTorch
#   tab ("Dive into Deep Learning", §8.5 Batch Normalization, by Zhang, Lipton, Li and Smola; sample code under
#   the MIT-0 licence of LICENSE-SAMPLECODE).
# Category: nn.Module — batch_norm by hand (training and moving averages), a BatchNorm module, BatchNorm2d
# Adaptations:
#  - torch.manual_seed(0) added; instead of training BNLeNetScratch on Fashion-MNIST, the scratch BatchNorm and
#    nn.BatchNorm2d/nn.BatchNorm1d each run on a seeded random batch in training mode (twice) and then in
#    evaluation mode, and a backward goes through the scratch one.
import torch
from torch import nn

torch.manual_seed(0)

def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    # Use is_grad_enabled to determine whether we are in training mode
    if not torch.is_grad_enabled():
        # In prediction mode, use mean and variance obtained by moving average
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            # When using a fully connected layer, calculate the mean and
            # variance on the feature dimension
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            # When using a two-dimensional convolutional layer, calculate the
            # mean and variance on the channel dimension (axis=1). Here we
            # need to maintain the shape of X, so that the broadcasting
            # operation can be carried out later
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        # In training mode, the current mean and variance are used
        X_hat = (X - mean) / torch.sqrt(var + eps)
        # Update the mean and variance using moving average
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta  # Scale and shift
    return Y, moving_mean.data, moving_var.data

class BatchNorm(nn.Module):
    # num_features: the number of outputs for a fully connected layer or the
    # number of output channels for a convolutional layer. num_dims: 2 for a
    # fully connected layer and 4 for a convolutional layer
    def __init__(self, num_features, num_dims):
        super().__init__()
        if num_dims == 2:
            shape = (1, num_features)
        else:
            shape = (1, num_features, 1, 1)
        # The scale parameter and the shift parameter (model parameters) are
        # initialized to 1 and 0, respectively
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        # The variables that are not model parameters are initialized to 0 and
        # 1
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        # If X is not on the main memory, copy moving_mean and moving_var to
        # the device where X is located
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        # Save the updated moving_mean and moving_var
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean,
            self.moving_var, eps=1e-5, momentum=0.1)
        return Y

X = torch.randn(4, 3, 5, 5) * 2 + 1
bn = BatchNorm(3, num_dims=4)
Y = bn(X)
Y = bn(X)
(Y ** 3).sum().backward()
print(Y.grad_fn, Y.shape)
print(bn.moving_mean.reshape(-1), bn.moving_var.reshape(-1))
print(bn.gamma.grad.reshape(-1), bn.beta.grad.reshape(-1))
with torch.no_grad():
    print(bn(X)[0, :, 0, 0])

bn2d = nn.BatchNorm2d(3)
Z = bn2d(X)
Z = bn2d(X)
(Z ** 3).sum().backward()
print(Z.grad_fn)
print(bn2d.running_mean, bn2d.running_var, bn2d.num_batches_tracked)
print(bn2d.weight.grad, bn2d.bias.grad)
print(torch.allclose(Y, Z, atol=1e-5))
bn2d.eval()
print(bn2d(X)[0, :, 0, 0])

bn1d = nn.BatchNorm1d(4)
H = torch.randn(6, 4)
print(bn1d(H))
print(bn1d)
