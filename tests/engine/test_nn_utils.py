"""torch.nn.utils on the engine against torch 2.13: clip_grad_norm_ (norm types, error_if_nonfinite, foreach, the
returned norm), clip_grad_value_, get_total_norm, clip_grads_with_norm_, parameters_to_vector /
vector_to_parameters, and rnn's pad_sequence / pack_padded_sequence / pad_packed_sequence / pack_sequence with
their grads, grad_fn names, printed text and errors."""
from __future__ import annotations

import math

import numpy as np
import pytest
from difftest import ENGINE_NAME, load_engine, torch

E = load_engine()
pytestmark = pytest.mark.skipif(torch is None or ENGINE_NAME != "engine", reason="engine against torch")


def _params(T, dtype):
    T.manual_seed(0)
    model = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.Tanh(), T.nn.Linear(4, 2)).to(getattr(T, dtype))
    x = T.randn(5, 3, dtype=getattr(T, dtype))
    (model(x) ** 2).sum().backward()
    return list(model.parameters())


def _observe(T, fn):
    try:
        out = fn(T)
    except Exception as e:  # noqa: BLE001 - the error is the observation
        return f"{type(e).__name__}: {e}"
    return out


def _same(got, want, where):
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want), (where, got, want)
        for g, w in zip(got, want):
            _same(g, w, where)
    elif isinstance(want, torch.Tensor):
        assert isinstance(got, E.Tensor), (where, got)
        assert str(got.dtype) == str(want.dtype) and tuple(got.shape) == tuple(want.shape), where
        if want.dtype == torch.float64:
            # atol: a grad that cancels to ~1e-4 may keep the last-bit differences of the BLAS's float64 products
            np.testing.assert_allclose(got.detach()._data, want.detach().numpy(), rtol=1e-13, atol=1e-15,
                                       err_msg=where)
        assert str(got) == str(want), where  # float32: as torch prints it; and grad_fn's name
    else:
        assert str(got) == str(want), where


def _clip(norm_type, dtype="float32", max_norm=0.5, **options):
    def fn(T):
        params = _params(T, dtype)
        total = T.nn.utils.clip_grad_norm_(params, max_norm, norm_type=norm_type, **options)
        return [total] + [p.grad for p in params]
    return fn


CLIPS = {
    "l2": _clip(2), "l2_f64": _clip(2.0, "float64"), "l1": _clip(1), "l1_f64": _clip(1, "float64"),
    "inf": _clip(math.inf), "inf_string": _clip("inf"), "p3_f64": _clip(3.0, "float64"),
    "p0_5_f64": _clip(0.5, "float64"),
    "no_clip": _clip(2, max_norm=1e6), "foreach_true": _clip(2, foreach=True), "foreach_false": _clip(2, foreach=False),
    "error_if_nonfinite": lambda T: T.nn.utils.clip_grad_norm_(
        _nonfinite(T), 1.0,
        error_if_nonfinite=True),
    "nonfinite_allowed": lambda T: T.nn.utils.clip_grad_norm_(_nonfinite(T), 1.0),
    "one_tensor": lambda T: T.nn.utils.clip_grad_norm_(_params(T, "float64")[0], 0.1),
    "no_grads": lambda T: T.nn.utils.clip_grad_norm_([T.nn.Parameter(T.ones(2))], 1.0),
    "value": lambda T: [T.nn.utils.clip_grad_value_(ps := _params(T, "float32"), 0.3)] + [p.grad for p in ps],
    "total_norm": lambda T: T.nn.utils.get_total_norm([p.grad for p in _params(T, "float64")], 1.5),
    "with_norm": lambda T: [T.nn.utils.clip_grads_with_norm_(ps := _params(T, "float32"), 1.0, T.tensor(4.0))]
    + [p.grad for p in ps],
    "deprecated": lambda T: T.nn.utils.clip_grad_norm(_params(T, "float64"), 0.5),
}


def _nonfinite(T):
    p = T.nn.Parameter(T.ones(2))
    (p * T.tensor([1.0, math.inf])).sum().backward()
    return [p]


@pytest.mark.parametrize("name", sorted(CLIPS))
def test_clip_grad(name):
    _same(_observe(E, CLIPS[name]), _observe(torch, CLIPS[name]), name)


def _vector(T):
    params = _params(T, "float64")
    vec = T.nn.utils.parameters_to_vector(params)
    T.nn.utils.vector_to_parameters(vec * 2, params)
    return [vec, *params]


def _functional_call(T, given, **options):
    T.manual_seed(0)
    model = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Tanh(), T.nn.Linear(2, 1)).to(T.float64)
    model[2].weight = model[0].weight if options.pop("tied", False) else model[2].weight
    x = T.tensor([[1.0, -2.0]], dtype=T.float64)
    values = {name: T.full_like(p, 0.5).requires_grad_() for name, p in model.named_parameters() if name in given}
    out = T.nn.utils.stateless.functional_call(model, values, (x,), **options)
    grads = T.autograd.grad(out.sum(), list(values.values()))
    return [out, *grads, model(x), *model.parameters()]


def _weight_norm(dtype, dim=0, layer="Linear"):
    def fn(T):
        T.manual_seed(0)
        module = (T.nn.Linear(3, 2) if layer == "Linear" else T.nn.Conv1d(2, 2, 3)).to(getattr(T, dtype))
        module = T.nn.utils.weight_norm(module, dim=dim)
        x = T.ones((1, 3) if layer == "Linear" else (1, 2, 4), dtype=getattr(T, dtype))
        module(x).sum().backward()
        seen = [module.weight_g, module.weight_v, module.weight, module.weight_g.grad, module.weight_v.grad]
        T.nn.utils.remove_weight_norm(module)
        return seen + [module.weight, list(dict(module.named_parameters()))]
    return fn


def _parametrized_weight_norm(dtype, dim):
    def fn(T):
        T.manual_seed(0)
        m = T.nn.utils.parametrizations.weight_norm(T.nn.Linear(3, 2).to(getattr(T, dtype)), dim=dim)
        m(T.ones(1, 3, dtype=getattr(T, dtype))).sum().backward()
        originals = m.parametrizations.weight
        seen = [repr(m), m.weight, originals.original0, originals.original0.grad, originals.original1.grad,
                sorted(m.state_dict())]
        T.nn.utils.parametrize.remove_parametrizations(m, "weight")
        return seen + [m.weight]
    return fn


def _spectral_norm(dtype, layer="Linear", parametrized=False, **options):
    """Three training forwards (a power iteration each), one in eval mode, the grads of the original weight,
    the buffers, the state_dict's keys, and the weight left when the normalisation is removed."""
    def fn(T):
        T.manual_seed(0)
        d = getattr(T, dtype)
        module, x = {"Linear": (T.nn.Linear(4, 3, dtype=d), T.randn(2, 4, dtype=d)),
                     "Conv2d": (T.nn.Conv2d(2, 3, 2, dtype=d), T.randn(1, 2, 3, 3, dtype=d)),
                     "ConvTranspose1d": (T.nn.ConvTranspose1d(2, 3, 2, dtype=d), T.randn(1, 2, 3, dtype=d))}[layer]
        utils = T.nn.utils.parametrizations if parametrized else T.nn.utils
        utils.spectral_norm(module, **options)
        outs = [module(x) for _ in range(3)]
        outs[-1].sum().backward()
        module.eval()
        outs.append(module(x))
        if parametrized:
            p = module.parametrizations.weight
            seen = [p.original.grad, p[0]._u, p[0]._v, repr(module)]
            T.nn.utils.parametrize.remove_parametrizations(module, "weight")
        else:
            seen = [module.weight_orig.grad, module.weight_u, module.weight_v]
            T.nn.utils.remove_spectral_norm(module)
        return outs + seen + [module.weight, sorted(module.state_dict()), T.rand(2)]
    return fn


RNN = {
    "spectral_norm_f64": _spectral_norm("float64"),
    "spectral_norm_conv_transpose": _spectral_norm("float64", "ConvTranspose1d", n_power_iterations=2),
    "spectral_norm_f32": _spectral_norm("float32", "Conv2d"),
    "parametrizations_spectral_norm_f64": _spectral_norm("float64", "Conv2d", True),
    "parametrizations_spectral_norm_dim1": _spectral_norm("float64", "Linear", True, dim=1),
    "parametrizations_spectral_norm_f32": _spectral_norm("float32", "ConvTranspose1d", True),
    "parametrizations_spectral_norm_vector": lambda T: T.nn.utils.parametrizations.spectral_norm(
        T.nn.Linear(3, 2), name="bias").bias,
    "spectral_norm_twice": lambda T: T.nn.utils.spectral_norm(T.nn.utils.spectral_norm(T.nn.Linear(2, 2))),
    "spectral_norm_no_iterations": lambda T: T.nn.utils.spectral_norm(T.nn.Linear(2, 2), n_power_iterations=0),
    "parametrizations_spectral_norm_dim": lambda T: T.nn.utils.parametrizations.spectral_norm(T.nn.Linear(2, 2),
                                                                                              dim=2),
    "remove_spectral_norm_missing": lambda T: T.nn.utils.remove_spectral_norm(T.nn.Linear(2, 2)),
    "parametrizations_weight_norm": _parametrized_weight_norm("float32", 0),
    "parametrizations_weight_norm_f64_last": _parametrized_weight_norm("float64", 1),
    "parametrizations_weight_norm_whole": _parametrized_weight_norm("float64", None),
    "weight_norm": _weight_norm("float32"), "weight_norm_f64": _weight_norm("float64"),
    "weight_norm_last_dim": _weight_norm("float64", dim=1), "weight_norm_whole": _weight_norm("float32", dim=None),
    "weight_norm_middle_dim": _weight_norm("float64", dim=1, layer="Conv1d"),
    "weight_norm_twice": lambda T: T.nn.utils.weight_norm(T.nn.utils.weight_norm(T.nn.Linear(2, 2))),
    "remove_weight_norm_missing": lambda T: T.nn.utils.remove_weight_norm(T.nn.Linear(2, 2)),
    "functional_call": lambda T: _functional_call(T, {"0.weight", "2.bias"}),
    "functional_call_strict": lambda T: _functional_call(T, {"0.weight"}, strict=True),
    "functional_call_tied": lambda T: _functional_call(T, {"0.weight", "0.bias"}, tied=True),
    "functional_call_not_tensor": lambda T: T.nn.utils.stateless.functional_call(T.nn.Linear(1, 1), {"bias": 1.0},
                                                                                 (T.ones(1),)),
    "parameters_to_vector": _vector,
    "vector_not_tensor": lambda T: T.nn.utils.vector_to_parameters([1.0], []),
}


def _sequences(T):
    T.manual_seed(0)
    return [T.randn(n, 2, dtype=T.float64, requires_grad=True) for n in (3, 1, 2)]


def _through(T, fn):
    seqs = _sequences(T)
    out = fn(T, seqs)
    tensors = out if isinstance(out, (list, tuple)) else [out]
    first = tensors[0].data if hasattr(tensors[0], "batch_sizes") else tensors[0]
    grads = T.autograd.grad((first * T.arange(first.numel(), dtype=T.float64).view(first.shape)).sum(), seqs,
                            allow_unused=True)
    return [*tensors, *grads]


R = E.nn.utils.rnn
RNN.update({
    "pad_sequence": lambda T: _through(T, lambda T, s: T.nn.utils.rnn.pad_sequence(s)),
    "pad_sequence_batch_first_left": lambda T: _through(T, lambda T, s: T.nn.utils.rnn.pad_sequence(
        s, batch_first=True, padding_value=-1.0, padding_side="left")),
    "pack_padded_unsorted": lambda T: _through(T, lambda T, s: T.nn.utils.rnn.pack_padded_sequence(
        T.nn.utils.rnn.pad_sequence(s), [3, 1, 2], enforce_sorted=False)),
    "pack_padded_batch_first": lambda T: _through(T, lambda T, s: T.nn.utils.rnn.pack_padded_sequence(
        T.nn.utils.rnn.pad_sequence(s, batch_first=True), T.tensor([3, 1, 2]), batch_first=True,
        enforce_sorted=False)),
    "pack_unpack": lambda T: _through(T, lambda T, s: T.nn.utils.rnn.pad_packed_sequence(
        T.nn.utils.rnn.pack_sequence(s, enforce_sorted=False), batch_first=True, total_length=4)),
    "pack_sorted": lambda T: _through(T, lambda T, s: T.nn.utils.rnn.pad_packed_sequence(
        T.nn.utils.rnn.pack_sequence([s[0], s[2], s[1]]), padding_value=9.0)),
    "unpack_sequence": lambda T: _through(T, lambda T, s: T.nn.utils.rnn.unpack_sequence(
        T.nn.utils.rnn.pack_sequence(s, enforce_sorted=False))),
    "not_sorted": lambda T: T.nn.utils.rnn.pack_sequence(_sequences(T)),
    "zero_length": lambda T: T.nn.utils.rnn.pack_padded_sequence(T.zeros(3, 2), [3, 0]),
    "lengths_count": lambda T: T.nn.utils.rnn.pack_padded_sequence(T.zeros(3, 2), [3, 2, 1]),
    "total_length_short": lambda T: T.nn.utils.rnn.pad_packed_sequence(
        T.nn.utils.rnn.pack_sequence(_sequences(T), enforce_sorted=False), total_length=2),
    "padding_side": lambda T: T.nn.utils.rnn.pad_sequence(_sequences(T), padding_side="middle"),
    "empty": lambda T: T.nn.utils.rnn.pad_sequence([]),
})


def _recurrent_packed(kind, dtype, sort, hx=False, bidirectional=False):
    def fn(T):
        T.manual_seed(0)
        layer = getattr(T.nn, kind)(2, 3, num_layers=2, dtype=getattr(T, dtype), bidirectional=bidirectional)
        seqs = [T.randn(n, 2, dtype=getattr(T, dtype), requires_grad=True) for n in (3, 1, 2)]
        packed = T.nn.utils.rnn.pack_sequence(seqs if not sort else [seqs[0], seqs[2], seqs[1]],
                                              enforce_sorted=sort)
        start = None
        if hx:
            start = T.randn(4 if bidirectional else 2, 3, 3, dtype=getattr(T, dtype))
            start = (start, start * 2) if kind == "LSTM" else start
        out, hidden = layer(packed, start)
        h = hidden[0] if kind == "LSTM" else hidden
        padded, lengths = T.nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        if dtype == "float32":
            return [out.data, h, padded, lengths]
        weights = [layer.weight_hh_l0, layer.weight_ih_l1_reverse] if bidirectional else [layer.weight_hh_l0]
        grads = T.autograd.grad((padded * padded).sum() + h.sum(), [*seqs, *weights])
        return [out.data, h, padded, lengths, *grads]
    return fn


RNN.update({f"{kind}_packed_{dtype}{'_sorted' if sort else ''}": _recurrent_packed(kind, dtype, sort)
            for kind in ("RNN", "GRU", "LSTM") for dtype in ("float64", "float32") for sort in (False, True)})
RNN.update({f"{kind}_packed_hx": _recurrent_packed(kind, "float64", False, hx=True) for kind in ("GRU", "LSTM")})
RNN.update({f"{kind}_packed_bidirectional_{dtype}": _recurrent_packed(kind, dtype, True, hx=dtype == "float64",
                                                                        bidirectional=True)
            for kind in ("RNN", "GRU", "LSTM") for dtype in ("float64", "float32")})
RNN["packed_hx_size"] = lambda T: T.nn.GRU(2, 3)(T.nn.utils.rnn.pack_sequence([T.randn(3, 2), T.randn(2, 2)]),
                                                 T.zeros(1, 3, 3))


@pytest.mark.parametrize("name", sorted(RNN))
def test_rnn_utils(name):
    _same(_observe(E, RNN[name]), _observe(torch, RNN[name]), name)


PARAMETRIZE = '''
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.T

    def right_inverse(self, A):
        return A.triu(1)


torch.manual_seed(0)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
print(layer.weight, layer, P.is_parametrized(layer), P.is_parametrized(layer, "bias"))
print(layer.parametrizations.weight.original)
print(type(layer).__name__, P.type_before_parametrizations(layer).__name__)
layer(torch.ones(1, 3)).sum().backward()
print(layer.parametrizations.weight.original.grad)
print(sorted(dict(layer.named_parameters())), sorted(layer.state_dict()))
with P.cached():
    print(layer.weight is layer.weight)
print(layer.weight is layer.weight)
skew = nn.Linear(3, 3)
P.register_parametrization(skew, "weight", Skew())
skew.weight = torch.tensor([[0., 1., 2.], [-1., 0., 3.], [-2., -3., 0.]])
print(skew.weight, skew.parametrizations.weight.original)
P.remove_parametrizations(layer, "weight")
print(layer.weight, type(layer).__name__, sorted(dict(layer.named_parameters())))
P.remove_parametrizations(skew, "weight", leave_parametrized=False)
print(skew.weight)


class Twice(nn.Module):
    def forward(self, X):
        return torch.cat([X, X])


try:
    P.register_parametrization(nn.Linear(2, 2), "weight", Twice())
except ValueError as e:
    print(e)
try:
    P.remove_parametrizations(nn.Linear(2, 2), "weight")
except ValueError as e:
    print(e)
'''


def test_parametrize_as_torchs_tutorial_uses_it():
    from difftest import run_source
    want, got = run_source(PARAMETRIZE, "torch"), run_source(PARAMETRIZE, "engine")
    assert got.exc is None and want.exc is None, (got.exc, want.exc)
    assert got.stdout == want.stdout
