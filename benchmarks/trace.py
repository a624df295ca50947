"""How much tracing costs: engine.trace.run(program) against the same program run untraced on the engine.

    python benchmarks/trace.py [--cpu] [slug ...]

For each tutorial program (tests/programs.py and tests/trace/corpus.py) prints the best-of-N times of
  plain   exec of the program with `torch` bound to the engine, no guard, no recorder (compiled each time);
  guard   engine.trace.guard.run: checked, instrumented and budgeted, no recorder;
  traced  engine.trace.run: the guard and the recorder, returning the Timeline;
  cold    the same for a program run for the first time (its checked code and statements not kept yet);
and the ratios traced/plain, traced/guard (the recorder's own share) and cold/plain. Target: traced/plain <= 2.
The four are timed in turns, round after round, so that a load that comes and goes hits them alike;
--cpu times the thread's CPU time instead of the wall clock (steadier on a busy machine).
"""
from __future__ import annotations

import builtins
import io
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


def main(args):
    global CLOCK
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
        times = best((plain, guarded, run, cold), source)
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
