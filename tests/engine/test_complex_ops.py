"""Complex inputs of the ops that gave wrong values or refused (std/var, vdot, logsumexp, sinc, logaddexp, norm, silu,
linspace/logspace, abs_, complex rand/randn), the conjugate's views, the fft's hfft2/hfftn/ihfft2/ihfftn,
torch.linalg.eig/eigvals and torch.stft/istft: values, grads, grad_fn graphs, printed text and errors against
torch's."""
import warnings

import numpy as np
import pytest
from difftest import TRIGGERED, load_engine, to_numpy, torch

Z = [[1 + 2j, -0.5 + 0.3j, 2 - 1j], [0.1 - 0.2j, 3 + 0j, -1 - 1j]]
M = [[1.0, 2.0, 0.5], [-3.0, 0.5, 1.0], [0.2, 0.1, 2.0]]
MC = [[1 + 1j, 2, 0.5j], [-3, 0.5, 1 - 1j], [0.2, 0.1j, 2]]


def _graph(fn, depth=0):
    if fn is None or depth > 16:
        return []
    return [f"{' ' * depth}{fn.name()}"] + [line for nxt, _ in fn.next_functions for line in _graph(nxt, depth + 1)]


def _run(T, expr, inputs):
    """expr's value, its graph and the grads of a fixed real loss of it (for the leaves named in inputs)."""
    leaves = {name: T.tensor(value, dtype=getattr(T, dtype), requires_grad=True) for name, (value, dtype) in
              inputs.items()}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = eval(expr, {"torch": T, **leaves})  # noqa: S307 - the test's own expressions
            out = out[0] if isinstance(out, tuple) else out
            weights = (T.arange(out.numel(), dtype=T.float64).reshape(out.shape) + 1) / 7
            loss = ((out * (0.3 - 0.6j)).real if out.dtype.is_complex else out) * weights
            grads = T.autograd.grad(loss.sum(), list(leaves.values()), allow_unused=True)
        except Exception as e:  # noqa: BLE001 - the error is the outcome compared
            return f"{type(e).__name__}: {e}", None, None, None, []
    return (to_numpy(out.detach()), str(out.dtype), _graph(out.grad_fn),
            [None if g is None else to_numpy(g) for g in grads], [TRIGGERED.sub("", str(w.message)) for w in caught])


def _assert_alike(expr, inputs):
    rtol = 1e-6 if any(dtype in ("complex64", "float32") for _, dtype in inputs.values()) else 1e-9
    got, want = _run(load_engine(), expr, inputs), _run(torch, expr, inputs)
    if isinstance(want[0], str) or isinstance(got[0], str):
        assert got[0] == want[0]
        return
    np.testing.assert_allclose(got[0], want[0], rtol=rtol, atol=rtol)
    assert got[1:3] == want[1:3]
    for g, w in zip(got[3], want[3]):
        assert (g is None) == (w is None)
        if w is not None:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)
    assert got[4] == want[4]


ZC = {"z": (Z, "complex128")}
COMPLEX_OPS = [
    ("z.std()", ZC), ("z.var(1)", ZC), ("torch.std_mean(z, dim=0)[0]", ZC), ("torch.var_mean(z, 1)[0]", ZC),
    ("torch.vdot(z[0], z[1])", ZC), ("torch.logsumexp(z, dim=1)", ZC), ("torch.sinc(z)", ZC),
    ("torch.sinc(z * 0)", ZC), ("torch.logaddexp(z, z.flip(0))", ZC), ("z.norm()", ZC),
    ("torch.linalg.vector_norm(z, 3, dim=1)", ZC), ("torch.linalg.vector_norm(z, float('inf'), dim=0)", ZC),
    ("z.norm(p=1)", {"z": (Z, "complex64")}), ("torch.nn.functional.silu(z)", ZC),
    ("torch.nn.functional.silu(z.detach())", ZC), ("z.mH @ z", ZC), ("z[0, 0].mH", ZC),
    ("z.mT * z.mT.conj()", ZC), ("z.mT.conj().conj()", ZC), ("torch.linalg.solve(z[:, :2].mT, z[:, 1:].mT)", ZC),
    ("torch.linalg.eigvals(a)", {"a": (M, "float64")}), ("torch.linalg.eig(a)[1].abs()", {"a": (M, "float64")}),
    ("torch.linalg.eig(a)[1].abs()", {"a": (MC, "complex128")}), ("torch.linalg.eig(a)", {"a": (MC, "complex128")}),
    ("torch.linalg.eig(a)[1].imag", {"a": (MC, "complex128")}), ("torch.linalg.eig(a[:2])", {"a": (M, "float64")}),
    ("torch.fft.hfft2(z)", ZC), ("torch.fft.hfftn(z, s=(3, 4), norm='ortho')", ZC),
    ("torch.fft.ihfft2(a)", {"a": (M, "float64")}),
    ("torch.fft.ihfftn(a, dim=0, norm='forward')", {"a": (M, "float64")}),
    ("torch.fft.ihfftn(a, s=(2, 5))", {"a": (M, "float64")}), ("torch.fft.ihfft2(z)", ZC),
]


@pytest.mark.parametrize("expr,inputs", COMPLEX_OPS, ids=[e for e, _ in COMPLEX_OPS])
def test_complex_ops_as_torch(expr, inputs):
    _assert_alike(expr, inputs)


def test_eig_backward_refuses_a_phase_dependent_loss_as_torch():
    for T in (load_engine(), torch):
        a = T.tensor(MC, dtype=T.complex128, requires_grad=True)
        with pytest.raises(RuntimeError) as caught:
            T.linalg.eig(a)[1].real.sum().backward()
        assert "linalg_eig_backward: The eigenvectors in the complex case are specified up to multiplication by " \
               "e^{i phi}. The specified loss function depends on this quantity, so it is ill-defined." in \
               str(caught.value)


def test_eig_second_derivative_as_torch():
    results = []
    for T in (load_engine(), torch):
        a = T.tensor(MC, dtype=T.complex128, requires_grad=True)
        L, V = T.linalg.eig(a)
        g, = T.autograd.grad((L * (0.5 - 1j)).real.sum() + V.abs().sum(), a, create_graph=True)
        gg, = T.autograd.grad((g * (0.3 + 0.2j)).real.sum(), a)
        results.append(to_numpy(gg))
    np.testing.assert_allclose(results[0], results[1], rtol=1e-9, atol=1e-12)


X = [float(np.sin(i)) for i in range(20)]
SIGNAL = {"x": (X, "float64"), "w": (list(np.hanning(10)[1:-1]), "float64")}
STFT = [
    "torch.stft(x, 8, hop_length=3, window=w, return_complex=True)",
    "torch.stft(x, 8, hop_length=3, window=w, return_complex=False)",
    "torch.stft(x, 8, hop_length=2, window=w, center=False, return_complex=True)",
    "torch.stft(x, 10, hop_length=2, win_length=8, window=w, return_complex=True, normalized=True)",
    "torch.stft(x, 8, window=w, return_complex=True, onesided=False, pad_mode='constant')",
    "torch.stft(x.reshape(2, 10), 4, window=w[:4], return_complex=True)",
    "torch.stft(x * (1 + 0.5j), 8, hop_length=3, window=w, return_complex=True)",
    "torch.stft(x, 8, hop_length=3, win_length=4, window=w[:4], center=False, return_complex=True, "
    "align_to_window=True)",
    "x.stft(8, hop_length=4, window=w, return_complex=True)",
    "torch.istft(torch.stft(x, 8, hop_length=2, window=w, return_complex=True), 8, hop_length=2, window=w)",
    "torch.istft(torch.stft(x, 8, hop_length=2, window=w, return_complex=True), 8, hop_length=2, window=w, "
    "length=25)",
    "torch.istft(torch.stft(x, 8, hop_length=2, window=w, return_complex=True, onesided=False), 8, hop_length=2, "
    "window=w, return_complex=True)",
    "torch.stft(x, 8, hop_length=2, window=w, return_complex=True).istft(8, hop_length=2, window=w, center=True)",
    "torch.stft(x, 8, window=w)", "torch.stft(x, 30, window=w, center=False, return_complex=True)",
    "torch.stft(x, 8, window=w[:5], return_complex=True)", "torch.istft(x, 8)",
    "torch.istft(torch.stft(x, 8, hop_length=2, window=w, return_complex=True), 8, hop_length=2, window=w * 0)",
    "torch.istft(torch.stft(x, 8, hop_length=2, window=w, return_complex=True), 10, hop_length=2)",
    "torch.stft(x, 8, return_complex=True, align_to_window=True)",
]


@pytest.mark.parametrize("expr", STFT)
def test_stft_and_istft_as_torch(expr):
    _assert_alike(expr, SIGNAL)


def test_stft_warns_once_without_a_window_as_torch():
    for T in (load_engine(), torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            T.stft(T.arange(16.0), 8, return_complex=True)
        # torch warns once per process: the first test to call it sees the text, a later one nothing
        assert all("A window was not provided." in str(w.message) for w in caught)


PRINTED = [
    "torch.logspace(0, 1+1j, 4, dtype=torch.complex64)", "torch.logspace(-1-2j, 3+0.5j, 7, base=3)",
    "torch.logspace(0, 2, 4, dtype=torch.complex128)", "torch.linspace(0, 1+1j, 4)",
    "torch.linspace(1j, 2, 1, dtype=torch.complex128)", "torch.logspace(0, 1+1j, 4, dtype=torch.float32)",
    "torch.tensor([1+2j]).abs_()", "torch.nan_to_num(torch.tensor([complex('nan'), 1j]))",
    "torch.logaddexp2(torch.tensor([1j]), torch.tensor([1j]))",
    "torch.nn.functional.silu(torch.tensor([1+1j], requires_grad=True))",
    "(torch.manual_seed(0), torch.randn(3, dtype=torch.complex64))[1]",
    "(torch.manual_seed(1), torch.randn(4, 5, dtype=torch.complex64))[1]",
    "(torch.manual_seed(2), torch.rand(9, dtype=torch.complex128))[1]",
    "(torch.manual_seed(3), torch.randn_like(torch.zeros(3, 5, dtype=torch.complex64).t()))[1]",
    "(torch.manual_seed(4), torch.normal(2., 3., size=(10,), dtype=torch.complex64))[1]",
    "(torch.manual_seed(5), torch.rand_like(torch.zeros(2, 3, dtype=torch.complex64)), torch.randn(2))[1:]",
    "torch.linalg.eig(torch.ones(2, 2, dtype=torch.long))", "torch.linalg.eigvals(torch.ones(2, 3))",
    "torch.fft.ihfftn(torch.ones(2, 2), dim=())", "torch.fft.ihfft2(torch.ones(2, 2, dtype=torch.complex64))",
    "torch.nan_to_num(torch.tensor([complex('nan'), complex('inf-infj'), complex(1, float('nan'))]), 2., 1.)",
    "torch.nan_to_num(torch.tensor([1j], requires_grad=True))",
]


@pytest.mark.parametrize("expr", PRINTED)
def test_made_and_printed_as_torch(expr):
    assert _outcome(load_engine(), expr) == _outcome(torch, expr)


def _outcome(T, expr):
    try:
        return repr(eval(expr, {"torch": T}))  # noqa: S307 - the test's own expressions
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return f"{type(e).__name__}: {e}"


CONJUGATE_VIEWS = [
    "z = torch.tensor([1+2j, 3-1j]); y = z.conj(); z.add_(1); (y, y.is_conj(), z)",
    "z = torch.tensor([1+2j, 3-1j]); y = z.conj(); y.mul_(2); (y, z)",
    "z = torch.tensor([1+2j, 3-1j]); y = z.conj(); y[0] = 5+1j; (y, z)",
    "z = torch.tensor([[1+2j, 3-1j], [1j, 2]]); y = z.t().conj(); y[0].fill_(7j); (y, z)",
    "z = torch.tensor([1+2j, 3-1j]); y = z.conj(); w = y.conj(); w.add_(1); (y, z, w, w.is_conj())",
    "z = torch.tensor([1+2j, 3-1j]); y = z.conj(); y.copy_(torch.tensor([5j, 1])); z",
    "z = torch.tensor([1+2j, 3-1j]); y = z.conj(); r = y.resolve_conj(); z.add_(1); (r, y, y._base is z)",
    "x = torch.tensor([1+2j, 3-1j], requires_grad=True); z = x * 1; y = z.conj(); y.mul_(2); "
    "z.abs().sum().backward(); (x.grad, z)",
    "x = torch.tensor([1+2j, 3-1j], requires_grad=True); z = x * 1; y = z.conj(); z.mul_(1j); "
    "y.abs().sum().backward(); (x.grad, y)",
    "x = torch.tensor([1+2j, 3-1j], requires_grad=True); z = x * 1; y = z.conj(); y[0] = 3; "
    "(z * (1+1j)).real.sum().backward(); (x.grad, z)",
]


@pytest.mark.parametrize("program", CONJUGATE_VIEWS)
def test_conjugate_is_a_view_as_torch(program):
    outcomes = []
    for T in (load_engine(), torch):
        env = {"torch": T}
        *statements, last = program.split("; ")
        exec("\n".join(statements), env)  # noqa: S102 - the test's own programs
        outcomes.append(repr(eval(last, env)))  # noqa: S307
    assert outcomes[0] == outcomes[1]


def test_conjugate_view_shares_its_tensors_memory_as_torch():
    outcomes = []
    for T in (load_engine(), torch):
        z = T.tensor([[1 + 2j, 3 - 1j], [1, 2]])
        y, w = z.conj(), z.t().conj()[1]
        try:
            y.numpy()
            refused = None
        except RuntimeError as e:
            refused = str(e)
        outcomes.append((y.data_ptr() == z.data_ptr(), y.untyped_storage().data_ptr() == z.untyped_storage().data_ptr(),
                         y.storage_offset(), w.storage_offset(), w.stride(), w.data_ptr() - z.data_ptr(),
                         y.is_set_to(z), refused))
    assert outcomes[0] == outcomes[1]
