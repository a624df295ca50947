# Source: d2l-ai/d2l-en chapter_multilayer-perceptrons/weight-decay.md, stored version at commit acb0d6f, the
#   PyTorch tab ("Dive into Deep Learning", §4.5 Weight Decay, 0.17 edition, by Zhang, Lipton, Li and Smola;
#   sample code under the MIT-0 licence of LICENSE-SAMPLECODE).
# Category: training loops — synthetic data, L2 penalty by hand, and weight_decay in SGD's parameter groups
# Adaptations:
#  - torch.manual_seed(0) added (the book is unseeded); d2l.synthetic_data, d2l.load_array, d2l.linreg,
#    d2l.squared_loss, d2l.sgd and d2l.evaluate_loss are the book's own functions, copied here; the Animator plot
#    becomes a print of the final losses and of w's norm; epochs cut from 100 to 20.
import torch
from torch import nn

torch.manual_seed(0)

def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))

def load_array(data_arrays, batch_size, is_train=True):
    dataset = torch.utils.data.TensorDataset(*data_arrays)
    return torch.utils.data.DataLoader(dataset, batch_size, shuffle=is_train)

def linreg(X, w, b):
    return torch.matmul(X, w) + b

def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2

def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()

def evaluate_loss(net, data_iter, loss):
    total, n = 0.0, 0
    for X, y in data_iter:
        l = loss(net(X), y)
        total += float(l.sum())
        n += l.numel()
    return total / n

n_train, n_test, num_inputs, batch_size = 20, 100, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
train_data = synthetic_data(true_w, true_b, n_train)
train_iter = load_array(train_data, batch_size)
test_data = synthetic_data(true_w, true_b, n_test)
test_iter = load_array(test_data, batch_size, is_train=False)

def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]

def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2

def train(lambd):
    w, b = init_params()
    net, loss = lambda X: linreg(X, w, b), squared_loss
    num_epochs, lr = 20, 0.003
    for epoch in range(num_epochs):
        for X, y in train_iter:
            # The L2 norm penalty term has been added, and broadcasting
            # makes `l2_penalty(w)` a vector whose length is `batch_size`
            l = loss(net(X), y) + lambd * l2_penalty(w)
            l.sum().backward()
            sgd([w, b], lr, batch_size)
    print('train', evaluate_loss(net, train_iter, loss), 'test', evaluate_loss(net, test_iter, loss))
    print('L2 norm of w:', torch.norm(w).item())

train(lambd=0)
train(lambd=3)

def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction='none')
    num_epochs, lr = 20, 0.003
    # The bias parameter has not decayed
    trainer = torch.optim.SGD([
        {"params":net[0].weight,'weight_decay': wd},
        {"params":net[0].bias}], lr=lr)
    for epoch in range(num_epochs):
        for X, y in train_iter:
            trainer.zero_grad()
            l = loss(net(X), y)
            l.mean().backward()
            trainer.step()
    print('train', evaluate_loss(net, train_iter, loss), 'test', evaluate_loss(net, test_iter, loss))
    print('L2 norm of w:', net[0].weight.norm().item())

train_concise(0)
train_concise(3)
