# Source: d2l-ai/d2l-en chapter_convolutional-neural-networks/lenet.md, stored version at commit 9d9ad4b, the
#   PyTorch tab ("Dive into Deep Learning", §7.6 Convolutional Neural Networks (LeNet), 0.17 edition, by Zhang,
#   Lipton, Li and Smola; sample code under the MIT-0 licence of LICENSE-SAMPLECODE).
# Category: training loops — LeNet as nn.Sequential (Conv2d, Sigmoid, AvgPool2d, Flatten, Linear), xavier init
# Adaptations:
#  - no download: Fashion-MNIST becomes 64 random 1x28x28 images with random labels in a DataLoader (batch 16),
#    drawn after torch.manual_seed(0) (the book is unseeded); train_ch6's init (xavier_uniform_), SGD and
#    CrossEntropyLoss are kept, its timer, GPU and Animator are dropped, epochs cut from 10 to 2, lr 0.9.
import torch
from torch import nn

torch.manual_seed(0)

net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))

X = torch.rand(size=(1, 1, 28, 28), dtype=torch.float32)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__,'output shape: \t',X.shape)

train_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(
    torch.rand(64, 1, 28, 28), torch.randint(0, 10, (64,))), 16, shuffle=True)

def train_ch6(net, train_iter, num_epochs, lr):
    def init_weights(m):
        if type(m) == nn.Linear or type(m) == nn.Conv2d:
            nn.init.xavier_uniform_(m.weight)
    net.apply(init_weights)
    optimizer = torch.optim.SGD(net.parameters(), lr=lr)
    loss = nn.CrossEntropyLoss()
    for epoch in range(num_epochs):
        net.train()
        total, correct, n = 0.0, 0, 0
        for i, (X, y) in enumerate(train_iter):
            optimizer.zero_grad()
            y_hat = net(X)
            l = loss(y_hat, y)
            l.backward()
            optimizer.step()
            with torch.no_grad():
                total += l * X.shape[0]
                correct += int((y_hat.argmax(axis=1) == y).sum())
                n += X.shape[0]
        print(f'epoch {epoch + 1}: loss {total / n:.4f}, train acc {correct / n:.3f}')

train_ch6(net, train_iter, 2, 0.9)
print(net[0].weight.grad.shape, net[0].weight.grad.abs().sum())
