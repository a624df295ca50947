"""scatter_reduce (sum, prod, mean, amax, amin; with and without self's values) and scatter(…, reduce='add' |
'multiply') against PyTorch: values in float32, float64 and int64, grads with zeros in self and src and with ties,
and a program printed as torch prints it (float64 finite differences and double backward: test_gradcheck.CASES;
error texts: test_messages.CASES)."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import load_engine, run_both, to_numpy, torch


def _reduced(T, reduce, include_self, zeros, dtype):
    """zeros: 0 none, 1 one zero in self and one in src, 2 two zeros of src scattered to one place; ties: amax and
    amin meet equal values."""
    floating = dtype == "float64"
    x = T.tensor([[1, 2, 0 if zeros else 3], [4, 5, 6]], dtype=getattr(T, dtype), requires_grad=floating)
    s = T.tensor([[10, 0 if zeros else 20, 30], [40, 0 if zeros == 2 else 5, 60]], dtype=getattr(T, dtype),
                 requires_grad=floating)
    y = x.scatter_reduce(0, T.tensor([[0, 1, 0], [1, 1, 0]]), s, reduce=reduce, include_self=include_self)
    if not floating:
        return [to_numpy(y)]
    (y * T.tensor([[1.5, -2, 0.5], [0.25, 1, 3]], dtype=T.float64)).sum().backward()
    return [to_numpy(y), type(y.grad_fn).__name__, to_numpy(x.grad), to_numpy(s.grad)]


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
@pytest.mark.parametrize("zeros", [0, 1, 2])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_scatter_reduce_as_torch(reduce, include_self, zeros, dtype):
    want = _reduced(torch, reduce, include_self, zeros, dtype)
    got = _reduced(load_engine(), reduce, include_self, zeros, dtype)
    assert got[1:2] == want[1:2]
    for g, w in zip(got[:1] + got[2:], want[:1] + want[2:]):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-6)


PROGRAM = """
import torch
x = torch.tensor([[1., 2, 3], [4, 5, 6]], requires_grad=True)
s = torch.tensor([[10., 20, 30], [40, 50, 60]], requires_grad=True)
i = torch.tensor([[0, 1, 0], [1, 1, 0]])
y = x.scatter_reduce(0, i, s, "amax", include_self=False)
print(y)
g = y.grad_fn
print(g._saved_dim, g._saved_reduce, g._saved_include_self, g._saved_index, g._saved_self is x, g._saved_src is s)
print(g._saved_result.equal(y), g.next_functions)
y.sum().backward()
print(x.grad, s.grad)
z = x.detach().clone()
print(z.scatter_reduce_(1, torch.tensor([[2, 2, 2]]), torch.tensor([[1., 2., float('nan')]]), "amin"), z._version)
print(torch.scatter_reduce(torch.zeros(3), 0, torch.tensor([0, 0, 2]), torch.tensor([1., 2., 3.]), "mean"))
print(torch.arange(6).reshape(2, 3).scatter(0, i, 3, reduce="add"))
print(torch.arange(6).reshape(2, 3).scatter(0, i, torch.arange(6).reshape(2, 3), reduce="multiply"))
w = (x * 1).scatter(0, i, 2.0, reduce="multiply")
print(w, w.grad_fn.next_functions)
"""


def test_scatter_reduce_program_prints_as_torch():
    want, got = run_both(PROGRAM)
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    assert (got.exc, got.warnings) == (want.exc, want.warnings)
