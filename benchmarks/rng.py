"""How exactly the engine's random numbers are PyTorch's, and how fast it draws them:

    .venv-torch/bin/python benchmarks/rng.py

For each distribution (float32 and float64, sizes below and above normal_'s 16-element switch, contiguous and
transposed), over several seeds: the share of values bit-identical to torch's, the largest difference in ulps,
and whether the generator's state bytes agree afterwards; then the engine's time per call against torch's.
The engine follows the kernel build torch reports for this CPU (torch.backends.cpu.get_cpu_capability()).
"""
from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

import numpy as np  # noqa: E402
import torch  # noqa: E402
from test_random import ulps, values  # noqa: E402

import engine  # noqa: E402
from engine.generator import draws  # noqa: E402

CASES = {
    "rand": "T.rand({n}, dtype={d})",
    "uniform_(-2.5, 3.25)": "T.empty({n}, dtype={d}).uniform_(-2.5, 3.25)",
    "randn": "T.randn({n}, dtype={d})",
    "normal_(1.5, 0.25)": "T.empty({n}, dtype={d}).normal_(1.5, 0.25)",
    "normal_ (transposed)": "T.empty({n}, 3, dtype={d}).t().normal_()",
    "exponential_(1.7)": "T.empty({n}, dtype={d}).exponential_(1.7)",
    "bernoulli_(0.3)": "T.empty({n}, dtype={d}).bernoulli_(0.3)",
    "bernoulli(p)": "T.bernoulli(T.linspace(0, 1, {n}, dtype={d}))",
    "random_(0, 1000)": "T.empty({n}, dtype={d}).random_(0, 1000)",
    "randint(-9, 9)": "T.randint(-9, 9, ({n},))",
    "randperm": "T.randperm({n})",
    "multinomial": "T.multinomial(T.rand({n}, dtype={d}) + 0.1, 1)",
    "dropout(0.3)": "T.nn.functional.dropout(T.ones({n}, dtype={d}), 0.3)",
    "nn.init.kaiming_uniform_": "T.nn.init.kaiming_uniform_(T.empty({n}, 4, dtype={d}))",
    "nn.init.xavier_normal_": "T.nn.init.xavier_normal_(T.empty({n}, 4, dtype={d}))",
}
SIZES = (7, 16, 1000)
SEEDS = range(5)


def draw(T, expr, seed):
    T.manual_seed(seed)
    out = values(eval(expr, {"T": T}))  # noqa: S307 - the benchmark's own expressions
    return out, values(T.get_rng_state())


def exactness():
    print(f"{'draw':26} {'dtype':8} {'n':>5} {'bit-exact':>10} {'max ulps':>9}  state")
    for name, template in CASES.items():
        for dtype in ("float32", "float64"):
            for n in SIZES:
                expr = template.format(n=n, d=f"T.{dtype}")
                same = total = worst = 0
                states = True
                for seed in SEEDS:
                    (want, ws), (got, gs) = draw(torch, expr, seed), draw(engine, expr, seed)
                    d = ulps(got, want)
                    same += int((d == 0).sum())
                    total += d.size
                    worst = max(worst, float(d.max(initial=0)))
                    states &= bool(np.array_equal(ws, gs))
                state = "same" if states else "DIFFERS"
                shown = dtype if "{d}" in template else "int64"
                print(f"{name:26} {shown:8} {n:>5} {same / total:>10.4%} {worst:>9.0f}  {state}")
            if "{d}" not in template:
                break


def speed():
    print(f"\n{'draw':26} {'n':>7} {'engine µs':>10} {'torch µs':>9} {'ratio':>6}")
    for name, expr in [("rand", "T.rand({n})"), ("randn", "T.randn({n})"),
                       ("normal_ (Box–Muller)", "T.empty({n}, 3).t().normal_()"),
                       ("randn float64", "T.randn({n}, dtype=T.float64)"), ("randint", "T.randint(0, 9, ({n},))"),
                       ("randperm", "T.randperm({n})"), ("nn.Linear(n, 64)", "T.nn.Linear({n}, 64)")]:
        for n in (100, 10_000):
            times = []
            for T in (engine, torch):
                code = compile(expr.format(n=n), "<bench>", "eval")
                best = float("inf")
                for _ in range(5):
                    t0 = time.perf_counter()
                    for _ in range(10):
                        eval(code, {"T": T})  # noqa: S307
                    best = min(best, (time.perf_counter() - t0) / 10)
                times.append(best * 1e6)
            print(f"{name:26} {n:>7} {times[0]:>10.0f} {times[1]:>9.1f} {times[0] / times[1]:>6.0f}")


if __name__ == "__main__":
    capability = torch.backends.cpu.get_cpu_capability()
    draws.CPU_CAPABILITY = capability if capability in ("AVX2", "AVX512") else "DEFAULT"
    print(f"torch {torch.__version__}, CPU capability {capability}, {platform.processor() or platform.machine()}")
    exactness()
    speed()
