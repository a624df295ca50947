"""Complex dtypes against torch: promotion, printing, the complex functions, values and grads of the common ops on
complex tensors (torch's conjugate Wirtinger convention), and the errors of ops torch refuses for them."""
import itertools
import warnings

import numpy as np
import pytest
from difftest import TRIGGERED, load_engine, to_numpy, torch

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64", "complex32",
          "complex64", "complex128"]


def _operand(T, name, weight):
    return T.zeros(2 if weight == 2 else (), dtype=getattr(T, name))


def test_promotion_matches_torch():
    T = load_engine()
    for a, b in itertools.product(DTYPES, DTYPES):
        assert str(T.promote_types(getattr(T, a), getattr(T, b))) == str(torch.promote_types(getattr(torch, a),
                                                                                             getattr(torch, b)))
        for wa, wb in itertools.product((1, 2), (1, 2)):
            want = torch.result_type(_operand(torch, a, wa), _operand(torch, b, wb))
            assert str(T.result_type(_operand(T, a, wa), _operand(T, b, wb))) == str(want), (a, wa, b, wb)
    for a, number, weight in itertools.product(DTYPES, (True, 2, 2.5, 1j), (1, 2)):
        want = torch.result_type(_operand(torch, a, weight), number)
        assert str(T.result_type(_operand(T, a, weight), number)) == str(want), (a, weight, number)


PRINTED = [
    "T.tensor(1j)", "T.tensor([1+2j, -3.5-0.25j])", "T.tensor([[1+2j, 3j], [1e-5j, 100]])",
    "T.tensor([1j], dtype=T.complex128)", "T.zeros(2, dtype=T.cfloat)", "T.zeros(0, dtype=T.cfloat)",
    "T.tensor([1+1j, 2, 3e9j])", "T.tensor([-0.0, float('nan')+1j, complex(float('inf'), -float('inf'))])",
    "T.arange(2000.) * 1j", "T.tensor([1j, 2j]) + T.tensor(1., dtype=T.float64)", "T.tensor(1j).item()",
    "T.tensor([1j]).float().tolist()",
    "T.tensor([1], dtype=T.float64) + 1j", "T.full((2,), 1+1j)", "T.tensor([1.5, 2], dtype=T.cfloat)",
    "T.tensor([[0.1+1j] * 9] * 3)", "T.tensor(1j, requires_grad=True)",
    "T.tensor([1.5]).to(T.complex64)", "T.linspace(0, 1, 3, dtype=T.cfloat)", "T.arange(3, dtype=T.cfloat)",
    "T.tensor([1+2j], dtype=T.float32)", "float(T.tensor(1j))", "int(T.tensor(2+0j))", "complex(T.tensor(2.))",
    "T.tensor([1+2j]).tolist()", "T.can_cast(T.complex64, T.float64)", "T.eye(2, dtype=T.cfloat)",
    "T.tensor([1j]).requires_grad_()", "T.tensor([1.]).is_complex(), T.tensor([1j]).is_complex()",
]


@pytest.mark.parametrize("expr", PRINTED)
def test_made_and_printed_as_torch(expr):
    T = load_engine()
    got, want = _outcome(T, expr), _outcome(torch, expr)
    assert got == want


def _outcome(T, expr, env=None):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            text = repr(eval(expr, {"T": T, "torch": T, **(env or {})}))  # noqa: S307 - the test's own expressions
        except Exception as e:  # noqa: BLE001 - the error is the outcome compared
            text = f"{type(e).__name__}: {e}"
    return text, [TRIGGERED.sub("", str(w.message)) for w in caught]


Z = np.array([[0.7 + 0.3j, -1.2 + 0.5j, 0.4 - 0.9j], [1.1 - 0.2j, -0.3 - 0.8j, 0.6 + 1.3j]])
R = np.array([[0.5, -1.5, 2.0], [0.25, 1.0, -0.75]])
COMPUTED = [
    "z.exp()", "z.log()", "z.sqrt()", "z.sin()", "z.cos()", "z.tanh()", "z.sigmoid()", "z.reciprocal()", "z * r",
    "z / r", "r / z", "z - r", "-z", "z ** 2", "z ** (1+1j)", "z * (2-1j)", "z / (2-1j)", "z.abs()", "z.angle()",
    "z.sgn()", "z.sum()", "z.mean(1)", "z @ z.t()", "z @ r.t()", "z @ z[0]", "z.real", "z.imag", "z.conj()",
    "z.conj_physical()", "torch.view_as_real(z)", "torch.complex(r, r * 2)", "torch.polar(r.abs(), r)", "z.pow(z)",
    "z.prod(1)", "z.cumsum(0)", "z.log1p()", "z.asin()", "z.acosh()", "torch.view_as_complex(torch.stack([r, r], -1))",
    "r.to(torch.complex128)", "z.conj().resolve_conj()", "z.conj().is_conj()",
]


def _run(T, expr):
    z = T.tensor(Z, requires_grad=True)
    r = T.tensor(R, requires_grad=True)
    try:
        out = eval(expr, {"torch": T, "z": z, "r": r})  # noqa: S307 - the test's own expressions
    except RuntimeError as e:
        return f"{type(e).__name__}: {e}", None, []
    if not isinstance(out, T.Tensor):
        return repr(out), None, []
    loss = (out.abs() if out.dtype.is_complex else out).pow(2).sum()
    loss.backward()
    return repr(out), type(out.grad_fn).__name__, [None if t.grad is None else to_numpy(t.grad) for t in (z, r)]


@pytest.mark.parametrize("expr", COMPUTED)
def test_values_and_grads_as_torch(expr):
    T = load_engine()
    text, node, grads = _run(T, expr)
    want_text, want_node, want_grads = _run(torch, expr)
    assert (text, node) == (want_text, want_node)
    for got, want in zip(grads, want_grads):
        assert (got is None) == (want is None)
        if want is not None:
            tight = want.dtype in (np.float64, np.complex128)
            np.testing.assert_allclose(got, want, rtol=1e-10 if tight else 1e-6, atol=1e-12 if tight else 1e-6)


REFUSED = [
    "z.relu()", "z.clamp(0, 1)", "z.clamp(min=0)", "z.max()", "z.min()", "z.max(0)", "z.argmax()", "z < z", "z >= 1",
    "z.lt(z)", "torch.maximum(z, z)", "z.floor()", "z.round()", "z.sign()", "z.sort()", "z.topk(1)",
    "torch.nn.functional.relu(z)", "torch.nn.functional.gelu(z)", "z.remainder(2)", "z.erf()", "torch.atan2(z, z)",
    "z.sum().backward()", "z.requires_grad_().sum().backward()", "torch.view_as_real(torch.ones(2))",
    "torch.view_as_complex(torch.ones(3))", "torch.view_as_complex(torch.ones(3, 4)[:, ::2])",
    "torch.complex(torch.ones(2), torch.ones(2).double())", "torch.complex(torch.ones(2).long(), torch.ones(2).long())",
    "torch.ones(2).imag", "torch.view_as_real(z.conj())", "z.isreal()", "z == 1j",
]


@pytest.mark.parametrize("expr", REFUSED)
def test_refused_as_torch(expr):
    T = load_engine()
    got = _outcome(T, expr, {"z": T.tensor([1j, 2])})
    want = _outcome(torch, expr, {"z": torch.tensor([1j, 2])})
    assert got == want


X = np.array([[0.3, -1.2, 0.8, 2.0], [1.5, 0.1, -0.7, 0.4], [-0.9, 0.6, 1.1, -0.2]])
FFT = [
    "torch.fft.fft(x)", "torch.fft.fft(z)", "torch.fft.ifft(x)", "torch.fft.ifft(z)", "torch.fft.rfft(x)",
    "torch.fft.irfft(z)", "torch.fft.hfft(z)", "torch.fft.ihfft(x)", "torch.fft.fft(x, n=6)",
    "torch.fft.fft(z, n=2, dim=0)", "torch.fft.rfft(x, n=7, norm='ortho')", "torch.fft.irfft(z, n=5, norm='forward')",
    "torch.fft.hfft(z, n=3, dim=0)", "torch.fft.ihfft(x, n=5, norm='forward')", "torch.fft.fft2(x)",
    "torch.fft.ifft2(z, norm='ortho')", "torch.fft.rfft2(x)", "torch.fft.irfft2(z)", "torch.fft.fftn(x, s=(4, -1))",
    "torch.fft.rfftn(x, s=(2, 6))", "torch.fft.irfftn(z, s=(3, 6))", "torch.fft.fftshift(x)",
    "torch.fft.ifftshift(z, dim=1)", "torch.fft.fftfreq(5)", "torch.fft.rfftfreq(6, 0.1)",
    "torch.fft.fftfreq(4, dtype=torch.float64)", "torch.fft.fft(x, norm='bad')", "torch.fft.rfft(z)",
    "torch.fft.fft(x, n=0)", "torch.fft.fftn(x[0], s=(2, 3))", "torch.fft.fftn(x, dim=(0, 0))",
    "torch.fft.fft(torch.arange(4))", "torch.fft.ifft(x).is_conj()",
]


@pytest.mark.parametrize("expr", FFT)
def test_fft_as_torch(expr):
    T = load_engine()
    got, want = [_fft_run(lib, expr) for lib in (T, torch)]
    assert got[:2] == want[:2]
    for g, w in zip(got[2], want[2]):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def _fft_run(T, expr):
    x = T.tensor(X, requires_grad=True)
    z = T.tensor(X[::-1].copy() + 1j * X, requires_grad=True)
    try:
        out = eval(expr, {"torch": T, "x": x, "z": z})  # noqa: S307 - the test's own expressions
    except (RuntimeError, IndexError) as e:
        return f"{type(e).__name__}: {e}", None, []
    if not isinstance(out, T.Tensor) or not out.requires_grad:
        return repr(out), None, []
    (out.abs() if out.dtype.is_complex else out).pow(2).sum().backward()
    return repr(out), type(out.grad_fn).__name__, [to_numpy(t.grad) for t in (x, z) if t.grad is not None]
