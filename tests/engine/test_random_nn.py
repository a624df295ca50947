"""What draws in torch.nn is PyTorch's, value for value: every nn.init function (drawing in torch's order, with its
version bumps, warnings and errors), the default initialisation of nn.Linear, F.dropout / nn.Dropout (masks,
scaling, grads, grad_fn, train/eval), and a seeded tutorial-style training script printed as torch prints it.
Tolerances as in test_random.py; orthogonal_'s QR is numpy's (in float64; torch runs LAPACK in the tensor's
precision), so its values are compared within 16·√n ulps of the gain."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import ENGINE_NAME, load_engine, printed_alike, run_both, torch
from test_random import CAPABILITY, FILL32, LIBM, ulps, values

from engine.generator import draws

pytestmark = pytest.mark.skipif(ENGINE_NAME != "engine", reason="the engine's generator against torch's")


@pytest.fixture(autouse=True)
def _same_kernels():
    before = draws.CPU_CAPABILITY
    draws.CPU_CAPABILITY = CAPABILITY if CAPABILITY in ("AVX2", "AVX512") else "DEFAULT"
    yield
    draws.CPU_CAPABILITY = before


def both(source, tol=0, atol=None):
    """Runs `source` (which sets `out`) on torch and on the engine, each seeded alike; compares out's values
    (within `tol` ulps, or `atol`), its version counter, and the generator's state after."""
    E = load_engine()
    results = []
    for T in (torch, E):
        T.manual_seed(17)
        env = {"T": T, "init": T.nn.init, "F": T.nn.functional}
        exec(source, env)  # noqa: S102 - the test's own code
        out = env["out"]
        results.append((values(out), out._version, values(T.get_rng_state())))
    (want, want_version, want_state), (got, got_version, got_state) = results
    assert got.dtype == want.dtype and got.shape == want.shape
    if atol is not None:
        assert np.abs(got - want).max(initial=0) <= atol, f"{source}:\nengine {got}\ntorch  {want}"
    else:
        d = ulps(got, want)
        assert d.max(initial=0) <= tol, f"{source}: off by up to {d.max()} ulps\nengine {got}\ntorch  {want}"
    assert got_version == want_version, f"{source}: version {got_version}, torch {want_version}"
    assert np.array_equal(got_state, want_state), f"{source}: the generator's state differs after"


SHAPES = ["(3, 5)", "(16, 8)", "(4, 3, 2, 2)", "(20, 33)"]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", [
    "init.uniform_(w)", "init.uniform_(w, -0.3, 0.7)", "init.normal_(w)", "init.normal_(w, 0.5, 0.02)",
    "init.xavier_uniform_(w)", "init.xavier_uniform_(w, gain=init.calculate_gain('relu'))", "init.xavier_normal_(w)",
    "init.kaiming_uniform_(w)", "init.kaiming_uniform_(w, a=5 ** 0.5)",
    "init.kaiming_uniform_(w, mode='fan_out', nonlinearity='relu')", "init.kaiming_normal_(w)",
    "init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu')", "init.kaiming_normal_(w, 0.2, 'FAN_IN')",
    "init.trunc_normal_(w)", "init.trunc_normal_(w, std=0.02)", "init.trunc_normal_(w, 0.0, 1.0, 2.0, 5.0)",
    "init.constant_(w, 0.25)", "init.ones_(w)", "init.zeros_(w)"])
def test_init_functions(call, shape, dtype):
    normal = "normal" in call
    tol = (FILL32 + LIBM) if normal else 0
    if "2.0, 5.0" in call:
        tol = 0  # uniform proposals, accepted by comparing float32 logs: a flipped comparison would show
    both(f"w = T.empty({shape[1:-1]}, dtype=T.{dtype})\nout = {call}", tol)


@pytest.mark.parametrize("call", ["init.eye_(T.empty(3, 5))", "init.eye_(T.empty(4, 2, dtype=T.float64))",
                                  "init.dirac_(T.empty(4, 2, 3))", "init.dirac_(T.empty(4, 2, 3, 3), groups=2)",
                                  "init.dirac_(T.empty(2, 2, 3, 3, 3))", "init.sparse_(T.empty(10, 6), 0.3)",
                                  "init.sparse_(T.empty(5, 40), 0.5, std=0.1)"])
def test_structured_inits(call):
    both(f"out = {call}", FILL32 + LIBM)


@pytest.mark.parametrize("shape", ["(3, 5)", "(5, 3)", "(4, 3, 2)", "(6, 6)", "(2, 40)", "(50, 50)"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_orthogonal(shape, dtype):
    """The normal draw is torch's; Q agrees to 16·√n ulps of the gain, n its larger side (QR's rounding error grows
    with the size; measured: up to 10 ulps for 50×50 in float32, 22 in float64)."""
    n = max(eval(shape)[0], int(np.prod(eval(shape)[1:])))  # noqa: S307
    both(f"out = init.orthogonal_(T.empty({shape[1:-1]}, dtype=T.{dtype}), gain=1.5)",
         atol=16 * n**0.5 * float(np.finfo(dtype).eps) * 1.5)


def test_calculate_gain_and_fans():
    E = load_engine()
    for args in [("linear",), ("conv2d",), ("sigmoid",), ("tanh",), ("relu",), ("leaky_relu",), ("leaky_relu", 0.2),
                 ("leaky_relu", 3), ("selu",)]:
        assert E.nn.init.calculate_gain(*args) == torch.nn.init.calculate_gain(*args), args
    for shape in [(3, 5), (4, 3, 2, 2), (7, 2, 5)]:
        assert E.nn.init._calculate_fan_in_and_fan_out(E.empty(*shape)) == \
            torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(*shape))


@pytest.mark.parametrize("call", [
    "init.calculate_gain('leaky_relu', True)", "init.calculate_gain('gelu')",
    "init._calculate_fan_in_and_fan_out(T.empty(3))", "init.kaiming_uniform_(T.empty(3, 4), mode='fan')",
    "init.eye_(T.empty(3))", "init.dirac_(T.empty(3, 3))", "init.dirac_(T.empty(3, 2, 2), groups=2)",
    "init.orthogonal_(T.empty(3))", "init.sparse_(T.empty(3, 3, 3), 0.1)", "init.xavier_uniform_(T.empty(4))",
    "init.uniform_(T.ones(3, requires_grad=True))"])
def test_init_errors_match_torch(call):
    E = load_engine()
    outcomes = []
    for T in (torch, E):
        try:
            exec(call, {"T": T, "init": T.nn.init})  # noqa: S102
            outcomes.append(None)
        except Exception as e:  # noqa: BLE001
            outcomes.append((type(e).__name__, str(e)))
    assert outcomes[1] == outcomes[0]


def test_init_warnings_match_torch():
    want, got = run_both("""
import torch
from torch.nn import init
torch.manual_seed(0)
print(init.kaiming_uniform_(torch.empty(0, 3)), init.kaiming_normal_(torch.empty(3, 0)))
print(init.trunc_normal_(torch.empty(4), mean=5.0))
print(init.uniform(torch.empty(3)), init.normal(torch.empty(2)), init.xavier_uniform(torch.empty(2, 2)))
""")
    assert (got.stdout, got.warnings, got.exc) == (want.stdout, want.warnings, want.exc)


# --- default module initialisation ---------------------------------------------------------------------------------
@pytest.mark.parametrize("args", ["3, 2", "1, 1", "20, 7", "5, 4, bias=False", "4, 6, dtype=T.float64",
                                  "0, 3"])
def test_linear_is_initialised_as_torchs(args):
    both(f"lin = T.nn.Linear({args})\nout = T.cat([lin.weight.detach().reshape(-1)] + "
         f"([lin.bias.detach()] if lin.bias is not None else []))")


@pytest.mark.parametrize("layer", ["Conv2d(1, 6, 5)", "Conv2d(6, 16, (5, 3), bias=False)", "Conv1d(3, 4, 2)",
                                   "Conv2d(4, 6, 3, groups=2, dtype=T.float64)", "ConvTranspose2d(4, 6, 3, groups=2)",
                                   "Conv3d(2, 3, 2)"])
def test_conv_is_initialised_as_torchs(layer):
    both(f"m = T.nn.{layer}\nout = T.cat([p.detach().reshape(-1) for p in m.parameters()])")


def test_a_model_draws_its_layers_in_order():
    both("m = T.nn.Sequential(T.nn.Linear(4, 8), T.nn.Tanh(), T.nn.Linear(8, 8), T.nn.ReLU(), T.nn.Linear(8, 1))\n"
         "out = T.cat([p.detach().reshape(-1) for p in m.parameters()])")


# --- dropout -------------------------------------------------------------------------------------------------------
# the last p: a float32 division by 1 - p differs there from a multiplication by the rounded 1 / (1 - p)
@pytest.mark.parametrize("p", [0.1, 0.5, 0.8, 1 / 3, 0.0, 1.0, 0.010098019603920785])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("x", ["T.arange(1.0, 8.0, dtype={})", "T.arange(1.0, 21.0, dtype={}).reshape(4, 5)",
                               "T.arange(1.0, 43.0, dtype={}).reshape(7, 6).t()"])
def test_dropout_values(p, dtype, x):
    both(f"out = F.dropout({x.format('T.' + dtype)}, {p})")


@pytest.mark.parametrize("call", ["F.dropout2d(T.arange(1.0, 49.0).reshape(2, 3, 2, 4), 0.4)",
                                  "F.dropout2d(T.arange(1.0, 25.0, dtype=T.float64).reshape(3, 2, 4))",
                                  "F.dropout1d(T.arange(1.0, 25.0).reshape(3, 2, 4), 0.3)",
                                  "F.dropout1d(T.arange(1.0, 9.0).reshape(2, 4), 0.3)",
                                  "T.nn.Dropout2d(0.5)(T.ones(4, 5, 2, 2))",
                                  "F.dropout3d(T.arange(1.0, 49.0).reshape(2, 3, 2, 2, 2), 0.4)",
                                  "F.alpha_dropout(T.linspace(-2, 2, 30, dtype=T.float64).reshape(5, 6), 0.3, True)",
                                  "F.feature_alpha_dropout(T.linspace(-2, 2, 24).reshape(2, 3, 4), 0.4, True)",
                                  "F.rrelu(T.linspace(-2, 2, 30, dtype=T.float64).reshape(5, 6), training=True)",
                                  "F.rrelu(T.linspace(-2, 2, 12), 0.2, 0.6, True)"])
def test_channel_dropout_values(call):
    both(f"out = {call}")


def test_dropout_grads_nodes_and_modes():
    want, got = run_both("""
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.linspace(-1, 1, 12, requires_grad=True)
y = F.dropout(x, 0.3)
print(y, type(y.grad_fn).__name__, [type(f).__name__ if f else None for f, _ in y.grad_fn.next_functions])
y.sum().backward()
print(x.grad)
print(F.dropout(x, 0.3, training=False) is x, F.dropout(x, 0.0) is x, F.dropout(x, 1.0))
h = x * 2
r = F.dropout(h, 0.5, inplace=True)
print(r is h, h._version, type(h.grad_fn).__name__, h)
drop = torch.nn.Dropout(0.25)
print(drop, torch.nn.Dropout(p=0.1, inplace=True), drop.training)
print(drop(torch.ones(2, 5)))
drop.eval()
print(drop(torch.ones(2, 5)), drop.training)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Dropout(), torch.nn.Linear(4, 1))
print(model)
print(model(torch.ones(2, 3)))
F.dropout(torch.ones(3, requires_grad=True), 0.5, inplace=True)
""")
    assert (got.stdout, got.warnings, got.exc) == (want.stdout, want.warnings, want.exc)


@pytest.mark.parametrize("call", ["F.dropout(T.ones(3), 1.5)", "F.dropout(T.ones(3), -0.1)", "T.nn.Dropout(2)"])
def test_dropout_errors_match_torch(call):
    E = load_engine()
    outcomes = []
    for T in (torch, E):
        try:
            eval(call, {"T": T, "F": T.nn.functional})  # noqa: S307
            outcomes.append(None)
        except Exception as e:  # noqa: BLE001
            outcomes.append((type(e).__name__, str(e)))
    assert outcomes[1] == outcomes[0]


# --- a seeded tutorial-style program ---------------------------------------------------------------------------------
TRAINING = """
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 16), torch.nn.ReLU(), torch.nn.Dropout(0.2), torch.nn.Linear(16, 1))
x = torch.randn(64, 3)
y = x @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.1 * torch.randn(64, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(5):
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
model.eval()
print(model(x[:3]))
print(model[0].weight)
idx = torch.randperm(64)[:5]
print(idx, torch.randint(0, 10, (5,)), torch.rand(2))
"""


def test_seeded_training_script_prints_as_torch():
    want, got = run_both(TRAINING)
    assert got.exc == want.exc
    assert printed_alike(got.stdout, want.stdout), f"engine:\n{got.stdout}\ntorch:\n{want.stdout}"
