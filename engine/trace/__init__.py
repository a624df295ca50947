"""Tracing learners' programs: the guard that checks and budgets them, and the recorder.

`run(source, **limits) -> Timeline` and `state_at(timeline, k)`; the events are described in
docs/timeline.md. Nothing here imports Panel.
"""
from .runner import run
from .timeline import Timeline, state_at

__all__ = ["Timeline", "run", "state_at"]
