# Source: ShusenTang/Dive-into-DL-PyTorch code/chapter04_DL_computation/4.4_custom-layer.ipynb (Tang Shusen, the PyTorch edition of
#   "Dive into Deep Learning" in Chinese, Apache-2.0), commit 09c8bac.
# Category: nn.Module — custom layers without and with parameters: nn.ParameterList appended to, nn.ParameterDict
#   updated, their reprs, a forward with a keyword choice, nested in nn.Sequential
# Adaptations:
#  - the notebook's code cells, in order; `print(torch.__version__)` goes (torch's build tag is not the engine's);
#  - torch.manual_seed(0) added; the two cells that showed their last expression print it.
import torch
from torch import nn


torch.manual_seed(0)

class CenteredLayer(nn.Module):
    def __init__(self, **kwargs):
        super(CenteredLayer, self).__init__(**kwargs)
    def forward(self, x):
        return x - x.mean()

layer = CenteredLayer()
print(layer(torch.tensor([1, 2, 3, 4, 5], dtype=torch.float)))

net = nn.Sequential(nn.Linear(8, 128), CenteredLayer())

y = net(torch.rand(4, 8))
print(y.mean().item())

class MyListDense(nn.Module):
    def __init__(self):
        super(MyListDense, self).__init__()
        self.params = nn.ParameterList([nn.Parameter(torch.randn(4, 4)) for i in range(3)])
        self.params.append(nn.Parameter(torch.randn(4, 1)))

    def forward(self, x):
        for i in range(len(self.params)):
            x = torch.mm(x, self.params[i])
        return x
net = MyListDense()
print(net)

class MyDictDense(nn.Module):
    def __init__(self):
        super(MyDictDense, self).__init__()
        self.params = nn.ParameterDict({
                'linear1': nn.Parameter(torch.randn(4, 4)),
                'linear2': nn.Parameter(torch.randn(4, 1))
        })
        self.params.update({'linear3': nn.Parameter(torch.randn(4, 2))}) # 新增

    def forward(self, x, choice='linear1'):
        return torch.mm(x, self.params[choice])

net = MyDictDense()
print(net)

x = torch.ones(1, 4)
print(net(x, 'linear1'))
print(net(x, 'linear2'))
print(net(x, 'linear3'))

net = nn.Sequential(
    MyDictDense(),
    MyListDense(),
)
print(net)
print(net(x))
