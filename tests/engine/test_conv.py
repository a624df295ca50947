"""Convolution and pooling against PyTorch in float32 (the float64 finite-difference and double-backward checks
are test_gradcheck.CASES): values and grads of F.conv*/conv_transpose* for strides, padding, dilation and groups
(within float32 rounding of the sums: torch's oneDNN kernels sum in their own blocks), max_pool exactly with its
indices, avg_pool exactly (ATen's window order), and a LeNet program printed as torch prints it."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import load_engine, printed_alike, run_both, to_numpy, torch

CONVS = [
    "F.conv2d(x, w, b)",
    "F.conv2d(x, w, b, stride=2, padding=1)",
    "F.conv2d(x, w, None, stride=(1, 2), padding=(2, 0), dilation=(2, 1))",
    "F.conv2d(x, w, b, padding='same')",
    "F.conv2d(x[0], w, b, padding='valid')",
    "F.conv2d(x, w[:, :1].contiguous(), None, groups=3)",
    "F.conv1d(x.flatten(2), w.flatten(2), b, stride=3, padding=2)",
    "F.conv_transpose2d(x, w.transpose(0, 1).contiguous(), b, stride=2, padding=1, output_padding=1)",
    "F.conv_transpose1d(x.flatten(2), w[:3].flatten(2), None, dilation=2, groups=3)",
    "F.conv3d(x.unsqueeze(0), w.unsqueeze(2), b)",
    "torch.conv2d(x, w, b, 1, 1, 1, 1)",
]


def _conv_run(T, expr):
    g = np.random.default_rng(3)
    x = T.tensor(g.uniform(-1, 1, (3, 3, 9, 8)).astype(np.float32), requires_grad=True)
    w = T.tensor(g.uniform(-1, 1, (6, 3, 3, 3)).astype(np.float32), requires_grad=True)
    b = T.tensor(g.uniform(-1, 1, (6,)).astype(np.float32), requires_grad=True)
    out = eval(expr, {"torch": T, "F": T.nn.functional, "x": x, "w": w, "b": b})  # noqa: S307 - the test's own
    weights = T.tensor(g.uniform(0.5, 1.5, tuple(out.shape)).astype(np.float32))
    (out * weights).sum().backward()
    return [to_numpy(t) for t in (out, x.grad, w.grad)] + [None if b.grad is None else to_numpy(b.grad)]


@pytest.mark.parametrize("expr", CONVS)
def test_conv_values_and_grads_in_float32(expr):
    want, got = _conv_run(torch, expr), _conv_run(load_engine(), expr)
    for name, g, w in zip(("out", "x.grad", "w.grad", "b.grad"), got, want):
        assert (g is None) == (w is None), name
        if w is not None:
            assert g.dtype == w.dtype == np.float32 and g.shape == w.shape, name
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=2e-6 * np.abs(w).max(initial=1), err_msg=name)


POOLS = [
    "F.max_pool2d(x, 2)",
    "F.max_pool2d(x, (3, 2), stride=(2, 1), padding=1, dilation=(1, 2), ceil_mode=True, return_indices=True)",
    "F.max_pool2d(x[0], 3, 2, 1, return_indices=True)",
    "F.max_pool1d(x[0], 3, return_indices=True)",
    "nn.MaxPool2d(3, stride=2, ceil_mode=True)(x)",
    "F.avg_pool2d(x, 2)",
    "F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True)",
    "F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)",
    "F.avg_pool2d(x[0], (2, 3), divisor_override=5)",
    "nn.AvgPool1d(3, stride=2, padding=1)(x[0])",
    "F.max_pool2d(torch.arange(64).reshape(1, 1, 8, 8), 2)",
    "F.avg_pool2d(torch.arange(64).reshape(1, 1, 8, 8), 3)",
    "F.max_pool2d(torch.tensor([[[[1.0, float('nan')], [float('nan'), 5.0]]]]), 2, return_indices=True)",
    "F.max_pool2d(torch.tensor([[[[1.0, 1.0], [1.0, 1.0]]]]), 2, return_indices=True)",
]


def _pool_run(T, expr):
    g = np.random.default_rng(5)
    x = T.tensor(g.normal(0, 1, (2, 3, 7, 9)).astype(np.float32), requires_grad=True)
    out = eval(expr, {"torch": T, "F": T.nn.functional, "nn": T.nn, "x": x})  # noqa: S307 - the test's own
    values, indices = out if isinstance(out, tuple) else (out, None)
    grad = None
    if values.requires_grad:
        weights = T.tensor(g.uniform(0.5, 1.5, tuple(values.shape)).astype(np.float32))
        grad, = T.autograd.grad((values * weights).sum(), x)
    return [None if t is None else to_numpy(t) for t in (values, indices, grad)] + [
        type(values.grad_fn).__name__ if values.grad_fn else None]


@pytest.mark.parametrize("expr", POOLS)
def test_pools_are_torchs_exactly(expr):
    want, got = _pool_run(torch, expr), _pool_run(load_engine(), expr)
    assert got[3] == want[3]
    for name, g, w in zip(("values", "indices", "grad"), got, want):
        assert (g is None) == (w is None), name
        if w is not None:
            assert g.dtype == w.dtype and g.shape == w.shape, name
            np.testing.assert_array_equal(g, w, err_msg=name)


LENET = """
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(1)
net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(4, 8, (3, 2), stride=2),
                    nn.Dropout2d(0.25), nn.AvgPool2d(2, ceil_mode=True), nn.Flatten(), nn.Linear(8, 3))
print(net)
print([(k, tuple(v.shape)) for k, v in net.state_dict().items()])
x = torch.randn(2, 1, 12, 12)
out = net(x)
print(out)
loss = F.cross_entropy(out, torch.tensor([0, 2]))
loss.backward()
print(loss.item())
print(net[0].bias.grad, net[3].weight.grad[0, 0])
node = out.grad_fn
while node is not None:
    print(type(node).__name__, [k for k in dir(node) if k.startswith("_saved_") and "input" not in k
                                and "self" not in k and "weight" not in k and "result" not in k])
    node = next((f for f, _ in node.next_functions if f is not None and "Accumulate" not in type(f).__name__), None)
conv = out.grad_fn
while type(conv).__name__ != "ConvolutionBackward0":
    conv = next(f for f, _ in conv.next_functions if f is not None and "Accumulate" not in type(f).__name__)
print(conv._saved_stride, conv._saved_padding, conv._saved_dilation, conv._saved_groups, conv._saved_transposed,
      conv._saved_output_padding, conv._saved_bias_sym_sizes_opt, conv._saved_weight.shape)
print(nn.Conv2d(3, 8, 3, 2, 1, 2, 1, False), nn.Conv1d(2, 4, 3, padding="same"), nn.ConvTranspose2d(4, 2, 3, 2, 1, 1))
print(nn.MaxPool2d((2, 3), stride=1, padding=1), nn.AvgPool2d(3), nn.MaxPool1d(2), nn.AvgPool1d(4, 2), nn.Dropout2d())
net.eval()
print(net(x))
v, i = F.max_pool2d(x[:1, :, :4, :4], 2, return_indices=True)
print(v, i)
print(F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2)), F.conv2d(x, torch.ones(2, 1, 1, 1)).grad_fn)
"""


def test_lenet_program_prints_as_torch():
    want, got = run_both(LENET)
    assert printed_alike(got.stdout, want.stdout), f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    assert (got.exc, got.warnings) == (want.exc, want.warnings)
