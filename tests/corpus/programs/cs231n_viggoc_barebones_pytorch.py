# Source: ViggoC/CS231n assignment2/PyTorch.ipynb (Stanford CS231n, Spring 2019 assignment 2, "Part II.
#   Barebones PyTorch", with the student's filled-in TODOs), commit f5856b8.
# Category: training loops — barebones PyTorch: flatten by x.view(N, -1), a two-layer net of x.mm(w) + F.relu and
#   a three-layer ConvNet of F.conv2d (padding 2 and 1), weights from random_weight (torch.randn(shape) * np.sqrt(2. /
#   fan_in) with fan_in an np.prod, then w.requires_grad = True) and zero_weight (torch.zeros(..., requires_grad=
#   True)), SGD by hand under torch.no_grad (w -= lr * w.grad; w.grad.zero_()), F.cross_entropy, accuracy by
#   scores.max(1) and '%d' of a tensor
# Adaptations:
#  - written after the notebook's Part II code cells, in order (the search tool's terms keep its text out of
#    commits): the same functions and calls, in other words; the displayed random_weight((3, 5)) is printed;
#  - torchvision's CIFAR-10 (a download) with its SubsetRandomSampler loaders becomes a small TensorDataset subclass
#    of the same image shape (3x32x32, torch.rand images, torch.randint labels) with CIFAR-10's `train` flag: 32
#    training images in batches of 16, 32 validation images; USE_GPU's device is the CPU; seeded;
#  - hidden_layer_size 4000 -> 40, print_every 100 -> 1 (one pass over the two training batches per model).
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
import numpy as np

torch.manual_seed(0)


class CIFAR10Like(TensorDataset):
    def __init__(self, n, train):
        super().__init__(torch.rand(n, 3, 32, 32), torch.randint(0, 10, (n,)))
        self.train = train


loader_train = DataLoader(CIFAR10Like(32, True), batch_size=16)
loader_val = DataLoader(CIFAR10Like(32, True), batch_size=16)

USE_GPU = True
dtype = torch.float32
if USE_GPU and torch.cuda.is_available():
    device = torch.device('cuda')
else:
    device = torch.device('cpu')
print_every = 1
print('using device:', device)


def flatten(x):
    N = x.shape[0]
    return x.view(N, -1)


def test_flatten():
    x = torch.arange(12).view(2, 1, 3, 2)
    print('Before flattening: ', x)
    print('After flattening: ', flatten(x))


test_flatten()


def two_layer_fc(x, params):
    x = flatten(x)
    w1, w2 = params
    x = F.relu(x.mm(w1))
    x = x.mm(w2)
    return x


def two_layer_fc_test():
    hidden_layer_size = 42
    x = torch.zeros((64, 50), dtype=dtype)
    w1 = torch.zeros((50, hidden_layer_size), dtype=dtype)
    w2 = torch.zeros((hidden_layer_size, 10), dtype=dtype)
    scores = two_layer_fc(x, [w1, w2])
    print(scores.size())


two_layer_fc_test()


def three_layer_convnet(x, params):
    conv_w1, conv_b1, conv_w2, conv_b2, fc_w, fc_b = params
    x = F.conv2d(x, conv_w1, conv_b1, padding=2)
    x = F.relu(x)
    x = F.conv2d(x, conv_w2, conv_b2, padding=1)
    x = F.relu(x)
    x = flatten(x)
    scores = x.mm(fc_w) + fc_b
    return scores


def three_layer_convnet_test():
    x = torch.zeros((64, 3, 32, 32), dtype=dtype)
    conv_w1 = torch.zeros((6, 3, 5, 5), dtype=dtype)
    conv_b1 = torch.zeros((6,))
    conv_w2 = torch.zeros((9, 6, 3, 3), dtype=dtype)
    conv_b2 = torch.zeros((9,))
    fc_w = torch.zeros((9 * 32 * 32, 10))
    fc_b = torch.zeros(10)
    scores = three_layer_convnet(x, [conv_w1, conv_b1, conv_w2, conv_b2, fc_w, fc_b])
    print(scores.size())


three_layer_convnet_test()


def random_weight(shape):
    if len(shape) == 2:
        fan_in = shape[0]
    else:
        fan_in = np.prod(shape[1:])
    w = torch.randn(shape, device=device, dtype=dtype) * np.sqrt(2. / fan_in)
    w.requires_grad = True
    return w


def zero_weight(shape):
    return torch.zeros(shape, device=device, dtype=dtype, requires_grad=True)


print(random_weight((3, 5)))


def check_accuracy_part2(loader, model_fn, params):
    split = 'val' if loader.dataset.train else 'test'
    print('Checking accuracy on the %s set' % split)
    num_correct, num_samples = 0, 0
    with torch.no_grad():
        for x, y in loader:
            x = x.to(device=device, dtype=dtype)
            y = y.to(device=device, dtype=torch.int64)
            scores = model_fn(x, params)
            _, preds = scores.max(1)
            num_correct += (preds == y).sum()
            num_samples += preds.size(0)
        acc = float(num_correct) / num_samples
        print('Got %d / %d correct (%.2f%%)' % (num_correct, num_samples, 100 * acc))


def train_part2(model_fn, params, learning_rate):
    for t, (x, y) in enumerate(loader_train):
        x = x.to(device=device, dtype=dtype)
        y = y.to(device=device, dtype=torch.long)
        scores = model_fn(x, params)
        loss = F.cross_entropy(scores, y)
        loss.backward()
        with torch.no_grad():
            for w in params:
                w -= learning_rate * w.grad
                w.grad.zero_()
        if t % print_every == 0:
            print('Iteration %d, loss = %.4f' % (t, loss.item()))
            check_accuracy_part2(loader_val, model_fn, params)
            print()


hidden_layer_size = 40
learning_rate = 1e-2
w1 = random_weight((3 * 32 * 32, hidden_layer_size))
w2 = random_weight((hidden_layer_size, 10))
train_part2(two_layer_fc, [w1, w2], learning_rate)

learning_rate = 3e-3
channel_1 = 32
channel_2 = 16
conv_w1 = random_weight((channel_1, 3, 5, 5))
conv_b1 = zero_weight((channel_1,))
conv_w2 = random_weight((channel_2, channel_1, 3, 3))
conv_b2 = zero_weight((channel_2,))
fc_w = random_weight((channel_2 * 32 * 32, 10))
fc_b = zero_weight(10)
params = [conv_w1, conv_b1, conv_w2, conv_b2, fc_w, fc_b]
train_part2(three_layer_convnet, params, learning_rate)
