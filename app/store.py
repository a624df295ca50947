"""The one store of a session: the program, its timeline, the step k and the clicked node, as params.

Views watch it and render; only the store changes state. One Store per session (nothing module-level).
"""

from __future__ import annotations

import panel as pn
import param

from app import graph_model, history_model
from app import timeline as tl


class Store(param.Parameterized):
    source = param.String(default="", doc="The program text: the source of truth.")
    example = param.String(default=None, allow_None=True, doc="Slug of the example the program came from.")
    timeline = param.Parameter(default=None, doc="The last timeline that has a graph to show.")
    graph = param.Parameter(default=None, doc="graph_model.GraphModel of the timeline.")
    history = param.Parameter(default=None, doc="history_model.History of the timeline.")
    k = param.Integer(default=-1, doc="Step shown: events 0..k have happened.")
    state = param.Dict(default=None, doc="state_at(timeline, k).")
    selected = param.String(default=None, allow_None=True, doc="Key of the clicked node (t<id> or a<id>).")
    problem = param.String(default="", doc="Why the last run or link could not be shown, in words.")
    run_error = param.Dict(default=None, allow_None=True, doc="Error of a run whose graph was not kept.")

    @property
    def last(self) -> int:
        return len(self.timeline.events) - 1 if self.timeline is not None else -1

    def load(self, source: str, step: int | str | None = None, example: str | None = None) -> None:
        """Run a program; keep the last good graph when the new one fails before making any node."""
        timeline = tl.run(source)
        if not tl.has_graph(timeline) and tl.error_of(timeline) is not None and self.timeline is not None:
            self._apply(source=source, example=example, run_error=tl.error_of(timeline))
            return
        events = timeline.events
        final = tl.state_at(timeline, len(events) - 1)
        grows = self.graph is not None and bool(self.source) and source.startswith(self.source.rstrip("\n"))
        graph = graph_model.build(events, final["nodes"], previous=self.graph if grows else None)
        k = self._initial_step(events, step)
        self._apply(
            source=source, example=example, timeline=timeline, graph=graph,
            history=history_model.history(events), selected=None, run_error=None,
            k=k, state=final if k == len(events) - 1 else tl.state_at(timeline, k),
        )

    @staticmethod
    def _initial_step(events: list[dict], step: int | str | None) -> int:
        last = len(events) - 1
        if step == "end":
            return last
        if isinstance(step, int):
            return max(-1, min(step, last))
        starts = tl.backward_starts(events)
        return starts[0] - 1 if starts else last

    def goto(self, k: int) -> None:
        k = max(-1, min(int(k), self.last))
        if self.timeline is None or (k == self.k and self.state is not None):
            return
        self._apply(k=k, state=tl.state_at(self.timeline, k))

    def step(self, delta: int) -> None:
        self.goto(self.k + delta)

    def next_call(self) -> None:
        """Jump to the start of the next backward call (or the end)."""
        self.goto(self.next_call_step(self.k))

    def prev_call(self) -> None:
        """Jump to the start of the current backward call, or of the one before when already there."""
        self.goto(self.prev_call_step(self.k))

    def next_call_step(self, k: int) -> int:
        later = [i for i in tl.backward_starts(self.timeline.events) if i > k]
        return later[0] if later else self.last

    def prev_call_step(self, k: int) -> int:
        earlier = [i for i in tl.backward_starts(self.timeline.events) if i < k]
        return earlier[-1] if earlier else -1

    def select(self, key: str | None) -> None:
        self._apply(selected=key)

    def _apply(self, **changes) -> None:
        """Set params together; every view's Bokeh changes then reach the browser as one batch."""
        with pn.io.hold():
            self.param.update(**changes)
