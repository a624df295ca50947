"""torch.linalg.ldl_factor(_ex) and ldl_solve against torch: Bunch-Kaufman's pivots exactly as LAPACK's sytrf
chooses them (1×1 and 2×2 blocks, symmetric indefinite and singular matrices), the compact LD and the solve."""
import numpy as np
import pytest
import torch
from difftest import load_engine


def _matrices():
    rng = np.random.default_rng(7)
    for trial in range(40):
        n = int(rng.integers(1, 7))
        a = rng.standard_normal((n, n))
        a = a + a.T
        if trial % 4 == 0:
            a = a @ a.T + 0.1 * np.eye(n)
        if trial % 5 == 0:
            a[0, 0] = 0.0
        if trial % 9 == 0:
            a[:, -1] = a[-1, :] = 0.0
        yield a


@pytest.mark.parametrize("a", list(_matrices()), ids=lambda a: f"n{a.shape[0]}")
def test_ldl_matches_torch(a):
    E = load_engine()
    want = torch.linalg.ldl_factor_ex(torch.tensor(a))
    got = E.linalg.ldl_factor_ex(E.tensor(a))
    assert got.pivots.tolist() == want.pivots.tolist()
    assert got.info.item() == want.info.item()
    np.testing.assert_allclose(got.LD.numpy(), want.LD.numpy(), rtol=1e-12, atol=1e-12)
    assert got.LD.stride() == want.LD.stride() and got.pivots.dtype.__repr__() == "torch.int32"
    if want.info.item() == 0:
        b = np.arange(2.0 * len(a)).reshape(len(a), 2) - 3
        x_want = torch.linalg.ldl_solve(want.LD, want.pivots, torch.tensor(b)).numpy()
        x_got = E.linalg.ldl_solve(got.LD, got.pivots, E.tensor(b)).numpy()
        np.testing.assert_allclose(x_got, x_want, rtol=1e-9, atol=1e-9)


def test_ldl_errors_and_no_derivative():
    E = load_engine()
    for T in (torch, E):
        a = T.tensor([[2.0, 1.0], [1.0, -3.0]], requires_grad=True)
        LD = T.linalg.ldl_factor(a).LD
        with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_factor_ex is not implemented"):
            LD.sum().backward()
        with pytest.raises(RuntimeError, match="A must be batches of square matrices, but they are 2 by 3"):
            T.linalg.ldl_factor_ex(T.zeros(2, 3))
