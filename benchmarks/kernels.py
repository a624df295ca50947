"""How often engine.kernels' bits equal this machine's torch, next to what plain numpy gives, and what the
kernels cost against numpy (run with the oracle env: .venv-torch/bin/python benchmarks/kernels.py).

Rates are shares of output elements bit-equal to torch (one thread) over random inputs, per input size;
they depend on the CPU (MKL's kernels, AVX-512), so they are reported here, not tested. Speed: the
kernel's time over numpy's for the same result, best of several runs (CPU time of this process).
"""
import os
import platform
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..")]

import torch  # noqa: E402

from engine import kernels as K  # noqa: E402

F = np.float32
FN = torch.nn.functional
RNG = np.random.default_rng(2024)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def T(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def normal(n):
    return (RNG.standard_normal(n) * 2.5).astype(F)


def positive(n):
    return (np.abs(RNG.standard_normal(n)) * 2.5 + F(0.01)).astype(F)


def pair(n):
    return normal(n), normal(n)


def triple(n):
    return normal(n), normal(n), positive(n)


def rows(n):
    return (RNG.standard_normal((max(1, n // 10), 10)) * 2).astype(F)


def logits(n):
    x = rows(n)
    return x, RNG.integers(0, x.shape[1], x.shape[0])


def span(n):
    s, e = (RNG.standard_normal(2) * 10 ** RNG.uniform(-1, 2)).tolist()
    return s, e, n


def layer(n):   # a batch of n // 8 rows through Linear(8 -> 16)
    b = max(1, n // 8)
    return normal(b * 8).reshape(b, 8), normal(16 * 8).reshape(16, 8), normal(16)


def unary(name, kernel_name=None, gen=normal, np_fn=None):
    np_fn = np_fn or getattr(np, name)
    return (name, gen, lambda x: getattr(torch, name)(T(x)).numpy(), getattr(K, kernel_name or name), np_fn)


CASES = [
    ("sum", normal, lambda x: T(x).sum().numpy(), K.sum, np.sum),
    ("sum(dim=1)", rows, lambda x: T(x).sum(1).numpy(), lambda x: K.sum(x, 1), lambda x: np.sum(x, 1)),
    ("sum(dim=0)", rows, lambda x: T(x).sum(0).numpy(), lambda x: K.sum(x, 0), lambda x: np.sum(x, 0)),
    ("mean", normal, lambda x: T(x).mean().numpy(), K.mean, np.mean),
    ("mse_loss", pair, lambda a, b: FN.mse_loss(T(a), T(b)).numpy(), K.mse_loss,
     lambda a, b: np.mean((a - b) ** 2)),
    ("linspace", span, lambda s, e, n: torch.linspace(s, e, n).numpy(), K.linspace,
     lambda s, e, n: np.linspace(s, e, n, dtype=np.float64).astype(F)),
    ("arange", lambda n: (0.0, n * 0.1, 0.1), lambda s, e, d: torch.arange(s, e, d).numpy(), K.arange,
     lambda s, e, d: (s + np.arange(int(np.ceil((e - s) / d))) * d).astype(F)),
    ("add(alpha)", pair, lambda a, b: torch.add(T(a), T(b), alpha=-0.01).numpy(), lambda a, b: K.add(a, b, -0.01),
     lambda a, b: a + F(-0.01) * b),
    ("addcmul", triple, lambda a, b, c: torch.addcmul(T(a), T(b), T(c), value=0.1).numpy(),
     lambda a, b, c: K.addcmul(a, b, c, 0.1), lambda a, b, c: a + F(0.1) * b * c),
    ("addcdiv", triple, lambda a, b, c: torch.addcdiv(T(a), T(b), T(c), value=0.1).numpy(),
     lambda a, b, c: K.addcdiv(a, b, c, 0.1), lambda a, b, c: a + F(0.1) * b / c),
    ("lerp", pair, lambda a, b: torch.lerp(T(a), T(b), 0.1).numpy(), lambda a, b: K.lerp(a, b, 0.1),
     lambda a, b: a + F(0.1) * (b - a)),
    ("sigmoid", normal, lambda x: torch.sigmoid(T(x)).numpy(), K.sigmoid, lambda x: F(1) / (F(1) + np.exp(-x))),
    unary("sinh"), unary("cosh"), unary("expm1"), unary("log1p", gen=positive),
    ("rsqrt", positive, lambda x: torch.rsqrt(T(x)).numpy(), K.rsqrt,
     lambda x: (1 / np.sqrt(x.astype(float))).astype(F)),
    unary("sin"), unary("cos"), unary("tan"), unary("exp"), unary("log", gen=positive),
    unary("sqrt", gen=positive), unary("tanh"), unary("atan", np_fn=np.arctan),
    ("softmax(-1)", rows, lambda x: torch.softmax(T(x), -1).numpy(), lambda x: K.softmax(x, -1),
     lambda x: np.exp(x - x.max(-1, keepdims=True)) / np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True)),
    ("log_softmax(-1)", rows, lambda x: torch.log_softmax(T(x), -1).numpy(), lambda x: K.log_softmax(x, -1),
     lambda x: x - x.max(-1, keepdims=True) - np.log(np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True))),
    ("softmax(0)", rows, lambda x: torch.softmax(T(x), 0).numpy(), lambda x: K.softmax(x, 0),
     lambda x: np.exp(x - x.max(0)) / np.exp(x - x.max(0)).sum(0)),
    ("cross_entropy", logits, lambda x, t: FN.cross_entropy(T(x), T(t)).numpy(), K.cross_entropy,
     lambda x, t: -np.mean((x - x.max(1, keepdims=True) - np.log(np.exp(x - x.max(1, keepdims=True)).sum(
         1, keepdims=True)))[np.arange(len(t)), t])),
    ("linear fused", layer, lambda x, w, b: FN.linear(T(x), T(w), T(b)).numpy(), lambda x, w, b: K.addmm(b, x, w.T),
     lambda x, w, b: x @ w.T + b),
    ("linear unfused", layer, lambda x, w, b: FN.linear(T(x), T(w), T(b)).numpy(),
     lambda x, w, b: K.addmm(b, x, w.T, fused=False), lambda x, w, b: x @ w.T + b),
]
SIZES = (3, 17, 100, 1000, 10_000)


def rate(gen, want_fn, got_fn, n, trials):
    same = total = 0
    for _ in range(trials):
        args = gen(n)
        args = args if isinstance(args, tuple) else (args,)
        want, got = np.asarray(want_fn(*args)), np.asarray(got_fn(*args), dtype=np.asarray(want_fn(*args)).dtype)
        same += int(np.sum((want == got) | (np.isnan(want) & np.isnan(got))))
        total += want.size
    return same / total


def cpu_time(fn, args, repeat=5):
    number = 1
    while True:
        t0 = time.process_time()
        for _ in range(number):
            fn(*args)
        if time.process_time() - t0 > 0.02 or number > 10_000:
            break
        number *= 4
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(number):
            fn(*args)
        best = min(best, (time.process_time() - t0) / number)
    return best


def main():
    torch.set_num_threads(1)
    print(f"CPU: {cpu_model()}; torch {torch.__version__}, CPU capability "
          f"{torch.backends.cpu.get_cpu_capability()}, 1 thread; numpy {np.__version__}")
    head = " ".join(f"{n:>13}" for n in SIZES)
    print(f"\nbit-equal to torch, kernel / numpy, by input size\n{'op':<16}{head}")
    for name, gen, want_fn, got_fn, np_fn in CASES:
        cells = []
        for n in SIZES:
            trials = max(1, 3000 // n)
            cells.append(f"{rate(gen, want_fn, got_fn, n, trials):6.1%}/{rate(gen, want_fn, np_fn, n, trials):6.1%}")
        print(f"{name:<16}" + " ".join(f"{c:>13}" for c in cells))
    print(f"\nspeed: kernel CPU time / numpy's (numpy's time in µs)\n{'op':<16}{head}")
    for name, gen, _, got_fn, np_fn in CASES:
        cells = []
        for n in SIZES:
            args = gen(n)
            args = args if isinstance(args, tuple) else (args,)
            t_np = cpu_time(np_fn, args)
            cells.append(f"{cpu_time(got_fn, args) / t_np:5.1f}x ({t_np * 1e6:5.1f})")
        print(f"{name:<16}" + " ".join(f"{c:>13}" for c in cells))


if __name__ == "__main__":
    main()
