"""engine.printing must reproduce PyTorch's tensor repr byte for byte.

Most tests compare with real torch (the oracle in .venv-torch) and are skipped where torch is missing; the
golden-string tests at the top run everywhere (any Python / numpy the engine supports).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from engine.printing import (
    PRINT_OPTS,
    format_dtype,
    format_size,
    format_tensor,
    get_printoptions,
    printoptions,
)

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # the engine's own environments have no torch
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="needs the torch oracle (.venv-torch)")

nan, inf = math.nan, math.inf
f32, f64, i64 = np.float32, np.float64, np.int64

# ---------------------------------------------------------------------------------------------------------
# golden strings (no torch needed); each was printed by torch 2.13 and is re-checked against it below
# ---------------------------------------------------------------------------------------------------------

GOLDEN = [
    (f32(3.0), "float32", (), "tensor(3.)"),
    (f32(0.1), "float32", (), "tensor(0.1000)"),
    (f64(-2.5), "float64", (), "tensor(-2.5000, dtype=torch.float64)"),
    (i64(7), "int64", (), "tensor(7)"),
    (np.bool_(True), "bool", (), "tensor(True)"),
    (f32([1, 2, 3]), "float32", (), "tensor([1., 2., 3.])"),
    (f32([1.5, -2, 30]), "float32", (), "tensor([ 1.5000, -2.0000, 30.0000])"),
    (f32([1e-5, 1]), "float32", (), "tensor([1.0000e-05, 1.0000e+00])"),
    (f32([nan, inf, -inf, 1]), "float32", (), "tensor([nan, inf, -inf, 1.])"),
    (f32([-0.0, 0.0]), "float32", (), "tensor([-0., 0.])"),
    (np.array([True, False]), "bool", (), "tensor([ True, False])"),
    (i64([[1, -20], [300, 4]]), "int64", (), "tensor([[  1, -20],\n        [300,   4]])"),
    (np.zeros((0,), f32), "float32", (), "tensor([])"),
    (np.zeros((0, 3), f32), "float32", (), "tensor([], size=(0, 3))"),
    (np.zeros((0,), i64), "int64", (), "tensor([], dtype=torch.int64)"),
    (np.zeros((2, 0), bool), "bool", (), "tensor([], size=(2, 0), dtype=torch.bool)"),
    (f32([2.0, 3.0]), "float32", ("requires_grad=True",), "tensor([2., 3.], requires_grad=True)"),
    (f32(6.0), "float32", ("grad_fn=<MulBackward0>",), "tensor(6., grad_fn=<MulBackward0>)"),
    (
        f64(0.6931),
        "float64",
        ("grad_fn=<BinaryCrossEntropyWithLogitsBackward0>",),
        "tensor(0.6931, dtype=torch.float64,\n       grad_fn=<BinaryCrossEntropyWithLogitsBackward0>)",
    ),
    (
        np.arange(1001, dtype=i64),
        "int64",
        (),
        "tensor([   0,    1,    2,  ...,  998,  999, 1000])",
    ),
]


@pytest.mark.parametrize("data, dtype, suffixes, expected", GOLDEN, ids=[g[3][:40] for g in GOLDEN])
def test_golden(data, dtype, suffixes, expected):
    assert format_tensor(np.asarray(data), dtype, list(suffixes)) == expected


def test_golden_parameter():
    text = format_tensor(f32([1, 2]), "float32", ["requires_grad=True"], parameter=True)
    assert text == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"


def test_format_size_and_dtype_golden():
    assert format_size((2, 3)) == "torch.Size([2, 3])"
    assert format_size(()) == "torch.Size([])"
    assert format_size([0]) == "torch.Size([0])"
    assert format_dtype("float64") == "torch.float64"


def test_dtype_argument_casts_and_accepts_torch_prefix():
    assert format_tensor(np.array([1.0, 2.5]), "float32") == "tensor([1.0000, 2.5000])"
    assert format_tensor(np.array([1.0]), "torch.float64") == "tensor([1.], dtype=torch.float64)"


# ---------------------------------------------------------------------------------------------------------
# comparison with torch
# ---------------------------------------------------------------------------------------------------------


def _dtype_name(t) -> str:
    return str(t.dtype).removeprefix("torch.")


def _check(arr: np.ndarray) -> None:
    """Plain repr, and for floating dtypes: requires_grad, Parameter and a few grad_fn suffixes."""
    t = torch.tensor(arr)
    name = _dtype_name(t)
    assert format_tensor(arr, name) == repr(t)
    assert format_tensor(arr, name) == str(t)
    if t.dtype.is_floating_point:
        leaf = t.clone().requires_grad_(True)
        assert format_tensor(arr, name, ["requires_grad=True"]) == repr(leaf)
        param = torch.nn.Parameter(t.clone())
        assert format_tensor(arr, name, ["requires_grad=True"], parameter=True) == repr(param)
        for op in (_OPS[0], _OPS[-1]):
            _check_op(leaf, op)


_OPS = [
    lambda x: x * 2,
    lambda x: x + 1,
    lambda x: -x,
    lambda x: x.exp(),
    lambda x: x.tanh(),
    lambda x: x.abs(),
    lambda x: x.clone(),
    lambda x: x.sum(),
    lambda x: x.mean(),
    lambda x: F.softplus(x),
    lambda x: x.unsqueeze(0),
    lambda x: F.binary_cross_entropy_with_logits(x, torch.zeros_like(x), reduction="none"),
]


def _check_op(leaf, op) -> None:
    y = op(leaf)
    suffix = f"grad_fn=<{type(y.grad_fn).__name__}>"
    assert format_tensor(y.detach().numpy(), _dtype_name(y), [suffix]) == repr(y)


@needs_torch
@pytest.mark.parametrize("data, dtype, suffixes, expected", GOLDEN, ids=[g[3][:40] for g in GOLDEN])
def test_golden_strings_are_torchs(data, dtype, suffixes, expected):
    t = torch.tensor(np.asarray(data))
    if suffixes == ("requires_grad=True",):
        t.requires_grad_(True)
    elif suffixes == ("grad_fn=<MulBackward0>",):
        t = torch.tensor(3.0, requires_grad=True) * 2
    elif suffixes:
        x = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
        t = F.binary_cross_entropy_with_logits(x, torch.zeros_like(x))
    assert repr(t) == expected


@needs_torch
def test_golden_parameter_is_torchs():
    assert repr(torch.nn.Parameter(torch.tensor([1.0, 2.0]))) == (
        "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    )
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False)
    assert format_tensor(f32([1, 2]), "float32", parameter=True) == repr(p)


@needs_torch
def test_format_size_matches_torch():
    for shape in [(), (0,), (3,), (2, 3), (1, 0, 5), (4, 5, 6, 7)]:
        assert format_size(shape) == str(torch.Size(shape)) == repr(torch.Size(shape))
    for d in ["float32", "float64", "int64", "bool"]:
        assert format_dtype(d) == str(getattr(torch, d))


def _edge_cases() -> list[np.ndarray]:
    r = np.random.default_rng(0)
    c: list[np.ndarray] = []
    # 0-d of every style
    for v in [0.0, -0.0, 1.0, -1.0, 0.5, 1e-4, 9.9999e-5, 1e-5, 123456.0, 1e8, 1e9, 1.5e8, 99999999.0,
              3.14159265, -2.71828, 1e-10, 1e12, 1e38, 1e-38, 1e-45, nan, -nan, inf, -inf, 0.00005, 0.00015]:
        c += [f32(v), f64(v)]
    c += [f64(1e300), f64(5e-324), f64(1.7976931348623157e308), f64([5e-324, 1e308])]
    for v in [0, 1, -1, 2**62, -(2**63), 123456789]:
        c.append(i64(v))
    c += [np.bool_(True), np.bool_(False)]
    # style boundaries: ratio 1000, max 1e8, min 1e-4, int mode
    for vals in [
        [1, 1000], [1, 1001], [1, 1000.5], [0.1, 100], [0.1, 100.1], [0.001, 1], [1e-4, 0.1], [1e-4, 1e-4],
        [1e8, 1], [1e8, 1e8], [1.00001e8, 1e8], [99999999, 1], [1e8 + 8, 1e8], [0.0001, 0.0002],
        [1.5, 2.5, 3.5], [0.00005, 1], [0.12345, 0.99995], [0.99995, 9.99995], [-0.00005, 0.5],
        [1, 2, 3], [-1, -2, -3], [0, 0, 0], [-0.0, -0.0], [0, -0.0, 1], [-0.0, 0.5], [-0.0, 1e-5],
        [nan], [inf], [-inf], [nan, nan], [nan, 0], [inf, -inf, nan], [nan, 1.5], [inf, 1e-5], [nan, 1e9],
        [-inf, 12345678], [nan, -0.0, 3], [0.5, nan, inf], [1e-10, 1e12], [1e-10, -1e12, 0], [1e12, 1e12],
        [3e38, -3e38], [1e-45, 1], [2.5e-45], [123.456, -7.0, 0.001], [1234.5678, 0.5], [1e4, 0.5],
        [10.0, 100.0, 1000.0, 10000.0], [-1e5, 1e-1], [0.1, 0.2, 0.3], [1 / 3, 2 / 3],
    ]:
        c += [np.array(vals, dtype=f32), np.array(vals, dtype=f64)]
    # ints and bools
    c += [
        i64([0]), i64([-5, 3]), i64([10**12, -1]), i64([2**63 - 1, -(2**63)]), i64([[1, 22], [333, -4444]]),
        np.array([True]), np.array([False, False]), np.array([[True, False], [False, True]]),
        np.arange(1001, dtype=i64), np.arange(1000, dtype=i64),
        np.arange(-500, 501, dtype=i64).reshape(7, 143),
        (np.arange(2000) % 2 == 0).reshape(40, 50), r.integers(-(10**9), 10**9, size=(4, 5, 6)),
    ]
    # empties
    for shape in [(0,), (0, 3), (3, 0), (0, 0), (2, 0, 3), (1, 1, 0)]:
        for dt in (f32, f64, i64, np.bool_):
            c.append(np.zeros(shape, dtype=dt))
    # shapes / nesting / wrapping
    c += [
        np.zeros((1,), f32), np.ones((1, 1), f32), np.ones((1, 1, 1), f64), np.zeros((2, 3, 4), f32),
        np.arange(24, dtype=f32).reshape(2, 3, 4), np.arange(24, dtype=f32).reshape(2, 3, 4) / 10,
        np.arange(100, dtype=f32), np.arange(100, dtype=f32) / 3, np.arange(100, dtype=f64) * 1e6,
        np.arange(80, dtype=i64) * 12345, r.standard_normal(50).astype(f32),
        r.standard_normal((5, 40)).astype(f32),
        r.standard_normal((3, 4, 25)).astype(f64), (r.standard_normal(30) * 1e-6).astype(f32),
        (r.standard_normal((6, 20)) * 1e9).astype(f32), np.full(40, -0.0, f32), np.full((3, 30), nan, f32),
        np.full(25, inf, f64), np.linspace(-1, 1, 27, dtype=f32),
        np.arange(1, 4, dtype=f32) * np.float32(1e-3), np.array([1e-3, 1.0], f32),
    ]
    # summarisation (> 1000 elements) in every position
    c += [
        np.arange(1001, dtype=f32), np.arange(1001, dtype=f32) / 7, r.standard_normal(5000).astype(f32),
        r.standard_normal((2, 600)).astype(f32), r.standard_normal((600, 2)).astype(f64),
        r.standard_normal((40, 40)).astype(f32), r.standard_normal((11, 10, 11)).astype(f32),
        r.standard_normal((7, 7, 7, 7)).astype(f32), np.arange(1008, dtype=f32).reshape(2, 4, 126),
        np.arange(6006, dtype=f32).reshape(6, 7, 143), r.standard_normal((1, 1, 1001)).astype(f32),
    ]
    # summarised data decides the style: the hidden middle holds big / tiny / fractional values
    a = np.ones(2000, f32)
    a[1000] = 1e9
    b = np.ones(2000, f32)
    b[1000] = 0.5
    d = np.ones((50, 50), f32)
    d[25, 25] = 1e-9
    d[0, 25] = 1e-9
    c += [a, b, d]
    big = np.zeros((10, 200), f32)
    big[5] = 0.25
    c.append(big)
    return c


EDGE_CASES = _edge_cases()


@needs_torch
@pytest.mark.parametrize("arr", EDGE_CASES, ids=[f"{a.dtype}{a.shape}#{i}" for i, a in enumerate(EDGE_CASES)])
def test_edge_case(arr):
    _check(arr)


@needs_torch
@pytest.mark.parametrize("op", range(len(_OPS)))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_grad_fn_suffixes(op, dtype):
    for arr in [np.array(1.5), np.array([1.0, -2.0]), np.linspace(-3, 3, 14), np.arange(26) / 3,
                np.arange(12).reshape(3, 4) * 1000.5, np.arange(1200).reshape(2, 600) / 7]:
        leaf = torch.tensor(arr.astype(dtype), requires_grad=True)
        _check_op(leaf, _OPS[op])


@needs_torch
@pytest.mark.parametrize(
    "opts",
    [
        dict(precision=2), dict(precision=0), dict(precision=8), dict(linewidth=40), dict(linewidth=1),
        dict(threshold=5), dict(threshold=5, edgeitems=1), dict(threshold=5, edgeitems=0), dict(edgeitems=0),
        dict(sci_mode=True), dict(sci_mode=False), dict(profile="short"), dict(profile="full"),
    ],
    ids=str,
)
def test_printoptions(opts):
    r = np.random.default_rng(1)
    arrays = [f32(1.5), f32([1e-9, 1]), f32([0, 0]), f32([1, 2, 3]), np.arange(20, dtype=i64),
              r.standard_normal((4, 9)).astype(f32), (r.standard_normal((3, 4, 5)) * 1e5).astype(f64),
              np.arange(2000, dtype=f32), np.zeros((0, 2), f32)]
    before = get_printoptions()
    with torch._tensor_str.printoptions(**opts), printoptions(**opts):
        assert get_printoptions() == torch._tensor_str.get_printoptions()
        for arr in arrays:
            t = torch.tensor(arr)
            assert format_tensor(arr, _dtype_name(t)) == repr(t)
            leaf = t.clone().requires_grad_(True) if t.dtype.is_floating_point else t
            suffixes = ["requires_grad=True"] if leaf.requires_grad else []
            assert format_tensor(arr, _dtype_name(t), suffixes) == repr(leaf)
    assert get_printoptions() == before == {
        "precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None
    }
    assert PRINT_OPTS.precision == 4


# ---------------------------------------------------------------------------------------------------------
# hypothesis
# ---------------------------------------------------------------------------------------------------------

_small_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=9)
_big_shapes = st.one_of(
    st.tuples(st.integers(1001, 2500)),
    st.tuples(st.integers(1, 12), st.integers(84, 400)),
    st.tuples(st.integers(84, 400), st.integers(1, 12)),
    st.tuples(st.integers(1, 14), st.integers(1, 14), st.integers(6, 30)),
)
_shapes = st.one_of(_small_shapes, _small_shapes, _big_shapes, hnp.array_shapes(min_dims=1, max_dims=1,
                                                                               min_side=10, max_side=120))


@st.composite
def _structured_arrays(draw) -> np.ndarray:
    """Arrays whose values span chosen magnitudes, with chosen shares of integers, zeros and specials."""
    shape = draw(_shapes)
    kind = draw(st.sampled_from(["float32", "float32", "float64", "int64", "bool"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = math.prod(shape)
    if kind == "bool":
        return rng.random(n).reshape(shape) < draw(st.floats(0, 1))
    lo = draw(st.integers(-10, 12))
    hi = draw(st.integers(lo, 12))
    if kind == "int64":
        mag = 10 ** rng.integers(0, max(hi, 0) + 1, size=n).astype(float)
        vals = np.floor(rng.random(n) * mag).astype(i64)
        if draw(st.booleans()):
            vals *= rng.choice([-1, 1], size=n)
        return vals.reshape(shape)
    vals = 10.0 ** rng.uniform(lo, hi + 1, size=n)
    if draw(st.booleans()):
        vals *= rng.choice([-1.0, 1.0], size=n)
    share_int = draw(st.sampled_from([0.0, 0.5, 1.0]))
    vals = np.where(rng.random(n) < share_int, np.round(vals), vals)
    share_zero = draw(st.sampled_from([0.0, 0.0, 0.1, 0.9, 1.0]))
    vals = np.where(rng.random(n) < share_zero, rng.choice([0.0, -0.0], size=n), vals)
    share_special = draw(st.sampled_from([0.0, 0.0, 0.05, 0.5]))
    vals = np.where(rng.random(n) < share_special, rng.choice([nan, inf, -inf], size=n), vals)
    if draw(st.booleans()) and n:
        # a stray value somewhere (possibly in the hidden middle of a summarised tensor)
        vals[rng.integers(n)] = draw(st.sampled_from([1e-12, 1e-5, 0.5, 1e9, 1e15, 12345.678, -3.0]))
    with np.errstate(over="ignore"):
        return vals.astype(kind).reshape(shape)


_SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@needs_torch
@settings(max_examples=250, **_SETTINGS)
@given(_structured_arrays())
def test_hypothesis_structured(arr):
    _check(arr)


_nice_floats = st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 1e-4, 1e-5, 1000.0, 1e8, 1e9, 0.1, 3.0, 0.00005,
                                0.99995, 9.99995, 1e-10, 1e12, nan, inf, -inf])


@needs_torch
@settings(max_examples=200, **_SETTINGS)
@given(st.data())
def test_hypothesis_elementwise(data):
    """Small arrays with any float (subnormals, huge, rounding ties), int or bool, element by element."""
    kind = data.draw(st.sampled_from(["float32", "float64", "int64", "bool"]))
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6))
    if kind == "int64":
        elements = st.integers(-(2**63), 2**63 - 1) | st.integers(-1000, 1000)
    elif kind == "bool":
        elements = st.booleans()
    else:
        width = 32 if kind == "float32" else 64
        elements = st.floats(width=width) | _nice_floats
    arr = data.draw(hnp.arrays(kind, shape, elements=elements))
    _check(arr)


@needs_torch
@settings(max_examples=100, **_SETTINGS)
@given(_structured_arrays(), st.integers(0, len(_OPS) - 1))
def test_hypothesis_grad_fn(arr, op):
    assume(arr.dtype.kind == "f")
    leaf = torch.tensor(arr, requires_grad=True)
    _check_op(leaf, _OPS[op])
