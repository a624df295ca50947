"""The one door to the recorder: run a program into a Timeline, and the state shown at step k.

Also small pure helpers over `timeline.events` that several views share.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engine.trace import formula_at, state_at  # noqa: F401  (the app's only way in to the engine)
from engine.trace.formulas import arg_names, filled  # noqa: F401
from engine.trace.isolated import run_isolated
from engine.trace.timeline import index


def run(source: str, **limits: Any) -> Any:
    """Under `panel serve` the program runs in a child process with a hard time and memory wall (a public
    server must not hang on one C-level call the guard cannot size); in Pyodide it runs in place."""
    return run_isolated(source, **limits)


# Under `panel serve` a program's child process is awaited in a thread of these (the thread sleeps in select()
# and waitpid() without the GIL), not on the server's event loop, which keeps serving every session meanwhile.
# At most PROGRAMS_AT_ONCE programs wait at once; more wait their turn (each has a child of its own at full CPU).
PROGRAMS_AT_ONCE = 8
_programs = ThreadPoolExecutor(max_workers=PROGRAMS_AT_ONCE, thread_name_prefix="program")


def run_off_loop(source: str, **limits: Any):
    """run(source) started now in a thread of its own; an awaitable of its timeline (awaited on the loop).
    `stop=` (a threading.Event) ends it when set (run_isolated)."""
    started = _programs.submit(run_isolated, source, **limits)

    async def timeline():
        return await asyncio.wrap_future(started)

    return timeline()

STEP_KINDS = ("node", "grad", "free")


def backward_starts(events: list[dict]) -> list[int]:
    """Indices of the events that start a backward (or autograd.grad) call."""
    return [i for i, e in enumerate(events) if e["kind"] == "backward"]


def last_step_index(events: list[dict]) -> list[int | None]:
    """For every k, the index of the latest `node` event of the backward call running at k, or None."""
    out: list[int | None] = []
    current = None
    for i, e in enumerate(events):
        kind = e["kind"]
        if kind == "node":
            current = i
        elif kind not in STEP_KINDS:
            current = None
        out.append(current)
    return out


def error_of(timeline: Any) -> dict | None:
    events = timeline.events
    return events[-1] if events and events[-1]["kind"] == "error" else None


def has_graph(timeline: Any) -> bool:
    return any(e["kind"] in ("leaf", "op") for e in timeline.events)


def introduced(timeline: Any):
    """intro(node id) -> the event that made that graph node (None if unknown), as the formulas need it."""
    return index(timeline).introduced
