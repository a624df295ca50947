"""Small pieces of torch's surface against torch: nn.Buffer (a tensor a Module registers as a buffer when assigned,
persistent or not), torch.newaxis, torch.linalg.matmul, the device flags a CPU tensor answers False,
torch.adaptive_max_pool1d and torch.max_pool1d_with_indices."""
from difftest import assert_same

PROGRAM = """
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.b = nn.Buffer(torch.ones(2))
        self.c = nn.Buffer(torch.ones(1), persistent=False)
        self.d = nn.Buffer(torch.ones(1, requires_grad=True))


m = M()
print(dict(m.named_buffers()), list(m.state_dict()), type(m.b), m.b.persistent, m.d.requires_grad)
print(isinstance(m.b, nn.Buffer), isinstance(torch.ones(1), nn.Buffer), type(nn.Buffer()), nn.Buffer())
try:
    m.b = 3
except TypeError as e:
    print(e)
m.b = torch.zeros(3)
m.e = nn.Buffer(torch.ones(1), persistent=False)
print(m.b, list(m.state_dict()), len(list(m.buffers())), m)
x = torch.arange(4.0).reshape(2, 2).requires_grad_()
y = torch.linalg.matmul(x, x)
print(y, y.grad_fn.name(), x[:, torch.newaxis].shape, torch.newaxis)
print(x.is_mps, x.is_xpu, x.is_ipu, x.is_xla, x.is_vulkan, x.is_maia, x.is_mtia, x.is_sparse_csr)
"""


def test_buffers_newaxis_linalg_matmul_and_device_flags_as_torch():
    assert_same(PROGRAM)


POOLS = """
import torch
y = torch.arange(6.).view(1, 1, 6).requires_grad_()
a = torch.adaptive_max_pool1d(y, 2)
b = torch.max_pool1d_with_indices(y, 2, 2, 0, 1, False)
c = torch.max_pool1d_with_indices(y, 3)
print(a, b, c)
(a[0].sum() + c[0].sum()).backward()
print(y.grad)
"""


def test_torch_spellings_of_1d_max_pools_as_torch():
    assert_same(POOLS)
