"""The graphs of a timeline's segments (player/iterations.py): built when first shown and kept, the iterations of a loop
sharing one layout when they have one shape, so that jumping between iterations costs no layout."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from app.graph import model as graph_model
from app.graph import module_boxes
from app.player.iterations import Iterations

KEEP = 32  # models kept (a model is a few hundred small objects)


class GraphViews:
    def __init__(self, timeline: Any, iterations: Iterations, nodes: Any,
                 previous: graph_model.GraphModel | None = None, opened: tuple[str, ...] = ()):
        """nodes: the final state's nodes; previous: the model of a program this one extends (its layout is
        kept where it can be: the builder grows graphs), for a timeline of one segment; opened: the modules
        drawn as their ops (module_boxes.py)."""
        self.events = timeline.events
        self.iterations = iterations
        self.nodes = nodes
        self.facts = graph_model.facts(self.events)
        self.layouts: dict = {}
        self._models: OrderedDict[int, graph_model.GraphModel] = OrderedDict()
        self._previous = previous if len(iterations.bounds) == 1 else None
        self.calls = getattr(timeline, "modules", None) or []
        self.reopen(opened)

    def reopen(self, opened: tuple[str, ...]) -> None:
        """Draw the modules named in `opened` as their ops from now on, the others as boxes."""
        self.opened = tuple(opened)
        self.boxed = module_boxes.boxed_calls(self.calls, self.opened)
        self._models.clear()

    def model(self, segment: int) -> graph_model.GraphModel:
        model = self._models.get(segment)
        if model is None:
            if len(self.iterations.bounds) == 1:
                view = None  # the whole timeline
            else:
                start, end = self.iterations.span(segment, len(self.events))
                view = graph_model.view_of(self.events, start, end, self.nodes)
            groups = module_boxes.grouping(self.boxed, self.facts.made_at, self.nodes if view is None else view,
                                           self.nodes)
            model = graph_model.build(self.events, self.nodes, previous=self._previous, view=view,
                                      layouts=self.layouts, known=self.facts, groups=groups, calls=self.boxed)
            self._models[segment] = model
            if len(self._models) > KEEP:
                self._models.popitem(last=False)
        else:
            self._models.move_to_end(segment)
        return model


def same_place(old: graph_model.GraphModel | None, new: graph_model.GraphModel, key: str | None) -> str | None:
    """The key in `new` of the node `key` names in `old`: the same key when `new` has it (a leaf's box has its
    first node's key in every view), else the box or sink at its place (the same node of another iteration
    of the loop), or None."""
    if key is None:
        return None
    if int(key[1:]) in (new.sinks if key.startswith("a") else new.members):
        return key
    if old is None or old.shape != new.shape:
        return None
    boxes = old.sinks if key.startswith("a") else old.boxes
    try:
        i = boxes.index(int(key[1:]))
    except ValueError:
        return None
    new_boxes = new.sinks if key.startswith("a") else new.boxes
    return (graph_model.sink_key if key.startswith("a") else graph_model.key)(new_boxes[i])
