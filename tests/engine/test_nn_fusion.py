"""torch.nn.utils.fuse_conv_bn_eval / fuse_linear_bn_eval (and their weights' functions) and skip_init against
torch: the fused module's printed weights, that it gives what the pair gave, and the errors."""
from difftest import assert_same

PROGRAM = """
import torch
import torch.nn as nn
torch.manual_seed(0)
conv, bn = nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3)
x = torch.randn(4, 2, 5, 5)
bn(conv(x))
conv.eval(); bn.eval()
fused = torch.nn.utils.fuse_conv_bn_eval(conv, bn)
print(fused, (fused(x) - bn(conv(x))).abs().max() < 1e-5, fused.weight.requires_grad)
lin, bn1 = nn.Linear(3, 4), nn.BatchNorm1d(4)
bn1(lin(torch.randn(8, 3)))
lin.eval(); bn1.eval()
fl = torch.nn.utils.fuse_linear_bn_eval(lin, bn1)
z = torch.randn(2, 3)
print(fl.weight, fl.bias, (fl(z) - bn1(lin(z))).abs().max() < 1e-5)
ct, bnt = nn.ConvTranspose2d(2, 3, 2), nn.BatchNorm2d(3)
ct.eval(); bnt.eval()
print(torch.nn.utils.fuse_conv_bn_eval(ct, bnt, transpose=True).weight.shape)
m = torch.nn.utils.skip_init(nn.Linear, 5, 1)
print(m.weight.shape, m.weight.requires_grad, m.weight.is_meta)
for bad in (lambda: torch.nn.utils.fuse_conv_bn_eval(nn.Conv2d(1, 1, 1), nn.BatchNorm2d(1)),
            lambda: torch.nn.utils.skip_init(dict), lambda: torch.nn.utils.skip_init(nn.ReLU)):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
"""


def test_fusing_batch_norm_and_skipping_init_as_torch():
    assert_same(PROGRAM)
