# Source: d2l-ai/d2l-en chapter_linear-networks/linear-regression-scratch.md on the r0.17 branch, the PyTorch
#   tab ("Dive into Deep Learning" 0.17, §3.2 Linear Regression Implementation from Scratch, by Zhang, Lipton,
#   Li and Smola; https://github.com/d2l-ai/d2l-en; sample code under the MIT-0 licence of LICENSE-SAMPLECODE).
# Category: training loops — hand-written minibatch SGD, torch.normal
# Adaptations:
#  - `from d2l import torch as d2l` is not available: its aliases are replaced by what they alias in the
#    d2l package (d2l.normal -> torch.normal, d2l.matmul -> torch.matmul, d2l.reshape(x, s) -> x.reshape(s),
#    d2l.tensor -> torch.tensor); the scatter plot is dropped.
#  - torch.manual_seed(0) and random.seed(0) added (the book is unseeded); 1000 examples cut to 200.
import torch
import random

torch.manual_seed(0)
random.seed(0)

def synthetic_data(w, b, num_examples):  #@save
    """Generate y = Xw + b + noise."""
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))

true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 200)

print('features:', features[0],'\nlabel:', labels[0])

def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    # The examples are read at random, in no particular order
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(
            indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]

batch_size = 10

for X, y in data_iter(batch_size, features, labels):
    print(X, '\n', y)
    break

w = torch.normal(0, 0.01, size=(2,1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)

def linreg(X, w, b):  #@save
    """The linear regression model."""
    return torch.matmul(X, w) + b

def squared_loss(y_hat, y):  #@save
    """Squared loss."""
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2

def sgd(params, lr, batch_size):  #@save
    """Minibatch stochastic gradient descent."""
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()

lr = 0.03
num_epochs = 3
net = linreg
loss = squared_loss

for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y)  # Minibatch loss in `X` and `y`
        # Compute gradient on `l` with respect to [`w`, `b`]
        l.sum().backward()
        sgd([w, b], lr, batch_size)  # Update parameters using their gradient
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')

print(f'error in estimating w: {true_w - w.reshape(true_w.shape)}')
print(f'error in estimating b: {true_b - b}')
