"""Gradients as torch's backward formulas lay them out and name them: strides of the grads (mm's column-major rule,
pools' and convolutions' grad_input, the convolution's double backward) and the nodes create_graph records (the
`*_backward` ops of ATen that are differentiable ops of their own), with first- and second-order values."""
import numpy as np
import pytest
import torch

import engine


def _grads(L, fn, arrays, create_graph=True):
    xs = [L.tensor(a, dtype=L.float64, requires_grad=True) for a in arrays]
    y = fn(L, *xs)
    go = L.tensor(np.linspace(-1, 2, y.numel()).reshape(tuple(y.shape)), dtype=L.float64)
    gs = L.autograd.grad(y, xs, go, create_graph=create_graph, allow_unused=True)
    return xs, gs


def _compare(fn, shapes, seed=0, second=True):
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(0.1, 0.9, s) for s in shapes]
    out = {}
    for L in (torch, engine):
        xs, gs = _grads(L, fn, arrays)
        names = [None if g is None or g.grad_fn is None else type(g.grad_fn).__name__ for g in gs]
        layout = [None if g is None else tuple(g.stride()) for g in gs]
        values = [None if g is None else g.detach().numpy(force=True) if L is torch else g._data for g in gs]
        pairs = [(g, x) for g, x in zip(gs, xs) if g is not None and g.requires_grad] if second else []
        vs = [L.tensor(np.linspace(0.5, -1.5, g.numel()).reshape(tuple(g.shape)), dtype=L.float64) for g, _ in pairs]
        gg = L.autograd.grad([g for g, _ in pairs], xs, vs, allow_unused=True) if pairs else []
        gg = [None if g is None else g.detach().numpy(force=True) if L is torch else g._data for g in gg]
        out[L] = names, layout, values, gg
    (tn, tl, tv, tg), (en, el, ev, eg) = out[torch], out[engine]
    assert en == tn
    assert el == tl
    for a, b in zip(tv + tg, ev + eg):
        if a is not None and b is not None:
            np.testing.assert_allclose(b, a, rtol=1e-10, atol=1e-12)




def _f(L, name):
    return getattr(L.nn.functional, name)


CASES = {
    "mm_column_major": (lambda L, a, b: a.t().mm(b.t()), [(3, 2), (4, 3)]),
    "addmm_column_major": (lambda L, c, a, b: L.addmm(c, a.t(), b.t()), [(2, 4), (3, 2), (4, 3)]),
    "linear_no_bias": (lambda L, x, w: _f(L, "linear")(x, w), [(5, 3), (4, 3)]),
    "avg_pool2d_padded": (lambda L, x: _f(L, "avg_pool2d")(x, 3, 2, 1), [(1, 2, 5, 5)]),
    "max_pool2d": (lambda L, x: _f(L, "max_pool2d")(x, 2), [(2, 2, 4, 4)]),
    "conv2d_double": (lambda L, x, w: _f(L, "conv2d")(x, w, stride=2), [(2, 3, 6, 6), (4, 3, 3, 3)]),
    "conv_transpose2d_output_padding": (lambda L, x, w: _f(L, "conv_transpose2d")(x, w, stride=1, dilation=2,
                                                                                   output_padding=1),
                                        [(1, 2, 4, 4), (2, 2, 2, 2)]),
    "mse_loss": (lambda L, x, t: _f(L, "mse_loss")(x, t), [(3, 4), (3, 4)]),
    "huber_loss": (lambda L, x, t: _f(L, "huber_loss")(x * 3, t, delta=0.5, reduction="sum"), [(3, 4), (3, 4)]),
    "smooth_l1_loss": (lambda L, x, t: _f(L, "smooth_l1_loss")(x * 3, t, beta=0.5, reduction="none"),
                       [(3, 4), (3, 4)]),
    "smooth_l1_loss_beta0": (lambda L, x, t: _f(L, "smooth_l1_loss")(x, t, beta=0.0), [(3, 4), (3, 4)]),
    "soft_margin_loss": (lambda L, x: _f(L, "soft_margin_loss")(x, L.tensor([[1.0, -1, 1, -1]] * 3,
                                                                            dtype=L.float64)), [(3, 4)]),
    "binary_cross_entropy": (lambda L, x, t: _f(L, "binary_cross_entropy")(x, t), [(3, 4), (3, 4)]),
    "softmax": (lambda L, x: x.softmax(1), [(3, 4)]),
    "cross_entropy": (lambda L, x: _f(L, "cross_entropy")(x, L.tensor([1, 0, 3])), [(3, 4)]),
    "nll_loss2d": (lambda L, x: _f(L, "nll_loss")(x, L.tensor([[[1, 0], [0, 2]]])), [(1, 3, 2, 2)]),
    "prelu": (lambda L, x, w: _f(L, "prelu")(x - 0.5, w), [(2, 3, 4), (3,)]),
    "cholesky": (lambda L, a: L.linalg.cholesky(a @ a.mT + L.eye(4, dtype=L.float64)), [(4, 4)]),
    "solve": (lambda L, a, b: L.linalg.solve(a + 2 * L.eye(4, dtype=L.float64), b), [(4, 4), (4, 2)]),
    "matmul_2d_3d": (lambda L, a, b: a @ b, [(2, 3), (5, 3, 4)]),
    "matmul_batch_of_one": (lambda L, a, b: a @ b, [(1, 2, 3), (5, 3, 4)]),
    "layer_norm": (lambda L, x, w, b: _f(L, "layer_norm")(x * 3, (2, 3), w, b), [(4, 2, 3), (2, 3), (2, 3)]),
    "batch_norm": (lambda L, x, w, b: _f(L, "batch_norm")(x * 3, None, None, w, b, training=True),
                   [(4, 2, 3), (2,), (2,)]),
    "batch_norm_eval": (lambda L, x, w, b: _f(L, "batch_norm")(x, L.full((2,), 0.3, dtype=L.float64),
                                                              L.full((2,), 2.0, dtype=L.float64), w, b),
                        [(4, 2, 3), (2,), (2,)]),
    "instance_norm": (lambda L, x, w, b: _f(L, "instance_norm")(x * 3, weight=w, bias=b), [(3, 2, 4), (2,), (2,)]),
    "repeat": (lambda L, x: x.repeat(2, 3, 1), [(2, 3)]),
    "layer_norm_no_batch": (lambda L, x: _f(L, "layer_norm")(x * x, (5,)), [(5,)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_grads_as_torchs(name):
    fn, shapes = CASES[name]
    _compare(fn, shapes)


def test_accumulated_weight_grad_is_contiguous():
    """nn.Linear passes weight.t() to addmm: mm_mat2_backward makes its grad column-major, so weight.grad is
    row-major and `.grad.view(-1)` works as in torch."""
    lin = engine.nn.Linear(3, 4, bias=False)
    lin(engine.ones(5, 3)).sum().backward()
    assert lin.weight.grad.is_contiguous() and lin.weight.grad.view(-1).shape == (12,)


def test_zero_norm_grad_is_undefined():
    for L in (torch, engine):
        x = L.tensor([1.0, 0.0, 2.0], requires_grad=True)
        assert L.autograd.grad(L.linalg.vector_norm(x, 0), x, allow_unused=True) == (None,)
