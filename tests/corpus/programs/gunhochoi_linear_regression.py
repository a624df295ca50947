# Source: GunhoChoi/Kind-PyTorch-Tutorial 03_Linear_Regression/Linear_Regression.ipynb (Gunho Choi, "Kind PyTorch
#   Tutorial"), commit 6e98e47.
# Category: training loops — a 2017 notebook on today's PyTorch: the deprecated init.normal/init.uniform (warnings)
#   filling FloatTensors, nn.Linear with L1Loss and SGD, and `loss.data.numpy()[0]` on a 0-dim loss, which stops it
# Ends with: IndexError: too many indices for array: array is 0-dimensional, but 1 were indexed
# Adaptations:
#  - the notebook's code cells, in order; torch.manual_seed(0) added;
#  - num_data 1000 -> 16 (num_epoch stays 1000: the run stops in the first epoch).
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.init as init
from torch.autograd import Variable

torch.manual_seed(0)
num_data = 16
num_epoch = 1000

noise = init.normal(torch.FloatTensor(num_data,1),std=0.2)
x = init.uniform(torch.Tensor(num_data,1),-10,10)
y = 2*x+3
y_noise = 2*(x+noise)+3
model = nn.Linear(1,1)
output = model(Variable(x))

loss_func = nn.L1Loss()
optimizer = optim.SGD(model.parameters(),lr=0.01)
# train
loss_arr =[]
label = Variable(y_noise)
for i in range(num_epoch):
    output = model(Variable(x))
    optimizer.zero_grad()

    loss = loss_func(output,label)
    loss.backward()
    optimizer.step()
    if i % 10 == 0:
        print(loss)
    loss_arr.append(loss.data.numpy()[0])
param_list = list(model.parameters())
print(param_list[0].data,param_list[1].data)
