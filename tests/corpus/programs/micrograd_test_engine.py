# Source: karpathy/micrograd test/test_engine.py (https://github.com/karpathy/micrograd, by Andrej Karpathy,
#   MIT licence), commit 2e696df.
# Category: autograd basics — float64 scalars, relu, tanh, exp
# Adaptations:
#  - only the PyTorch half of each test: the micrograd Value half is dropped, and the asserts that compared
#    the two become prints of PyTorch's forward values and gradients (ypt.data.item(), xpt.grad.item(), ...).
#  - test_unary_tensor_fn loses its micrograd argument (value_fn); the test functions are called at the end
#    (pytest collected them).
import torch

def test_sanity_check():

    x = torch.Tensor([-4.0]).double()
    x.requires_grad = True
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xpt, ypt = x, y

    # forward pass went well
    print(ypt.data.item())
    # backward pass went well
    print(xpt.grad.item())

def test_more_ops():

    a = torch.Tensor([-4.0]).double()
    b = torch.Tensor([2.0]).double()
    a.requires_grad = True
    b.requires_grad = True
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    apt, bpt, gpt = a, b, g

    tol = 1e-6
    # forward pass went well
    print(gpt.data.item())
    # backward pass went well
    print(apt.grad.item())
    print(bpt.grad.item())

def test_unary_tensor_fns():
    def test_unary_tensor_fn(tensor_fn, xs, tol=1e-6):
        for x in xs:
            xt = torch.Tensor([x]).double()
            xt.requires_grad = True
            yt = tensor_fn(xt)
            yt.backward()

            # forward pass went well
            print(yt.data.item())
            # backward pass went well
            print(xt.grad.item())

    test_unary_tensor_fn(torch.Tensor.tanh, [-1., .123, 2.])
    test_unary_tensor_fn(torch.Tensor.exp, [-1., .123, 2.])

test_sanity_check()
test_more_ops()
test_unary_tensor_fns()
