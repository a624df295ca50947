"""Tracing learners' programs: the guard that checks and budgets them, and the recorder.

`run(source, **limits) -> Timeline`, `state_at(timeline, k)` and `formula_at(timeline, node, k)`; the events
are described in docs/timeline.md. Nothing here imports Panel.
"""
from .runner import run
from .timeline import Timeline, formula_at, state_at

__all__ = ["Timeline", "formula_at", "run", "state_at"]
