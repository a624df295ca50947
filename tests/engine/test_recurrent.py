"""nn.RNN, nn.LSTM, nn.GRU and their cells against PyTorch 2.13: parameters named, shaped and drawn in torch's
order under a seed; the outputs, hidden states, grads and graphs (node for node) of float64 layers and of float32
RNN/GRU layers (ATen's CPU composite); reprs, errors and warnings as printed by small programs.

A float32 LSTM is the exception: torch's CPU build runs oneDNN's fused layer (one MkldnnRnnLayerBackward0 node
per layer and direction), which the engine does not have; its values and grads are compared within float32
noise, and its graph against the one torch records with oneDNN turned off (torch.backends.mkldnn.flags)."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import ENGINE_NAME, load_engine, printed_alike, run_both, run_fresh, torch

LAYERS = ["RNN(3, 4)", "RNN(3, 4, 2, nonlinearity='relu', bias=False)", "LSTM(4, 8, batch_first=True)",
          "LSTM(3, 5, num_layers=2, bidirectional=True)", "GRU(2, 3, dropout=0.5, num_layers=3)",
          "GRU(3, 2, dtype=T.float64)", "RNNCell(3, 4)", "LSTMCell(5, 2, bias=False)", "GRUCell(2, 6)",
          "LSTM(3, 5, proj_size=2, num_layers=2, bidirectional=True)", "LSTM(4, 3, proj_size=1, bias=False)"]


@pytest.mark.parametrize("layer", LAYERS)
def test_parameters_are_named_shaped_and_drawn_as_torchs(layer):
    got = []
    for T in (torch, load_engine()):
        T.manual_seed(3)
        m = eval(f"T.nn.{layer}")  # noqa: S307 - the test's own code
        got.append(([(n, tuple(p.shape), str(p.dtype)) for n, p in m.named_parameters()],
                    [np.asarray(p.detach().tolist()) for p in m.parameters()], repr(m),
                    np.asarray(T.rand(3).tolist())))
    (names, values, text, after), (e_names, e_values, e_text, e_after) = got
    assert e_names == names and e_text == text
    for a, b in zip(e_values, values):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(e_after, after)  # the generator is where torch's is


def _graph(fn):
    seen, out = set(), []

    def walk(f, depth):
        if f is None:
            return
        if f in seen:
            out.append(f"{' ' * depth}({type(f).__name__})")
            return
        seen.add(f)
        out.append(" " * depth + type(f).__name__)
        for g, _ in f.next_functions:
            walk(g, depth + 1)

    walk(fn, 0)
    return out


def _run(T, layer, dtype, x_shape, hidden=None):
    T.manual_seed(0)
    m = eval(f"T.nn.{layer}").to(getattr(T, dtype))  # noqa: S307
    x = T.randn(*x_shape, dtype=getattr(T, dtype), requires_grad=True)
    args = [x]
    if hidden is not None:  # one shape for h (and c), or an LSTM's two (with projections h is smaller)
        shapes = hidden if isinstance(hidden[0], tuple) else (hidden, hidden)
        hs = [T.randn(*shape, dtype=getattr(T, dtype), requires_grad=True) for shape in shapes]
        args.append(tuple(hs) if "LSTM" in layer else hs[0])
    out = m(*args)
    flat = []
    for o in out if isinstance(out, tuple) else (out,):
        flat += list(o) if isinstance(o, tuple) else [o]
    sum((o * (i + 1)).sum() for i, o in enumerate(flat)).backward()
    leaves = [a for a in args[:1]] + [h for a in args[1:] for h in (a if isinstance(a, tuple) else (a,))]
    grads = [np.asarray(t.grad.tolist()) for t in leaves + list(m.parameters())]
    return [np.asarray(o.tolist()) for o in flat], grads, [_graph(o.grad_fn) for o in flat]


CASES = [("RNN(3, 4)", (5, 2, 3), None), ("RNN(3, 4, num_layers=2, nonlinearity='relu')", (4, 2, 3), (2, 2, 4)),
         ("RNN(3, 4, batch_first=True, bidirectional=True)", (2, 5, 3), None),
         ("GRU(3, 4)", (5, 2, 3), (1, 2, 4)), ("GRU(3, 4, batch_first=True, bidirectional=True)", (2, 5, 3), None),
         ("GRU(3, 4, bias=False)", (5, 3), None), ("LSTM(3, 4)", (5, 2, 3), None),
         ("LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True)", (2, 3, 3), (4, 2, 4)),
         ("LSTM(3, 4)", (5, 3), (1, 4)), ("RNNCell(3, 4)", (2, 3), (2, 4)), ("LSTMCell(3, 4)", (2, 3), None),
         ("GRUCell(3, 4)", (3,), (4,)), ("RNNCell(3, 4, nonlinearity='relu', bias=False)", (2, 3), None),
         ("LSTM(3, 5, proj_size=2)", (4, 2, 3), None),
         ("LSTM(3, 5, proj_size=2, num_layers=2, bidirectional=True, batch_first=True)", (2, 3, 3),
          ((4, 2, 2), (4, 2, 5))),
         ("LSTM(3, 5, proj_size=3, bias=False)", (4, 3), ((1, 3), (1, 5)))]
_FUSED = [c for c in CASES if c[0].startswith("LSTM(") and "proj_size" not in c[0]]  # oneDNN has no projections


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize(("layer", "x_shape", "hidden"), CASES)
def test_outputs_grads_and_graph_match_torch(layer, x_shape, hidden, dtype):
    if dtype == "float32" and (layer, x_shape, hidden) in _FUSED:
        pytest.skip("a float32 LSTM runs oneDNN's fused layer in torch: test_float32_lstm")
    want = _run(torch, layer, dtype, x_shape, hidden)
    got = _run(load_engine(), layer, dtype, x_shape, hidden)
    tol = dict(rtol=1e-12, atol=1e-14) if dtype == "float64" else dict(rtol=1e-5, atol=1e-6)  # BLAS sums
    for a, b in zip(got[0] + got[1], want[0] + want[1]):
        np.testing.assert_allclose(a, b, **tol)
    assert got[2] == want[2]


@pytest.mark.parametrize(("layer", "x_shape", "hidden"), _FUSED)
def test_float32_lstm(layer, x_shape, hidden):
    """Values and grads within float32 noise of oneDNN's; the graph is the one torch records without oneDNN."""
    want = _run(torch, layer, "float32", x_shape, hidden)
    with torch.backends.mkldnn.flags(enabled=False):
        unfused = _run(torch, layer, "float32", x_shape, hidden)
    got = _run(load_engine(), layer, "float32", x_shape, hidden)
    for a, b in zip(got[0] + got[1], want[0] + want[1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert got[2] == unfused[2]
    assert any("MkldnnRnnLayerBackward0" in g for g in want[2][0]), "torch no longer fuses: drop this exception"


PROGRAMS = {
    "lstm_tutorial": """
import torch
import torch.nn as nn
torch.manual_seed(1)
lstm = nn.LSTM(3, 3)
inputs = [torch.randn(1, 3) for _ in range(5)]
hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
for i in inputs:
    out, hidden = lstm(i.view(1, 1, -1), hidden)
inputs = torch.cat(inputs).view(len(inputs), 1, -1)
hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
out, hidden = lstm(inputs, hidden)
print(lstm)
print(out.shape, hidden[0].shape, hidden[1].shape)
print([n for n, _ in lstm.named_parameters()])
""",
    "gru_and_rnn": """
import torch
from torch import nn
torch.manual_seed(0)
gru = nn.GRU(4, 8, batch_first=True)
x = torch.randn(2, 3, 4)
out, h = gru(x)
print(gru, out.shape, h.shape)
print(out[0, -1], h)
print(out.grad_fn, h.grad_fn, h.grad_fn.next_functions[0][0])
rnn = nn.RNN(4, 2, num_layers=2, nonlinearity="relu")
out, h = rnn(x)
print(rnn, out, h)
h.sum().backward()
print(rnn.weight_hh_l1.grad)
cell = nn.GRUCell(4, 3)
hx = torch.zeros(3, 3)
for t in range(x.shape[1]):
    hx = cell(x[:, t] if t < 2 else x[0, t], hx if t < 2 else hx[0])
print(cell, hx, hx.grad_fn)
lc = nn.LSTMCell(4, 2)
print(lc, lc(x[0]), nn.RNNCell(4, 2, nonlinearity="relu", bias=False))
""",
    "recurrent_errors": """
import warnings
import torch
from torch import nn
warnings.simplefilter("always")
m = nn.LSTM(3, 2)
for call in [lambda: m(torch.randn(4, 2, 5)), lambda: m(torch.randn(2, 2, 2, 3)),
             lambda: m(torch.randn(4, 2, 3), (torch.zeros(1, 3, 2), torch.zeros(1, 2, 2))),
             lambda: m(torch.randn(4, 2, 3), (torch.zeros(1, 2, 2), torch.zeros(1, 3, 2))),
             lambda: m(torch.randn(4, 2, 3).double()), lambda: nn.GRU(3, 2)(torch.randn(1, 1, 1, 3)),
             lambda: nn.RNN(3, 2)(torch.randn(4, 1, 3), torch.zeros(1, 2, 2)),
             lambda: nn.RNN(3, 2)(torch.randn(4, 3), torch.zeros(1, 1, 2)),
             lambda: nn.GRU(3, 2)(torch.randn(4, 1, 3), torch.zeros(1, 2)),
             lambda: nn.RNN(3, 2, nonlinearity="x"), lambda: nn.LSTM(3, 0), lambda: nn.LSTM(3, 2.0),
             lambda: nn.LSTM(3, 2, num_layers=0), lambda: nn.LSTM(3, 2, dropout=2), lambda: nn.GRU(3, 2, bias=1),
             lambda: nn.LSTMCell(3, 2)(torch.randn(2, 4)),
             lambda: nn.LSTMCell(3, 2)(torch.randn(2, 3), (torch.zeros(3, 2), torch.zeros(3, 2))),
             lambda: nn.LSTMCell(3, 2)(torch.randn(2, 3), (torch.zeros(3, 2, 1), torch.zeros(3, 2))),
             lambda: nn.RNNCell(3, 2)(torch.randn(2, 3), torch.zeros(2, 5)),
             lambda: nn.GRUCell(3, 2)(torch.randn(1, 2, 3)),
             lambda: nn.LSTM(3, 2)(torch.randn(4, 3), (torch.zeros(1, 1, 2), torch.zeros(1, 1, 2))),
             lambda: nn.LSTM(3, 2)(torch.randn(0, 2, 3)), lambda: nn.GRU(3, 2, dropout=0.2)]:
    try:
        call()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
""",
    "lstm_projections": """
import torch
from torch import nn
torch.manual_seed(0)
lstm = nn.LSTM(3, 4, proj_size=2, num_layers=2, dtype=torch.float64)
print(lstm, [(n, tuple(p.shape)) for n, p in lstm.named_parameters()])
x = torch.randn(5, 1, 3, dtype=torch.float64)
out, (h, c) = lstm(x)
print(out, h, c, out.grad_fn, h.grad_fn.next_functions[0][0].next_functions[0][0])
out.sum().backward()
print(lstm.weight_hr_l1.grad, lstm.weight_hh_l0.grad.shape)
print(nn.LSTM(2, 3, proj_size=1, batch_first=True, bias=False), len(lstm.all_weights[1]), lstm.proj_size)
for call in [lambda: nn.LSTM(3, 5, proj_size=-1), lambda: nn.LSTM(3, 5, proj_size=5),
             lambda: nn.GRU(3, 5, proj_size=2), lambda: nn.RNN(3, 5, proj_size=2),
             lambda: lstm(x, (torch.zeros(2, 1, 4), torch.zeros(2, 1, 4))),
             lambda: lstm(x, (torch.zeros(2, 1, 2), torch.zeros(2, 1, 2))),
             lambda: lstm(x[:, 0], (torch.zeros(2, 2), torch.zeros(2, 4))),
             lambda: lstm(x[:, 0], (torch.zeros(2, 2, dtype=torch.float64), torch.zeros(2, 4, dtype=torch.float64)))]:
    try:
        r = call()
        print("no error", [t.shape for t in r[1]] if isinstance(r, tuple) else r)
    except Exception as e:
        print(type(e).__name__, e)
""",
    "pieces": """
import torch
x = torch.arange(12.0).view(4, 3).requires_grad_()
y = x * 2
a, b, c = y.unbind(1)
print(a, b.grad_fn, torch.unbind(y)[3], y.split(3)[1], y.chunk(2, 1), torch.split(y, [1, 3]), y.unsafe_chunk(3))
(a * c).sum().backward()
print(x.grad, a._version, a.is_contiguous(), y.chunk(2)[1]._base is y)
try:
    a.mul_(2)
except RuntimeError as e:
    print(e)
for call in [lambda: y.split(0), lambda: y.split([1, 1]), lambda: y.chunk(0), lambda: y.unbind(2),
             lambda: torch.tensor(1.0).unbind()]:
    try:
        call()
    except Exception as e:
        print(type(e).__name__, e)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_what_pytorch_prints(name):
    want, got = run_both(PROGRAMS[name])
    assert printed_alike(got.stdout, want.stdout), f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    assert (got.warnings, got.exc) == (want.warnings, want.exc)


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="the tracer's labels")
def test_the_tracer_names_each_piece():
    from engine.trace import run

    timeline = run("import torch\nx = torch.ones(4, 3, requires_grad=True)\na, b = x.chunk(2)\n"
                   "y = x.unbind(1)[2] * 2\nout, (h, c) = torch.nn.LSTM(3, 2)(x.unsqueeze(1))\n"
                   "(a * b).sum().backward()\n")
    ops = [(e.get("name"), e.get("grad_fn")) for e in timeline.events if e.get("kind") == "op"]
    assert ("a", "SplitBackward0") in ops and ("b", None) in ops  # one node, drawn at its first output
    assert ("x.unbind(1)[2]", None) in ops and ("x.unbind(1)[0]", "UnbindBackward0") in ops
    assert ("unsafe_split(…)", "UnsafeSplitBackward0") in ops and ("h", "StackBackward0") in ops


def test_float32_lstm_with_projections_warns_once_as_torch():
    """torch's CPU build would run oneDNN for a float32 LSTM, which has no projections: it says so, once."""
    source = ("import torch\nm = torch.nn.LSTM(3, 4, proj_size=2)\nfor _ in range(2):\n"
              "    out, (h, c) = m(torch.ones(2, 1, 3))\nprint(out.shape, h.shape, c.shape)\n"
              "torch.nn.LSTM(3, 4, proj_size=2, dtype=torch.float64)(torch.ones(2, 1, 3, dtype=torch.float64))\n")
    want, got = run_fresh((source,), "torch")[0], run_fresh((source,), ENGINE_NAME)[0]
    assert got.stdout == want.stdout and got.exc == want.exc is None
    assert got.warnings == want.warnings and len(want.warnings) == 1
