"""Where the engine stands on the conformance corpus (tests/corpus/programs: public PyTorch teaching programs):

    .venv-torch/bin/python benchmarks/corpus.py

Runs every program on real PyTorch, on the engine (only `import torch` bound differently) and through the
explorer's runner (engine.trace.run), and prints, for the engine and for the runner, how many programs
  identical   print byte for byte what PyTorch prints, with the same warnings and uncaught error (runner: error);
  alike       the same but for the last bits of full-precision numbers (difftest.printed_alike);
  differ      end as PyTorch does (no error, or the same one) but print something else (or other warnings);
  error       end with an uncaught error PyTorch does not raise (for the runner: also the guard's refusals);
then the failures (differ + error) tallied by family (tests/corpus/gaps.py): how many programs each family
blocks first, and how many it blocks at all (as far as gaps.py knows: a program's later blockers show once the
earlier ones are fixed); and any failure gaps.py does not list, or listed program that now passes.
Byte-identical counts depend on the CPU PyTorch runs on (its float32 bits do); the machine's CPU model is printed.
"""
from __future__ import annotations

import collections
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

import torch  # noqa: E402
from difftest import ADDRESS, printed_alike, run_source  # noqa: E402

import engine  # noqa: E402
from engine.trace import run  # noqa: E402
from tests.corpus.corpus import (  # noqa: E402
    CATEGORIES,
    PROGRAMS,
    RUNNER_LIMITS,
    category,
    header,
    program_warnings,
    reset_globals,
)
from tests.corpus.gaps import DRIFT_ULPS, ENGINE_GAPS, RUNNER_GAPS, family  # noqa: E402

KINDS = ("identical", "alike", "differ", "error")


def verdict(slug: str, want, stdout: str, warns, exc) -> str:
    if exc != want.exc:
        return "error"
    if program_warnings(warns) != program_warnings(want.warnings):
        return "differ"
    if stdout == want.stdout:
        return "identical"
    return "alike" if printed_alike(stdout, want.stdout, DRIFT_ULPS.get(slug, 4)) else "differ"


def what_went_wrong(want, stdout: str, exc) -> str:
    if exc != want.exc:
        return f"{exc[0]}: {exc[1][:80]}" if exc else "no error where PyTorch raised"
    lines = zip(stdout.splitlines(), want.stdout.splitlines())
    at = next((i for i, (a, b) in enumerate(lines) if a != b), None)
    return f"output differs from line {at + 1}" if at is not None else "output or warnings differ"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown CPU"


def source_repository(slug: str) -> str:
    """The owner/name its Source header starts with."""
    return header(PROGRAMS[slug])["Source"].split()[0].rstrip(",")


def main() -> None:
    torch.set_num_threads(1)
    started = time.perf_counter()
    results = {"engine": {}, "runner": {}}
    notes = {"engine": {}, "runner": {}}
    for slug, source in PROGRAMS.items():
        want = run_source(source, "torch").masked()
        got = run_source(source, "engine").masked()
        reset_globals(torch, engine)
        results["engine"][slug] = verdict(slug, want, got.stdout, got.warnings, got.exc)
        notes["engine"][slug] = what_went_wrong(want, got.stdout, got.exc)
        timeline = run(source, **RUNNER_LIMITS)
        reset_globals(torch)
        out = ADDRESS.sub("0x…", timeline.output)
        error = (timeline.error["type"], timeline.error["message"]) if timeline.error else None
        results["runner"][slug] = verdict(slug, want, out, want.warnings, error)
        notes["runner"][slug] = what_went_wrong(want, out, error)

    print(f"corpus: {len(PROGRAMS)} programs (tests/corpus/programs), PyTorch {torch.__version__} on {cpu_model()}")
    print(f"{'':8s}" + "".join(f"{k:>11s}" for k in KINDS))
    for who, verdicts in results.items():
        counts = collections.Counter(verdicts.values())
        print(f"{who:8s}" + "".join(f"{counts[k]:>11d}" for k in KINDS))

    print("\nengine, by category: identical or alike / programs")
    for cat in CATEGORIES:
        slugs = [s for s in PROGRAMS if category(s) == cat]
        ok = sum(results["engine"][s] in ("identical", "alike") for s in slugs)
        print(f"  {ok:3d} / {len(slugs):<3d} {cat}")

    print("\nby source (the repository a program's header names): identical or alike, engine / runner / programs")
    by_source = collections.defaultdict(list)
    for s in PROGRAMS:
        by_source[source_repository(s)].append(s)
    for repo, slugs in sorted(by_source.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        ok = [sum(results[who][s] in ("identical", "alike") for s in slugs) for who in ("engine", "runner")]
        print(f"  {ok[0]:3d} {ok[1]:3d} / {len(slugs):<3d} {repo}")

    for who, gaps in (("engine", ENGINE_GAPS), ("runner", RUNNER_GAPS)):
        failing = [s for s, v in results[who].items() if v in ("differ", "error")]
        first = collections.Counter(family(gaps[s]) for s in failing if s in gaps)
        named = collections.Counter(f for s in failing if s in gaps for f in {family(r) for r in gaps[s].split("; ")})
        print(f"\n{who} failures by family (tests/corpus/gaps.py): programs it blocks first / blocks at all")
        for fam, n in sorted(named.items(), key=lambda kv: (-first[kv[0]], -kv[1], kv[0])):
            print(f"  {first[fam]:3d} {n:3d}  {fam}")
        for s in failing:
            if s not in gaps:
                print(f"  not in gaps.py: {s}: {notes[who][s]}")
        for s in sorted(set(gaps) - set(failing)):
            print(f"  listed in gaps.py but now {results[who][s]}: {s}")
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
