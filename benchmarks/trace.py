"""How much tracing costs: engine.trace.run(program) against the same program run untraced on the engine.

    python benchmarks/trace.py [--cpu] [slug ...]
    python benchmarks/trace.py --loops [--repeat 3] [benchmarks/loops/polynomial.py ...]

For each tutorial program (tests/programs.py and tests/trace/corpus.py) prints the median-of-N times of
  plain   exec of the program with `torch` bound to the engine, no guard, no recorder (compiled each time);
  guard   engine.trace.guard.run: checked, instrumented and budgeted, no recorder;
  traced  engine.trace.run: the guard and the recorder, returning the Timeline;
  cold    the same for a program run for the first time (its checked code and statements not kept yet);
and the ratios traced/plain, traced/guard (the recorder's own share) and cold/plain. Target: traced/plain <= 2.
The four are timed in turns, round after round, so that a load that comes and goes hits them alike;
--cpu times the thread's CPU time instead of the wall clock (steadier on a busy machine).

--loops traces the training loops in benchmarks/loops/ (2,000 iterations over 2,000 elements; targets, issue 27:
traced within 2.5x the untraced CPU time, at most 15 MB of JSON and 75 MB of process growth) and prints for each
the median-of-N CPU times untraced and traced (alternating), their ratio, the events, the timeline's size in
memory (its events and state_at's index, every object counted once), its JSON's size, the CPU time of to_json,
from_json and state_at's first call (the index), and the process's growth: in a fresh process (one per round,
the median of N), its resident memory after a traced run (the timeline kept) less before it, and its peak less
before it.
"""
from __future__ import annotations

import builtins
import io
import json
import statistics
import subprocess
import sys
import time
import warnings
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]


import engine  # noqa: E402
from engine.trace import guard, run  # noqa: E402
from tests.programs import PROGRAMS  # noqa: E402
from tests.trace.corpus import TRACE_PROGRAMS  # noqa: E402

REPEAT = 7
CLOCK = time.perf_counter


def _import(name, globals=None, locals=None, fromlist=(), level=0, _real=builtins.__import__):
    if name == "torch" or name.startswith("torch."):
        name = "engine" + name[len("torch"):]
    return _real(name, globals, locals, fromlist, level)


def plain(source):
    code = compile(source, "<program>", "exec")
    g = {"__builtins__": {**builtins.__dict__, "__import__": _import}, "__name__": "__main__"}
    with redirect_stdout(io.StringIO()):
        try:
            exec(code, g)
        except Exception:  # noqa: BLE001 - programs that end on an error are timed up to it
            pass


def guarded(source):
    try:
        guard.run(source, print_fn=lambda text, end="": None)
    except Exception:  # noqa: BLE001
        pass


def cold(source):
    guard.load.cache_clear()
    return run(source)


def best(fns, source):
    times = [[] for _ in fns]
    for _ in range(REPEAT):
        for fn, spent in zip(fns, times):
            engine.manual_seed(0)
            t0 = CLOCK()
            fn(source)
            spent.append(CLOCK() - t0)
    return [min(spent) for spent in times]


def medians(fns, source):
    """The median time of each of fns over REPEAT rounds, timed in turns."""
    times = [[] for _ in fns]
    for _ in range(REPEAT):
        for fn, spent in zip(fns, times):
            engine.manual_seed(0)
            t0 = CLOCK()
            fn(source)
            spent.append(CLOCK() - t0)
    return [statistics.median(spent) for spent in times]


GROWTH = """
import gc, json, sys
sys.path[:0] = [sys.argv[2]]
import engine
from engine.trace import run
from engine.trace.budget import memory_mb
source = open(sys.argv[1]).read()
run("import torch\\nx = torch.ones(2) * 2\\n")  # (what the first run of any program imports and caches)
gc.collect()
before = memory_mb()
engine.manual_seed(0)
timeline = run(source, max_seconds=600)
after = memory_mb()
with open("/proc/self/status") as f:  # (VmHWM is this process's own; ru_maxrss keeps the parent's across exec)
    peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024
print(json.dumps({"grown": after - before, "peak": peak - before}))
"""


def growth(path):
    """A traced run's growth of a fresh process, in MB: (resident after less before, peak less before)."""
    out = subprocess.run([sys.executable, "-c", GROWTH, str(path), str(ROOT)], capture_output=True, text=True,
                         check=True).stdout
    data = json.loads(out.splitlines()[-1])
    return data["grown"], data["peak"]


def deep_size(*roots) -> int:
    """Bytes held by the objects reachable from roots through dicts, lists and tuples, each counted once."""
    seen, total, todo = set(), 0, list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple)):
            todo.extend(obj)
    return total


def loops(paths, repeat):
    from engine.trace import Timeline, state_at
    from engine.trace.timeline import index

    print(f"{'program':28s} {'untraced':>9s} {'traced':>9s} {'ratio':>6s} {'events':>7s} {'memory':>8s} "
          f"{'JSON':>8s} {'to_json':>8s} {'from_json':>9s} {'index':>6s} {'growth':>7s} {'peak':>7s}")
    for path in paths:
        source = Path(path).read_text()
        plain_s, traced_s = [], []
        for _ in range(repeat):
            # (CPU time is what is compared: a loaded machine's wall clock must not stop the traced run)
            for fn, spent in ((plain, plain_s), (lambda text: run(text, max_seconds=600), traced_s)):
                engine.manual_seed(0)
                t0 = time.process_time()
                timeline = fn(source)
                spent.append(time.process_time() - t0)
        assert timeline.error is None, timeline.error
        t0 = time.process_time()
        text = timeline.to_json()
        t1 = time.process_time()
        Timeline.from_json(text)
        t2 = time.process_time()
        state_at(timeline, len(timeline.events) - 1)
        t3 = time.process_time()
        events = timeline.events
        memory = deep_size(timeline.events, vars(index(timeline)))
        del timeline
        grown = [growth(path) for _ in range(repeat)]
        p, t = statistics.median(plain_s), statistics.median(traced_s)
        print(f"{Path(path).stem:28s} {p:8.2f}s {t:8.2f}s {t / p:6.2f} {len(events):7d} "
              f"{memory / 1e6:6.1f}MB {len(text.encode()) / 1e6:6.1f}MB {t1 - t0:7.2f}s {t2 - t1:8.2f}s "
              f"{t3 - t2:5.2f}s {statistics.median(g for g, _ in grown):5.1f}MB "
              f"{statistics.median(p for _, p in grown):5.1f}MB", flush=True)


def main(args):
    global CLOCK
    if "--loops" in args:
        repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
        paths = [a for a in args if a.endswith(".py")] or sorted(map(str, (ROOT / "benchmarks" / "loops").glob("*.py")))
        loops(paths, repeat)
        return
    if "--cpu" in args:
        CLOCK = time.thread_time
    programs = {**PROGRAMS, **TRACE_PROGRAMS}
    slugs = [a for a in args if not a.startswith("--")] or list(programs)
    warnings.simplefilter("ignore")
    print(f"{'program':34s} {'plain':>8s} {'guard':>8s} {'traced':>8s} {'cold':>8s} {'events':>7s} "
          f"{'t/plain':>8s} {'t/guard':>8s} {'c/plain':>8s}")
    totals = [0.0] * 4
    for slug in slugs:
        source = programs[slug]
        times = medians((plain, guarded, run, cold), source)
        events = len(run(source).events)
        totals = [a + b for a, b in zip(totals, times)]
        p, g, t, c = (x * 1000 for x in times)
        print(f"{slug:34s} {p:7.2f}ms {g:7.2f}ms {t:7.2f}ms {c:7.2f}ms {events:7d} "
              f"{t / p:8.2f} {t / g:8.2f} {c / p:8.2f}")
    p, g, t, c = totals
    print(f"{'total':34s} {p * 1000:7.1f}ms {g * 1000:7.1f}ms {t * 1000:7.1f}ms {c * 1000:7.1f}ms {'':7s} "
          f"{t / p:8.2f} {t / g:8.2f} {c / p:8.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
