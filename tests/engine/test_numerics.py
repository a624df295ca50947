"""float32 results are bit-for-bit torch's for learner-sized tensors, as far as numpy allows.

Learners print `loss.item()` (17 significant digits), so one ulp shows. For tensors with fewer than 8
elements torch's CPU kernels take their scalar path; there, computing a float32 op in float64 and rounding
once reproduces torch for all but a few values (docs/torch-facts.md (g) has the measured rates), while
numpy's own float32 kernels differ in 15-40% of values for exp/log/tanh/pow. Each op below must mismatch
torch on at most `limit` of 3000 values (processed 3 at a time, like a learner's tensors).
"""

from __future__ import annotations

import numpy as np
import pytest
from difftest import load_engine, to_numpy, torch, with_known_gaps

RNG = np.random.default_rng(1234)
X = (RNG.standard_normal(3000) * 2.5).astype(np.float32)
XP = (np.abs(X) + np.float32(1e-2)).astype(np.float32)
Y = (RNG.standard_normal(3000)).astype(np.float32)
# probabilities for binary_cross_entropy: input in [1e-3, 1 - 1e-3], target in (0, 1)
X01 = np.clip(1 / (1 + np.exp(-X.astype(np.float64))), 1e-3, 1 - 1e-3).astype(np.float32)
Y01 = (1 / (1 + np.exp(-Y.astype(np.float64)))).astype(np.float32)

# op -> (function of (T, a, b), inputs, max mismatch fraction). Limits: about twice the rate of the
# "compute in float64, round once" strategy, at least 1%.
OPS = {
    "exp": (lambda T, a, b: a.exp(), (X, Y), 0.02),
    "log": (lambda T, a, b: a.log(), (XP, Y), 0.01),
    "sin": (lambda T, a, b: a.sin(), (X, Y), 0.10),
    "cos": (lambda T, a, b: a.cos(), (X, Y), 0.10),
    "tanh": (lambda T, a, b: a.tanh(), (X, Y), 0.02),
    "sigmoid": (lambda T, a, b: a.sigmoid(), (X, Y), 0.01),
    "sqrt": (lambda T, a, b: a.sqrt(), (XP, Y), 0.01),
    "pow_scalar": (lambda T, a, b: a ** 2.5, (XP, Y), 0.01),
    "pow_2": (lambda T, a, b: a ** 2, (X, Y), 0.01),
    "rpow": (lambda T, a, b: 2 ** a, (X, Y), 0.01),
    "pow_tensor": (lambda T, a, b: a ** b, (XP, Y), 0.02),
    "div": (lambda T, a, b: a / b, (X, XP), 0.0),
    "mul_add": (lambda T, a, b: a * b + a, (X, Y), 0.0),
    # torch: exp(x - max) (SLEEF vector exp even for 3 elements) times 1/sum: ~7% unavoidable
    "softmax": (lambda T, a, b: T.softmax(a, dim=0), (X, Y), 0.08),
    # torch: (x - max) - log(sum(exp(x - max))): 1.6% with exp/log in float64
    "log_softmax": (lambda T, a, b: T.nn.functional.log_softmax(a, dim=0), (X, Y), 0.03),
    "mse_loss": (lambda T, a, b: T.nn.functional.mse_loss(a, b).reshape(1), (X, Y), 0.01),
    "mean": (lambda T, a, b: a.mean().reshape(1), (X, Y), 0.01),
    "tan": (lambda T, a, b: a.tan(), (X, Y), 0.01),
    "atan": (lambda T, a, b: a.atan(), (X, Y), 0.01),
    "log1p": (lambda T, a, b: a.log1p(), (XP, Y), 0.02),
    "expm1": (lambda T, a, b: a.expm1(), (X, Y), 0.01),
    "log2": (lambda T, a, b: a.log2(), (XP, Y), 0.01),
    "log10": (lambda T, a, b: a.log10(), (XP, Y), 0.01),
    "leaky_relu": (lambda T, a, b: T.nn.functional.leaky_relu(a, 0.2), (X, Y), 0.0),
    "logsumexp": (lambda T, a, b: a.logsumexp(0).reshape(1), (X, Y), 0.01),
    "l1_loss": (lambda T, a, b: T.nn.functional.l1_loss(a, b).reshape(1), (X, Y), 0.01),
    "outer": (lambda T, a, b: T.outer(a, b).reshape(-1), (X, Y), 0.0),
    # the limits below are twice the rate of the best numpy strategy found (named in GAPS)
    "sinh": (lambda T, a, b: a.sinh(), (X, Y), 0.17),
    "cosh": (lambda T, a, b: a.cosh(), (X, Y), 0.01),
    "rsqrt": (lambda T, a, b: a.rsqrt(), (XP, Y), 0.01),
    "softplus": (lambda T, a, b: T.nn.functional.softplus(a), (X, Y), 0.10),
    "var": (lambda T, a, b: a.var().reshape(1), (X, Y), 0.01),
    "std": (lambda T, a, b: a.std().reshape(1), (X, Y), 0.01),
    "norm": (lambda T, a, b: a.norm().reshape(1), (X, Y), 0.01),
    "cumsum": (lambda T, a, b: a.cumsum(0), (X, Y), 0.01),
    "bce": (lambda T, a, b: T.nn.functional.binary_cross_entropy(a, b, reduction="none"), (X01, Y01), 0.07),
}

# Known disagreements of the engine with torch (strict xfails: drop an entry once the engine is fixed), with
# the mismatch rate measured and a numpy strategy that reproduces torch's bits better.
GAPS = {
    "sinh": "26.5%: glibc sinhf's formula (h·(2t − t²/(t+1)) for |x| < 1, h·(t + t/(t+1)) else, t = expm1(|x|) "
            "rounded to float32, float32 arithmetic) gives 8.4%",
    "cosh": "19.6%: glibc coshf's formula (|x| < ln2/2: 1 + t²/(2(1+t)), t = expm1; else 0.5·e + 0.5/e, e = exp(|x|) "
            "rounded to float32, float32 arithmetic) gives 0%",
    "rsqrt": "27.9%: torch computes 1 / sqrt(x) in float32 (two roundings): 0%",
    "norm": "16.2%: float32 sum of squares with fused multiply-add, acc = fma(x, x, acc), then float32 sqrt: 0%",
    "bce": "10%: (t − 1)·max(log1p(−x), −100) − t·max(log(x), −100) in float32, logs in float64 rounded: 3.2%",
}


def _run(lib, fn, a, b):
    outs = []
    for i in range(0, len(a), 3):
        ta = lib.tensor(a[i:i + 3].tolist())
        tb = lib.tensor(b[i:i + 3].tolist())
        outs.append(to_numpy(fn(lib, ta, tb)).reshape(-1))
    return np.concatenate(outs)


@pytest.mark.parametrize("name", with_known_gaps(sorted(OPS), GAPS))
def test_float32_bits_match_torch(name):
    T = load_engine()
    fn, (a, b), limit = OPS[name]
    want = _run(torch, fn, a, b)
    got = _run(T, fn, a, b)
    assert got.dtype == want.dtype == np.float32
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    bad = np.nonzero(~same)[0]
    rate = len(bad) / len(same)
    src = (lambda i: float(a[i])) if len(want) == len(a) else (lambda i: a[3 * i:3 * i + 3].tolist())
    examples = [(src(i), float(got[i]), float(want[i])) for i in bad[:3]]
    assert rate <= limit, f"{name}: {rate:.2%} of values differ from torch (limit {limit:.0%}); " \
                          f"(input, engine, torch) e.g. {examples}"
