"""torch.masked's reductions and normalizations and torch.signal.windows against torch 2.13, float64: values,
grads (through where's backward, which must not carry a nan grad into the masked-out elements), dtypes, error
texts; and the op fixes they needed (an inf-norm over a size-1 dim, the 0-norm's missing grad, logsumexp of
integers, softmax of an empty tensor). Their OpInfo entries run in tests/conformance."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import ENGINE_NAME, load_engine, torch

E = load_engine()
pytestmark = pytest.mark.skipif(torch is None or ENGINE_NAME != "engine", reason="engine against torch")

X = [[1.5, -2.0, 0.5, 3.0], [0.25, 4.0, -1.0, 2.0], [-3.0, 1.0, 2.5, -0.5]]
MASK = [[True, False, True, True], [False, False, False, False], [True, True, False, True]]


def _case(name, call):
    def fn(T):
        x = T.tensor(X, dtype=T.float64, requires_grad=True)
        out = call(T, x, T.tensor(MASK))
        grad = T.autograd.grad(out.sum(), x, allow_unused=True)[0] if out.requires_grad else None
        return out, grad
    return name, fn


CASES = dict([
    _case("sum", lambda T, x, m: T.masked.sum(x, 1, mask=m)),
    _case("sum_all_keepdim", lambda T, x, m: T.masked.sum(x, keepdim=True, mask=m)),
    _case("prod", lambda T, x, m: T.masked.prod(x, 0, mask=m)),
    _case("amax", lambda T, x, m: T.masked.amax(x, 1, mask=m)),
    _case("amin_broadcast_mask", lambda T, x, m: T.masked.amin(x, 0, mask=m[0])),
    _case("argmax", lambda T, x, m: T.masked.argmax(x, 1, mask=m).float()),
    _case("mean_fully_masked_row", lambda T, x, m: T.masked.mean(x, 1, mask=m)),
    _case("var", lambda T, x, m: T.masked.var(x, 1, mask=m)),
    _case("std_correction", lambda T, x, m: T.masked.std(x, 0, correction=0, keepdim=True, mask=m)),
    _case("norm_inf", lambda T, x, m: T.masked.norm(x, float("inf"), 1, mask=m)),
    _case("norm_3", lambda T, x, m: T.masked.norm(x, 3.0, 0, mask=m)),
    _case("logsumexp", lambda T, x, m: T.masked.logsumexp(x, 1, mask=m)),
    _case("softmax", lambda T, x, m: T.masked.softmax(x, 1, mask=m) * T.arange(4.0, dtype=T.float64)),
    _case("log_softmax", lambda T, x, m: T.masked.log_softmax(x, 0, mask=m).nan_to_num(0.0, 0.0, 0.0)),
    _case("softmin", lambda T, x, m: T.masked.softmin(x, 1, mask=m) * T.arange(4.0, dtype=T.float64)),
    _case("normalize", lambda T, x, m: T.masked.normalize(x, 2.0, 1, mask=m)),
    _case("cumsum", lambda T, x, m: T.masked.cumsum(x, 1, mask=m)),
    _case("cumprod", lambda T, x, m: T.masked.cumprod(x, 0, mask=m)),
    _case("logaddexp", lambda T, x, m: T.masked.logaddexp(x, x * 2, input_mask=m, other_mask=m[2])),
    _case("median", lambda T, x, m: T.masked.median(x, 1, mask=m)),
    _case("mean_integer", lambda T, x, m: T.masked.mean(x.long(), 1, mask=m)),
    _case("sum_integer_dtype", lambda T, x, m: T.masked.sum(x.int(), 0, mask=m).double()),
    _case("windows", lambda T, x, m: T.stack([
        T.signal.windows.hann(6, dtype=T.float64), T.signal.windows.hamming(6, sym=False, dtype=T.float64),
        T.signal.windows.blackman(6, dtype=T.float64), T.signal.windows.bartlett(6, dtype=T.float64),
        T.signal.windows.cosine(6, sym=False, dtype=T.float64), T.signal.windows.nuttall(6, dtype=T.float64),
        T.signal.windows.gaussian(6, std=1.5, dtype=T.float64),
        T.signal.windows.exponential(6, tau=2.0, sym=False, center=2.0, dtype=T.float64),
        T.signal.windows.kaiser(6, beta=5.0, dtype=T.float64),
        T.signal.windows.general_cosine(6, a=[0.5, 0.3, 0.2], dtype=T.float64),
        T.signal.windows.general_hamming(6, alpha=0.6, dtype=T.float64)]) * x.sum()),
    _case("window_errors", lambda T, x, m: T.signal.windows.gaussian(4, std=0.0)),
    _case("window_dtype", lambda T, x, m: T.signal.windows.hann(4, dtype=T.int64)),
    _case("window_length", lambda T, x, m: T.signal.windows.kaiser(-1)),
    _case("inf_norm_size_one_dim", lambda T, x, m: T.linalg.vector_norm(x.view(3, 1, 4), float("inf"), 1)),
    _case("zero_norm_no_grad", lambda T, x, m: T.linalg.vector_norm(x, 0) + x.sum()),
    _case("logsumexp_integer_min", lambda T, x, m: T.logsumexp(T.tensor([-8, 6, T.iinfo(T.int64).min]), 0)),
    _case("softmax_empty", lambda T, x, m: T.nn.functional.log_softmax(x[:, :0], 1)),
])


def _observe(T, fn):
    try:
        return fn(T)
    except Exception as e:  # noqa: BLE001 - the error is the observation
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch(name):
    got, want = _observe(E, CASES[name]), _observe(torch, CASES[name])
    if isinstance(want, str):
        assert got == want
        return
    for g, w in zip(got, want):
        if w is None:
            assert g is None, name
            continue
        assert str(g.dtype) == str(w.dtype) and tuple(g.shape) == tuple(w.shape), name
        np.testing.assert_allclose(g.detach()._data, w.detach().numpy(), rtol=1e-12, atol=1e-14, err_msg=name)
