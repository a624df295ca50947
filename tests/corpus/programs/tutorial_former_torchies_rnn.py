# Source: pytorch/tutorials beginner_source/former_torchies/nnft_tutorial.py, "Example 2: Recurrent Net"
#   ("nn package" for former Torch users; https://github.com/pytorch/tutorials, BSD-3-Clause), commit 0a7e686.
# Category: nn.Module — weight sharing across time steps
# Adaptations:
#  - torch.manual_seed(0) added (the original is unseeded); the example ends with loss.backward() and prints
#    nothing, so the loss and one gradient norm are printed at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)


class RNN(nn.Module):

    # you can also accept arguments in your model constructor
    def __init__(self, data_size, hidden_size, output_size):
        super(RNN, self).__init__()

        self.hidden_size = hidden_size
        input_size = data_size + hidden_size

        self.i2h = nn.Linear(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)

    def forward(self, data, last_hidden):
        input = torch.cat((data, last_hidden), 1)
        hidden = self.i2h(input)
        output = self.h2o(hidden)
        return hidden, output


rnn = RNN(50, 20, 10)

loss_fn = nn.MSELoss()

batch_size = 10
TIMESTEPS = 5

# Create some fake data
batch = torch.randn(batch_size, 50)
hidden = torch.zeros(batch_size, 20)
target = torch.zeros(batch_size, 10)

loss = 0
for t in range(TIMESTEPS):
    # yes! you can reuse the same network several times,
    # sum up the losses, and call backward!
    hidden, output = rnn(batch, hidden)
    loss += loss_fn(output, target)
loss.backward()
print(loss)
print(rnn.i2h.weight.grad.norm())
