# Source: d2l-ai/d2l-en chapter_linear-networks/linear-regression-concise.md on the r0.17 branch, the PyTorch
#   tab ("Dive into Deep Learning" 0.17, §3.3 Concise Implementation of Linear Regression, by Zhang, Lipton, Li
#   and Smola; https://github.com/d2l-ai/d2l-en; sample code under the MIT-0 licence of LICENSE-SAMPLECODE).
# Category: DataLoader and TensorDataset — shuffle; nn.Sequential, normal_/fill_ init, MSELoss, SGD
# Adaptations:
#  - `from d2l import torch as d2l` is not available: d2l.synthetic_data is the function §3.2 defines
#    (copied here), d2l.tensor -> torch.tensor, d2l.reshape(x, s) -> x.reshape(s).
#  - torch.manual_seed(0) added (the book is unseeded; it also drives DataLoader's shuffle); 1000 examples
#    cut to 200; `next(iter(data_iter))`, a bare notebook expression, is printed.
import numpy as np
import torch
from torch.utils import data

torch.manual_seed(0)

def synthetic_data(w, b, num_examples):  #@save
    """Generate y = Xw + b + noise."""
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))

true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 200)

def load_array(data_arrays, batch_size, is_train=True):  #@save
    """Construct a PyTorch data iterator."""
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)

batch_size = 10
data_iter = load_array((features, labels), batch_size)

print(next(iter(data_iter)))

# `nn` is an abbreviation for neural networks
from torch import nn
net = nn.Sequential(nn.Linear(2, 1))

net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)

loss = nn.MSELoss()

trainer = torch.optim.SGD(net.parameters(), lr=0.03)

num_epochs = 3
for epoch in range(num_epochs):
    for X, y in data_iter:
        l = loss(net(X) ,y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f'epoch {epoch + 1}, loss {l:f}')

w = net[0].weight.data
print('error in estimating w:', true_w - w.reshape(true_w.shape))
b = net[0].bias.data
print('error in estimating b:', true_b - b)
