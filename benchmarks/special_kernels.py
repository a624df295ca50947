"""How often the engine's element-wise special functions and backward kernels give torch's bits, on this CPU.

    .venv-torch/bin/python benchmarks/special_kernels.py

For each function: the share of values bit-equal to torch's in float32 and float64, and the worst relative
difference, on random inputs over the function's domain (plus its edge values). torch's float32 results depend on
the CPU (its C library, FMA contraction in the compiled kernels), so these rates are output, not tests; the tests
(tests/engine/test_special_ops.py) hold float64 to 1e-10.
"""
from __future__ import annotations

import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.getcwd())
import engine  # noqa: E402

RNG = np.random.default_rng(0)
N = 20000
WIDE = np.concatenate([RNG.uniform(-30, 30, N // 2), RNG.uniform(-3, 3, N // 2)])
UNIT = RNG.uniform(0, 1, N)
POS = RNG.uniform(0.01, 20, N)

UNARY = [
    ("digamma", WIDE), ("lgamma", WIDE), ("polygamma(1, x)", WIDE), ("polygamma(3, x)", POS), ("erfc", WIDE),
    ("erfinv", 2 * UNIT - 1), ("i0", WIDE), ("special.i0e", WIDE), ("special.i1", WIDE), ("special.i1e", WIDE),
    ("special.ndtri", UNIT), ("special.erfcx", WIDE), ("special.log_ndtr", WIDE), ("special.entr", POS),
    ("sinc", WIDE), ("logit", UNIT), ("special.bessel_j0", WIDE), ("special.bessel_j1", WIDE),
    ("special.bessel_y0", POS), ("special.bessel_y1", POS), ("special.modified_bessel_i0", WIDE),
    ("special.modified_bessel_k0", POS), ("special.scaled_modified_bessel_k1", POS), ("special.airy_ai", WIDE),
    ("special.spherical_bessel_j0", WIDE), ("special.chebyshev_polynomial_t(x, 9)", 2 * UNIT - 1),
    ("special.hermite_polynomial_h(x, 6)", WIDE / 10), ("special.legendre_polynomial_p(x, 7)", 2 * UNIT - 1),
]


def call(T, text, x):
    name, _, rest = text.partition("(")
    fn = T
    for part in name.split("."):
        fn = getattr(fn, part)
    if not rest:
        return fn(x)
    args = [x if a.strip() == "x" else int(a) for a in rest.rstrip(")").split(",")]
    return fn(*args)


def rates(text, x, dtype):
    want = call(torch, text, torch.tensor(x, dtype=getattr(torch, dtype))).numpy()
    got = call(engine, text, engine.tensor(x.tolist(), dtype=getattr(engine, dtype))).numpy()
    same = (want == got) | (np.isnan(want) & np.isnan(got))
    finite = np.isfinite(want) & np.isfinite(got) & (want != 0)
    worst = np.max(np.abs(got[finite] / want[finite] - 1), initial=0.0)
    return same.mean(), worst


def backward_rates(name, dtype):
    dt = getattr(np, dtype)
    y = getattr(torch, name)(torch.tensor(RNG.normal(0, 3, N), dtype=getattr(torch, dtype)))
    g = torch.tensor(RNG.uniform(-2, 2, N), dtype=getattr(torch, dtype))
    want = getattr(torch.ops.aten, name + "_backward")(g, y).numpy()
    got = engine.tensor(g.tolist(), dtype=getattr(engine, dtype))._op(
        name + "_backward", engine.tensor(y.tolist(), dtype=getattr(engine, dtype))).numpy()
    yn, gn = y.numpy(), g.numpy()
    plain = gn * (dt(1) - yn * yn) if name == "tanh" else gn * (yn * (dt(1) - yn))  # the engine's former formulas
    return (want == got).mean(), (want == plain).mean()


def main():
    head = ("function", "float32 bit-equal", "worst rel", "float64 bit-equal", "worst rel")
    print(f"{head[0]:40s} {head[1]:>18s} {head[2]:>10s} {head[3]:>18s} {head[4]:>10s}")
    for text, x in UNARY:
        r32, w32 = rates(text, x, "float32")
        r64, w64 = rates(text, x, "float64")
        print(f"{text:40s} {r32:18.1%} {w32:10.1e} {r64:18.1%} {w64:10.1e}")
    print()
    print(f"{'backward kernel':40s} {'float32 engine':>18s} {'float32 unfused':>18s} {'float64 engine':>18s}")
    for name in ("tanh", "sigmoid"):
        e32, p32 = backward_rates(name, "float32")
        e64, _ = backward_rates(name, "float64")
        print(f"{name + '_backward':40s} {e32:18.1%} {p32:18.1%} {e64:18.1%}")


if __name__ == "__main__":
    main()
