"""Tracing learners' programs: the guard that checks and budgets them, and the recorder.

`run(source, **limits) -> Timeline`, `state_at(timeline, k)` and `formula_at(timeline, node, k)`; the events
are described in docs/timeline.md. Nothing here imports Panel.
"""
import sys
import types

from ..methods import FUNCTIONS
from .runner import run
from .timeline import Timeline, formula_at, state_at

__all__ = ["Timeline", "formula_at", "run", "state_at"]


class _CallableModule(types.ModuleType):
    """This package is engine.trace, which is also where torch.trace (the op) lives: importing the package
    replaces the function on the engine module, so the package, called, is the op."""

    def __call__(self, *args, **kwargs):
        return FUNCTIONS["trace"](*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
