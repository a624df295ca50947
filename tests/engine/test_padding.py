"""F.pad's reflect, replicate and circular modes and nn.Conv*'s padding_mode against PyTorch: values, grads and
grad_fn names for 1-, 2- and 3-d padding of batched and unbatched inputs, negative pads, integer inputs, the
modules' printed form and a program printed as torch prints it (float64 finite differences and double backward:
test_gradcheck.CASES; error texts: test_messages.CASES)."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import load_engine, printed_alike, run_both, to_numpy, torch

SHAPES = [
    ((2, 4), (1, 2)), ((1, 2, 4), (3, 2)), ((2, 4), (-1, 2)), ((2, 4), (-4, 0)),
    ((2, 3, 4), (1, 1, 2, 0)), ((1, 2, 3, 4), (1, 1, 2, 0)), ((1, 2, 3, 4), (-1, 2, 2, -1)),
    ((2, 3, 3, 4), (1, 1, 2, 0, 1, 1)), ((1, 2, 3, 3, 4), (1, 1, 2, 0, 1, 1)), ((0, 2, 3), (1, 1)),
]


def _padded(T, shape, pad, mode, dtype):
    x = T.tensor(np.arange(int(np.prod(shape))).reshape(shape).tolist(), dtype=dtype)
    if dtype is T.float32:
        x.requires_grad_()
    try:
        y = T.nn.functional.pad(x, pad, mode=mode)
    except RuntimeError as e:  # an empty result where reflect and replicate refuse it
        return str(e), None, None
    if not x.requires_grad:
        return to_numpy(y), None, None
    w = T.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)).astype(np.float32))
    (y * w).sum().backward()
    return to_numpy(y), type(y.grad_fn).__name__, to_numpy(x.grad)


@pytest.mark.parametrize("dtype", ["float32", "int64"])
@pytest.mark.parametrize("shape,pad", SHAPES)
@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_modes_as_torch(mode, shape, pad, dtype):
    T = load_engine()
    want = _padded(torch, shape, pad, mode, getattr(torch, dtype))
    got = _padded(T, shape, pad, mode, getattr(T, dtype))
    if isinstance(want[0], str):
        assert got[0] == want[0]
        return
    np.testing.assert_array_equal(got[0], want[0])
    assert got[0].dtype == want[0].dtype
    assert got[1] == want[1]
    if want[2] is not None:
        np.testing.assert_allclose(got[2], want[2], rtol=1e-6, atol=1e-6)


def _conv(T, cls, padding, mode, k):
    T.manual_seed(0)
    m = getattr(T.nn, cls)(2, 3, 3, padding=padding, padding_mode=mode)
    x = T.linspace(-1, 1, 2 * 5 ** k).reshape(1, 2, *(5,) * k).requires_grad_()
    y = m(x[0]) if padding == 2 else m(x)  # unbatched too
    y.pow(2).sum().backward()
    return repr(m), list(m._reversed_padding_repeated_twice), type(y.grad_fn).__name__, [
        to_numpy(t) for t in (y, x.grad, m.weight.grad, m.bias.grad)]


@pytest.mark.parametrize("padding", [1, 2, "same", "valid"])
@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize("cls,k", [("Conv1d", 1), ("Conv2d", 2), ("Conv3d", 3)])
def test_conv_padding_mode_as_torch(cls, k, mode, padding):
    want, got = _conv(torch, cls, padding, mode, k), _conv(load_engine(), cls, padding, mode, k)
    assert got[:3] == want[:3]
    for g, w in zip(got[3], want[3]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5 * np.abs(w).max(initial=1))


PROGRAM = """
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.arange(8.).reshape(2, 4).requires_grad_()
for mode in ("reflect", "replicate", "circular"):
    y = F.pad(x, (2, 1), mode=mode)
    print(y)
    y.pow(2).sum().backward()
    print(x.grad)
    x.grad = None
y = F.pad(x.reshape(1, 1, 2, 4), [1, 1, 1, 0], mode="reflect")
print(y.grad_fn, y.grad_fn._saved_padding, y.grad_fn._saved_self.shape)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn.next_functions[0][0], g.grad_fn.next_functions[0][0]._saved_padding)
print(F.pad(torch.arange(4).reshape(1, 4), (1, 1), mode="replicate"))
print(nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"), nn.Conv1d(2, 3, 3, padding=2, padding_mode="circular"))
print(nn.Conv3d(1, 1, 2, padding="same", padding_mode="replicate"))
"""


def test_padding_program_prints_as_torch():
    want, got = run_both(PROGRAM)
    assert printed_alike(got.stdout, want.stdout), f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    assert (got.exc, got.warnings) == (want.exc, want.warnings)
