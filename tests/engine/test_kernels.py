"""engine.kernels against real torch, gated on what every CPU's torch shares.

Bit-exact where the arithmetic is an order of additions or a placement of fmas that torch's x86 builds share
(the cascade sum runs its AVX2 kernel on AVX-512 machines too; linspace, arange and the fused add need an FMA
build: capability AVX2 or AVX512). Kernels that run their own AVX-512 code (softmax, the vectorised unary
ops) are exact on AVX2 and within an ulp per rounding step elsewhere; MKL's kernels (VML's sin/exp/...,
sgemm) are within an ulp per rounding step everywhere. How often the bits agree on a given machine is
printed by benchmarks/kernels.py.
"""

from __future__ import annotations

import ast
import pathlib
import platform
from fractions import Fraction

import numpy as np
import pytest
from difftest import torch

from engine import kernels as K

CAPABILITY = torch.backends.cpu.get_cpu_capability() if torch is not None else None
X86 = platform.machine().lower() in ("x86_64", "amd64")
FMA_BUILD = X86 and CAPABILITY in ("AVX2", "AVX512")
AVX2 = X86 and CAPABILITY == "AVX2"
TDT = {np.float32: "float32", np.float64: "float64"}


def bits_equal(got, want):
    """Same dtype, shape and bits (any nan equals any nan)."""
    got, want = np.atleast_1d(np.asarray(got)), np.atleast_1d(np.asarray(want))
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    same = got.view(f"u{got.itemsize}") == want.view(f"u{want.itemsize}")
    if got.dtype.kind == "f":
        same |= np.isnan(got) & np.isnan(want)
    return bool(same.all())


def ulps(got, want, scale=None):
    """|got - want| in ulps of `scale` (default: of want), 0 where equal."""
    got, want = np.asarray(got, np.float64), np.asarray(want)
    ref = np.abs(want.astype(np.float64)) if scale is None else np.maximum(np.abs(want.astype(np.float64)), scale)
    with np.errstate(invalid="ignore"):
        err = np.abs(got - want) / np.spacing(ref.astype(want.dtype)).astype(np.float64)
    return np.where((got == want) | (np.isnan(got) & np.isnan(want)), 0.0, err)


def check(got, want, exact, steps=1, scale=None):
    if exact:
        assert bits_equal(got, want), f"bits differ: max {ulps(got, want, scale).max():.1f} ulps"
    else:
        assert ulps(got, want, scale).max() <= steps


def T(a):
    return torch.from_numpy(np.ascontiguousarray(a) if not isinstance(a, np.ndarray) else a)


# --- fma (no torch needed) ----------------------------------------------------------------------------

def _nearest(exact, dtype):
    lo = dtype(float(exact))
    cands = [np.nextafter(lo, dtype(-np.inf)), lo, np.nextafter(lo, dtype(np.inf))]
    return min(cands, key=lambda v: (abs(Fraction(float(v)) - exact), int(np.asarray(v).view(f"i{v.itemsize}")) & 1))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fma_rounds_once(dtype):
    rng = np.random.default_rng(7)
    n = 3000
    a = (rng.standard_normal(n) * 2.0 ** rng.integers(-20, 20, n)).astype(dtype)
    b = (rng.standard_normal(n) * 2.0 ** rng.integers(-20, 20, n)).astype(dtype)
    c = np.where(rng.random(n) < 0.5, -(a.astype(np.float64) * b), rng.standard_normal(n)).astype(dtype)
    t = dtype(1 + 2.0 ** -12) if dtype == np.float32 else dtype(1 + 2.0 ** -27)
    tie = dtype(2.0 ** (-60 if dtype == np.float32 else -120))
    a = np.concatenate([a, [t, t, t]]).astype(dtype)
    b = np.concatenate([b, [t, t, t]]).astype(dtype)
    c = np.concatenate([c, [0, tie, -tie]]).astype(dtype)   # an exact tie, and ties broken below float64
    got = K.fma(a, b, c, dtype)
    want = np.array([_nearest(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)), dtype)
                     for x, y, z in zip(a, b, c)], dtype)
    assert np.array_equal(got, want)


# --- reductions ---------------------------------------------------------------------------------------

def _layouts(rng, count):
    for i in range(count):
        nd = int(rng.integers(1, 5))
        shape = tuple(int(v) for v in rng.integers(1, 3000 if nd == 1 else (40 if nd == 2 else 12), nd))
        dtype = np.float64 if i % 4 == 0 else np.float32
        base = (rng.standard_normal(shape) * 10 ** rng.uniform(-2, 2, shape)).astype(dtype)
        t = torch.from_numpy(base)
        kind = i % 3
        if kind == 1 and nd > 1:
            perm = tuple(int(p) for p in rng.permutation(nd))
            yield base.transpose(perm), t.permute(perm)
        elif kind == 2:
            sl = tuple(slice(None, None, int(rng.integers(1, 3))) for _ in range(nd))
            yield base[sl], t[sl]
        else:
            yield base, t


def _dim(rng, ndim):
    r = rng.random()
    if r < 0.3:
        return None
    if r < 0.7:
        return int(rng.integers(-ndim, ndim))
    return tuple(int(d) for d in rng.choice(ndim, int(rng.integers(1, ndim + 1)), replace=False))


@pytest.mark.parametrize("fn", ["sum", "mean"])
def test_reductions_add_in_atens_order(fn):
    rng = np.random.default_rng(12 if fn == "sum" else 13)
    for a, t in _layouts(rng, 300):
        dim = _dim(rng, a.ndim)
        keep = dim is not None and bool(rng.integers(0, 2))
        want = getattr(t, fn)() if dim is None else getattr(t, fn)(dim=dim, keepdim=keep)
        got = getattr(K, fn)(a, dim, keep)
        check(got, want.numpy(), X86, steps=np.log2(a.size + 1) + 1,
              scale=np.abs(a).sum() / max(1, got.size))


@pytest.mark.parametrize("n", [1, 7, 8, 31, 32, 33, 255, 256, 4095, 4097, 32767, 32768, 100_000, 1_000_003])
def test_sum_of_long_vectors(n):
    a = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    check(K.sum(a), T(a).sum().numpy(), X86, steps=np.log2(n) + 1, scale=np.abs(a).sum())


@pytest.mark.parametrize("threads", [2, 3])
def test_sum_split_across_threads(threads):
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for n in (40_000, 65_537, 200_000):
            a = np.random.default_rng(n).standard_normal(n).astype(np.float32)
            check(K.sum(a, threads=threads), T(a).sum().numpy(), X86, steps=20, scale=np.abs(a).sum())
            check(K.mean(a, threads=threads), T(a).mean().numpy(), X86, steps=20, scale=np.abs(a).mean())
    finally:
        torch.set_num_threads(before)


def test_integer_sums_are_int64():
    a = np.arange(-50, 70, dtype=np.int32).reshape(8, 15)
    assert bits_equal(K.sum(a, 1), T(a).sum(1).numpy())
    assert bits_equal(K.sum(a > 3), T(a > 3).sum().numpy())


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss(reduction):
    rng = np.random.default_rng(5)
    F = torch.nn.functional
    for _ in range(100):
        shape = tuple(int(v) for v in rng.integers(1, 60, int(rng.integers(1, 3))))
        a, b = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
        want = F.mse_loss(T(a), T(b), reduction=reduction).numpy()
        check(K.mse_loss(a, b, reduction), want, X86, steps=np.log2(a.size + 1) + 2,
              scale=((a - b) ** 2).sum() / max(1, want.size))


# --- factories and fused arithmetic ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_linspace_fills_from_both_ends(dtype):
    rng = np.random.default_rng(3)
    tdt = getattr(torch, np.dtype(dtype).name)
    for i in range(400):
        s, e = (rng.standard_normal(2) * 10 ** rng.uniform(-2, 3)).tolist()
        n = int(rng.integers(0, 300)) if i % 40 else int(rng.integers(30_000, 70_000))
        want = torch.linspace(s, e, n, dtype=tdt).numpy()
        check(K.linspace(s, e, n, dtype), want, FMA_BUILD or dtype == np.int64, steps=1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_arange_values(dtype):
    rng = np.random.default_rng(4)
    for i in range(300):
        start = float(rng.standard_normal() * 10 ** rng.uniform(-1, 3))
        step = 0.1 if i % 5 == 0 else float(rng.uniform(0.001, 3)) * (1 if i % 3 else -1)
        end = start + step * (int(rng.integers(1, 300)) - float(rng.uniform(0.01, 0.99)))
        want = torch.arange(start, end, step, dtype=getattr(torch, np.dtype(dtype).name)).numpy()
        check(K.arange(start, end, step, dtype), want, FMA_BUILD, steps=1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", ["add", "sub", "addcmul", "addcdiv", "lerp"])
def test_fused_updates(op, dtype):
    rng = np.random.default_rng(9)
    for n in (1, 5, 16, 17, 1000):
        a, b, c = (rng.standard_normal(n).astype(dtype) for _ in range(3))
        c = np.abs(c) + dtype(0.1)
        v = float(rng.standard_normal())
        if op in ("add", "sub"):
            want, got = getattr(torch, op)(T(a), T(b), alpha=v), getattr(K, op)(a, b, v)
        elif op == "lerp":
            w = float(rng.uniform(-0.5, 1.5)) if n > 1 else 0.5
            want, got = torch.lerp(T(a), T(b), w), K.lerp(a, b, w)
            check(K.lerp(a, b, c / (c + 1)), torch.lerp(T(a), T(b), T(c / (c + 1))).numpy(), FMA_BUILD, steps=3)
        else:
            want, got = getattr(torch, op)(T(a), T(b), T(c), value=v), getattr(K, op)(a, b, c, v)
        check(got, want.numpy(), FMA_BUILD or op == "addcdiv", steps=3)


# --- elementwise ------------------------------------------------------------------------------------------

RNG = np.random.default_rng(21)
X = (RNG.standard_normal(4000) * 2.5).astype(np.float32)
XP = (np.abs(X) + np.float32(1e-2)).astype(np.float32)
X1 = np.clip(X / 8, -1, 1).astype(np.float32)
# op -> (inputs, exact on this build?, rounding steps otherwise)
UNARY = {
    "sigmoid": (X, AVX2, 3), "silu": (X, AVX2, 3), "sinh": (X, AVX2, 1), "cosh": (X, AVX2, 1), "expm1": (X, AVX2, 1),
    "log1p": (XP, AVX2, 1), "rsqrt": (XP, True, 0),
    # MKL VML in torch (closed, per CPU): the correctly rounded value is within an ulp of it
    "sin": (X, False, 1), "cos": (X, False, 1), "tan": (X, False, 1), "exp": (X, False, 1),
    "log": (XP, False, 1), "log2": (XP, False, 1), "log10": (XP, False, 1), "sqrt": (XP, False, 1),
    "tanh": (X, False, 1), "atan": (X, False, 1), "asin": (X1, False, 1), "acos": (X1, False, 1),
    "erf": (X, False, 1), "erfc": (X, False, 1),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name):
    x, exact, steps = UNARY[name]
    torch_fn = torch.nn.functional.silu if name == "silu" else getattr(torch, name)
    for size in (1, 3, 15, 16, 17, 33, 100, 1000):
        for start in range(0, len(x) - size + 1, max(size, len(x) // 20)):
            chunk = x[start:start + size].copy()
            check(getattr(K, name)(chunk), torch_fn(T(chunk)).numpy(), exact, steps)
    rows = x[:600].reshape(20, 30)[:, 3:25]   # inner dim unit-stride, rows apart: one run per row
    check(getattr(K, name)(rows), torch_fn(T(x[:600].reshape(20, 30))[:, 3:25]).numpy(), exact, steps)


def test_exp_in_a_vectorised_kernel_body_is_sleef_then_glibc():
    """elu_backward's exp(x): SLEEF on 16-element blocks, glibc on the tail (its grad of ones shows it)."""
    for size in (1, 15, 16, 17, 33, 100, 1000):
        x = -np.abs(X[:size])
        t = T(x.copy()).requires_grad_()
        torch.nn.functional.elu(t).sum().backward()
        check(K.vec_exp(x), t.grad.numpy(), AVX2)


def test_logf_is_glibcs():
    """binary_cross_entropy's scalar std::log is glibc's logf: −loss for a target of 1 (inputs down to 1e-40)."""
    rng = np.random.default_rng(51)
    p = np.concatenate([rng.random(20000), np.exp(rng.uniform(-92, 0, 20000)), [1e-40, 1.0, 0.5]]).astype(np.float32)
    want = torch.nn.functional.binary_cross_entropy(T(p), torch.ones(p.size), reduction="none").numpy()
    check(-np.maximum(K.libm.logf(p), np.float32(-100)), want, X86 and platform.system() == "Linux")


# --- softmax family --------------------------------------------------------------------------------------

@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_softmax_over_any_dim(fn):
    rng = np.random.default_rng(31)
    for _ in range(150):
        nd = int(rng.integers(1, 4))
        shape = tuple(int(v) for v in rng.integers(1, 30, nd))
        x = (rng.standard_normal(shape) * 3).astype(np.float32)
        d = int(rng.integers(0, nd))
        got, want = getattr(K, fn)(x, d), getattr(torch, fn)(T(x), d).numpy()
        check(got, want, AVX2, steps=3, scale=np.float32(1) if fn == "softmax" else np.abs(x).max() + 1)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_and_nll_loss(reduction):
    rng = np.random.default_rng(41)
    F = torch.nn.functional
    for i in range(120):
        n, c = int(rng.integers(1, 400)), int(rng.integers(1, 20))
        x = (rng.standard_normal((n, c)) * 2).astype(np.float32)
        target = rng.integers(0, c, n)
        if i % 4 == 0:
            target[rng.random(n) < 0.2] = -100
        w = rng.random(c).astype(np.float32) if i % 3 == 0 else None
        tw = None if w is None else T(w)
        want = F.cross_entropy(T(x), T(target), weight=tw, reduction=reduction).numpy()
        scale = np.float32(np.abs(x).max() * 4 + 4) * (1 if reduction != "sum" else n)
        check(K.cross_entropy(x, target, w, reduction), want, AVX2, steps=4 + np.log2(n), scale=scale)
        want = F.nll_loss(T(x), T(target), weight=tw, reduction=reduction).numpy()
        check(K.nll_loss(x, target, w, reduction), want, X86, steps=np.log2(n) + 2,
              scale=np.float32(np.abs(x).max() * (1 if reduction != "sum" else n)))


# --- BLAS ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fused", [True, False])
def test_matmuls_within_an_ulp_per_step(fused):
    """MKL picks its kernel by CPU, shape and alignment: torch's order is not reproducible, so each element
    is held within k roundings (k + 1 with a bias) of Σ|aᵢbᵢ| of torch's."""
    rng = np.random.default_rng(51)
    F = torch.nn.functional
    for b, i, o in [(1, 1, 1), (4, 3, 1), (16, 2, 10), (64, 16, 1), (8, 32, 16), (5, 100, 7), (3, 64, 64)]:
        x, w, bias = (rng.standard_normal(s).astype(np.float32) for s in ((b, i), (o, i), (o,)))
        scale = np.abs(x) @ np.abs(w.T)
        check(K.mm(x, w.T, fused=fused), (T(x) @ T(w).t()).numpy(), False, steps=i, scale=scale)
        check(K.addmm(bias, x, w.T, fused=fused), F.linear(T(x), T(w), T(bias)).numpy(), False, steps=i + 1,
              scale=scale + np.abs(bias))
        check(K.mv(x, w[0], fused=fused), T(x).mv(T(w[0])).numpy(), False, steps=i, scale=scale[:, 0])
        check(K.dot(x[0], w[0], fused=fused), T(x[0]).dot(T(w[0])).numpy(), False, steps=i, scale=scale[0, 0])
        batch = rng.standard_normal((2, b, i)).astype(np.float32)
        check(K.matmul(batch, w.T, fused=fused), torch.matmul(T(batch), T(w).t()).numpy(), False, steps=i,
              scale=np.abs(batch) @ np.abs(w.T))


def test_kernels_sit_at_the_bottom_layer():
    """numpy and the standard library only: no engine module, so every layer above may use them."""
    allowed = {"numpy", "math", "decimal"}
    for path in pathlib.Path(K.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                assert {a.name.split(".")[0] for a in node.names} <= allowed, path
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module.split(".")[0] in allowed, path
