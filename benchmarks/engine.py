"""Engine speed, side by side in one run (run with the oracle env: .venv-torch/bin/python benchmarks/engine.py).

1. engine / torch: a 200-op graph of tiny tensors, forward + backward            (target <= 1.5)
2. engine / hand-written numpy: MLP 512 wide, batch 256, forward + backward      (target <= 1.15)
3. micrograd / engine: micrograd's demo MLP training step (moons, 2-16-16-1)     (target >= 20)
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import engine  # noqa: E402


def best_of(fn, repeat=7, number=1):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return min(times)


def tiny_graph(lib):
    def run():
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        w = lib.tensor([1.5, 0.25, -0.5], requires_grad=True)
        h = x
        for _ in range(50):  # 4 ops per round: 200 ops
            h = (h * w + 0.1).tanh() - x * 0.01
        h.sum().backward()
    return run


def mlp_engine(lib, x, y, w1, b1, w2, b2):
    W1, B1 = lib.tensor(w1, requires_grad=True), lib.tensor(b1, requires_grad=True)
    W2, B2 = lib.tensor(w2, requires_grad=True), lib.tensor(b2, requires_grad=True)
    X, Y = lib.tensor(x), lib.tensor(y)

    def run():
        h = (X @ W1 + B1).relu()
        out = h @ W2 + B2
        loss = ((out - Y) ** 2).mean()
        loss.backward()
        for p in (W1, B1, W2, B2):
            p.grad = None
    return run


def mlp_numpy(x, y, w1, b1, w2, b2):
    def run():
        z = x @ w1 + b1
        h = np.maximum(z, 0)
        out = h @ w2 + b2
        d = out - y
        _loss = (d * d).mean()
        g_out = 2 * d / d.size
        g_w2 = h.T @ g_out
        g_b2 = g_out.sum(0)
        g_h = g_out @ w2.T
        g_z = g_h * (z > 0)
        g_w1 = x.T @ g_z
        g_b1 = g_z.sum(0)
        return g_w1, g_b1, g_w2, g_b2
    return run


def moons(n=100, seed=1):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    half = n // 2
    x = np.where(np.arange(n)[:, None] < half,
                 np.stack([np.cos(t), np.sin(t)], 1),
                 np.stack([1 - np.cos(t), 1 - np.sin(t) - 0.5], 1))
    x += rng.normal(0, 0.1, x.shape)
    y = np.where(np.arange(n) < half, 1.0, -1.0)
    return x.astype(np.float32), y.astype(np.float32)


def micrograd_step(X, y):
    from micrograd.engine import Value
    from micrograd.nn import MLP

    model = MLP(2, [16, 16, 1])

    def run():
        inputs = [list(map(Value, xrow)) for xrow in X.tolist()]
        scores = list(map(model, inputs))
        losses = [(1 + -yi * si).relu() for yi, si in zip(y.tolist(), scores)]
        data_loss = sum(losses) * (1.0 / len(losses))
        reg_loss = 1e-4 * sum(p * p for p in model.parameters())
        loss = data_loss + reg_loss
        model.zero_grad()
        loss.backward()
    return run


def engine_moons_step(X, y):
    torch = engine
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.ReLU(), torch.nn.Linear(16, 16), torch.nn.ReLU(),
                                torch.nn.Linear(16, 1))
    Xt, yt = torch.tensor(X), torch.tensor(y)

    def run():
        scores = model(Xt).squeeze(1)
        data_loss = (1 - yt * scores).relu().mean()
        reg_loss = 1e-4 * sum((p * p).sum() for p in model.parameters())
        loss = data_loss + reg_loss
        model.zero_grad()
        loss.backward()
    return run


def main():
    import torch

    torch.set_num_threads(1)
    rows = []
    t_e = best_of(tiny_graph(engine), number=5)
    t_t = best_of(tiny_graph(torch), number=5)
    rows.append(("200-op tiny graph fwd+bwd", "engine / torch", t_e, t_t, t_e / t_t, "<= 1.5"))

    rng = np.random.default_rng(0)
    x = rng.standard_normal((256, 512)).astype(np.float32)
    yv = rng.standard_normal((256, 1)).astype(np.float32)
    w1 = (rng.standard_normal((512, 512)) * 0.05).astype(np.float32)
    b1 = np.zeros(512, np.float32)
    w2 = (rng.standard_normal((512, 1)) * 0.05).astype(np.float32)
    b2 = np.zeros(1, np.float32)
    t_e = best_of(mlp_engine(engine, x, yv, w1, b1, w2, b2), number=5)
    t_n = best_of(mlp_numpy(x, yv, w1, b1, w2, b2), number=5)
    rows.append(("MLP 512 wide, batch 256", "engine / numpy", t_e, t_n, t_e / t_n, "<= 1.15"))

    X, y = moons()
    t_m = best_of(micrograd_step(X, y), repeat=3)
    t_e = best_of(engine_moons_step(X, y), number=5)
    rows.append(("micrograd demo step", "micrograd / engine", t_m, t_e, t_m / t_e, ">= 20"))

    print(f"{'benchmark':28} {'ratio':20} {'a (ms)':>10} {'b (ms)':>10} {'a/b':>8}  target")
    for name, label, a, b, r, target in rows:
        print(f"{name:28} {label:20} {a * 1e3:10.3f} {b * 1e3:10.3f} {r:8.2f}  {target}")


if __name__ == "__main__":
    main()
