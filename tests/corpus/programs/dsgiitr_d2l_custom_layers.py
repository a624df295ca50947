# Source: dsgiitr/d2l-pytorch Ch07_Deep_Learning_Computation/Custom_Layers.ipynb (Dive into Deep Learning ported
#   to PyTorch without the d2l package, Apache-2.0), commit dc9d8be.
# Category: nn.Module — custom layers: a parameterless CenteredLayer (x - x.mean()) in a Sequential, an
#   nn.ParameterDict updated with nn.Parameter(Variable(...)) and printed, a MyDense layer holding plain
#   Variables (not parameters) used through .data in torch.matmul + F.relu, the bound `parameters` method printed
# Adaptations:
#  - written after the notebook's code cells, in order (the search tool's terms keep its text out of commits):
#    the same classes and calls, in other words; each cell's displayed last expression is printed;
#  - seeded (torch.manual_seed(0)).
import torch
from torch import nn
from torch.autograd import Variable
import torch.nn.functional as F

torch.manual_seed(0)


class CenteredLayer(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x - x.mean()


layer = CenteredLayer()
print(layer(torch.FloatTensor([1, 2, 3, 4, 5])))
net = nn.Sequential(nn.Linear(8, 128), CenteredLayer())
y = net(torch.rand(4, 8))
print(y.mean())

params = torch.nn.ParameterDict()
params.update({"param2": nn.Parameter(Variable(torch.ones(2, 3)))})
print(params)


class MyDense(nn.Module):
    def __init__(self, units, in_units):
        super().__init__()
        self.weight = Variable(torch.ones(in_units, units))
        self.bias = Variable(torch.ones(units,))

    def forward(self, x):
        linear = torch.matmul(x, self.weight.data) + self.bias.data
        return F.relu(linear)


dense = MyDense(units=3, in_units=5)
print(dense.parameters)
print(dense(torch.rand(2, 5)))
net = nn.Sequential(MyDense(8, in_units=64), MyDense(1, in_units=8))
print(net(torch.rand(2, 64)))
