# A learner's own training script: their nn.Module, optim.Adam and F.mse_loss, 2,000 iterations over 2,000
# points (issue 13's "done when"). Written for this benchmark.
import math

import torch
import torch.nn.functional as F
from torch import nn, optim

torch.manual_seed(0)


class Curve(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(1, 8)
        self.out = nn.Linear(8, 1)

    def forward(self, x):
        return self.out(torch.tanh(self.hidden(x)))


x = torch.linspace(-math.pi, math.pi, 2000).unsqueeze(1)
y = torch.sin(x)
model = Curve()
optimizer = optim.Adam(model.parameters(), lr=0.01)
for step in range(2000):
    loss = F.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 200 == 199:
        print(step, round(loss.item(), 5))
