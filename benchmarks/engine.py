"""Engine speed, side by side in one run (run with the oracle env: .venv-torch/bin/python benchmarks/engine.py).

Issue 27's "done when", each line the median of three runs back to back (CPU time of this process, so that other
processes on a busy machine count less; every run is a best-of-7; BLAS on one thread, as torch):
1. engine / torch: a 200-op graph of tiny tensors, forward + backward            (target <= 1.0)
   with its floor: the same forward and backward as bare numpy calls, / torch
2. engine / hand-written numpy: MLP 512 wide, batch 256, forward + backward      (target <= 1.15)
   with its floor: the numpy MLP on float64 products (cast in and out), which engine/kernels/exact.py needs to
   give float32 products that do not depend on the BLAS; and exact.matmul alone against those products
3. micrograd / engine: micrograd's demo MLP training step (moons, 2-16-16-1)     (target >= 20)
4. tracing: engine.trace.run / untraced, the tutorial programs together           (target <= 2)
5. tracing: the 2,000-iteration loops of benchmarks/loops/, traced / untraced     (target <= 2.5, JSON <= 15 MB,
   with the timeline's JSON size and the process's growth while tracing            growth <= 75 MB)

    .venv-torch/bin/python benchmarks/engine.py [--quick] [--no-trace] [--engine-only]

--quick: one run per line instead of three; --no-trace: lines 1-3 only; --engine-only: the engine's own times
(no torch, no micrograd), as Pyodide runs them: `node benchmarks/engine_pyodide.mjs` runs this script inside
Pyodide under Node and prints the same lines, to be read against the native torch times printed here.
"""
import os
import sys
import time

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # one BLAS thread, as torch gets one:
    os.environ.setdefault(_name, "1")  # a second thread's spinning counts as CPU time on a shared machine

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import engine  # noqa: E402
from engine.kernels import exact  # noqa: E402

CLOCK = time.process_time if sys.platform != "emscripten" else time.perf_counter


def best_of(fn, repeat=7, number=1):
    times = []
    for _ in range(repeat):
        t0 = CLOCK()
        for _ in range(number):
            fn()
        times.append((CLOCK() - t0) / number)
    return min(times)


def median_of(runs, measure):
    """measure() -> (a, b) seconds, `runs` times back to back: the run of the median ratio a/b, and the ratios."""
    got = sorted((measure() for _ in range(runs)), key=lambda ab: ab[0] / ab[1])
    return got[len(got) // 2], [a / b for a, b in got]


def tiny_graph(lib):
    def run():
        x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
        w = lib.tensor([1.5, 0.25, -0.5], requires_grad=True)
        h = x
        for _ in range(50):  # 4 ops per round: 200 ops
            h = (h * w + 0.1).tanh() - x * 0.01
        h.sum().backward()
    return run


def tiny_graph_numpy():
    """The same graph's forward and backward as the numpy calls alone on the 3-element arrays (no graph, no
    bookkeeping): the least a numpy-based engine can spend on it."""
    x = np.array([0.5, -1.0, 2.0], np.float32)
    w = np.array([1.5, 0.25, -0.5], np.float32)

    def run():
        h, saved = x, []
        for _ in range(50):
            t = np.tanh(h * w + 0.1)
            saved.append((h, t))
            h = t - x * 0.01
        _total = h.sum()
        g = np.ones_like(h)
        g_x, g_w = np.zeros_like(x), np.zeros_like(w)
        for h_in, t in reversed(saved):
            g_x -= g * 0.01
            g_pre = g * (1 - t * t)
            g_w += g_pre * h_in
            g = g_pre * w
        g_x += g
        return g_x, g_w
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


def mlp_numpy(x, y, w1, b1, w2, b2, mm=np.matmul):
    def run():
        z = mm(x, w1) + b1
        h = np.maximum(z, 0)
        out = mm(h, w2) + b2
        d = out - y
        _loss = (d * d).mean()
        g_out = 2 * d / d.size
        g_w2 = mm(h.T, g_out)
        g_b2 = g_out.sum(0)
        g_h = mm(g_out, w2.T)
        g_z = g_h * (z > 0)
        g_w1 = mm(x.T, g_z)
        g_b1 = g_z.sum(0)
        return g_w1, g_b1, g_w2, g_b2
    return run


def float64_products():
    """p @ q for float32 p and q on the float64 BLAS: cast in, multiply, cast out, in memory kept between calls
    (fresh megabytes cost page faults each time). The least a float32 product that does not depend on the BLAS's
    summation order does (engine/kernels/exact.py): the floor of the engine's matrix products."""
    kept = {}

    def wide(x, slot):
        buffer = kept.get((slot, x.shape))
        if buffer is None:
            buffer = kept[slot, x.shape] = np.empty(x.shape)
        np.copyto(buffer, x)
        return buffer

    def mm(p, q):
        out = kept.get(("out", p.shape, q.shape))
        if out is None:
            out = kept["out", p.shape, q.shape] = np.empty((p.shape[0], q.shape[1]))
        return np.matmul(wide(p, "p"), wide(q, "q"), out=out).astype(np.float32)
    return mm


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


def rss():
    """The process's resident memory now, in bytes (the kernel's count; the peak where there is no /proc)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def tracing_rows(runs):
    """engine.trace.run against the same program untraced: the tutorial programs together, then each loop."""
    import gc
    import warnings
    from pathlib import Path

    sys.path.insert(0, os.path.dirname(__file__))
    import trace as tracebench  # benchmarks/trace.py

    from engine.trace import run
    from tests.programs import PROGRAMS
    from tests.trace.corpus import TRACE_PROGRAMS

    warnings.simplefilter("ignore")
    tracebench.CLOCK = CLOCK
    tracebench.REPEAT = 3
    programs = list({**PROGRAMS, **TRACE_PROGRAMS}.values())

    def tutorials():
        plain = traced = 0.0
        for source in programs:
            p, t = tracebench.best((tracebench.plain, run), source)
            plain, traced = plain + p, traced + t
        return traced, plain

    (t, p), ratios = median_of(runs, tutorials)
    rows = [(f"tracing {len(programs)} tutorial programs", "traced / untraced", t, p, t / p, "<= 2", ratios, "")]
    for path in sorted((Path(__file__).parent / "loops").glob("*.py")):
        source = path.read_text()
        sizes = {}

        def loop(source=source, sizes=sizes):
            engine.manual_seed(0)
            t0 = CLOCK()
            tracebench.plain(source)
            plain = CLOCK() - t0
            gc.collect()
            before = rss()
            engine.manual_seed(0)
            t0 = CLOCK()
            timeline = run(source, max_seconds=600)  # the runner's 30 s is for a learner's wait
            traced = CLOCK() - t0
            grown = rss() - before
            assert timeline.error is None, timeline.error
            json_mb = len(timeline.to_json().encode()) / 1e6
            sizes[traced / plain] = (json_mb, grown / 1e6)
            del timeline
            gc.collect()
            return traced, plain

        (t, p), ratios = median_of(runs, loop)
        json_mb, grown = sizes[t / p]
        rows.append((f"2,000-iteration {path.stem}", "traced / untraced", t, p, t / p, "<= 2.5", ratios,
                     f"JSON {json_mb:.1f} MB (<= 15), grew {grown:.0f} MB (<= 75)"))
    return rows


def engine_rows(runs, engine_only):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((256, 512)).astype(np.float32)
    yv = rng.standard_normal((256, 1)).astype(np.float32)
    w1 = (rng.standard_normal((512, 512)) * 0.05).astype(np.float32)
    b1 = np.zeros(512, np.float32)
    w2 = (rng.standard_normal((512, 1)) * 0.05).astype(np.float32)
    b2 = np.zeros(1, np.float32)
    rows = []
    if engine_only:
        t_e = best_of(tiny_graph(engine), number=5)
        rows.append(("200-op tiny graph fwd+bwd", "engine (read vs torch)", t_e, float("nan"), float("nan"),
                     "<= 1.0", [], ""))
    else:
        import torch

        torch.set_num_threads(1)
        (t_e, t_t), ratios = median_of(runs, lambda: (best_of(tiny_graph(engine), number=5),
                                                      best_of(tiny_graph(torch), number=5)))
        rows.append(("200-op tiny graph fwd+bwd", "engine / torch", t_e, t_t, t_e / t_t, "<= 1.0", ratios, ""))
        (t_n, t_t), ratios = median_of(runs, lambda: (best_of(tiny_graph_numpy(), number=5),
                                                      best_of(tiny_graph(torch), number=5)))
        rows.append(("the same graph as bare numpy calls", "numpy floor / torch", t_n, t_t, t_n / t_t, "", ratios,
                     f"(engine / floor {t_e / t_n:.2f})"))
    (t_e, t_n), ratios = median_of(runs, lambda: (best_of(mlp_engine(engine, x, yv, w1, b1, w2, b2), number=5),
                                                  best_of(mlp_numpy(x, yv, w1, b1, w2, b2), number=5)))
    rows.append(("MLP 512 wide, batch 256", "engine / numpy", t_e, t_n, t_e / t_n, "<= 1.15", ratios, ""))
    floor = mlp_numpy(x, yv, w1, b1, w2, b2, mm=float64_products())
    (t_e, t_f), ratios = median_of(runs, lambda: (best_of(mlp_engine(engine, x, yv, w1, b1, w2, b2), number=5),
                                                  best_of(floor, number=5)))
    rows.append(("MLP, numpy on float64 products", "engine / that floor", t_e, t_f, t_e / t_f, "", ratios,
                 f"(the floor is {t_f / t_n:.2f} x numpy)"))
    mm64 = float64_products()
    (t_x, t_f), ratios = median_of(runs, lambda: (best_of(lambda: exact.matmul(x, w1), number=5),
                                                  best_of(lambda: mm64(x, w1), number=5)))
    rows.append(("exact matmul 256x512 @ 512x512", "exact / float64 floor", t_x, t_f, t_x / t_f, "", ratios,
                 f"(numpy float32: {best_of(lambda: x @ w1, number=5) * 1e3:.2f} ms)"))
    if not engine_only:
        X, y = moons()
        (t_m, t_e), ratios = median_of(runs, lambda: (best_of(micrograd_step(X, y), repeat=3),
                                                      best_of(engine_moons_step(X, y), number=5)))
        rows.append(("micrograd demo step", "micrograd / engine", t_m, t_e, t_m / t_e, ">= 20", ratios, ""))
    return rows


def main(args):
    runs = 1 if "--quick" in args else 3
    engine_only = "--engine-only" in args
    import platform

    print(f"engine speed on {platform.machine()} {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores, {'CPU' if CLOCK is time.process_time else 'wall'} time, "
          f"median of {runs} run(s)")
    rows = engine_rows(runs, engine_only)
    if "--no-trace" not in args:
        rows += tracing_rows(runs)
    print(f"{'benchmark':36} {'ratio':22} {'a (ms)':>10} {'b (ms)':>10} {'a/b':>7}  {'target':7} runs")
    for name, label, a, b, r, target, ratios, extra in rows:
        print(f"{name:36} {label:22} {a * 1e3:10.3f} {b * 1e3:10.3f} {r:7.2f}  {target:7} "
              f"{' '.join(f'{q:.2f}' for q in ratios)} {extra}".rstrip())


if __name__ == "__main__":
    main(sys.argv[1:])
