"""torch.* names teaching programs meet that are no op's: aliases (arctan, swapdims, multiply_, subtract_), the
window functions and vander as ATen computes them, dtype promotion queries, torch.range, the deprecated and removed
functions' texts, and the nn functions with ATen's signatures (torch.dropout, torch.layer_norm, torch.kl_div with an
integer reduction, torch.convolution …), against torch."""
import itertools

import numpy as np
import pytest
from difftest import assert_same, load_engine

PRELUDE = "import torch\nimport numpy as np\n"


def _same(source):
    assert_same(PRELUDE + source)


def test_aliases_and_small_functions():
    _same("""
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = torch.arctan(x) + x.arctan()
y.sum().backward()
print(y, x.grad)
z = x * 1
z.multiply_(3.0).subtract_(torch.tensor([1.0, 2.0, 3.0]), alpha=2).arctan_()
print(z)
torch.arctan_(torch.ones(2))
print(torch.swapdims(torch.ones(2, 3), 0, 1).shape, torch.ones(2, 3, 4).swapdims(0, 2).shape)
print(torch.square_(torch.tensor([3.0])), torch.detach_(x * 2).requires_grad, torch.is_inference(x))
x = torch.zeros(7, 3, requires_grad=True)
y = x * 1
y.fill_diagonal_(5.0, wrap=True)
y.sum().backward()
print(y, x.grad, torch.zeros(3, 3, 3).fill_diagonal_(2), torch.zeros(2, 5).fill_diagonal_(1, True))
a = torch.zeros(4, 4)
a[1:, 1:].fill_diagonal_(3)
print(a)
for call in (lambda: torch.zeros(3).fill_diagonal_(1), lambda: torch.zeros(2, 3, 3).fill_diagonal_(1),
             lambda: torch.zeros(2, 2, requires_grad=True).fill_diagonal_(1)):
    try:
        call()
    except RuntimeError as e:
        print(e)
print(torch.typename(torch.ones(2)), torch.typename(torch.ones(2, dtype=torch.int64)), torch.typename(3),
      torch.typename(torch.nn.Parameter))
""")


def test_dtype_queries():
    import torch
    engine = load_engine()
    names = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
    for a, b in itertools.product(names, names):
        ta, tb, ea, eb = getattr(torch, a), getattr(torch, b), getattr(engine, a), getattr(engine, b)
        assert repr(engine.promote_types(ea, eb)) == str(torch.promote_types(ta, tb))
        assert engine.can_cast(ea, eb) == torch.can_cast(ta, tb)
        assert repr(engine.result_type(engine.ones((), dtype=ea), engine.ones(2, dtype=eb))) == \
            str(torch.result_type(torch.ones((), dtype=ta), torch.ones(2, dtype=tb)))
        for number in (1, 2.5, True):
            assert repr(engine.result_type(engine.ones(2, dtype=ea), number)) == \
                str(torch.result_type(torch.ones(2, dtype=ta), number))


WINDOWS = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]


@pytest.mark.parametrize("name", WINDOWS)
def test_windows(name):
    import torch
    engine = load_engine()
    for n, periodic in itertools.product([0, 1, 2, 5, 8, 11], [True, False]):
        want = getattr(torch, name)(n, periodic, dtype=torch.float64).numpy()
        got = getattr(engine, name)(n, periodic, dtype=engine.float64).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-16)
        want32 = getattr(torch, name)(n, periodic).numpy()
        got32 = getattr(engine, name)(n, periodic).numpy()
        assert got32.dtype == want32.dtype == np.float32
        np.testing.assert_allclose(got32, want32, rtol=0, atol=float(np.spacing(np.float32(1))) * 2)


def test_window_arguments_vander_and_range():
    _same("""
print(torch.hamming_window(7, True, 0.6, 0.3, dtype=torch.float64), torch.kaiser_window(6, False, 5.0))
print(torch.hann_window(4, requires_grad=True))
for call in (lambda: torch.hann_window(3, dtype=torch.int64), lambda: torch.blackman_window(-1)):
    try:
        call()
    except RuntimeError as e:
        print(e)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = torch.vander(x)
print(v, torch.vander(torch.tensor([1, 2]), N=3, increasing=True), torch.vander(x, N=0).shape)
try:
    v.sum().backward()  # torch's own vander cannot backward: cumprod's saved input is written by the copy after it
except RuntimeError as e:
    print(e)
print(torch.range(1, 4), torch.range(0, 1, 0.25), torch.range(1, 3, dtype=torch.int64))
print(torch.range(0, 1, 0.1, dtype=torch.float64).tolist())
for args in ((0, 1, 0), (3, 1), (1, float("inf"))):
    try:
        torch.range(*args)
    except RuntimeError as e:
        print(e)
""")


def test_settings_and_removed_functions():
    _same("""
torch.set_deterministic_debug_mode("warn")
print(torch.get_deterministic_debug_mode(), torch.are_deterministic_algorithms_enabled(),
      torch.is_deterministic_algorithms_warn_only_enabled())
torch.set_deterministic_debug_mode(2)
print(torch.get_deterministic_debug_mode())
torch.set_deterministic_debug_mode("default")
for mode in ("x", 3):
    try:
        torch.set_deterministic_debug_mode(mode)
    except RuntimeError as e:
        print(e)
torch.set_default_tensor_type(torch.DoubleTensor)
print(torch.tensor([1.5]).dtype)
torch.set_default_tensor_type("torch.FloatTensor")
print(torch.tensor([1.5]).dtype)
for t in (torch.LongTensor, 3):
    try:
        torch.set_default_tensor_type(t)
    except TypeError as e:
        print(e)
a = torch.eye(2)
for call in (lambda: torch.solve(a, a), lambda: torch.lstsq(a, a), lambda: torch.symeig(a), lambda: torch.eig(a),
             lambda: torch.matrix_rank(a), lambda: a.solve(a), lambda: a.lstsq(a), lambda: a.symeig(),
             lambda: a.eig(True)):
    try:
        call()
    except RuntimeError as e:
        print(e)
""")


def test_nn_functions_with_aten_signatures():
    _same("""
x = torch.tensor([[0.5, 1.0, 2.0], [-1.0, 0.3, 0.2]], dtype=torch.float64, requires_grad=True)
t = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]], dtype=torch.float64)
s = torch.tensor([1.0, -1.0], dtype=torch.float64)
for kw in ({}, {"reduction": 0}, {"reduction": 1}, {"reduction": 2}, {"reduction": 7}):
    outs = [torch.kl_div(x, t, **kw), torch.kl_div(x, t.log(), **kw, log_target=True),
            torch.binary_cross_entropy_with_logits(x, t, None, torch.tensor([2.0, 1.0, 1.0], dtype=torch.float64),
                                                   **kw),
            torch.margin_ranking_loss(x[:, 0], x[:, 1], s, 0.1, **kw),
            torch.hinge_embedding_loss(x, torch.tensor([[1.0, -1, 1], [-1, 1, 1]], dtype=torch.float64), 0.5, **kw),
            torch.cosine_embedding_loss(x, t, s, 0.1, **kw), torch.triplet_margin_loss(x, t, t * 2, **kw)]
    if kw:
        outs.append(torch.poisson_nll_loss(x, t, True, False, 1e-8, kw["reduction"]))
    sum(o.sum() for o in outs).backward()
    print([o.grad_fn.name() for o in outs], x.grad)
    x.grad = None
print(torch.layer_norm(x, [3]), torch.group_norm(x.reshape(1, 2, 3), 2))
rm, rv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
print(torch.batch_norm(x, None, None, rm, rv, True, 0.1, 1e-5, False), rm, rv)
print(torch.instance_norm(x.reshape(1, 2, 3), None, None, None, None, True, 0.1, 1e-5, False))
print(torch.dropout(x, 0.3, False) is x, torch.alpha_dropout(x, 0.3, False) is x)
try:
    torch.dropout(x, 1.5, True)
except RuntimeError as e:
    print(e)
torch.manual_seed(0)
print(torch.dropout(x, 0.3, True), torch.feature_dropout(x.reshape(2, 3, 1), 0.5, True))
print(torch.alpha_dropout(x, 0.5, True), torch.feature_alpha_dropout(x.reshape(2, 3, 1), 0.5, True))
print(torch.dropout_(x * 1, 0.3, True), torch.feature_alpha_dropout_(x.reshape(2, 3, 1) * 1, 0.5, True))
w = torch.ones(4, 2, 2, dtype=torch.float64)
print(torch.convolution(x.reshape(1, 2, 3), w, None, [1], [1], [1], False, [0], 1))
print(torch.convolution(x.reshape(1, 2, 3), torch.ones(2, 4, 2, dtype=torch.float64),
                        torch.ones(4, dtype=torch.float64), [2], [1], [1], True, [1], 1))
""")


def test_deprecated_modules():
    _same("""
import torch.nn as nn
torch.manual_seed(0)
c = nn.Container(a=nn.Linear(2, 1))
print(c)
loss = nn.NLLLoss2d(ignore_index=1)
x = torch.randn(2, 3, 2, 2).log_softmax(1)
print(loss, loss(x, torch.tensor([[[0, 1], [2, 0]], [[1, 1], [2, 2]]])))
m = nn.SyncBatchNorm(3, momentum=None)
print(m, m(torch.arange(12.0).reshape(2, 3, 2)), m.running_mean, m.num_batches_tracked, m.process_group)
m.eval()
print(m(torch.arange(6.0).reshape(2, 3)))
for bad in (torch.ones(3), torch.ones(2, 0)):
    try:
        m(bad)
    except ValueError as e:
        print(e)
""")


def test_rnn_functions():
    """torch.rnn_tanh/rnn_relu/gru/lstm (flat params, bidirectional, projections) and their cells, in float64."""
    _same("""
torch.manual_seed(0)
D = torch.float64
x = torch.randn(4, 2, 3, dtype=D, requires_grad=True)
h0 = torch.randn(4, 2, 5, dtype=D)
c0 = torch.randn(4, 2, 5, dtype=D)
def params(gates, layers=2, bias=True, proj=0):
    out = []
    for layer in range(layers):
        inp = 3 if layer == 0 else (proj or 5)
        out += [torch.randn(gates * 5, inp, dtype=D, requires_grad=True), torch.randn(gates * 5, proj or 5, dtype=D)]
        if bias:
            out += [torch.randn(gates * 5, dtype=D), torch.randn(gates * 5, dtype=D)]
        if proj:
            out.append(torch.randn(proj, 5, dtype=D))
    return out
for name, gates in (("rnn_tanh", 1), ("rnn_relu", 1), ("gru", 3)):
    out, h = getattr(torch, name)(x, h0[:2], params(gates), True, 2, 0.0, True, False, False)
    out.sum().backward()
    print(name, out.grad_fn.name(), out[-1], h, x.grad.sum())
    x.grad = None
both = params(4, 1, bias=False) + params(4, 1, bias=False)
out, h, c = torch.lstm(x, [h0[:2], c0[:2]], both, False, 1, 0.0, True, True, False)
print(out.grad_fn.name(), out[0], h.shape, c.shape)
out, h, c = torch.lstm(x, [h0[:2, :, :2], c0[:2]], params(4, proj=2), True, 2, 0.0, True, False, False)
print(out.shape, h.shape, out[-1])
w = params(1, 1)
print(torch.rnn_tanh_cell(x[0], h0[0], *w), torch.rnn_relu_cell(x[0], h0[0], *w).grad_fn.name())
w = params(3, 1, bias=False)
print(torch.gru_cell(x[0], h0[0], *w))
w = params(4, 1)
hy, cy = torch.lstm_cell(x[0], (h0[0], c0[0]), *w)
print(hy, cy.grad_fn.name())
""")


def test_adaptive_log_softmax():
    _same("""
torch.manual_seed(0)
m = torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0)
print(m)
x = torch.randn(5, 8, requires_grad=True)
t = torch.tensor([0, 4, 9, 2, 7])
out, loss = m(x, t)
loss.backward()
print(out, loss, x.grad.sum(), m.head.weight.grad[:2])
print(m.log_prob(x).exp().sum(1), m.predict(x), m(x[0], t[0]))
for bad in (lambda: m(x, torch.tensor([0, 1, 2, 3, 10])), lambda: torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3])):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(e)
""")


def test_embedding_bag_results():
    _same("""
torch.manual_seed(0)
w = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
i, o = torch.tensor([0, 1, 2, 4, 5, 1]), torch.tensor([0, 2, 4])
for mode in (0, 1, 2):
    out, bag, size, mx = torch.embedding_bag(w, i, o, False, mode)
    out.sum().backward()
    print(out, bag, size, mx, w.grad.sum(0))
    w.grad = None
print(torch.embedding_bag(w.float(), i, o)[1:], torch.embedding_bag(w, i, o, False, 0, False, None, True, 1)[1:])
""")
