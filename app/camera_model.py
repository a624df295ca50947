"""Where the camera looks at step k, as a pure function: the node the step acts on."""

from __future__ import annotations

from app.graph_columns import active_key
from app.graph_model import GraphModel, key


def focus(model: GraphModel, state: dict) -> tuple[float, float] | None:
    """The place of the node step k acts on: the backward step's node (or AccumulateGrad), else the node the
    event makes, changes or writes the grad of (a backward call's root); None when the step acts on none drawn."""
    k = active_key(model, state)
    if k is None:
        event = state.get("event") or {}
        nid = event.get("id", event.get("node", event.get("root")))
        if nid is None or nid not in model.box_of:
            return None
        k = key(model.box_of[nid])
    return model.pos.get(k)
