"""How often the engine's float32 bits equal torch's on this machine, op by op (run with the oracle env:
.venv-torch/bin/python benchmarks/numerics.py).

torch's float32 results depend on the CPU (its vectorised kernels and libm differ between AVX-512 and AVX2
machines), so these rates are a report, not a test: tests/engine/test_numerics.py gates on what holds on
every CPU (within an ulp per rounding step). Each line: the share of 3000 values (3 per tensor) whose bits
differ, and the largest difference in ulps.
"""
import os
import platform
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), os.path.join(HERE, "..", "tests", "engine")]

import torch  # noqa: E402
from test_numerics import OPS, run_op, ulp_errors  # noqa: E402

import engine  # noqa: E402

# Why an op still differs (engine/kernels/__init__.py says which torch kernels the engine replays exactly).
NOTES = {name: "MKL VML, closed and chosen by CPU: the engine gives the correctly rounded value"
         for name in ("atan", "cos", "exp", "log", "log10", "log2", "sin", "sqrt", "tan", "tanh")}
NOTES.update({
    "norm": "an 8-lane fma model of torch's norm kernel matched 88%; the engine sums squares in float64",
    "bce": "(t − 1)·max(log1p(−x), −100) − t·max(log(x), −100) in float32 gave 3.2% on an Intel machine",
    "logsumexp": "built on VML's exp and log",
    "softplus": "built on VML's exp and log1p",
    "pow_tensor": "VML's pow", "rpow": "VML's pow",
})


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main():
    torch.set_num_threads(1)
    print(f"CPU: {cpu_model()}; torch {torch.__version__}, CPU capability {torch.backends.cpu.get_cpu_capability()}")
    print(f"{'op':<12} {'bits differ':>11} {'max ulps':>9}")
    for name in sorted(OPS):
        fn, (a, b), _, scale = OPS[name]
        want = run_op(torch, fn, a, b)
        got = run_op(engine, fn, a, b)
        err = ulp_errors(got, want, None if scale is None else scale(a, b))
        differ = np.mean((got != want) & ~(np.isnan(got) & np.isnan(want)))
        note = f"   ({NOTES[name]})" if name in NOTES else ""
        print(f"{name:<12} {differ:>11.2%} {err.max():>9.1f}{note}")


if __name__ == "__main__":
    main()
