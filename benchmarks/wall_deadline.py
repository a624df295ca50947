"""How long the server's wall takes to end each runaway of tests/trace/runaways.ONE_CALL_CORPUS (one C call no tick
of the guard interrupts), one at a time, with a time budget of 2 s: the seconds from run_isolated's call to its
timeline, the line its message names, and the message. Each must end within the budget + 1 s (and the kill).

    .venv-torch/bin/python benchmarks/wall_deadline.py [--budget 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.trace.isolated import run_isolated  # noqa: E402
from tests.trace.runaways import ONE_CALL_CORPUS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=2.0)
    args = parser.parse_args()
    print(f"{'class':14s} {'program':28s} {'s':>5s} line  message")
    for cls, entries in ONE_CALL_CORPUS.items():
        for name, entry in entries.items():
            start = time.monotonic()
            error = run_isolated(entry.source, max_seconds=args.budget).error or {}
            seconds = time.monotonic() - start
            print(f"{cls:14s} {name:28s} {seconds:5.2f} {error.get('line')!s:>4s}  {error.get('message', '')[:70]}")


if __name__ == "__main__":
    main()
