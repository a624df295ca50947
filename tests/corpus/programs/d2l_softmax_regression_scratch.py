# Source: d2l-ai/d2l-en chapter_linear-networks/softmax-regression-scratch.md on the r0.17 branch, the PyTorch
#   tab ("Dive into Deep Learning" 0.17, §3.6 Implementation of Softmax Regression from Scratch, by Zhang,
#   Lipton, Li and Smola; https://github.com/d2l-ai/d2l-en; sample code under the MIT-0 licence of
#   LICENSE-SAMPLECODE).
# Category: training loops — hand-written softmax and cross-entropy, DataLoader
# Adaptations:
#  - no download: d2l.load_data_fashion_mnist is replaced by a function of that name returning DataLoaders
#    (batch 256, training shuffled) over TensorDatasets of 512 training and 256 test random 1x28x28 images
#    with random labels, drawn with torch.manual_seed(0), which also seeds W (the book is unseeded).
#  - `from d2l import torch as d2l` is not available: its aliases are replaced by what they alias
#    (d2l.tensor -> torch.tensor, d2l.reduce_sum(x, ...) -> x.sum(...), d2l.exp -> torch.exp, d2l.normal ->
#    torch.normal, d2l.matmul -> torch.matmul, d2l.reshape(x, s) -> x.reshape(s), d2l.log -> torch.log,
#    d2l.argmax(x, axis=1) -> x.argmax(axis=1), d2l.astype(x, t) -> x.type(t), d2l.size(y) -> y.numel(),
#    d2l.sgd is the §3.2 function, copied here).
#  - the Animator plot and the image-grid prediction are dropped: train_ch3 prints each epoch's metrics;
#    its accuracy asserts (which random labels cannot meet) are dropped; epochs cut from 10 to 3.
#  - bare notebook expressions are printed.
import torch

torch.manual_seed(0)

def load_data_fashion_mnist(batch_size):
    def loader(n, shuffle):
        ds = torch.utils.data.TensorDataset(torch.rand(n, 1, 28, 28), torch.randint(0, 10, (n,)))
        return torch.utils.data.DataLoader(ds, batch_size, shuffle=shuffle)
    return loader(512, True), loader(256, False)

batch_size = 256
train_iter, test_iter = load_data_fashion_mnist(batch_size)

num_inputs = 784
num_outputs = 10

W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))

def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # The broadcasting mechanism is applied here

X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))

def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)

y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])

def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])

print(cross_entropy(y_hat, y))

def accuracy(y_hat, y):  #@save
    """Compute the number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())

print(accuracy(y_hat, y) / len(y))

def evaluate_accuracy(net, data_iter):  #@save
    """Compute the accuracy for a model on a dataset."""
    if isinstance(net, torch.nn.Module):
        net.eval()  # Set the model to evaluation mode
    metric = Accumulator(2)  # No. of correct predictions, no. of predictions

    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]

class Accumulator:  #@save
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]

print(evaluate_accuracy(net, test_iter))

def train_epoch_ch3(net, train_iter, loss, updater):  #@save
    """The training loop defined in Chapter 3."""
    # Set the model to training mode
    if isinstance(net, torch.nn.Module):
        net.train()
    # Sum of training loss, sum of training accuracy, no. of examples
    metric = Accumulator(3)
    for X, y in train_iter:
        # Compute gradients and update parameters
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, torch.optim.Optimizer):
            # Using PyTorch in-built optimizer & loss criterion
            updater.zero_grad()
            l.mean().backward()
            updater.step()
        else:
            # Using custom built optimizer & loss criterion
            l.sum().backward()
            updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    # Return training loss and training accuracy
    return metric[0] / metric[2], metric[1] / metric[2]

def train_ch3(net, train_iter, test_iter, loss, num_epochs, updater):  #@save
    """Train a model (defined in Chapter 3)."""
    for epoch in range(num_epochs):
        train_metrics = train_epoch_ch3(net, train_iter, loss, updater)
        test_acc = evaluate_accuracy(net, test_iter)
        print(epoch + 1, train_metrics + (test_acc,))
    train_loss, train_acc = train_metrics

def sgd(params, lr, batch_size):  #@save
    """Minibatch stochastic gradient descent."""
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()

lr = 0.1

def updater(batch_size):
    return sgd([W, b], lr, batch_size)

num_epochs = 3
train_ch3(net, train_iter, test_iter, cross_entropy, num_epochs, updater)
