# Source: d2l-ai/d2l-en chapter_multilayer-perceptrons/mlp-concise.md, stored version at commit 02dc559, the
#   PyTorch tab ("Dive into Deep Learning", §5.3 Concise Implementation of Multilayer Perceptrons, by Zhang,
#   Lipton, Li and Smola; sample code under the MIT-0 licence of LICENSE-SAMPLECODE).
# Category: nn.Module — nn.Sequential(Flatten, Linear, ReLU, Linear), net.apply(init_weights), SGD
# Adaptations:
#  - no download: the Fashion-MNIST loader becomes a DataLoader (batch 64) over 256 random 1x28x28 images with
#    random labels, drawn after torch.manual_seed(0) (the book is unseeded, and init_weights draws too).
#  - d2l.train_ch3 becomes a short loop printing each epoch's mean loss; epochs cut from 10 to 2.
import torch
from torch import nn

torch.manual_seed(0)
train_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(
    torch.rand(256, 1, 28, 28), torch.randint(0, 10, (256,))), 64, shuffle=True)

net = nn.Sequential(nn.Flatten(),
                    nn.Linear(784, 256),
                    nn.ReLU(),
                    nn.Linear(256, 10))

def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)

net.apply(init_weights);
print(net)

batch_size, lr, num_epochs = 64, 0.1, 2
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=lr)

for epoch in range(num_epochs):
    total = 0.0
    for X, y in train_iter:
        l = loss(net(X), y)
        trainer.zero_grad()
        l.mean().backward()
        trainer.step()
        total += float(l.sum())
    print(f'epoch {epoch + 1}, loss {total / 256:.6f}')
print(net[1].weight.grad.norm(), net[3].bias)
