# Source: pytorch/tutorials beginner_source/introyt/autogradyt_tutorial.py, "Autograd in Training"
#   ("The Fundamentals of Autograd", Introduction to PyTorch on YouTube; https://github.com/pytorch/tutorials,
#   BSD-3-Clause), commit 199e953.
# Category: grad accumulation, retain_graph, retain_grad — accumulation and zero_grad
# Adaptations:
#  - torch.manual_seed(0) added before the inputs and the model are drawn (the original is unseeded).
#  - the last line printed `model.layer2.weight.grad[0][0:10]` after optimizer.zero_grad(); since torch 2.0
#    zero_grad sets .grad to None, so that raised a TypeError; it prints `model.layer2.weight.grad` instead.
import torch

torch.manual_seed(0)

BATCH_SIZE = 16
DIM_IN = 1000
HIDDEN_SIZE = 100
DIM_OUT = 10

class TinyModel(torch.nn.Module):

    def __init__(self):
        super(TinyModel, self).__init__()
        
        self.layer1 = torch.nn.Linear(1000, 100)
        self.relu = torch.nn.ReLU()
        self.layer2 = torch.nn.Linear(100, 10)
    
    def forward(self, x):
        x = self.layer1(x)
        x = self.relu(x)
        x = self.layer2(x)
        return x
    
some_input = torch.randn(BATCH_SIZE, DIM_IN, requires_grad=False)
ideal_output = torch.randn(BATCH_SIZE, DIM_OUT, requires_grad=False)

model = TinyModel()

print(model.layer2.weight[0][0:10]) # just a small slice
print(model.layer2.weight.grad)

optimizer = torch.optim.SGD(model.parameters(), lr=0.001)

prediction = model(some_input)

loss = (ideal_output - prediction).pow(2).sum()
print(loss)

loss.backward()
print(model.layer2.weight[0][0:10])
print(model.layer2.weight.grad[0][0:10])

optimizer.step()
print(model.layer2.weight[0][0:10])
print(model.layer2.weight.grad[0][0:10])

print(model.layer2.weight.grad[0][0:10])

for i in range(0, 5):
    prediction = model(some_input)
    loss = (ideal_output - prediction).pow(2).sum()
    loss.backward()
    
print(model.layer2.weight.grad[0][0:10])

optimizer.zero_grad()

print(model.layer2.weight.grad)
