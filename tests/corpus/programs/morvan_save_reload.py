# Source: MorvanZhou/PyTorch-Tutorial tutorial-contents/304_save_reload.py (Morvan Zhou, MIT licence), at commit
#   dbe154a.
# Category: nn.Module — two ways to save a net: torch.save of the whole nn.Sequential and of its state_dict, then
#   torch.load of each (the whole net needs weights_only=False since PyTorch 2.6) and load_state_dict into a new
#   net; nn.Sequential of Linear/ReLU trained with SGD on y = x^2 plus noise
# Adaptations:
#  - torch.manual_seed(1) is uncommented;
#  - the files 'net.pkl' and 'net_params.pkl' become io.BytesIO buffers (seek(0) before each load);
#  - the whole net is loaded with torch.load(..., weights_only=False), as PyTorch 2.6+'s error message tells a
#    learner to do (the original's torch.load('net.pkl') raises UnpicklingError there);
#  - the plots go: each net's prediction for the first 3 points and its loss are printed instead.
import io

import torch

torch.manual_seed(1)    # reproducible

# fake data
x = torch.unsqueeze(torch.linspace(-1, 1, 100), dim=1)  # x data (tensor), shape=(100, 1)
y = x.pow(2) + 0.2*torch.rand(x.size())  # noisy y data (tensor), shape=(100, 1)

net_pkl, net_params_pkl = io.BytesIO(), io.BytesIO()


def show(title, prediction):
    print(title, prediction[:3].data.numpy().ravel(), torch.nn.functional.mse_loss(prediction, y).item())


def save():
    # save net1
    net1 = torch.nn.Sequential(
        torch.nn.Linear(1, 10),
        torch.nn.ReLU(),
        torch.nn.Linear(10, 1)
    )
    optimizer = torch.optim.SGD(net1.parameters(), lr=0.5)
    loss_func = torch.nn.MSELoss()

    for t in range(100):
        prediction = net1(x)
        loss = loss_func(prediction, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    show('Net1', prediction)

    # 2 ways to save the net
    torch.save(net1, net_pkl)  # save entire net
    torch.save(net1.state_dict(), net_params_pkl)   # save only the parameters


def restore_net():
    # restore entire net1 to net2
    net_pkl.seek(0)
    net2 = torch.load(net_pkl, weights_only=False)
    prediction = net2(x)
    show('Net2', prediction)


def restore_params():
    # restore only the parameters in net1 to net3
    net3 = torch.nn.Sequential(
        torch.nn.Linear(1, 10),
        torch.nn.ReLU(),
        torch.nn.Linear(10, 1)
    )

    # copy net1's parameters into net3
    net_params_pkl.seek(0)
    net3.load_state_dict(torch.load(net_params_pkl))
    prediction = net3(x)
    show('Net3', prediction)

# save net1
save()

# restore entire net (may slow)
restore_net()

# restore only the net parameters
restore_params()
