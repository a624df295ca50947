"""Finite-difference gradient checks of the engine itself, in float64, for every op.

For f(inputs) -> tensor, the scalar L = (f(inputs) * W).sum() (W fixed random weights) is differentiated by
the engine's backward and by central differences (eps 1e-6) on every input element; they must agree
(rtol 1e-5). Inputs are kept away from kinks (relu/abs at 0, clamp bounds, max ties).

Double backward: the same cases differentiated twice (first grads with create_graph=True), compared with
torch: the first-order grads' values and requires_grad, and the second-order grads.
"""

from __future__ import annotations

import re
import zlib

import numpy as np
import pytest
from difftest import load_engine, to_numpy, torch, with_known_gaps

EPS = 1e-6


def _inputs(rng, specs):
    arrs = []
    for shape, domain in specs:
        a = rng.uniform(-2, 2, size=shape)
        if domain == "pos":
            a = rng.uniform(0.3, 2.5, size=shape)
        elif domain == "away0":
            a = rng.uniform(0.3, 2, size=shape) * rng.choice([-1, 1], size=shape)
        elif domain == "small":
            a = rng.uniform(-1, 1, size=shape)
        arrs.append(np.asarray(a, dtype=np.float64))
    return arrs


def _setitem(T, x, y):
    buf = T.zeros(3, 2, dtype=T.float64)
    buf[0] = x * 2
    buf[2] = y.exp()
    buf[1, 1] = x[0] * y[1]
    return buf


def _inplace_chain(T, x, y):
    a = x * 1.5
    a.add_(y)
    a.mul_(x)
    a.sub_(0.5)
    a.div_(y)
    return a


def _inplace_view(T, x):
    a = x * 2
    a[0].mul_(3)
    a[1:].add_(x[1:] ** 2)
    return a


def _inplace_clamp(T, x):
    a = x * 1
    a.clamp_(-0.5, 0.5)
    return a * x


def _inplace_pow(T, x):
    a = x * 1
    a.pow_(2)
    a.exp_()
    return a


def _shape_in_place(T, a):
    """unsqueeze_, squeeze_ (all three), t_, transpose_/swapdims_/swapaxes_ on a non-leaf and on a view."""
    b = a * 2
    b.unsqueeze_(0).squeeze_().unsqueeze_(-1).squeeze_(2).unsqueeze_(1).squeeze_((1, 0)).t_()
    c = (a * 3)[0]
    c.unsqueeze_(0).transpose_(0, 1).swapdims_(1, 0).swapaxes_(0, 1)
    return b.t_() * 1 + c.sum() + c.squeeze_(0).squeeze_(0).sum()


def _linear(T, x):
    lin = T.nn.Linear(3, 2).double()
    with T.no_grad():
        lin.weight.copy_(T.tensor([[0.5, -1.0, 0.25], [1.5, 0.75, -0.5]], dtype=T.float64))
        lin.bias.copy_(T.tensor([0.1, -0.2], dtype=T.float64))
    return lin(x)


def _view_of_changed_base(T, a):
    b = a * 2
    v = b[0]
    b.mul_(3)  # v's grad_fn is now an AsStridedBackward0 of b's
    return v * a[0]


def _filled(T, a):
    b = a * 1
    b.fill_(2.0)
    return b * a


def _zeroed(T, a):
    b = a * 1
    b.zero_()
    return b + a


def _index_put(T, a, c):
    b = a * 1
    b[T.tensor([0, 2])] = c
    return b * a


def _copied(T, a, c):
    b = a * 1
    b.copy_(c * 2)
    return b * a


def _holes(T, n):
    """A (2, 3) mask of ones with n zeros (1: one zero, 2: two in a row, 3: one in each row)."""
    zeros = {1: [(0, 1)], 2: [(1, 0), (1, 2)], 3: [(0, 0), (1, 2)]}[n]
    mask = [[0.0 if (i, j) in zeros else 1.0 for j in range(3)] for i in range(2)]
    return T.tensor(mask, dtype=T.float64)


def _counted(T):
    """A constant (3, 2) tensor: the input of ops whose grad torch does not implement."""
    return T.arange(6, dtype=T.float64).view(3, 2)


def _seeded(T):
    """The random ops draw afresh at every call: each case seeds its own generator, so that every evaluation of
    a finite difference, and torch's run, draw the same values."""
    return T.Generator().manual_seed(0)


def _recurrent(T, kind, x, hx=None, **options):
    """A recurrent layer of float64 weights drawn under seed 0 (as torch draws them), its outputs as one tensor."""
    T.manual_seed(0)
    layer = getattr(T.nn, kind)(3, 2, dtype=T.float64, **options)
    out = layer(x) if hx is None else layer(x, hx)
    parts = []
    for o in out if isinstance(out, tuple) else (out,):
        parts += [p.reshape(-1) for p in (o if isinstance(o, tuple) else (o,))]
    return T.cat(parts) if len(parts) > 1 else parts[0]


def _mlp(T, x, w1, w2):
    return T.tanh(x @ w1).relu() @ w2


S = "any"


def _hooked(module):
    """A module with full backward hooks: its input and output pass through BackwardHookFunctionBackward."""
    module.register_full_backward_hook(lambda mod, grad_input, grad_output: None)
    module.register_full_backward_pre_hook(lambda mod, grad_output: None)
    return module
CASES = {
    "add": (lambda T, a, b: a + b, [((2, 3), S), ((2, 3), S)]),
    "add_broadcast": (lambda T, a, b: a + b, [((2, 3), S), ((3,), S)]),
    "add_broadcast_both": (lambda T, a, b: a + b, [((2, 1), S), ((1, 3), S)]),
    "add_0d": (lambda T, a, b: a + b, [((2, 3), S), ((), S)]),
    "add_scalar": (lambda T, a: 2.5 + a + 1, [((3,), S)]),
    "add_alpha": (lambda T, a, b: a.add(b, alpha=2), [((3,), S), ((3,), S)]),
    "sub": (lambda T, a, b: a - b, [((4, 2, 3), S), ((2, 3), S)]),
    "rsub": (lambda T, a: 2 - a, [((3,), S)]),
    "mul": (lambda T, a, b: a * b, [((2, 3), S), ((2, 1), S)]),
    "mul_self": (lambda T, a: a * a, [((3,), S)]),
    "mul_scalar": (lambda T, a: 3 * a * 0.5, [((2, 2), S)]),
    "div": (lambda T, a, b: a / b, [((2, 3), S), ((3,), "away0")]),
    "remainder": (lambda T, a, b: (a * 3) % b, [((2, 3), "pos"), ((3,), "pos")]),
    "batch_norm": (lambda T, a: T.nn.BatchNorm1d(3, dtype=T.float64)(a), [((4, 3), S)]),
    # the bias stays out of these cases: its grad is Σ grad, whose own grad by the bias is structurally zero; torch's
    # layer_norm double backward still returns one that requires grad, the engine none
    "layer_norm": (lambda T, a, w: T.nn.functional.layer_norm(a, (3,), w, T.ones(3, dtype=T.float64)),
                   [((4, 3), S), ((3,), S)]),
    "layer_norm_2d_shape": (lambda T, a, w: T.nn.functional.layer_norm(a, (2, 3), w, T.zeros(2, 3, dtype=T.float64),
                                                                      eps=1e-3),
                            [((2, 2, 3), S), ((2, 3), S)]),
    "batch_norm_3d": (lambda T, a, w: T.nn.functional.batch_norm(a, None, None, w, None, training=True),
                      [((2, 3, 4), S), ((3,), S)]),
    "batch_norm_eval": (lambda T, a: T.nn.BatchNorm1d(3, dtype=T.float64).eval()(a * 2), [((4, 3), S)]),
    "sort": (lambda T, a: a.sort().values * T.arange(3.0, dtype=T.float64) + T.sort(a, 0, descending=True)[0],
             [((2, 3), S)]),
    "xlogy": (lambda T, a, b: a.xlogy(b) + T.xlogy(a, b.exp()), [((2, 3), S), ((2, 3), "pos")]),
    "kl_div": (lambda T, a, b: T.nn.functional.kl_div(a.log_softmax(1), b.softmax(1), reduction="batchmean"),
               [((2, 3), S), ((2, 3), S)]),
    "kl_div_log_target": (lambda T, a, b: T.nn.KLDivLoss(reduction="sum", log_target=True)(a, b.log_softmax(0)),
                          [((3,), S), ((3,), S)]),
    "remainder_scalar": (lambda T, a: a.remainder(0.7) + a % 1.1, [((2, 3), "pos")]),
    "div_floor": (lambda T, a, b: a.div(b, rounding_mode="floor") * a * b, [((2, 3), "away0"), ((3,), "away0")]),
    "div_trunc": (lambda T, a, b: T.div(a * 3, b, rounding_mode="trunc") + a * b, [((2, 3), "away0"), ((3,), "away0")]),
    "div_mode_none": (lambda T, a, b: a.divide(b, rounding_mode=None) + a.div(2, rounding_mode=None),
                      [((2, 3), S), ((3,), "away0")]),
    "fmod": (lambda T, a, b: (a * 3).fmod(b) + T.fmod(a, 0.7), [((2, 3), "pos"), ((3,), "pos")]),
    "floor_divide": (lambda T, a: (_counted(T) // 4 + T.floor_divide(7, _counted(T) + 1)).view(2, 3) * a,
                     [((2, 3), S)]),
    "remainder_number": (lambda T, a: (5 % (_counted(T) + 1)).view(2, 3) * a, [((2, 3), S)]),
    "rdiv": (lambda T, a: 2 / a, [((3,), "away0")]),
    "div_scalar": (lambda T, a: a / 4, [((3,), S)]),
    "neg": (lambda T, a: -a, [((3,), S)]),
    "pow_2": (lambda T, a: a ** 2, [((3,), S)]),
    "pow_3": (lambda T, a: a.pow(3), [((2, 2), S)]),
    "pow_half": (lambda T, a: a ** 0.5, [((3,), "pos")]),
    "pow_neg": (lambda T, a: a ** -1.5, [((3,), "pos")]),
    "pow_tensor": (lambda T, a, b: a ** b, [((3,), "pos"), ((3,), "small")]),
    "pow_tensor_0d_exp": (lambda T, a, b: a ** b, [((2, 3), "pos"), ((), "small")]),
    "rpow": (lambda T, a: 2 ** a, [((3,), S)]),
    "square": (lambda T, a: a.square(), [((3,), S)]),
    "reciprocal": (lambda T, a: a.reciprocal(), [((3,), "away0")]),
    "exp": (lambda T, a: a.exp(), [((2, 3), S)]),
    "log": (lambda T, a: T.log(a), [((2, 3), "pos")]),
    "sin": (lambda T, a: a.sin(), [((3,), S)]),
    "cos": (lambda T, a: T.cos(a), [((3,), S)]),
    "tanh": (lambda T, a: a.tanh(), [((2, 3), S)]),
    "topk": (lambda T, a: a.topk(2).values * 3, [((2, 4), S)]),
    "topk_dim0_smallest": (lambda T, a: T.topk(a, 1, dim=0, largest=False)[0], [((3, 2), S)]),
    "erf": (lambda T, a: a.erf() * T.erf(a * 2), [((2, 3), S)]),
    "gelu": (lambda T, a: T.nn.functional.gelu(a), [((2, 3), S)]),
    "gelu_tanh": (lambda T, a: T.nn.functional.gelu(a * 2, approximate="tanh"), [((2, 3), S)]),
    "gelu_module": (lambda T, a: T.nn.GELU()(a) + T.nn.GELU("tanh")(a), [((4,), S)]),
    "sigmoid": (lambda T, a: T.sigmoid(a), [((2, 3), S)]),
    "relu": (lambda T, a: a.relu(), [((2, 3), "away0")]),
    "F_relu": (lambda T, a: T.nn.functional.relu(a), [((4,), "away0")]),
    "sqrt": (lambda T, a: a.sqrt(), [((3,), "pos")]),
    "abs": (lambda T, a: a.abs(), [((3,), "away0")]),
    "sum": (lambda T, a: a.sum(), [((2, 3), S)]),
    "sum_dim": (lambda T, a: a.sum(dim=1), [((2, 3), S)]),
    "sum_dim_keepdim": (lambda T, a: a.sum(0, keepdim=True), [((4, 2, 3), S)]),
    "sum_neg_dim": (lambda T, a: T.sum(a, -1), [((4, 2, 3), S)]),
    "mean": (lambda T, a: a.mean(), [((2, 3), S)]),
    "mean_dim": (lambda T, a: a.mean(dim=0), [((2, 3), S)]),
    "mean_keepdim": (lambda T, a: a.mean(1, keepdim=True), [((2, 3), S)]),
    "max_all": (lambda T, a: a.max(), [((2, 3), S)]),
    "min_all": (lambda T, a: T.min(a), [((2, 3), S)]),
    "max_dim": (lambda T, a: a.max(dim=1)[0], [((2, 3), S)]),
    "max_dim_keepdim": (lambda T, a: a.max(0, keepdim=True).values, [((2, 3), S)]),
    "min_dim": (lambda T, a: a.min(dim=-1).values, [((4, 2, 3), S)]),
    "maximum": (lambda T, a, b: T.maximum(a, b), [((3,), S), ((3,), S)]),
    "minimum": (lambda T, a, b: T.minimum(a, b), [((2, 3), S), ((3,), S)]),
    "dot": (lambda T, a, b: a @ b, [((3,), S), ((3,), S)]),
    "mm": (lambda T, a, b: a @ b, [((2, 3), S), ((3, 4), S)]),
    "mv": (lambda T, a, b: T.matmul(a, b), [((2, 3), S), ((3,), S)]),
    "vm": (lambda T, a, b: a @ b, [((3,), S), ((3, 2), S)]),
    "bmm_3d_2d": (lambda T, a, b: a @ b, [((4, 2, 3), S), ((3, 2), S)]),
    "bmm_3d_3d": (lambda T, a, b: a @ b, [((4, 2, 3), S), ((4, 3, 2), S)]),
    "bmm_2d_3d": (lambda T, a, b: a @ b, [((2, 3), S), ((4, 3, 2), S)]),
    "bmm_1d_3d": (lambda T, a, b: a @ b, [((3,), S), ((4, 3, 2), S)]),
    "clamp": (lambda T, a: a.clamp(-0.1, 0.1), [((3, 3), "away0")]),
    "clamp_min": (lambda T, a: T.clamp(a, min=0.05), [((3, 3), "away0")]),
    "clamp_max": (lambda T, a: a.clamp(max=-0.05), [((3, 3), "away0")]),
    "where": (lambda T, a, b: T.where(a > b, a * 2, b.exp()), [((2, 3), S), ((3,), S)]),
    "where_scalar": (lambda T, a: T.where(a > 0, a, 0.0), [((2, 3), "away0")]),
    "stack": (lambda T, a, b: T.stack([a, b, a * b]), [((2, 3), S), ((2, 3), S)]),
    "stack_dim": (lambda T, a, b: T.stack([a, b], dim=1), [((2, 3), S), ((2, 3), S)]),
    "cat": (lambda T, a, b: T.cat([a, b]), [((2, 3), S), ((1, 3), S)]),
    "cat_dim1": (lambda T, a, b: T.cat([a, b, a], dim=1), [((2, 3), S), ((2, 1), S)]),
    "index_int": (lambda T, a: a[1], [((2, 3), S)]),
    "index_int_int": (lambda T, a: a[1, 2], [((2, 3), S)]),
    "index_slice": (lambda T, a: a[:, 1:], [((2, 3), S)]),
    "index_step": (lambda T, a: a[::2], [((5,), S)]),
    "index_none": (lambda T, a: a[None, :, None], [((3,), S)]),
    "index_ellipsis": (lambda T, a: a[..., 1], [((4, 2, 3), S)]),
    "index_tensor": (lambda T, a: a[T.tensor([0, 2, 0])], [((3, 2), S)]),
    "index_tensor_2": (lambda T, a: a[T.tensor([0, 1]), T.tensor([2, 0])], [((2, 3), S)]),
    "index_mask": (lambda T, a: a[a > 0], [((2, 3), "away0")]),
    "index_negative": (lambda T, a: a[-1, -2], [((2, 3), S)]),
    "setitem": (_setitem, [((2,), S), ((2,), S)]),
    "reshape": (lambda T, a: a.reshape(3, 2) * T.arange(6.0, dtype=T.float64).reshape(3, 2), [((2, 3), S)]),
    "view": (lambda T, a: a.view(-1) * T.arange(6.0, dtype=T.float64), [((2, 3), S)]),
    "flatten": (lambda T, a: a.flatten(), [((4, 2, 3), S)]),
    "unsqueeze": (lambda T, a: a.unsqueeze(1) * T.ones(3, 4, dtype=T.float64), [((3,), S)]),
    "squeeze": (lambda T, a: a.squeeze(), [((1, 3, 1), S)]),
    "squeeze_dim": (lambda T, a: a.squeeze(0), [((1, 3), S)]),
    "transpose": (lambda T, a: a.transpose(0, 2), [((4, 2, 3), S)]),
    "t": (lambda T, a: a.t() @ a, [((2, 3), S)]),
    "T": (lambda T, a: a.T, [((2, 3), S)]),
    "permute": (lambda T, a: a.permute(2, 0, 1), [((4, 2, 3), S)]),
    "expand": (lambda T, a: a.expand(4, 2, 3), [((2, 1), S)]),
    "clone": (lambda T, a: a.clone() * a, [((3,), S)]),
    "softmax": (lambda T, a: a.softmax(1), [((2, 3), S)]),
    "softmax_dim0": (lambda T, a: T.softmax(a, dim=0), [((2, 3), S)]),
    "log_softmax": (lambda T, a: T.nn.functional.log_softmax(a, dim=-1), [((2, 3), S)]),
    "cross_entropy": (lambda T, a: T.nn.functional.cross_entropy(a, T.tensor([2, 0, 1])), [((3, 4), S)]),
    "cross_entropy_sum": (lambda T, a: T.nn.functional.cross_entropy(a, T.tensor([1, 1]), reduction="sum"),
                          [((2, 3), S)]),
    "cross_entropy_1d": (lambda T, a: T.nn.functional.cross_entropy(a, T.tensor(1)), [((3,), S)]),
    "mse_loss": (lambda T, a, b: T.nn.functional.mse_loss(a, b), [((2, 3), S), ((2, 3), S)]),
    "mse_loss_sum": (lambda T, a, b: T.nn.functional.mse_loss(a, b, reduction="sum"), [((3,), S), ((3,), S)]),
    "mse_loss_none": (lambda T, a, b: T.nn.functional.mse_loss(a, b, reduction="none"), [((3,), S), ((3,), S)]),
    "inplace_chain": (_inplace_chain, [((3,), S), ((3,), "away0")]),
    "inplace_view": (_inplace_view, [((3,), S)]),
    "inplace_clamp": (_inplace_clamp, [((6,), "away0")]),
    "inplace_pow_exp": (_inplace_pow, [((3,), "small")]),
    "linear": (_linear, [((4, 3), S)]),
    "linear_1d": (_linear, [((3,), S)]),
    "mlp": (_mlp, [((4, 3), S), ((3, 5), S), ((5, 2), S)]),
    "composite": (lambda T, a, b: ((a * b).sigmoid() + (a - b).tanh() ** 2).sum(0) / (1 + b.exp()).mean(),
                  [((2, 3), S), ((2, 3), S)]),
    # --- pointwise added with tan .. trunc (rounding ops: zero grad, so `* a` keeps the check meaningful)
    "tan": (lambda T, a: a.tan(), [((2, 3), "small")]),
    "torch_tan": (lambda T, a: T.tan(a), [((3,), "small")]),
    "sinh": (lambda T, a: a.sinh(), [((2, 3), S)]),
    "cosh": (lambda T, a: a.cosh(), [((2, 3), S)]),
    "atan": (lambda T, a: a.atan(), [((2, 3), S)]),
    "rsqrt": (lambda T, a: a.rsqrt(), [((2, 3), "pos")]),
    "torch_rsqrt": (lambda T, a: T.rsqrt(a), [((3,), "pos")]),
    "log1p": (lambda T, a: a.log1p(), [((2, 3), "small")]),
    "torch_log1p": (lambda T, a: T.log1p(a), [((3,), "pos")]),
    "expm1": (lambda T, a: a.expm1(), [((2, 3), S)]),
    "torch_expm1": (lambda T, a: T.expm1(a), [((3,), S)]),
    "log2": (lambda T, a: a.log2(), [((2, 3), "pos")]),
    "log10": (lambda T, a: a.log10(), [((2, 3), "pos")]),
    "floor": (lambda T, a: (a * 3).floor() * a, [((2, 3), S)]),
    "ceil": (lambda T, a: T.ceil(a * 3) * a, [((2, 3), S)]),
    "round": (lambda T, a: (a * 3).round() * a + T.round(a), [((2, 3), S)]),
    "trunc": (lambda T, a: (a * 3).trunc() * a, [((2, 3), S)]),
    "sign": (lambda T, a: a.sign() * a + a.sign(), [((2, 3), "away0")]),
    "maximum_method": (lambda T, a, b: a.maximum(b), [((2, 3), S), ((3,), S)]),
    "minimum_method": (lambda T, a, b: a.minimum(b * 2), [((2, 1), S), ((1, 3), S)]),
    "where_method": (lambda T, a, b: a.where(a > b, b.exp()), [((2, 3), S), ((3,), S)]),
    "where_method_scalar": (lambda T, a: (a * 2).where(a > 0, 0.5), [((2, 3), "away0")]),
    "masked_fill": (lambda T, a: a.masked_fill(T.tensor([[True, False, True], [False, False, True]]), 0.5) * a,
                    [((2, 3), S)]),
    "masked_fill_broadcast": (lambda T, a: T.masked_fill(a, T.tensor([False, True, False]), -1.0), [((2, 3), S)]),
    "outer": (lambda T, a, b: T.outer(a, b), [((3,), S), ((4,), S)]),
    "outer_method": (lambda T, a, b: a.outer(b * b), [((2,), S), ((3,), S)]),
    "repeat": (lambda T, a: a.repeat(2, 1), [((2, 3), S)]),
    "repeat_more_dims": (lambda T, a: a.repeat(2, 1, 3), [((2, 3), S)]),
    "repeat_0d": (lambda T, a: a.repeat(3) * a, [((), S)]),
    "repeat_tuple": (lambda T, a: a.repeat((3, 2)), [((2,), S)]),
    "cumsum": (lambda T, a: a.cumsum(0), [((4,), S)]),
    "tril": (lambda T, a: a.tril() + T.tril(a, diagonal=-1) * a, [((3, 4), S)]),
    "tril_batched": (lambda T, a: a.tril(1), [((2, 3, 3), S)]),
    "triu": (lambda T, a: a.triu() * 2 + T.triu(a, 2), [((4, 3), S)]),
    "repeat_interleave": (lambda T, a: a.repeat_interleave(2) * 3, [((2, 3), S)]),
    "repeat_interleave_dim": (lambda T, a: T.repeat_interleave(a, 3, dim=1), [((2, 3), S)]),
    "repeat_interleave_0d": (lambda T, a: T.repeat_interleave(a, 3) * a, [((), S)]),
    "repeat_interleave_tensor": (lambda T, a: a.repeat_interleave(T.tensor([1, 0, 2]), dim=-1), [((2, 3), S)]),
    "cumsum_dim": (lambda T, a: T.cumsum(a, dim=-1) * a, [((4, 2, 3), S)]),
    "cumsum_dim0": (lambda T, a: a.cumsum(dim=0), [((3, 2), S)]),
    "logsumexp": (lambda T, a: a.logsumexp(1), [((2, 3), S)]),
    "logsumexp_keepdim": (lambda T, a: T.logsumexp(a, dim=0, keepdim=True), [((4, 2, 3), S)]),
    "logsumexp_dims": (lambda T, a: a.logsumexp((0, 2)), [((4, 2, 3), S)]),
    "var": (lambda T, a: a.var(), [((2, 3), S)]),
    "var_dim": (lambda T, a: a.var(1), [((2, 3), S)]),
    "var_keepdim": (lambda T, a: T.var(a, dim=0, keepdim=True), [((4, 2, 3), S)]),
    "var_biased": (lambda T, a: a.var(unbiased=False), [((2, 3), S)]),
    "var_correction": (lambda T, a: a.var(dim=-1, correction=2), [((2, 4), S)]),
    "var_dims": (lambda T, a: a.var((0, 2)), [((4, 2, 3), S)]),
    "std": (lambda T, a: a.std(), [((2, 3), S)]),
    "std_dim": (lambda T, a: T.std(a, 1), [((2, 3), S)]),
    "std_keepdim": (lambda T, a: a.std(dim=-1, keepdim=True), [((4, 2, 3), S)]),
    "std_biased": (lambda T, a: a.std(0, unbiased=False), [((3, 2), S)]),
    "std_correction": (lambda T, a: a.std(correction=0), [((2, 3), S)]),
    "norm": (lambda T, a: a.norm(), [((2, 3), S)]),
    "norm_dim": (lambda T, a: T.norm(a, dim=1), [((2, 3), S)]),
    "norm_keepdim": (lambda T, a: a.norm(dim=0, keepdim=True), [((4, 2, 3), S)]),
    "norm_p2": (lambda T, a: a.norm(2, dim=-1), [((3, 2), S)]),
    "leaky_relu": (lambda T, a: T.nn.functional.leaky_relu(a), [((2, 3), "away0")]),
    "leaky_relu_slope": (lambda T, a: T.nn.functional.leaky_relu(a, 0.2), [((2, 3), "away0")]),
    "LeakyReLU": (lambda T, a: T.nn.LeakyReLU(0.3)(a), [((4,), "away0")]),
    "softplus": (lambda T, a: T.nn.functional.softplus(a), [((2, 3), S)]),
    "softplus_beta": (lambda T, a: T.nn.functional.softplus(a, beta=2), [((2, 3), S)]),
    "softplus_threshold": (lambda T, a: T.nn.functional.softplus(a * 10, beta=2, threshold=3), [((2, 3), "away0")]),
    "bce": (lambda T, a, b: T.nn.functional.binary_cross_entropy(a.sigmoid(), b.sigmoid()), [((2, 3), S), ((2, 3), S)]),
    "bce_sum": (lambda T, a: T.nn.functional.binary_cross_entropy(a.sigmoid(), T.tensor([0.0, 1.0, 0.25],
                dtype=T.float64), reduction="sum"), [((3,), S)]),
    "bce_none": (lambda T, a, b: T.nn.functional.binary_cross_entropy(a.sigmoid(), b.sigmoid(), reduction="none"),
                 [((2, 3), S), ((2, 3), S)]),
    "BCELoss": (lambda T, a: T.nn.BCELoss()(a.sigmoid(), T.tensor([1.0, 0.0], dtype=T.float64)), [((2,), S)]),
    "bce_logits": (lambda T, a, b: T.nn.functional.binary_cross_entropy_with_logits(a, b.sigmoid()),
                   [((2, 3), S), ((2, 3), S)]),
    "bce_logits_weights": (lambda T, a, b: T.nn.functional.binary_cross_entropy_with_logits(
        a, b.sigmoid(), weight=T.tensor([0.5, 2.0, 1.0], dtype=T.float64),
        pos_weight=T.tensor([3.0, 1.0, 0.25], dtype=T.float64), reduction="sum"), [((2, 3), S), ((2, 3), S)]),
    "BCEWithLogitsLoss": (lambda T, a: T.nn.BCEWithLogitsLoss(reduction="none")(a, T.tensor([1.0, 0.0],
                          dtype=T.float64)), [((2,), S)]),
    "huber_loss": (lambda T, a, b: T.nn.functional.huber_loss(a * 2, b, delta=0.7),
                   [((2, 3), "away0"), ((2, 3), "small")]),
    "huber_loss_weight": (lambda T, a, b, w: T.nn.functional.huber_loss(a * 2, b, delta=0.7, weight=w.exp()),
                          [((2, 3), "away0"), ((2, 3), "small"), ((2, 3), S)]),
    "huber_loss_weight_sum": (lambda T, a, b: T.nn.functional.huber_loss(a, b, reduction="sum", weight=a * 0 + 2),
                              [((4,), "away0"), ((4,), "small")]),
    "HuberLoss": (lambda T, a, b: T.nn.HuberLoss(reduction="sum")(a, b), [((4,), S), ((4,), S)]),
    "smooth_l1_loss": (lambda T, a, b: T.nn.functional.smooth_l1_loss(a * 2, b, beta=0.5),
                       [((2, 3), "away0"), ((2, 3), "small")]),
    "SmoothL1Loss": (lambda T, a, b: T.nn.SmoothL1Loss(reduction="none")(a, b), [((4,), S), ((4,), S)]),
    "embedding": (lambda T, w: T.nn.functional.embedding(T.tensor([[0, 2], [3, 2]]), w), [((4, 3), S)]),
    "embedding_twice": (lambda T, w: T.nn.functional.embedding(T.tensor([1, 1, 0]), w) * w, [((3, 3), S)]),
    "embedding_bag": (lambda T, w: T.nn.functional.embedding_bag(T.tensor([1, 2, 4, 5, 4, 3, 2, 0]), w,
                                                                 T.tensor([0, 4, 4]), mode="mean", padding_idx=4)
                      + T.nn.functional.embedding_bag(T.tensor([[1, 2, 5], [3, 0, 3], [2, 2, 1]]), w, mode="max"),
                      [((6, 3), S)]),
    "affine_grid": (lambda T, t, u: T.nn.functional.affine_grid(t, (2, 1, 3, 4), align_corners=False) ** 2
                    + T.nn.functional.affine_grid(u, (1, 1, 2, 2, 3), align_corners=True).sum(), [((2, 2, 3), S),
                                                                                                   ((1, 3, 4), S)]),
    "grid_sample": (lambda T, x, g: T.nn.functional.grid_sample(x, g, align_corners=False)
                    + T.nn.functional.grid_sample(x, g, mode="bicubic", padding_mode="reflection", align_corners=True)
                    + T.nn.functional.grid_sample(x, g, mode="nearest", padding_mode="border", align_corners=False),
                    [((1, 2, 3, 4), S), ((1, 2, 3, 2), S)]),
    "grid_sample_3d": (lambda T, x, g: T.nn.functional.grid_sample(x, g, padding_mode="border", align_corners=True)
                       + T.nn.functional.grid_sample(x, g, padding_mode="reflection", align_corners=False),
                       [((1, 2, 2, 3, 2), S), ((1, 2, 1, 2, 3), S)]),
    "embedding_bag_weighted": (lambda T, w, p: T.nn.functional.embedding_bag(
        T.tensor([1, 2, 4, 5, 4, 3, 2, 1]), w, T.tensor([0, 3]), mode="sum", per_sample_weights=p),
        [((6, 3), S), ((8,), S)]),
    "nll_loss_weights": (lambda T, a: T.nn.functional.nll_loss(a.log_softmax(1), T.tensor([2, -100, 1]),
                         weight=T.tensor([0.5, 2.0, 1.0, 3.0], dtype=T.float64)), [((3, 4), S)]),
    "cross_entropy_smoothing": (lambda T, a: T.nn.functional.cross_entropy(a, T.tensor([2, 0, 1]),
                                label_smoothing=0.2), [((3, 4), S)]),
    "cross_entropy_probabilities": (lambda T, a, b: T.nn.functional.cross_entropy(a, b.softmax(1)),
                                    [((3, 4), S), ((3, 4), S)]),
    "l1_loss": (lambda T, a, b: T.nn.functional.l1_loss(a, b), [((2, 3), S), ((2, 3), S)]),
    "l1_loss_sum": (lambda T, a, b: T.nn.functional.l1_loss(a, b, reduction="sum"), [((3,), S), ((3,), S)]),
    "l1_loss_none": (lambda T, a, b: T.nn.functional.l1_loss(a, b, reduction="none"), [((3,), S), ((3,), S)]),
    "L1Loss": (lambda T, a, b: T.nn.L1Loss()(a, b), [((2, 3), S), ((2, 3), S)]),
    "contiguous": (lambda T, a: a.t().contiguous() * T.arange(6.0, dtype=T.float64).reshape(3, 2), [((2, 3), S)]),
    "clamp_tensor": (lambda T, a, b: a.clamp(min=b, max=b + 1), [((2, 3), S), ((3,), S)]),
    "clamp_tensor_min": (lambda T, a, b: T.clamp(a, min=b), [((2, 3), S), ((2, 3), S)]),
    "clamp_tensor_max": (lambda T, a, b: a.clamp(max=b), [((2, 3), S), ((), S)]),
    "addcmul": (lambda T, a, b, c: a.addcmul(b, c, value=0.5), [((2, 3), S), ((2, 3), S), ((3,), S)]),
    "addcdiv": (lambda T, a, b, c: T.addcdiv(a, b, c, value=2), [((2, 3), S), ((2, 3), S), ((2, 3), "away0")]),
    "lerp": (lambda T, a, b: a.lerp(b, 0.3), [((2, 3), S), ((2, 3), S)]),
    "lerp_high": (lambda T, a, b: T.lerp(a, b, 0.7), [((3,), S), ((3,), S)]),
    "alias": (lambda T, a: a[...] * a, [((2, 3), S)]),
    "view_of_changed_base": (_view_of_changed_base, [((2, 3), S)]),
    "fill_": (_filled, [((3,), S)]),
    "zero_": (_zeroed, [((3,), S)]),
    "fill": (lambda T, a: T.fill(a, 2.0) * a, [((3,), S)]),
    "fill_tensor": (lambda T, a, v: T.fill(a, v) * a, [((3,), S), ((), S)]),
    "trapezoid": (lambda T, y, x: T.trapezoid(y, x) + T.trapz(y, dx=0.5, dim=0).sum(), [((2, 3), S), ((3,), S)]),
    "cumulative_trapezoid": (lambda T, y: T.cumulative_trapezoid(y, dx=2.0, dim=1), [((2, 3), S)]),
    "corrcoef": (lambda T, a: T.corrcoef(a), [((3, 4), S)]),
    "index_put": (_index_put, [((3, 2), S), ((2, 2), S)]),
    "copy_": (_copied, [((3,), S), ((3,), S)]),
    "to_copy": (lambda T, a: (a.float() * 0).double() + a, [((3,), S)]),
    "select_squared": (lambda T, a: a[1] ** 2, [((2, 3), S)]),
    "slice_squared": (lambda T, a: a[:, 1:] ** 2, [((2, 3), S)]),
    "index_squared": (lambda T, a: a[T.tensor([0, 2])] ** 2, [((3, 2), S)]),
    "max_dim_squared": (lambda T, a: a.max(1)[0] ** 2, [((2, 3), S)]),
    "silu": (lambda T, a: T.nn.functional.silu(a), [((2, 3), S)]),
    "sgn": (lambda T, a: a.sgn() * a + T.sgn(a), [((2, 3), "away0")]),
    "nll_loss_squared": (lambda T, a: T.nn.functional.nll_loss(a.log_softmax(1), T.tensor([2, 0, 1])) ** 2,
                         [((3, 4), S)]),
    # convolution and pooling (engine/ops/conv.py, engine/ops/pooling.py)
    "conv2d": (lambda T, x, w, b: T.nn.functional.conv2d(x, w, b), [((2, 2, 5, 4), S), ((3, 2, 3, 2), S), ((3,), S)]),
    "conv2d_strided": (lambda T, x, w: T.nn.functional.conv2d(x, w, stride=2, padding=1, dilation=(1, 2)),
                       [((1, 2, 6, 7), S), ((2, 2, 3, 2), S)]),
    "conv2d_groups": (lambda T, x, w, b: T.conv2d(x, w, b, padding=(1, 0), groups=2),
                      [((2, 4, 4, 3), S), ((4, 2, 2, 2), S), ((4,), S)]),
    "conv2d_unbatched_same": (lambda T, x, w: T.nn.functional.conv2d(x, w, padding="same"),
                              [((2, 4, 4), S), ((1, 2, 2, 3), S)]),
    "conv1d": (lambda T, x, w, b: T.nn.functional.conv1d(x, w, b, stride=2, padding=1), [((2, 2, 7), S), ((3, 2, 3), S),
                                                                                        ((3,), S)]),
    "native_channel_shuffle": (lambda T, a: T.native_channel_shuffle(_counted(T).view(1, 6, 1), 3).view(3, 2) * a,
                               [((3, 2), S)]),
    "conv_tbc": (lambda T, x, w, b: T.conv_tbc(x, w, b, 1), [((4, 2, 3), S), ((2, 3, 5), S), ((5,), S)]),
    "conv_tbc_functional": (lambda T, x, w, b: T.nn.functional.conv_tbc(x, w, b, 3), [((2, 1, 2), S), ((3, 2, 2), S),
                                                                                     ((2,), S)]),
    "conv_transpose2d": (lambda T, x, w, b: T.nn.functional.conv_transpose2d(x, w, b, stride=2, padding=1,
                                                                             output_padding=1),
                         [((1, 2, 3, 3), S), ((2, 3, 3, 2), S), ((3,), S)]),
    "max_pool2d": (lambda T, x: T.nn.functional.max_pool2d(x, 2), [((2, 2, 4, 5), S)]),
    "max_pool2d_overlapping": (lambda T, x: T.nn.functional.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True),
                               [((1, 2, 6, 5), S)]),
    "max_pool1d": (lambda T, x: T.nn.functional.max_pool1d(x, 2), [((2, 3, 6), S)]),
    "avg_pool2d": (lambda T, x: T.nn.functional.avg_pool2d(x, (2, 3)), [((2, 2, 4, 6), S)]),
    "avg_pool2d_padded": (lambda T, x: T.nn.functional.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True,
                                                                  count_include_pad=False), [((1, 2, 6, 5), S)]),
    "avg_pool1d": (lambda T, x: T.nn.functional.avg_pool1d(x, 3, stride=1, padding=1), [((2, 5), S)]),
    "pad": (lambda T, x: T.nn.functional.pad(x, (1, 2, 0, 1), value=0.5) * 2, [((2, 3), S)]),
    "pad_crop": (lambda T, x: T.nn.functional.pad(x, [-1, 1]), [((2, 2, 3), S)]),
    "reflect_pad1d": (lambda T, x: T.nn.functional.pad(x, (2, 1), mode="reflect") * x.sum(), [((2, 4), S)]),
    "reflect_pad2d": (lambda T, x: T.nn.functional.pad(x, (1, 2, 2, 0), mode="reflect"), [((1, 2, 3, 4), S)]),
    "reflect_pad3d": (lambda T, x: T.nn.functional.pad(x, (1, 0, 0, 1, 1, 1), mode="reflect"), [((2, 2, 2, 3), S)]),
    "replicate_pad1d": (lambda T, x: T.nn.functional.pad(x, [3, -1], mode="replicate"), [((1, 2, 4), S)]),
    "replicate_pad2d": (lambda T, x: T.nn.functional.pad(x, (2, 1, 1, 3), mode="replicate") ** 2, [((2, 3, 2), S)]),
    "replicate_pad3d": (lambda T, x: T.nn.functional.pad(x, (1, 1, 2, 0, 0, 1), mode="replicate"),
                        [((1, 1, 2, 2, 3), S)]),
    "circular_pad": (lambda T, x: T.nn.functional.pad(x, (1, 2, 2, -1), mode="circular") * 2, [((1, 2, 3, 4), S)]),
    "conv2d_reflect": (lambda T, x, w: T.nn.functional.conv2d(T.nn.functional.pad(x, (1, 1, 1, 1), mode="reflect"), w),
                       [((1, 2, 4, 4), S), ((2, 2, 3, 3), S)]),
    "lenet": (lambda T, x, w: T.nn.functional.max_pool2d(T.nn.functional.conv2d(x, w).relu(), 2).flatten(1),
              [((2, 1, 6, 6), S), ((2, 1, 3, 3), "away0")]),
    # products (engine/ops/products.py): zeros in the input take ATen's other formula
    "prod": (lambda T, a: a.prod() * a, [((2, 3), "away0")]),
    "prod_dim": (lambda T, a: a.prod(1) + T.prod(a, 0, keepdim=True).sum(), [((2, 3), "away0")]),
    "prod_one_zero": (lambda T, a: (a * _holes(T, 1)).prod(), [((2, 3), S)]),
    "prod_zeros": (lambda T, a: (a * _holes(T, 2)).prod() + (a * _holes(T, 3)).prod(), [((2, 3), S)]),
    "prod_dim_zeros": (lambda T, a: (a * _holes(T, 2)).prod(-1) * (a * _holes(T, 3)).prod(0).sum(), [((2, 3), S)]),
    "cumprod": (lambda T, a: a.cumprod(1) * a.cumprod(-2)[0], [((2, 3), "away0")]),
    "cumprod_zeros": (lambda T, a: (a * _holes(T, 2)).cumprod(1) + (a * _holes(T, 3)).cumprod(0), [((2, 3), S)]),
    "flip": (lambda T, a: a.flip(0) * a.flip(-1, 0) + T.flip(a, (1,)), [((2, 3), S)]),
    # index and scatter ops (engine/ops/scatter.py)
    "index_select": (lambda T, a: a.index_select(0, T.tensor([2, 0, 2])) * T.index_select(a, 1, T.tensor([1])),
                     [((3, 2), S)]),
    "index_add": (lambda T, a, s: a.index_add(0, T.tensor([0, 2, 0, 3]), s * s, alpha=2), [((4, 3), S), ((4, 3), S)]),
    "index_add_dim1": (lambda T, a, s: T.index_add(a, 1, T.tensor([1, 1]), s) * a, [((2, 3), S), ((2, 2), S)]),
    "index_add_": (lambda T, a, s: (a * 1).index_add_(0, T.tensor([1, 1]), s) * a, [((3,), S), ((2,), S)]),
    "index_copy": (lambda T, a, s: a.index_copy(0, T.tensor([2, 0]), s.exp()) * a, [((3, 2), S), ((2, 2), S)]),
    "index_fill": (lambda T, a: a.index_fill(1, T.tensor([0, 2]), -1.5) * a, [((2, 3), S)]),
    "index_fill_tensor": (lambda T, a, v: (a * 1).index_fill_(0, T.tensor([1]), v) * a, [((3, 2), S), ((), S)]),
    "gather": (lambda T, a: a.gather(1, T.tensor([[0, 0], [2, 1]])) * T.gather(a, 0, T.tensor([[1, 0, 1]])).sum(),
               [((2, 3), S)]),
    "scatter": (lambda T, a, s: a.scatter(0, T.tensor([[1, 0, 2]]), s) * a, [((3, 3), S), ((1, 3), S)]),
    "scatter_value": (lambda T, a: (a * 2).scatter_(1, T.tensor([[0], [2]]), 0.5) * a, [((2, 3), S)]),
    "scatter_add": (lambda T, a, s: T.scatter_add(a, 0, T.tensor([[1, 0], [1, 1]]), s * s), [((3, 2), S), ((2, 2), S)]),
    "scatter_reduce_sum": (lambda T, a, s: a.scatter_reduce(0, T.tensor([[1, 0], [1, 1]]), s, "sum") * a,
                           [((3, 2), S), ((2, 2), S)]),
    "scatter_reduce_prod": (lambda T, a, s: T.scatter_reduce(a, 1, T.tensor([[0, 0, 2], [1, 1, 1]]), s, "prod"),
                            [((2, 3), "away0"), ((2, 3), "away0")]),
    "scatter_reduce_prod_no_self": (lambda T, a, s: a.scatter_reduce(0, T.tensor([[1, 0], [1, 1]]), s, "prod",
                                                                     include_self=False), [((3, 2), S), ((2, 2), S)]),
    "scatter_reduce_mean": (lambda T, a, s: a.scatter_reduce(0, T.tensor([[1, 0], [1, 1]]), s, "mean",
                                                             include_self=False), [((3, 2), S), ((2, 2), S)]),
    "scatter_reduce_amax": (lambda T, a, s: (a * 1).scatter_reduce_(1, T.tensor([[0, 0, 2], [1, 1, 1]]), s, "amax"),
                            [((2, 3), S), ((2, 3), S)]),
    "scatter_reduce_amin": (lambda T, a, s: a.scatter_reduce(1, T.tensor([[0, 0, 2], [1, 1, 1]]), s, "amin",
                                                             include_self=False), [((2, 3), S), ((2, 3), S)]),
    "scatter_add_reduce": (lambda T, a, s: _counted(T).scatter(0, T.tensor([[1, 0], [1, 1]]), _counted(T)[:2] + 1,
                                                            reduce="add") * a * s.sum(), [((3, 2), S), ((2, 2), S)]),
    "scatter_multiply_value": (lambda T, a: _counted(T).view(2, 3).scatter(1, T.tensor([[1], [0]]), 2.5,
                                                                           reduce="multiply") * a, [((2, 3), S)]),
    # activations, norms and pooling of tutorials' models
    "elu": (lambda T, a: T.nn.functional.elu(a) * T.nn.functional.elu(a, 0.5).exp(), [((2, 3), "away0")]),
    "elu_inplace": (lambda T, a: T.nn.functional.elu(a * 1, alpha=1.5, inplace=True) * a, [((2, 3), "away0")]),
    "ELU": (lambda T, a: T.nn.ELU(alpha=0.3)(a), [((2, 3), "away0")]),
    "mish": (lambda T, a: T.nn.functional.mish(a * 3), [((2, 3), S)]),
    "hardtanh": (lambda T, a: T.nn.functional.hardtanh(a * 2, -1.5, 1.0) * a, [((2, 3), "away0")]),
    "relu6": (lambda T, a: T.nn.ReLU6()(a * 5), [((2, 3), "away0")]),
    "hardtanh_inplace": (lambda T, a: T.nn.functional.hardtanh(a * 2, inplace=True) * a, [((2, 3), "away0")]),
    # activations with nodes of their own (engine/ops/activations.py): their backwards are ops too (create_graph)
    "selu": (lambda T, a: T.nn.functional.selu(a) * a, [((2, 3), "away0")]),
    "selu_inplace": (lambda T, a: T.nn.functional.selu(a * 1, inplace=True) * a, [((2, 3), "away0")]),
    "celu": (lambda T, a: T.nn.functional.celu(a, 0.7) * a, [((2, 3), "away0")]),
    "celu_inplace": (lambda T, a: T.nn.functional.celu_(a * 1, 1.5) * a, [((2, 3), "away0")]),
    "leaky_relu_inplace": (lambda T, a: T.nn.functional.leaky_relu(a * 2, 0.2, inplace=True) * a, [((2, 3), "away0")]),
    "hardswish": (lambda T, a: T.nn.functional.hardswish(a * 2) * a, [((2, 3), S)]),
    "hardsigmoid": (lambda T, a: T.nn.functional.hardsigmoid(a * 2), [((2, 3), S)]),
    "hardshrink": (lambda T, a: T.nn.functional.hardshrink(a, 0.25) * a, [((2, 3), "away0")]),
    "softshrink": (lambda T, a: T.nn.functional.softshrink(a, 0.25) * a, [((2, 3), "away0")]),
    "logsigmoid": (lambda T, a: T.nn.functional.logsigmoid(a * 3), [((2, 3), S)]),
    "glu": (lambda T, a: T.nn.functional.glu(a, 0) * a[:1].exp(), [((2, 3), S)]),
    "threshold": (lambda T, a: T.nn.functional.threshold(a, 0.1, 2.0) * a, [((2, 3), "away0")]),
    "threshold_inplace": (lambda T, a: T.nn.functional.threshold_(a * 1, 0.1, -1.0) * a, [((2, 3), "away0")]),
    "native_dropout": (lambda T, a: T.manual_seed(0) and T.native_dropout(a, 0.4, True)[0] * a, [((2, 3), S)]),
    "frobenius_norm": (lambda T, a: T.frobenius_norm(a, [0, 1]) + T.frobenius_norm(a, (-1,), True).sum(),
                       [((2, 3), S)]),
    "native_dropout_eval": (lambda T, a: T.native_dropout(a, 0.4, False)[0] * a, [((2, 3), S)]),
    "rrelu_eval": (lambda T, a: T.nn.functional.rrelu(a, 0.1, 0.3) * a, [((2, 3), "away0")]),
    "rrelu_eval_inplace": (lambda T, a: T.nn.functional.rrelu(a * 1, inplace=True) * a, [((2, 3), "away0")]),
    "prelu": (lambda T, a, w: T.nn.functional.prelu(a, w) * a, [((2, 3, 2), "away0"), ((3,), S)]),
    "prelu_one": (lambda T, a, w: T.nn.functional.prelu(a, w), [((4,), "away0"), ((1,), S)]),
    # losses (engine/ops/margins.py, engine/ops/distances.py, engine/nn/loss_functions.py)
    "soft_margin_loss": (lambda T, a: T.nn.functional.soft_margin_loss(a, T.tensor([[1.0, -1, 1], [-1, -1, 1]],
                                                                                   dtype=T.float64)), [((2, 3), S)]),
    "multi_margin_loss": (lambda T, a: T.nn.functional.multi_margin_loss(a, T.tensor([0, 2, 1]), margin=0.3) * a.sum(),
                          [((3, 3), S)]),
    "multi_margin_loss_p2": (lambda T, a: T.nn.functional.multi_margin_loss(
        a, T.tensor([1, 0]), p=2, weight=T.tensor([1.0, 2, 3], dtype=T.float64), reduction="none"), [((2, 3), S)]),
    "multilabel_margin_loss": (lambda T, a: T.nn.functional.multilabel_margin_loss(
        a, T.tensor([[0, 2, -1, 1], [3, 3, 0, -1]])), [((2, 4), S)]),
    "pairwise_distance": (lambda T, a, b: T.nn.functional.pairwise_distance(a, b) * T.nn.functional.pairwise_distance(
        a, b, p=1, keepdim=True).sum(), [((2, 3), S), ((2, 3), S)]),
    "triplet_margin_loss": (lambda T, a, b, c: T.nn.functional.triplet_margin_loss(a, b, c, margin=2.0, p=3, swap=True),
                            [((3, 4), S), ((3, 4), S), ((3, 4), S)]),
    "cosine_embedding_loss": (lambda T, a, b: T.nn.functional.cosine_embedding_loss(
        a, b, T.tensor([1.0, -1, -1], dtype=T.float64), margin=-0.9), [((3, 4), S), ((3, 4), S)]),
    "margin_hinge_losses": (lambda T, a, b: T.nn.functional.margin_ranking_loss(
        a, b, T.tensor([1.0, -1, -1], dtype=T.float64), margin=3.0) + T.nn.functional.hinge_embedding_loss(
        a, T.tensor([1.0, -1, -1], dtype=T.float64), margin=3.0), [((3,), S), ((3,), S)]),
    "nll_family_losses": (lambda T, a, b: T.nn.functional.poisson_nll_loss(a, T.tensor([0.0, 2, 1], dtype=T.float64))
                          + T.nn.functional.gaussian_nll_loss(a, b, T.tensor([[0.5], [1.5]], dtype=T.float64))
                          + T.nn.functional.multilabel_soft_margin_loss(a, T.tensor([1.0, 0, 1], dtype=T.float64)),
                          [((2, 3), S), ((2, 3), S)]),
    "bce_weight": (lambda T, a, b: T.nn.functional.binary_cross_entropy(
        a.sigmoid(), b.sigmoid(), weight=T.tensor([0.5, 2.0, 1.0], dtype=T.float64)), [((2, 3), S), ((2, 3), S)]),
    # attention (engine/ops/attention.py, engine/nn/attention.py)
    "sdpa_flash": (lambda T, q, k, v: T.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.7),
                   [((1, 2, 3, 4), S), ((1, 2, 3, 4), S), ((1, 2, 3, 4), S)]),
    "sdpa_flash_mask": (lambda T, q, k: T.nn.functional.scaled_dot_product_attention(
        q, k, k * 2, attn_mask=T.tensor([[True, False], [True, True], [False, True]])), [((2, 1, 3, 2), S),
                                                                                          ((2, 1, 2, 2), S)]),
    "sdpa_math": (lambda T, q, k, v: T.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=T.tensor([[0.0, -1.0], [0.5, 0.0], [0.0, 0.0]], dtype=T.float64), scale=0.25),
                  [((2, 3, 4), S),
                   ((2, 2, 4), S), ((2, 2, 3), S)]),
    "cross_entropy_2d": (lambda T, a: T.nn.functional.cross_entropy(
        a, T.tensor([[[0, 2], [1, 1]], [[2, -100], [0, 1]]]), weight=T.tensor([0.5, 1.0, 2.0], dtype=T.float64)),
                         [((2, 3, 2, 2), S)]),
    "nll_loss_3d_none": (lambda T, a: T.nn.functional.nll_loss(a.log_softmax(1), T.tensor([[0, 2, 1], [1, 1, 0]]),
                                                               reduction="none"), [((2, 3, 3), S)]),
    # normalisations built from others (engine/nn/norm_functions.py)
    "instance_norm": (lambda T, x, w, b: T.nn.functional.instance_norm(x, weight=w, bias=b), [((2, 3, 4), S), ((3,), S),
                                                                                           ((3,), S)]),
    "rms_norm": (lambda T, x, w: T.nn.functional.rms_norm(x, (3,), w, eps=1e-3), [((2, 3), S), ((3,), S)]),
    "local_response_norm": (lambda T, x: T.nn.functional.local_response_norm(x, 2, alpha=0.5), [((2, 3, 4), S)]),
    # 3-d and adaptive max pools (engine/ops/pooling3d.py, engine/nn/pool_functions.py)
    "max_pool3d": (lambda T, x: T.nn.functional.max_pool3d(x, 2, stride=1, padding=1), [((1, 2, 2, 3, 3), S)]),
    "avg_pool3d": (lambda T, x: T.nn.functional.avg_pool3d(x, (2, 1, 2), ceil_mode=True, count_include_pad=False),
                   [((2, 3, 3, 2, 3), S)]),
    "adaptive_avg_pool3d": (lambda T, x: T.nn.functional.adaptive_avg_pool3d(x, (2, 1, 2)), [((2, 3, 3, 2), S)]),
    "adaptive_max_pool2d": (lambda T, x: T.nn.functional.adaptive_max_pool2d(x, (2, 3)) * 2, [((2, 3, 5, 4), S)]),
    "adaptive_max_pool3d": (lambda T, x: T.nn.functional.adaptive_max_pool3d(x, 2), [((1, 2, 3, 3, 3), S)]),
    "linear_cross_entropy_chunked": (lambda T, x, w, b: T.nn.functional.linear_cross_entropy(
        x, w, T.tensor([0, 2, 1, 2]), linear_bias=b, weight=T.tensor([1.0, 0.5, 2.0], dtype=x.dtype),
        options=T.nn.LinearCrossEntropyOptions(batch_chunk_size=2, allow_retain_graph=True))
        + T.nn.functional.linear_cross_entropy(x, w, T.tensor([1, 0, -100, 2]), linear_bias=b, reduction="none",
                                               options=T.nn.LinearCrossEntropyOptions()).sum(),
        [((4, 3), S), ((3, 3), S), ((3,), S)]),
    "ctc_loss": (lambda T, a: T.nn.functional.ctc_loss(a.log_softmax(2), T.tensor([[1, 2, 2], [3, 1, 0]]), (5, 4),
                                                       (3, 2), zero_infinity=True)
                 + T.nn.functional.ctc_loss(a[:, 0].log_softmax(1), T.tensor([2, 2]), T.tensor([5]), T.tensor([2]),
                                            reduction="none").sum(), [((5, 2, 4), S)]),
    "fractional_max_pool2d": (lambda T, x: T.nn.functional.fractional_max_pool2d(
        x, (2, 3), output_size=(3, 2), _random_samples=T.tensor([[[0.3, 0.8], [0.55, 0.1]]], dtype=x.dtype)) * 2,
        [((1, 2, 5, 6), S)]),
    "fractional_max_pool3d": (lambda T, x: T.nn.functional.fractional_max_pool3d(
        x, 2, output_ratio=0.5, _random_samples=T.tensor([[[0.7, 0.2, 0.45]]], dtype=x.dtype)),
        [((1, 5, 4, 6), S)]),
    "lp_pool2d": (lambda T, x: T.nn.functional.lp_pool2d(x, 2, 2), [((1, 2, 4, 4), "pos")]),
    "pdist": (lambda T, x: T.pdist(x) + T.nn.functional.pdist(x, 1.5) + T.pdist(x, 3), [((4, 3), S)]),
    "unfold_fold": (lambda T, x: T.nn.functional.fold(T.nn.functional.unfold(x, (2, 3), padding=1, stride=(1, 2)) * 2,
                                                      (4, 5), (2, 3), padding=1, stride=(1, 2)), [((1, 2, 4, 5), S)]),
    "max_unpool2d": (lambda T, x: T.nn.functional.max_unpool2d(*T.nn.functional.max_pool2d(x, 2, return_indices=True),
                                                               2, output_size=(5, 4)), [((1, 2, 5, 4), S)]),
    "max_unpool3d": (lambda T, x: T.nn.functional.max_unpool3d(*T.nn.functional.max_pool3d(x, 2, return_indices=True),
                                                               2, output_size=(2, 2, 3)), [((2, 2, 2, 3), S)]),
    "pixel_shuffles": (lambda T, x: T.nn.functional.pixel_unshuffle(T.nn.functional.pixel_shuffle(x, 2) * 2, 2)
                       * T.pixel_shuffle(x, 2).sum(), [((1, 4, 2, 3), S)]),
    "channel_shuffle": (lambda T, x: T.nn.functional.channel_shuffle(x, 2) * x, [((2, 4, 3), S)]),
    # interpolate (engine/ops/upsample.py)
    "interpolate_1d": (lambda T, x: T.nn.functional.interpolate(x, scale_factor=1.5) * 2
                       + T.nn.functional.interpolate(x, size=6, mode="linear", align_corners=True)
                       + T.nn.functional.interpolate(x, size=6, mode="nearest-exact"), [((1, 2, 4), S)]),
    "interpolate_2d": (lambda T, x: T.nn.functional.interpolate(x, size=(4, 5), mode="bilinear")
                       + T.nn.functional.interpolate(x, scale_factor=(2, 1.7)) * 2
                       + T.nn.functional.interpolate(x, size=(4, 5), mode="nearest-exact"), [((1, 2, 2, 3), S)]),
    "interpolate_bicubic": (lambda T, x: T.nn.functional.interpolate(x, size=(4, 5), mode="bicubic")
                            + T.nn.functional.interpolate(x, size=(4, 5), mode="bicubic", align_corners=True),
                            [((1, 2, 2, 3), S)]),
    "interpolate_3d": (lambda T, x: T.nn.functional.interpolate(x, size=(3, 2, 4), mode="trilinear")
                       + T.nn.functional.interpolate(x, size=(3, 2, 4)) * 2
                       + T.nn.functional.interpolate(x, size=(3, 2, 4), mode="nearest-exact"), [((1, 1, 2, 2, 3), S)]),
    "bilinear": (lambda T, a, b, w, c: T.nn.functional.bilinear(a, b, w, c), [((2, 2, 3), S), ((2, 2, 2), S),
                                                                               ((4, 3, 2), S), ((4,), S)]),
    "softmin_softsign_tanhshrink": (lambda T, a: T.nn.functional.softmin(a, 1) + T.nn.functional.softsign(a)
                                    + T.nn.functional.tanhshrink(a), [((2, 3), S)]),
    "clamp_min_number": (lambda T, a: a.clamp_min(0.3) * T.clamp_max(a, -0.2) * a, [((2, 3), "away0")]),
    "clamp_min_tensor": (lambda T, a, b: a.clamp_min(b) + a.clamp_max(b * 2), [((2, 3), "away0"), ((3,), S)]),
    "clamp_min_": (lambda T, a: (a * 1).clamp_min_(0.3) * a, [((2, 3), "away0")]),
    "normalize": (lambda T, a: T.nn.functional.normalize(a) + T.nn.functional.normalize(a, dim=0), [((2, 3), S)]),
    "cosine_similarity": (lambda T, a, b: T.nn.functional.cosine_similarity(a, b), [((2, 3), S), ((2, 3), S)]),
    "cosine_similarity_broadcast": (lambda T, a, b: T.nn.functional.cosine_similarity(a, b, dim=0),
                                    [((3, 2), S), ((3, 1), S)]),
    "adaptive_avg_pool2d": (lambda T, a: T.nn.functional.adaptive_avg_pool2d(a, (2, 3)), [((1, 2, 5, 4), S)]),
    "adaptive_avg_pool2d_1": (lambda T, a: T.nn.AdaptiveAvgPool2d(1)(a).flatten(1), [((2, 2, 3, 3), S)]),
    "batch_norm_2d": (lambda T, a: T.nn.BatchNorm2d(2, dtype=T.float64)(a), [((2, 2, 2, 3), S)]),
    "batch_norm_2d_eval": (lambda T, a: T.nn.BatchNorm2d(2, dtype=T.float64).eval()(a * 2), [((2, 2, 2, 3), S)]),
    "baddbmm": (lambda T, c, a, b: T.baddbmm(c, a, b) + c.baddbmm(a, b, beta=0.5, alpha=2),
                [((2, 2, 3), S), ((2, 2, 4), S), ((2, 4, 3), S)]),
    "baddbmm_broadcast_beta0": (lambda T, c, a, b: T.baddbmm(c, a, b, beta=0) * T.baddbmm(c[0, :1], a, b),
                                [((2, 2, 3), S), ((2, 2, 4), S), ((2, 4, 3), S)]),
    "group_norm": (lambda T, x, w, b: T.nn.functional.group_norm(x, 2, w, b), [((2, 4, 3), S), ((4,), S), ((4,), S)]),
    "GroupNorm": (lambda T, x: T.nn.GroupNorm(1, 2, dtype=T.float64)(x * 2), [((3, 2, 2, 2), S)]),
    "full_backward_hook": (lambda T, x: _hooked(T.nn.Tanh())(x * 2), [((3, 2), S)]),
    "cdist": (lambda T, a, b: T.cdist(a, b) * T.cdist(a, b, p=1) + T.cdist(a, b, p=3) + T.cdist(a, b, p=1.5),
              [((3, 2), S), ((4, 2), S)]),
    "cdist_batched_inf": (lambda T, a, b: T.cdist(a, b, p=float("inf")), [((2, 3, 2), S), ((4, 2), S)]),
    "cdist_euclidean_mm": (lambda T, a, b: T.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
                           [((2, 3, 2), S), ((4, 2), S)]),
    "diagonal": (lambda T, a: a.diagonal() * T.diagonal(a, 1, 1, 0).sum() + a.diagonal(-1, 0, -1).sum(),
                 [((3, 3, 2), S)]),
    "movedim": (lambda T, a: a.movedim(-1, 0) * T.moveaxis(a, (0, 1), (1, 0)).sin().sum(), [((2, 3, 2), S)]),
    "reshape_alias": (lambda T, a: a.t().reshape(2, 2, 2).exp(), [((2, 4), S)]),
    "einsum_mm": (lambda T, a, b: T.einsum("ij,jk->ik", a, b), [((2, 3), S), ((3, 4), S)]),
    "einsum_bmm_list": (lambda T, a, b: T.einsum("bij,bkj->bki", [a, b]), [((2, 2, 3), S), ((2, 4, 3), S)]),
    "einsum_trace_diag": (lambda T, a, b: T.einsum("ii", a) * T.einsum("iij->ji", b), [((3, 3), S), ((2, 2, 3), S)]),
    "einsum_ellipsis_three": (lambda T, a, b, c: T.einsum("...ij,jk,k->...i", a, b, c),
                              [((2, 2, 3), S), ((3, 4), S), ((4,), S)]),
    "einsum_outer_dot": (lambda T, a, b: T.einsum("i,j", a, b) * T.einsum("i,i->", a, a), [((2,), S), ((3,), S)]),
    "einsum_sublist": (lambda T, a, b: T.einsum(a, [0, 1], b, [1, 2], [2, 0]), [((2, 3), S), ((3, 4), S)]),
    # ops with several outputs (engine/ops/pieces.py)
    "unbind": (lambda T, a: a.unbind(1)[0] * T.unbind(a, 0)[1][:2].exp(), [((2, 3), S)]),
    "unbind_one_used": (lambda T, a: a.unbind(-1)[2] * 2, [((2, 3), S)]),
    "split": (lambda T, a: a.split(2)[1].sin() + T.split(a, 2, dim=0)[0][:1] * a.split(2)[0][1:], [((4, 3), S)]),
    "split_sizes": (lambda T, a: a.split([1, 2], 1)[1] * a.split([1, 2], 1)[0].exp(), [((2, 3), S)]),
    "chunk": (lambda T, a: a.chunk(3, 1)[2] * a.chunk(2)[0].sum(), [((2, 3), S)]),
    "unsafe_chunk": (lambda T, a: (a * 1).unsafe_chunk(2, 1)[0].sigmoid_() * a.unsafe_split(1)[1], [((2, 2), S)]),
    # recurrent layers (engine/nn/recurrent.py): torch records these graphs for float64 on the CPU
    "RNN": (lambda T, x: _recurrent(T, "RNN", x), [((4, 2, 3), S)]),
    "RNN_relu_2_layers": (lambda T, x, h: _recurrent(T, "RNN", x, h, nonlinearity="relu", num_layers=2),
                          [((3, 2, 3), S), ((2, 2, 2), S)]),
    "RNN_batch_first": (lambda T, x: _recurrent(T, "RNN", x, batch_first=True), [((2, 3, 3), S)]),
    "GRU": (lambda T, x, h: _recurrent(T, "GRU", x, h), [((3, 2, 3), S), ((1, 2, 2), S)]),
    "GRU_bidirectional": (lambda T, x: _recurrent(T, "GRU", x, bidirectional=True, batch_first=True),
                          [((2, 3, 3), S)]),
    "LSTM": (lambda T, x, h, c: _recurrent(T, "LSTM", x, (h, c)), [((3, 2, 3), S), ((1, 2, 2), S), ((1, 2, 2), S)]),
    "LSTM_stacked_bidirectional": (lambda T, x: _recurrent(T, "LSTM", x, num_layers=2, bidirectional=True,
                                                           batch_first=True), [((2, 3, 3), S)]),
    "LSTM_unbatched_no_bias": (lambda T, x: _recurrent(T, "LSTM", x, bias=False), [((3, 3), S)]),
    "RNNCell": (lambda T, x, h: _recurrent(T, "RNNCell", x, h), [((2, 3), S), ((2, 2), S)]),
    "LSTMCell": (lambda T, x: _recurrent(T, "LSTMCell", x), [((2, 3), S)]),
    "GRUCell": (lambda T, x, h: _recurrent(T, "GRUCell", x, h), [((3,), S), ((2,), S)]),
    # random ops (engine/ops/random.py): their nodes pass zeros back; the values drawn must be torch's
    "uniform_": (lambda T, a: (a * 1).uniform_(-1, 2, generator=_seeded(T)) * a, [((2, 3), S)]),
    "pack_padded_sequence": (lambda T, a: T.nn.utils.rnn.pack_padded_sequence(a, [3, 2, 2], batch_first=True).data,
                             [((3, 3, 2), S)]),
    "_dirichlet_grad": (lambda T, a: T._dirichlet_grad(a.detach() * 0 + 0.3, a.detach() * 0 + 2, a.detach() * 0 + 5)
                        * a, [((2, 3), S)]),
    "weight_norm_interface": (lambda T, v, g, h: T._weight_norm(v, g, 0) + T._weight_norm(v, h, 1),
                              [((2, 3), S), ((2, 1), "pos"), ((1, 3), "pos")]),
    "weight_norm_composite": (lambda T, v, g: T._weight_norm(v, g.view(()), -1) * T.norm_except_dim(v, 2, 0),
                              [((2, 3), S), ((1,), "pos")]),
    "cauchy": (lambda T, a: (a * 1).cauchy_(0.5, 2.0, generator=_seeded(T)) * a, [((2, 3), S)]),
    # the reparameterised grad of a Gamma draw is -(∂cdf/∂α)/pdf, not the derivative of the sampler's own steps:
    # finite differences cannot check it (test_distributions compares it with torch's)
    "_standard_gamma": (lambda T, a: T._standard_gamma(a.detach() * 0 + 1.5, generator=_seeded(T)) * a,
                        [((2, 3), S)]),
    "_standard_gamma_grad": (lambda T, a: T._standard_gamma_grad(a.detach() * 0 + 2, a.detach() * 0 + .5) * a,
                             [((2, 3), S)]),
    "_sample_dirichlet": (lambda T, a: T._sample_dirichlet(a.detach() * 0 + 0.7, generator=_seeded(T)) * a,
                          [((2, 3), S)]),
    "geometric": (lambda T, a: (a * 1).geometric_(0.3, generator=_seeded(T)) * a, [((2, 3), S)]),
    "log_normal": (lambda T, a: (a * 1).log_normal_(0.5, 0.7, generator=_seeded(T)) * a, [((2, 3), S)]),
    "poisson": (lambda T, a: T.poisson(a * 0 + 12.0, generator=_seeded(T)) * a, [((2, 3), S)]),
    "binomial": (lambda T, a: T.binomial(a.detach() * 0 + 30, a.detach() * 0 + 0.4, generator=_seeded(T)) * a,
                 [((2, 3), S)]),
    "normal_": (lambda T, a: (a * 1).normal_(0.5, 2.0, generator=_seeded(T)) * a, [((2, 3), S)]),
    "normal_fill": (lambda T, a: (a * 1).normal_(generator=_seeded(T)) * a, [((3, 7), S)]),
    "exponential_": (lambda T, a: (a * 1).exponential_(1.5, generator=_seeded(T)) * a, [((2, 3), S)]),
    "random_from": (lambda T, a: (a * 1).random_(-3, 7, generator=_seeded(T)) * a, [((2, 3), S)]),
    "random_to": (lambda T, a: (a * 1).random_(5, generator=_seeded(T)) * a, [((2, 3), S)]),
    "random_bits": (lambda T, a: (a * 1).random_(generator=_seeded(T)) * 1e-16 * a, [((2, 3), S)]),
    "bernoulli_": (lambda T, a: (a * 1).bernoulli_(0.3, generator=_seeded(T)) * a, [((2, 3), S)]),
    "bernoulli_tensor_": (lambda T, a: (a * 1).bernoulli_(T.tensor([0.2, 0.5, 0.9], dtype=T.float64),
                                                          generator=_seeded(T)) * a, [((2, 3), S)]),
    "bernoulli": (lambda T, a: T.bernoulli(a * 0 + 0.5, generator=_seeded(T)) * a, [((2, 3), S)]),
    "bernoulli_p": (lambda T, a: a.detach().bernoulli(0.5, generator=_seeded(T)) * a, [((2, 3), S)]),
    "normal_tensor_float": (lambda T, a: T.normal(a * 0, 0.5, generator=_seeded(T)) * a, [((2, 3), S)]),
    "normal_float_tensor": (lambda T, a: T.normal(1.0, a * 0 + 2, generator=_seeded(T)) * a, [((2, 3), S)]),
    "normal_tensor_tensor": (lambda T, a, b: T.normal(a * 0, b * 0 + 2, generator=_seeded(T)) * a * b,
                             [((2, 3), S), ((3,), S)]),
    # element-wise math and torch.special (engine/ops/special.py, bitwise.py, compare.py)
    "asin_acos": (lambda T, a: a.asin() * T.arccos(a * 0.9), [((2, 3), "small")]),
    "asinh_acosh_atanh": (lambda T, a, b: a.asinh() + T.arccosh(b + 1) * (a * 0.5).atanh(), [((3,), S), ((3,), "pos")]),
    "exp2_angles": (lambda T, a: T.exp2(a) * a.deg2rad() + a.rad2deg(), [((2, 3), S)]),
    "frac_sinc": (lambda T, a: (a * 3).frac() * T.sinc(a), [((2, 3), S)]),
    "gamma_family": (lambda T, a: a.lgamma() + T.digamma(a) * a.polygamma(1) + T.polygamma(2, a),
                     [((2, 3), "pos")]),
    "mvlgamma": (lambda T, a: T.mvlgamma(a + 1.5, 3) + T.special.multigammaln(a + 1, 2), [((2, 3), "pos")]),
    "erfc_erfinv": (lambda T, a: a.erfc() * T.erfinv(a * 0.5), [((2, 3), "small")]),
    "special_normal": (lambda T, a: T.special.erfcx(a) + T.special.log_ndtr(a) * T.special.ndtri(a.sigmoid()),
                       [((2, 3), S)]),
    "special_bessel_i": (lambda T, a: a.i0() + T.special.i0e(a) * T.special.i1(a) + T.special.i1e(a),
                         [((2, 3), "away0")]),
    "entr_logit": (lambda T, a: T.special.entr(a) + a.sigmoid().logit() + T.logit(a.sigmoid(), eps=0.3),
                   [((2, 3), "pos")]),
    "nan_to_num": (lambda T, a: (a.log()).nan_to_num(posinf=2.0) * a, [((2, 3), S)]),
    "atan2_hypot": (lambda T, a, b: a.atan2(b) + T.hypot(a, b) * T.arctan2(b, a), [((2, 3), "away0"), ((3,), "away0")]),
    "logaddexp": (lambda T, a, b: T.logaddexp(a, b) * a.logaddexp2(b), [((2, 3), S), ((2, 3), S)]),
    "copysign": (lambda T, a, b: a.copysign(b) + T.copysign(a, -1.5), [((2, 3), "away0"), ((3,), "away0")]),
    "fmax_fmin": (lambda T, a, b: T.fmax(a, b) * a.fmin(b), [((2, 3), S), ((3,), S)]),
    "xlog1py": (lambda T, a, b: T.special.xlog1py(a, b) + T.special.xlog1py(2.0, b) * T.special.xlog1py(a, 0.5),
                [((2, 3), S), ((2, 3), "small")]),
    "zeta": (lambda T, a, b: T.special.zeta(_counted(T).view(2, 3) + 2, b) * a + T.special.zeta(3.0, b)
             + T.special.zeta(_counted(T).view(2, 3) + 2, 1.5) * b,
             [((2, 3), "pos"), ((2, 3), "pos")]),
    "igamma": (lambda T, x: T.igamma(_counted(T).view(2, 3) * 0.5 + 0.5, x)
               * T.special.gammainc(_counted(T).view(2, 3) + 1, x * 3) + (_counted(T).view(2, 3) + 2).igammac(x)
               + T.special.gammaincc(_counted(T).view(2, 3) * 3 + 0.5, x), [((2, 3), "pos")]),
    "round_decimals": (lambda T, a: a.round(decimals=1) * a + T.round(a, decimals=-1), [((2, 3), S)]),
    "lerp_tensor": (lambda T, a, b, w: a.lerp(b, w) * T.lerp(a, b, w * 2), [((2, 3), S), ((2, 3), S), ((3,), S)]),
    "ldexp_float_power": (lambda T, a: T.ldexp(a, T.tensor([1, 0, 3])) * a.float_power(2) + T.float_power(a.abs(), a),
                          [((2, 3), "away0")]),
    "nextafter_heaviside": (lambda T, a, b: T.nextafter(a, b) * T.heaviside(a.detach(), b.detach()),
                            [((2, 3), S), ((2, 3), S)]),
    "polygamma_": (lambda T, a: (a * 1).polygamma_(1) * a, [((2, 3), "pos")]),
    # asinh_, acosh_, atanh_ have no derivative in torch: run where nothing records a node
    "inverse_hyperbolic_in_place": (lambda T, a: ((_counted(T) * 1).asinh_() + (_counted(T) + 1).acosh_()
                                                  + (_counted(T) * 0.1).atanh_()).view(2, 3) * a, [((2, 3), S)]),
    "frexp": (lambda T, a: T.frexp(a).mantissa * a.frexp()[1], [((2, 3), S)]),
    "conj_physical_": (lambda T, a, b: T.view_as_real(T.complex(a, b).conj_physical_() * T.complex(b, a)),
                       [((2, 3), S), ((2, 3), S)]),
    "rsub_angle": (lambda T, a, b: T.rsub(a, b, alpha=2) * a.angle() + T.rsub(a, 3), [((2, 3), "away0"), ((2, 3), S)]),
    "compare_in_place": (lambda T, a, b: (a * 1).lt_(b) * a + (a * 1).ge_(0.5) * b + (a * 1).eq_(b) + (a * 1).ne_(1.0)
                         + (a * 1).le_(b) * (a * 1).gt_(0.0), [((2, 3), S), ((2, 3), S)]),
    "compare": (lambda T, a, b: a * a.lt(b) + b * T.greater_equal(a, 0.5) + a * b.eq(a) + a.ne(2.0) * a.le(b)
                * T.gt(a, 0.0) + T.eq(a, 1.0) + a.lt(1.0) + a.le(1.0) * a.ge(b) + T.gt(a, b) * T.ne(a, b),
                [((2, 3), S), ((2, 3), S)]),
    "bitwise": (lambda T, a: (((_counted(T).long() & 3) | (_counted(T).long() ^ 5)) + (_counted(T).long() << 2)
                              + (_counted(T).long() >> 1) + T.gcd(_counted(T).long(), T.tensor(4))
                              + _counted(T).long().lcm(T.tensor(3))).view(2, 3) * a, [((2, 3), S)]),
    # rearranging and assembling (engine/ops/arranging.py, broadcasting.py, diagonals.py, region_scatters.py)
    "roll_rot90": (lambda T, a: a.roll(1, 0) * T.rot90(a, 2) + a.roll(-1) * a.rot90(1, [1, 0]).t()
                   + T.roll(a, (1, -1), (0, 1)).rot90(3).t(), [((2, 3), S)]),
    "fliplr_tile": (lambda T, a: T.fliplr(a) * T.flipud(a) + T.tile(a, (2,))[:, 1:4], [((2, 3), S)]),
    "stacks": (lambda T, a, b: T.hstack([a, b])[:, :3] * T.vstack([a[0], a[1]]) + T.dstack([a, a * 2]).sum(-1)
               + T.column_stack([a[:, 0], b[:, 0]])[:, 1:] + T.row_stack((a[1], a[0])), [((2, 3), S), ((2, 1), S)]),
    "atleast_nd": (lambda T, a: T.atleast_2d(a) * T.atleast_3d(a)[..., 0] + T.atleast_1d(a.sum()) * T.ravel(a),
                   [((3,), S)]),
    "tensor_split": (lambda T, a: T.tensor_split(a, 3, 1)[1] * a.hsplit([1])[0] + T.vsplit(a, 2)[1]
                     + T.dsplit(a[None], [2])[0][0, :, 1:].sum(), [((2, 3), S)]),
    "broadcast_meshgrid": (lambda T, a, b, c: T.broadcast_to(b, (2, 3)) * sum(T.broadcast_tensors(a, b))
                           + sum(T.meshgrid(b[0], c, indexing="xy")) * T.meshgrid([c, b[0]], indexing="ij")[1],
                           [((2, 3), S), ((1, 3), S), ((2,), S)]),
    "cartesian_combinations": (lambda T, a, b, c: T.cartesian_prod(a, b) * T.combinations(c)
                               + T.combinations(a, 2, with_replacement=True).sum(), [((2,), S), ((3,), S), ((4,), S)]),
    "block_diag": (lambda T, a, b, c: T.block_diag(a, b, c), [((2, 2), S), ((3,), S), ((), S)]),
    "diag": (lambda T, v, m: T.diag(v) * T.diag_embed(m)[1] + T.diagflat(m[:, :1], 1) + T.diag(m, 1).sum(),
             [((3,), S), ((2, 3), S)]),
    "unfold": (lambda T, a: (a.unfold(1, 2, 2) * a.unfold(1, 2, 1)[:, ::2]).sum(-1) * a[:, :2], [((2, 5), S)]),
    "region_scatters": (lambda T, a, b: T.select_scatter(a, b[0] * 2, 0, 1) * T.slice_scatter(a, b[:, :2], 1, 0, 2)
                        + a.diagonal_scatter(b[0, :2], 0) * a, [((2, 3), S), ((2, 3), S)]),
    "quantile": (lambda T, a: T.quantile(a, T.tensor([0.25, 0.7], dtype=T.float64), dim=1, keepdim=True)
                 + a.nanquantile(0.3, interpolation="midpoint") + a.quantile(0.6, 0, interpolation="nearest").sum(),
                 [((3, 4), S)]),
    "gradient": (lambda T, a, x: T.gradient(a, spacing=[x, x[:4] * 2], edge_order=2)[1] * T.gradient(a)[0]
                 + T.gradient(a, spacing=0.5, dim=1, edge_order=2)[0] + T.gradient(a, spacing=(x, x))[0]
                 + T.gradient(a, spacing=[x[:4] ** 2 + 3], dim=[-1])[0],
                 [((4, 4), S), ((4,), "pos")]),
    "as_strided": (lambda T, a: T.as_strided(a, (2, 2), (1, 2), 1) * a.as_strided((2, 2), (0, 3))
                   + (a * 1).as_strided((2, 2), (1, 1), 3), [((3, 3), S)]),
    "shape_in_place": (_shape_in_place, [((2, 3), S)]),
    "squeeze_dims": (lambda T, a: a.squeeze((1, 3)) * a.squeeze((1,)).squeeze(-1), [((2, 1, 3, 1), S)]),
    # the views' copying twins (engine/ops/copies.py)
    "copies_views": (lambda T, a: T.view_copy(a, (3, 2)) * T.permute_copy(a, (1, 0)) + T.t_copy(a)
                     + T.transpose_copy(a, 0, 1) * T.expand_copy(a[0, :2], (3, 2)) + T.alias_copy(a).t()
                     + T.diagonal_copy(a).sum() + a.narrow_copy(1, 1, 2).sum(), [((2, 3), S)]),
    "copies_pieces": (lambda T, a: T.squeeze_copy(a) * T.squeeze_copy(a, 1) + T.unsqueeze_copy(a[:, 0], 0)[0]
                      + T.select_copy(a, 1, 0) * T.unbind_copy(a[:, 0], 0)[1]
                      + T.split_with_sizes_copy(a[:, 0], [1, 1])[0] + T.unfold_copy(a[:, 0], 1, 2, 1)[:, :, 0].sum(),
                      [((2, 1, 3), S)]),
    # masks and flat indices (engine/ops/masking.py)
    "masked": (lambda T, a, v, b: a.masked_fill(a > 0, v) * a.masked_scatter(a < 0, b)
               + a.masked_select(a > 0).sum() + T.masked_fill(a, T.tensor([True, False, False]), v * 2),
               [((2, 3), "away0"), ((), S), ((6,), S)]),
    "masked_broadcast": (lambda T, a, b: T.masked_select(a, T.tensor([[True], [False]])).sum() * b
                         + b.masked_scatter(T.tensor([[True, False, True], [False, True, True]]), a),
                         [((2, 3), S), ((3,), S)]),
    "take_put": (lambda T, a, b: a.take(T.tensor([[0, 5], [3, 3]])).sum() * a
                 + (a.put(T.tensor([1, 4]), b) + T.put(a, T.tensor([0, 0]), b, accumulate=True)) * a,
                 [((2, 3), S), ((2,), S)]),
    "index_put_function": (lambda T, a, b, c: T.index_put(a, (T.tensor([0, 1]), T.tensor([2, 0])), b) * a
                           + a.index_put((T.tensor([1, 1]),), c, accumulate=True),
                           [((2, 3), S), ((2,), S), ((3,), S)]),
    "take_along_dim": (lambda T, a: T.take_along_dim(a, T.tensor([[0], [2]]), 1) * a
                       + a.take_along_dim(T.tensor([5, 0])).sum() + T.take_along_dim(a, T.tensor([[-1, 0, 1]]), 1),
                       [((2, 3), S)]),
    # values picked or ordered (engine/ops/statistics.py, sorting.py, scans.py, counting.py, index_reduce.py)
    "amax_amin": (lambda T, a: a.amax(0) * a.amin((0, 1)) + T.amax(a, 1, keepdim=True)
                  + T.cat([a, a], 1).amin(1)[:, None] + T.cat([a, a]).amax(), [((2, 3), S)]),
    "aminmax": (lambda T, a: T.aminmax(a, dim=0).min * a.aminmax().max + a.aminmax(dim=1, keepdim=True)[1],
                [((2, 3), S)]),
    "nansum_nanmean": (lambda T, a: a.log().nansum(0) * T.nanmean(a.log(), 1, keepdim=True) + T.nansum(a * 2),
                       [((2, 3), "away0")]),
    "var_std_mean": (lambda T, a: T.var_mean(a, 1)[0] * T.std_mean(a, 1)[1] + T.std_mean(a)[0]
                     + T.var_mean(a, 0, correction=0)[1].sum() + T.std_mean(a, (0, 1), keepdim=True)[0],
                     [((2, 3), S)]),
    "median_mode_kthvalue": (lambda T, a: a.median() * a.median(1).values + T.nanmedian(a)
                             + a.nanmedian(0).values.sum() + a.mode(1).values * T.kthvalue(a, 2, 1).values
                             + a.median(0, keepdim=True)[0].sum(),
                             [((2, 3), S)]),
    "cummax_logcumsumexp": (lambda T, a: a.cummax(1).values * T.cummin(a, 0).values + a.logcumsumexp(1),
                            [((2, 3), S)]),
    "unique": (lambda T, a: a * (T.unique(_counted(T) % 4).sum() + T.unique(_counted(T) // 4, dim=0).sum()
                                 + T.unique_consecutive(_counted(T) // 2).sum()), [((2, 3), S)]),
    "index_reduce": (lambda T, a, s: a.index_reduce(0, T.tensor([0, 0]), s, "prod")
                     + a.index_reduce(0, T.tensor([1, 0]), s, "mean", include_self=False)
                     + T.index_reduce(a, 1, T.tensor([2, 2, 0]), s, "amax")
                     + a.index_reduce(1, T.tensor([0, 1, 1]), s, "amin", include_self=False),
                     [((2, 3), S), ((2, 3), S)]),
    "sort_stable": (lambda T, a: a.sort(stable=True).values * T.msort(a) + T.sort(a, dim=0, stable=False)[0],
                    [((2, 3), S)]),
}



def _eye(T, n):
    return T.eye(n, dtype=T.float64)


def _spd(T, a):
    return a @ (a.t() if a.dim() == 2 else a.transpose(1, 2)) + 3 * _eye(T, a.shape[-1])


def _svd_invariant(T, a):
    U, S, Vh = T.linalg.svd(a, full_matrices=False)
    return ((U * U).sum(0) + (Vh * Vh).sum(0)) * S


def _eigh_invariant(T, a):
    """The eigenvalues only: an eigenvector's sign is LAPACK's choice, numpy's not always MKL's (torch's)."""
    L, Q = T.linalg.eigh(a + a.t())
    return L * 2 + T.linalg.eigvalsh(a * 2 + a.t() * 2)


def _lu_square(T, a, b):
    LU, pivots = T.linalg.lu_factor(a)
    _, L, U = T.lu_unpack(LU, pivots)
    X = T.linalg.lu_solve(LU, pivots, b) + T.linalg.lu_solve(LU, pivots, b.t(), left=False, adjoint=True).t()
    return X * 2 + (L + U).sum(-1, keepdim=True) + T.lu_solve(b, *T.lu(a))


def _lu_rectangular(T, a):
    _, L, U = T.linalg.lu(a)
    _, L2, U2 = T.linalg.lu(a.t())
    return L.sum(0) + U.sum(0) * L2.sum(0) + U2.sum(1) + T.linalg.lu_factor_ex(a).LU.sum(0)


def _SYM(T):  # noqa: N802 - a constant
    return T.tensor([[0.5, 2.0, -1.0], [2.0, -1.0, 0.3], [-1.0, 0.3, 4.0]], dtype=T.float64)


LINALG_CASES = {
    "lu_square": (_lu_square, [((3, 3), S), ((3, 2), S)]),
    "lu_rectangular": (_lu_rectangular, [((4, 3), S)]),
    "householder_product": (lambda T, a, t: T.linalg.householder_product(a, t) + T.orgqr(a, t[:1]) * 2,
                            [((4, 3), "small"), ((2,), "small")]),
    "geqrf": (lambda T, a: a * T.geqrf(_counted(T)).tau.sum() + _counted(T).geqrf()[0], [((3, 2), S)]),
    "lstsq": (lambda T, a, b: T.linalg.lstsq(a, b).solution.sum(-1) + T.linalg.lstsq(a, b, driver="gelsd")[1].sum()
              + T.linalg.lstsq(a.t(), b[:3, 0], driver="gels").solution[:3], [((4, 3), S), ((4, 2), S)]),
    "triangular_solve_legacy": (lambda T, b, a: T.triangular_solve(b, a + 4 * _eye(T, 3)).solution
                                + b.triangular_solve(a + 4 * _eye(T, 3), upper=False, transpose=True)[1][..., :2],
                                [((2, 3, 2), S), ((3, 3), S)]),
    "linalg_det": (lambda T, a, b: T.linalg.det(a) * a.det() + T.det(b).sum(), [((3, 3), S), ((2, 3, 3), S)]),
    "ldl": (lambda T, a: T.linalg.ldl_solve(*T.linalg.ldl_factor(_SYM(T)), _SYM(T)[:, :2] + 1) * a
            + T.linalg.ldl_factor_ex(_SYM(T)).LD[:, :2], [((3, 2), S)]),
    "linalg_det_singular": (lambda T, a: T.linalg.det(T.stack([a, T.stack([a[0], a[1] * 0, a[2]])])).sum()
                            + T.linalg.det(a[1:, 1:].unsqueeze(0)) * T.linalg.det(a[:1, :1]), [((3, 3), S)]),
    "linalg_slogdet": (lambda T, a: T.linalg.slogdet(a)[1] * 2 + T.slogdet(_spd(T, a))[1], [((3, 3), S)]),
    "linalg_inv": (lambda T, a: T.linalg.inv(a + 3 * _eye(T, 3)) + a.inverse().sum(), [((2, 3, 3), S)]),
    "linalg_solve": (lambda T, a, b, v: T.linalg.solve(a + 3 * _eye(T, 3), b).sum(-1) * T.linalg.solve(a, v)
                     + T.linalg.solve(a + 3 * _eye(T, 3), b.t(), left=False).sum(-2), [((3, 3), S), ((3, 2), S),
                                                                                     ((3,), S)]),
    "linalg_cholesky": (lambda T, a: T.linalg.cholesky(_spd(T, a)) + T.linalg.cholesky(_spd(T, a), upper=True).exp()
                        + T.cholesky(_spd(T, a)),
                        [((2, 3, 3), S)]),
    "cholesky_solve_inverse": (lambda T, a, b: T.cholesky_solve(b, T.linalg.cholesky(_spd(T, a))) * 2
                               + T.cholesky_inverse(T.linalg.cholesky(_spd(T, a))).sum(-1, keepdim=True),
                               [((3, 3), S), ((3, 2), S)]),
    "linalg_eigh": (_eigh_invariant, [((3, 3), S)]),
    "linalg_svd": (_svd_invariant, [((3, 2), S)]),
    "linalg_svdvals": (lambda T, a: T.linalg.svdvals(a) * T.linalg.svdvals(a * 2).sum(), [((4, 2), S)]),
    "linalg_qr": (lambda T, a: (lambda q, r: q.sum(0) * r.exp().sum(0))(*T.linalg.qr(a)), [((4, 3), S)]),
    "linalg_qr_wide": (lambda T, a: (lambda q, r: q.sum() * r.exp().sum(0))(*T.linalg.qr(a, mode="complete"))
                       + T.linalg.qr(a)[0].sum(), [((3, 5), S)]),
    "linalg_matrix_exp": (lambda T, a: T.linalg.matrix_exp(a * 0.5) + a.matrix_exp().sum(), [((3, 3), S)]),
    "linalg_cross": (lambda T, a, b: T.linalg.cross(a, b) + T.cross(a, b * 2, dim=1), [((2, 3), S), ((2, 3), S)]),
    "trace_vdot": (lambda T, a, v, w: T.trace(a) * a + T.vdot(v, w), [((3, 4), S), ((4,), S), ((4,), S)]),
    "addmv_addr": (lambda T, c, m, v, w: T.addmv(c, m, v, beta=0.5, alpha=2) + c.addmv(m, v)
                   + T.addr(m @ v.unsqueeze(1) * w, c, w.sum(0, keepdim=True), beta=2, alpha=0.5).sum(1),
                   [((3,), S), ((3, 2), S), ((2,), S), ((1,), S)]),
    "addbmm_addmm": (lambda T, c, a, b, m: T.addbmm(c, a, b, alpha=2) + T.addmm(c[0], m, m.t(), beta=0.5, alpha=2)[:2],
                     [((2, 2), S), ((3, 2, 4), S), ((3, 4, 2), S), ((2, 3), S)]),
    "dist": (lambda T, a, b: T.dist(a, b) + T.dist(a, b, 3) * a + T.dist(a, b, 1.5), [((2, 3), S), ((3,), S)]),
    "renorm": (lambda T, a: T.renorm(a, 2, 0, 1.0) + a.renorm(3, 1, 1.5), [((3, 4), S)]),
    "vector_norm_ords": (lambda T, a: T.linalg.vector_norm(a, 3) + T.linalg.vector_norm(a, 0.5, dim=1)
                         + a.norm(float("inf"), dim=0, keepdim=True).sum() + T.norm(a, 1) * T.norm(a, 0),
                         [((2, 3), "away0")]),
    "matrix_norm_fro_nuc": (lambda T, a: T.linalg.matrix_norm(a) + T.linalg.norm(a, "nuc", dim=(1, 2))
                            * T.norm(a[0], "nuc") + T.linalg.norm(a[0]), [((2, 3, 2), S)]),
    "matrix_power": (lambda T, a: T.linalg.matrix_power(a + 3 * _eye(T, 3), 5) * 0.01
                     + T.linalg.matrix_power(a, 2) + T.linalg.matrix_power(a, 0), [((3, 3), S)]),
    "multi_dot": (lambda T, a, b, c, v: T.linalg.multi_dot([a, b, c]) + T.linalg.multi_dot([v, b, c]),
                  [((2, 3), S), ((3, 4), S), ((4, 2), S), ((3,), S)]),
    "kron_tensordot": (lambda T, a, b: T.kron(a, b).sum(1) + T.tensordot(a, b, dims=([0], [0])).sum(0),
                       [((2, 2), S), ((2, 4), S)]),
    "vecdot": (lambda T, a, v: T.linalg.vecdot(a, a * 2) * T.linalg.vecdot(v, v), [((2, 3), S), ((3,), S)]),
    "linalg_pinv": (lambda T, a: T.linalg.pinv(a) + T.pinverse(a) * 2, [((3, 2), S)]),
    "solve_triangular": (lambda T, a, b: T.linalg.solve_triangular(a + 4 * _eye(T, 3), b, upper=True)
                         + T.linalg.solve_triangular(a + 4 * _eye(T, 3), b.t(), upper=False, left=False).t(),
                         [((3, 3), S), ((3, 2), S)]),
}
CASES.update(LINALG_CASES)


def _masked_indices(T):
    """_unsafe_masked_index's indices for a (3, 4) input, one out of range and masked off."""
    i0, i1 = T.tensor([0, 2, 5]).view(3, 1), T.tensor([1, 3]).view(1, 2)
    return (i0 < 3) & (i1 < 4), [i0, i1]


def _native_group_norm(T, x, w, b):
    out, mean, rstd = T.native_group_norm(x, w, b, 2, 4, 3, 2, 1e-5)
    return out + (mean * rstd).sum(-1).view(2, 1, 1)


# torch.* functions of ATen's own (native norms with their statistics, the decompositions' helpers, as_strided's
# copy and scatter, segment reductions, ormqr)
NATIVE_CASES = {
    "native_group_norm": (_native_group_norm, [((2, 4, 3), S), ((4,), S), ((4,), S)]),
    "batch_norm_legit": (lambda T, a, w, b: T._native_batch_norm_legit(
        a, w, b, T.zeros(3, dtype=T.float64), T.ones(3, dtype=T.float64), True, 0.1, 1e-5)[0],
        [((4, 3), S), ((3,), S), ((3,), S)]),
    "batch_norm_legit_no_stats": (lambda T, a, w, b: T._native_batch_norm_legit(a, w, b, True, 0.1, 1e-5)[0],
                                  [((4, 3), S), ((3,), S), ((3,), S)]),
    "_chunk_cat": (lambda T, a: T._chunk_cat([T.ones(2, 3, dtype=T.float64), T.ones(2, 1, dtype=T.float64)], 1, 2)
                   .sum() * a, [((2, 3), S)]),
    "_unsafe_masked_index": (lambda T, x: T._unsafe_masked_index(x, *_masked_indices(T), 0.5), [((3, 4), S)]),
    "_unsafe_masked_index_put_accumulate": (
        lambda T, x, v: T._unsafe_masked_index_put_accumulate(x, *_masked_indices(T), v), [((3, 4), S), ((3, 2), S)]),
    "_segment_reduce": (lambda T, x: T._segment_reduce(x, "prod", lengths=T.tensor([2, 0, 3]), initial=1.5),
                        [((5,), S)]),
    "as_strided_copy": (lambda T, x: T.as_strided_copy(x, (2, 2), (1, 2), 1), [((3, 3), S)]),
    # src only: torch's grad of self is ATen's as_strided_scatter_backward, which finite differences do not give
    # complex intermediates between real inputs and a real output (torch's conjugate Wirtinger convention)
    "complex": (lambda T, a, b: T.view_as_real(T.complex(a, b) * T.complex(b, a).conj().exp()),
                [((2, 3), S), ((2, 3), S)]),
    "polar": (lambda T, r, t: T.view_as_real(T.polar(r, t).sqrt() / T.complex(t, r)), [((3,), "pos"), ((3,), S)]),
    "view_as_complex": (lambda T, a: (T.view_as_complex(a) ** 2).abs() * T.view_as_complex(a * 2).angle(),
                        [((3, 2), "away0")]),
    "conj_physical": (lambda T, a, b: T.complex(a, b).conj_physical().log().imag + T.complex(b, a).real,
                      [((4,), "pos"), ((4,), S)]),
    "complex_functions": (lambda T, a, b: T.view_as_real(
        (T.complex(a, b).sin() * T.complex(b, a).cos() + T.complex(a, a).tanh() - T.complex(b, a).sigmoid()
         + T.complex(a, b).reciprocal()) @ T.complex(b, b).t() / 3 + T.complex(a, b).mean() - T.complex(b, a).sum(1)),
        [((3, 3), "pos"), ((3, 3), S)]),
    "fft_c2c": (lambda T, a, b: T.view_as_real(T.fft.fft(T.complex(a, b), n=5) * 2
                                              + T.fft.ifft2(T.complex(b, a), s=(2, 3), norm="ortho").sum()),
                [((3, 4), S), ((3, 4), S)]),
    "fft_r2c": (lambda T, a: T.view_as_real(T.fft.rfft(a, n=6)).sum(-1) + T.fft.fft(a).real[:, :4] * 3
                + T.view_as_real(T.fft.ihfft(a, norm="forward").resolve_conj()).sum((1, 2))[:, None],
                [((3, 4), S)]),
    "fft_c2r": (lambda T, a, b: T.fft.irfft(T.complex(a, b), n=7) + T.fft.hfft(T.complex(b, a), n=7, norm="ortho")
                + T.fft.irfftn(T.complex(a, b)).sum(), [((3, 4), S), ((3, 4), S)]),
    "linalg_eig": (lambda T, a: T.view_as_real((T.linalg.eigvals(a) ** 2).sum()) + T.linalg.eig(a)[1].abs().sum()
                   + T.linalg.eig(a.mT)[1].abs().pow(2).sum(1).sum(), [((3, 3), S)]),
    "as_strided_scatter": (lambda T, s: T.as_strided_scatter(T.zeros(3, 3, dtype=T.float64), s, (2, 2), (1, 2), 1),
                           [((2, 2), S)]),
    "ormqr": (lambda T, a, tau, c: T.ormqr(a, tau, c) + T.ormqr(a, tau, c.t(), left=False, transpose=True).t(),
              [((3, 2), S), ((2,), S), ((3, 2), S)]),
}
CASES.update(NATIVE_CASES)

@pytest.mark.parametrize("name", sorted(CASES))
def test_gradcheck(name):
    T = load_engine()
    fn, specs = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    arrs = _inputs(rng, specs)
    leaves = [T.tensor(a.tolist(), dtype=T.float64, requires_grad=True) for a in arrs]
    out = fn(T, *leaves)
    assert str(out.dtype) == "torch.float64", out.dtype
    w = rng.uniform(0.5, 1.5, size=tuple(out.shape))
    W = T.tensor(w.tolist(), dtype=T.float64)
    (out * W).sum().backward()

    def loss(values):
        with T.no_grad():
            ts = [T.tensor(v.tolist(), dtype=T.float64) for v in values]
            return float(((fn(T, *ts)) * W).sum().item())

    for k, a in enumerate(arrs):
        g = leaves[k].grad
        assert g is not None, f"input {k} got no grad"
        analytic = np.asarray(g.tolist(), dtype=np.float64).reshape(a.shape)
        numeric = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in arrs]
            minus = [x.copy() for x in arrs]
            plus[k][idx] += EPS
            minus[k][idx] -= EPS
            numeric[idx] = (loss(plus) - loss(minus)) / (2 * EPS)
        np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-6, err_msg=f"{name}: input {k}")


# --- double backward: grads taken with create_graph=True, differentiated again, against torch -------------
# Known engine disagreements (strict xfails: an engine fix makes these XPASS, so drop the entry then).
DOUBLE_GAPS = {}


def _plain(t):
    """A torch or engine tensor as numpy; torch's ZeroTensor (an all-zero grad) as zeros."""
    if isinstance(t, torch.Tensor) and t._is_zerotensor():
        return np.zeros(tuple(t.shape))
    return to_numpy(t)


def _second_order(T, name):
    """(first-order grads with their requires_grad, second-order grads) of L = (f * W).sum(): the grads g_k
    are taken with create_graph=True, then L2 = sum_k (g_k * V_k).sum() is differentiated again."""
    fn, specs = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    arrs = _inputs(rng, specs)
    leaves = [T.tensor(a.tolist(), dtype=T.float64, requires_grad=True) for a in arrs]
    out = fn(T, *leaves)
    W = T.tensor(rng.uniform(0.5, 1.5, size=tuple(out.shape)).tolist(), dtype=T.float64)
    grads = T.autograd.grad((out * W).sum(), leaves, create_graph=True)
    first = [(_plain(g), g.requires_grad) for g in grads]
    terms = [(g * T.tensor(rng.uniform(0.5, 1.5, size=a.shape).tolist(), dtype=T.float64)).sum()
             for g, a in zip(grads, arrs) if g.requires_grad]
    if not terms:
        return first, None
    second = T.autograd.grad(sum(terms[1:], terms[0]), leaves, allow_unused=True)
    return first, [None if h is None else _plain(h) for h in second]


@pytest.mark.parametrize("name", with_known_gaps(sorted(CASES), DOUBLE_GAPS))
def test_double_backward_matches_torch(name):
    T = load_engine()
    try:
        want_first, want_second = _second_order(torch, name)
    except (NotImplementedError, RuntimeError) as e:  # torch has no second derivative here (cdist, hardsigmoid):
        with pytest.raises(type(e), match=re.escape(str(e))):  # the engine must say so too
            _second_order(T, name)
        return
    got_first, got_second = _second_order(T, name)
    for k, ((g, g_rg), (w, w_rg)) in enumerate(zip(got_first, want_first)):
        np.testing.assert_allclose(g, w, rtol=1e-7, atol=1e-10, err_msg=f"{name}: grad of input {k}")
        assert g_rg == w_rg, f"{name}: grad of input {k} requires_grad {g_rg}, torch {w_rg}"
    if want_second is None:
        assert got_second is None
        return
    for k, (g, w) in enumerate(zip(got_second, want_second)):
        assert (g is None) == (w is None), f"{name}: second-order grad of input {k}: engine {g}, torch {w}"
        if w is not None:
            np.testing.assert_allclose(g, w, rtol=1e-7, atol=1e-10, err_msg=f"{name}: second order, input {k}")
