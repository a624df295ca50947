"""How often the engine's optimizers give this machine's torch bits (run with the oracle env:
.venv-torch/bin/python benchmarks/optim.py).

For each optimizer configuration of tests/engine/test_optim.py: the share of parameter and state elements
bit-equal to torch's after every step (float32, three parameters in two groups, six steps with given grads), and
the same with torch's own sqrt put in the engine: torch's float32 sqrt is MKL VML's, which on some CPUs is not
correctly rounded, and it is the only op of the optimizers whose bits depend on the CPU. Also the time of one
engine step (CPU time of this process, best of several runs).
"""
import os
import platform
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, ".."), os.path.join(HERE, "..", "tests", "engine")]

import torch  # noqa: E402
from test_optim import CONFIGS, trajectory  # noqa: E402

import engine  # noqa: E402
from engine.ops import OPS  # noqa: E402


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


def equal_share(name, kwargs):
    want, got = trajectory(torch, name, kwargs), trajectory(engine, name, kwargs)
    same = total = 0
    for w_row, g_row in zip(want, got):
        for w, g in zip(w_row, g_row):
            same += int(np.sum(np.atleast_1d(w).view(np.uint32) == np.atleast_1d(g).view(np.uint32)))
            total += w.size
    return same / total


def step_time(name, kwargs, n=1000, reps=5):
    p = engine.randn(n, requires_grad=True)
    opt = getattr(engine.optim, name)([p], **kwargs)
    p.grad = engine.randn(n)
    best = float("inf")
    for _ in range(reps):
        t = time.process_time()
        for _ in range(20):
            opt.step()
        best = min(best, (time.process_time() - t) / 20)
    return best


def main():
    torch.set_num_threads(1)
    print(f"optimizers: bit-equal shares of parameters and state over 6 steps, torch {torch.__version__} "
          f"({torch.backends.cpu.get_cpu_capability()}) on {cpu_model()}")
    print(f"{'configuration':70s} {'as is':>7s} {'torch sqrt':>10s} {'step (1000)':>12s}")
    sqrt = OPS["sqrt"].forward
    for name, kwargs in CONFIGS:
        as_is = equal_share(name, kwargs)
        OPS["sqrt"].forward = lambda a: torch.from_numpy(np.array(a)).sqrt().numpy()
        try:
            with_sqrt = equal_share(name, kwargs)
        finally:
            OPS["sqrt"].forward = sqrt
        label = f"{name}({', '.join(f'{k}={v}' for k, v in kwargs.items())})"
        print(f"{label:70s} {as_is:7.1%} {with_sqrt:10.1%} {step_time(name, kwargs) * 1e6:9.0f} µs")


if __name__ == "__main__":
    main()
