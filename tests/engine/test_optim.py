"""torch.optim's optimizers against torch 2.13: the parameters and the state after every step, for every option
(the for-loop path torch takes on the CPU, and foreach=True, which rounds the same way).

Bit-exactness: given torch's sqrt, every optimizer is bit-exact on an FMA build (the fused add/addcmul/lerp
of engine/kernels; `test_exact_given_torchs_sqrt`). torch's float32 sqrt is MKL VML's, which on some CPUs (this
AMD EPYC) is not correctly rounded, so Adam, RMSprop and Adagrad are otherwise compared within 2 ulps per step
(of the tensor's largest value). benchmarks/optim.py prints how many bits agree on the machine it runs on.
"""
from __future__ import annotations

import numpy as np
import pytest
from difftest import ENGINE_NAME, load_engine, torch
from test_kernels import FMA_BUILD

from engine.ops import OPS

pytestmark = pytest.mark.skipif(ENGINE_NAME != "engine", reason="the engine's optimizers against torch's")

CONFIGS = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.01, "momentum": 0.9}),
    ("SGD", {"lr": 0.01, "momentum": 0.9, "dampening": 0.3}),
    ("SGD", {"lr": 0.01, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.01, "momentum": 0.5, "maximize": True, "weight_decay": 0.1}),
    ("SGD", {"lr": 0.01, "momentum": 0.9, "nesterov": True, "foreach": True}),
    ("SGD", {"lr": 0.01, "momentum": 0.9, "foreach": False}),
    ("Adam", {}),
    ("Adam", {"lr": 0.01, "betas": (0.8, 0.9), "eps": 1e-6}),
    ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "maximize": True, "foreach": True}),
    ("Adam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("AdamW", {}),
    ("AdamW", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.5}),
    ("AdamW", {"lr": 0.01, "foreach": True}),
    ("RMSprop", {}),
    ("RMSprop", {"lr": 0.01, "alpha": 0.9, "centered": True}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5, "maximize": True, "foreach": True}),
    ("Adagrad", {}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "initial_accumulator_value": 0.1}),
    ("Adagrad", {"lr": 0.1, "weight_decay": 0.1, "maximize": True, "eps": 1e-6}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.05, "foreach": True}),
    ("Adadelta", {}),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-4, "weight_decay": 0.1}),
    ("Adadelta", {"lr": 0.5, "maximize": True, "foreach": True}),
    ("Adamax", {"lr": 0.1, "weight_decay": 0.1}),
    ("Adamax", {"maximize": True, "foreach": True}),
    ("NAdam", {"momentum_decay": 0.006, "weight_decay": 0.1}),
    ("NAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True, "maximize": True}),
    ("RAdam", {"lr": 0.01, "eps": 1e-6}),
    ("RAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True, "maximize": True, "foreach": True}),
    ("ASGD", {"lambd": 0.1, "t0": 2, "weight_decay": 0.1}),
    ("ASGD", {"t0": 3, "maximize": True, "foreach": True}),
    ("Rprop", {"etas": (0.5, 1.5), "step_sizes": (2e-6, 100)}),
    ("Rprop", {"lr": 0.0002, "maximize": True}),
    ("Adafactor", {"weight_decay": 0.1, "lr": 0.01}),
    ("Adafactor", {"beta2_decay": -1.0, "d": 1.5, "maximize": True}),
    ("Adafactor", {"foreach": True}),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in kw.items())}" for name, kw in CONFIGS]
STEPS = 6
SHAPES = [(3, 5), (17,), ()]


def values(t):
    return t.detach().numpy() if isinstance(t, torch.Tensor) else np.asarray(t._data)


def trajectory(T, name, kwargs, dtype="float32"):
    """Parameters (three, in two groups; the second group with its own lr) stepped STEPS times with given grads
    (a fresh grad each step; the last parameter gets no grad on odd steps); after every step: each parameter and
    each state tensor."""
    rng = np.random.default_rng(3)
    params = [T.tensor(rng.standard_normal(s).astype(dtype), requires_grad=True) for s in SHAPES]
    lr = kwargs.get("lr", 0.01)
    opt = getattr(T.optim, name)([{"params": params[:2]}, {"params": params[2:], "lr": lr / 2}], **kwargs)
    out = []
    for k in range(STEPS):
        for i, p in enumerate(params):
            g = rng.standard_normal(p.shape).astype(dtype)
            p.grad = None if (i == 2 and k % 2) else T.tensor(g)
        opt.step()
        row = [values(p) for p in params]
        for p in params:
            row += [values(v) if isinstance(v, T.Tensor) else np.asarray(v) for _, v in sorted(opt.state[p].items())]
        out.append(row)
    return out


def ulps(got, want):
    """|got - want| in ulps of the tensor's largest value."""
    got, want = np.asarray(got, np.float64), np.asarray(want)
    scale = np.spacing(np.max(np.abs(want), initial=np.finfo(want.dtype).tiny).astype(want.dtype))
    return float(np.max(np.abs(got - want.astype(np.float64)), initial=0.0) / scale)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("name", "kwargs"), CONFIGS, ids=IDS)
def test_parameters_and_state_after_every_step(name, kwargs, dtype):
    E = load_engine()
    want, got = trajectory(torch, name, kwargs, dtype), trajectory(E, name, kwargs, dtype)
    for k, (w_row, g_row) in enumerate(zip(want, got), 1):
        assert len(w_row) == len(g_row), f"step {k}: the state has other entries"
        for w, g in zip(w_row, g_row):
            assert g.dtype == w.dtype and g.shape == w.shape
            # torch's sqrt is MKL VML's, within an ulp but CPU-dependent; Adadelta's delta is a quotient of two
            # such roots (2 ulps) and its acc_delta squares it (4 ulps per step; 2.5 measured on an AMD EPYC)
            assert ulps(g, w) <= 4 * k, f"step {k}: off by {ulps(g, w):.1f} ulps\nengine {g}\ntorch  {w}"


# Adafactor's norms (of the parameter, the update, the grad's rows and columns) are torch's vectorised reductions,
# whose order the engine does not replay: its result is within the ulps above, not bit for bit
EXACT = [(name, kwargs) for name, kwargs in CONFIGS if name != "Adafactor"]


@pytest.mark.skipif(not FMA_BUILD, reason="the fused updates are torch's on FMA builds (AVX2, AVX512)")
@pytest.mark.parametrize(("name", "kwargs"), EXACT, ids=[i for i, (n, _) in zip(IDS, CONFIGS) if n != "Adafactor"])
def test_exact_given_torchs_sqrt(name, kwargs, monkeypatch):
    """With torch's own sqrt (MKL VML: the one op whose bits depend on the CPU), every bit is torch's."""
    E = load_engine()
    monkeypatch.setattr(OPS["sqrt"], "forward", lambda a: torch.from_numpy(np.array(a)).sqrt().numpy())
    want, got = trajectory(torch, name, kwargs), trajectory(E, name, kwargs)
    for k, (w_row, g_row) in enumerate(zip(want, got), 1):
        for w, g in zip(w_row, g_row):
            assert g.dtype == w.dtype and g.tobytes() == w.tobytes(), f"step {k}:\nengine {g}\ntorch  {w}"


# --- LBFGS and Muon: not step by step bit for bit, and why ---------------------------------------------------------
def lbfgs_run(T, kwargs, dtype):
    """Three L-BFGS steps on a quartic bowl: the parameters and the state's counters after each."""
    rng = np.random.default_rng(5)
    params = [T.tensor(rng.standard_normal(s).astype(dtype), requires_grad=True) for s in ((3, 4), (5,))]
    targets = [T.tensor(rng.standard_normal(s).astype(dtype)) for s in ((3, 4), (5,))]
    opt = T.optim.LBFGS(params, **kwargs)

    def closure():
        opt.zero_grad()
        loss = sum(((p - t) ** 4).sum() + ((p - t) ** 2).sum() for p, t in zip(params, targets))
        loss.backward()
        return loss

    out = []
    for _ in range(3):
        loss = opt.step(closure)
        state = opt.state[params[0]]
        out.append(([values(p) for p in params], loss.item(), state["func_evals"], state["n_iter"]))
    return out


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kwargs", [{}, {"lr": 0.5, "history_size": 3}, {"line_search_fn": "strong_wolfe"},
                                    {"tensor_lr": 0.8, "max_iter": 5}], ids=["default", "lr-history",
                                                                                   "strong_wolfe", "tensor-lr"])
def test_lbfgs_against_torch(kwargs, dtype):
    """LBFGS's algorithm is torch's line for line; its dot products and sums are the engine's kernels, whose
    float32 rounding differs from torch's BLAS by an ulp now and then, and L-BFGS's curvature pairs carry that
    on: the parameters agree to 1e-12 (float64) and 1e-4 (float32), the counts of evaluations exactly."""
    E = load_engine()
    def given(T):  # a one-element tensor lr, made of each library's own tensor (no torch at collection in Pyodide)
        return {("lr" if k == "tensor_lr" else k): T.tensor(v) if k == "tensor_lr" else v for k, v in kwargs.items()}

    rtol = 1e-4 if dtype == "float32" else 1e-12
    for (w_params, w_loss, w_evals, w_iters), (g_params, g_loss, g_evals, g_iters) in zip(
            lbfgs_run(torch, given(torch), dtype), lbfgs_run(E, given(E), dtype)):
        assert (g_evals, g_iters) == (w_evals, w_iters)
        assert g_loss == pytest.approx(w_loss, rel=rtol)
        for w, g in zip(w_params, g_params):
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("kwargs", [{}, {"lr": 0.02, "nesterov": False, "weight_decay": 0.2},
                                    {"ns_coefficients": (3.4, -4.7, 2.0), "ns_steps": 6,
                                     "adjust_lr_fn": "match_rms_adamw"}])
def test_muon_against_torch(kwargs):
    """Muon's Newton–Schulz iteration runs in bfloat16: the engine rounds each op's exact result to bfloat16, torch
    its float32 accumulation, so an element may land one bfloat16 step (2⁻⁸ relative) apart: within lr · 2⁻⁷ per
    step of torch's, and the momentum buffer, which is float32 arithmetic on the grads, within 1 ulp."""
    E = load_engine()
    rng = np.random.default_rng(7)
    start = [rng.standard_normal(s).astype("float32") for s in ((4, 3), (2, 6))]
    grads = [[rng.standard_normal(a.shape).astype("float32") for a in start] for _ in range(4)]
    runs = []
    for T in (torch, E):
        params = [T.tensor(a, requires_grad=True) for a in start]
        opt = T.optim.Muon(params, **kwargs)
        rows = []
        for step_grads in grads:
            for p, g in zip(params, step_grads):
                p.grad = T.tensor(g)
            opt.step()
            rows.append([values(p) for p in params] + [values(opt.state[p]["momentum_buffer"]) for p in params])
        runs.append(rows)
    lr = kwargs.get("lr", 1e-3)
    for k, (want, got) in enumerate(zip(*runs), 1):
        for w, g in zip(want[:2], got[:2]):
            np.testing.assert_allclose(g, w, rtol=0, atol=k * lr * 2**-7 * 4)
        for w, g in zip(want[2:], got[2:]):
            assert ulps(g, w) <= 1
