"""The nn layers of the activation, loss, norm, pool, padding, shuffle and attention families against torch:
each built alike (the same seed, so drawn parameters must agree value for value), its repr, state_dict keys and
values, its forward in float64, the grad_fn of the output, and the grads of the input and every parameter."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import load_engine, to_numpy, torch

LAYERS = [
    ("ReLU(inplace=True)", (2, 3)), ("LeakyReLU(0.2, inplace=True)", (2, 3)), ("ELU(0.5)", (2, 3)),
    ("SELU()", (2, 3)), ("CELU(0.7)", (2, 3)), ("GLU(0)", (4, 3)), ("PReLU(3)", (2, 3, 2)), ("RReLU(0.1, 0.4)", (3, 4)),
    ("Threshold(0.1, 20.0)", (2, 3)), ("Hardshrink(0.3)", (2, 3)), ("Softshrink()", (2, 3)), ("Hardswish()", (2, 3)),
    ("Hardsigmoid()", (2, 3)), ("LogSigmoid()", (2, 3)), ("Softsign()", (2, 3)), ("Tanhshrink()", (2, 3)),
    ("Softmin(1)", (2, 3)), ("Softmax2d()", (2, 3, 2, 2)),
    ("InstanceNorm1d(3, affine=True)", (2, 3, 4)), ("InstanceNorm2d(3, track_running_stats=True)", (2, 3, 2, 3)),
    ("BatchNorm3d(2)", (2, 2, 2, 2, 2)), ("RMSNorm(4)", (3, 4)), ("LocalResponseNorm(2)", (2, 3, 2, 2)),
    ("MaxPool3d(2, stride=1)", (1, 2, 3, 3, 3)), ("AvgPool3d(2, padding=1)", (1, 2, 3, 2, 3)),
    ("AdaptiveAvgPool1d(2)", (2, 3, 5)), ("AdaptiveAvgPool3d((1, 2, 2))", (1, 2, 3, 3, 3)),
    ("AdaptiveMaxPool1d(3)", (2, 3, 7)), ("AdaptiveMaxPool2d((2, 3))", (1, 2, 4, 5)),
    ("AdaptiveMaxPool3d(2)", (1, 2, 3, 4, 3)), ("LPPool2d(2, 2)", (1, 2, 4, 4)), ("LPPool1d(3, 2)", (2, 3, 4)),
    ("ZeroPad2d((1, 0, 2, 1))", (1, 2, 2, 3)), ("ConstantPad1d(2, 0.5)", (2, 3)), ("ReflectionPad2d(1)", (1, 2, 3, 3)),
    ("ReplicationPad3d(1)", (1, 1, 2, 2, 2)), ("CircularPad1d((1, 2))", (1, 2, 3)),
    ("Upsample(scale_factor=2, mode='bilinear')", (1, 2, 2, 3)), ("UpsamplingNearest2d((3, 5))", (1, 2, 2, 3)),
    ("UpsamplingBilinear2d(scale_factor=1.5)", (1, 1, 2, 2)), ("PixelShuffle(2)", (1, 8, 2, 2)),
    ("PixelUnshuffle(2)", (1, 2, 4, 4)), ("ChannelShuffle(2)", (1, 4, 2)),
    ("LazyConv2d(4, 3, padding=1)", (2, 3, 4, 4)), ("LazyConvTranspose1d(2, 3, bias=False)", (3, 4)),
    ("Bilinear(3, 2, 4)", None), ("MultiheadAttention(4, 2)", (3, 2, 4)),
    ("MultiheadAttention(4, 2, kdim=3, vdim=5, add_bias_kv=True)", None),
    ("TransformerEncoderLayer(4, 2, 8, dropout=0.0)", (3, 2, 4)),
    ("TransformerEncoder(T.nn.TransformerEncoderLayer(4, 2, 6, 0.0, batch_first=True), 2)", (2, 3, 4)),
    ("TransformerDecoderLayer(4, 2, 8, 0.0, norm_first=True)", None), ("Transformer(4, 2, 1, 1, 8, 0.0)", None),
]


def _run(T, layer, shape):
    T.manual_seed(0)
    module = eval(f"T.nn.{layer}", {"T": T})  # noqa: S307 - the test's own expressions
    if hasattr(module, "double"):
        module = module.double()
    rng = np.random.default_rng(1)

    def leaf(*s):
        return T.tensor(rng.uniform(-2, 2, s).tolist(), dtype=T.float64, requires_grad=True)

    if layer.startswith("MultiheadAttention(4, 2, kdim"):
        inputs = [leaf(3, 2, 4), leaf(2, 2, 3), leaf(2, 2, 5)]
        out = module(*inputs)[0]
    elif layer.startswith("Bilinear"):
        inputs = [leaf(5, 3), leaf(5, 2)]
        out = module(*inputs)
    elif layer.startswith(("TransformerDecoderLayer", "Transformer(")):
        inputs = [leaf(3, 2, 4), leaf(2, 2, 4)]
        out = module(*inputs)
    elif layer.startswith("MultiheadAttention"):
        inputs = [leaf(*shape)]
        out, weights = module(inputs[0], inputs[0], inputs[0])
        out = out + weights.sum()
    else:
        inputs = [leaf(*shape)]
        x = inputs[0] * 1 if "inplace=True" in layer else inputs[0]
        out = module(x)
    if layer.startswith("Lazy"):  # after its first call it is the convolution it stood for
        assert type(module).__name__ == layer[len("Lazy"):layer.index("(")]
    weights = T.tensor(rng.uniform(0.5, 1.5, tuple(out.shape)).tolist(), dtype=T.float64)
    (out * weights).sum().backward()
    return {"repr": repr(module), "state": {k: to_numpy(v) for k, v in module.state_dict().items()},
            "out": to_numpy(out), "grad_fn": type(out.grad_fn).__name__,
            "grads": [to_numpy(x.grad) for x in inputs] + [to_numpy(p.grad) for p in module.parameters()]}


@pytest.mark.parametrize("layer, shape", LAYERS, ids=[layer for layer, _ in LAYERS])
def test_layer_as_torch(layer, shape):
    want, got = _run(torch, layer, shape), _run(load_engine(), layer, shape)
    assert got["repr"] == want["repr"]
    assert list(got["state"]) == list(want["state"])
    for key in want["state"]:
        np.testing.assert_allclose(got["state"][key], want["state"][key], rtol=1e-12, err_msg=key)
    assert got["grad_fn"] == want["grad_fn"]
    np.testing.assert_allclose(got["out"], want["out"], rtol=1e-10, atol=1e-12)
    assert len(got["grads"]) == len(want["grads"])
    for i, (g, w) in enumerate(zip(got["grads"], want["grads"])):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-11, err_msg=f"grad {i}")
