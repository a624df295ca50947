"""prod, cumprod and flip against PyTorch: values and result dtypes for float, integer and bool inputs, grads and
second-order grads (with the grad_fn names create_graph gives) with no zero, one zero and several zeros in a row,
and a program printed as torch prints it (float64 finite differences: test_gradcheck.CASES; error texts:
test_messages.CASES)."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import load_engine, run_both, to_numpy, torch

VALUES = {"no_zero": [[1.0, 2, 3], [4, 5, 6]], "one_zero": [[1.0, 0, 3], [4, 5, 6]],
          "zero_per_row": [[1.0, 0, 3], [0, 5, 6]], "two_zeros_in_a_row": [[0.0, 0, 3], [4, 5, 6]],
          "zeros_everywhere": [[0.0, 2, 0], [0, 5, 0]]}
CALLS = ["x.prod()", "x.prod(1)", "x.prod(0, keepdim=True)", "torch.prod(x, -1)", "x[0].prod()", "x[0, 0].prod(0)",
         "x.prod(dtype=torch.float64)", "x.cumprod(1)", "torch.cumprod(x, 0)", "x.cumprod(-1).prod(0)",
         "x.flip(0, 1) * x"]


def _run(T, values, call, dtype):
    x = T.tensor(values, dtype=getattr(T, dtype), requires_grad=dtype == "float64")
    y = eval(call, {"x": x, "torch": T})  # noqa: S307 - the test's own expressions
    if dtype != "float64":
        return [to_numpy(y)]
    w = T.tensor(np.cos(np.arange(max(y.numel(), 1))).reshape(tuple(y.shape)), dtype=T.float64)
    g, = T.autograd.grad((y * w).sum(), x, create_graph=True)
    if not g.requires_grad:  # a 0-d input's grad is the seed itself
        return [to_numpy(y), type(y.grad_fn).__name__, to_numpy(g), "no grad_fn"]
    gg, = T.autograd.grad((g * g).sum(), x)
    return [to_numpy(y), type(y.grad_fn).__name__, to_numpy(g), type(g.grad_fn).__name__, to_numpy(gg)]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "bool"])
@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("values", sorted(VALUES))
def test_products_as_torch(values, call, dtype):
    want, got = _run(torch, VALUES[values], call, dtype), _run(load_engine(), VALUES[values], call, dtype)
    for g, w in zip(got, want):
        if isinstance(w, str):
            assert g == w
        else:
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-12)


PROGRAM = """
import torch
x = torch.tensor([[2., 0., 3.], [1., 5., 0.5]], requires_grad=True)
y = x.prod(1)
print(y, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim, y.grad_fn._saved_self is x, y.grad_fn._saved_result.equal(y))
y.sum().backward()
print(x.grad)
z = x.prod()
print(z, z.grad_fn, z.grad_fn._saved_result)
print(x.cumprod(-1), x.cumprod(-1).grad_fn._saved_dim, x.flip(-1).grad_fn._saved_dims)
print(torch.tensor([1, 2, 3]).prod(), torch.tensor([True, False]).prod(), torch.tensor([[1, 2], [3, 4]]).cumprod(0))
print(torch.tensor([0.5, 4.]).prod(dtype=torch.float64))
print(torch.arange(1, 7).view(2, 3).prod(0, True, dtype=torch.float32))
"""


def test_products_program_prints_as_torch():
    want, got = run_both(PROGRAM)
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    assert (got.exc, got.warnings) == (want.exc, want.warnings)
