"""Where the camera looks at step k, as a pure function: the node the step acts on."""

from __future__ import annotations

from app.graph.columns import active_key
from app.graph.model import GraphModel, key

LOOK_BACK = 2000  # steps before k searched for one that acts on a node drawn (prints, in a long program)


def focus(model: GraphModel, state: dict) -> tuple[float, float] | None:
    """The place of the node step k acts on: the backward step's node (or AccumulateGrad), else the node the
    event makes, changes or writes the grad of (a backward call's root). A step that acts on no node drawn
    (a print, the end) looks where the last step before it that did acted; None when none did."""
    k = state["k"]
    for j in range(k, max(k - LOOK_BACK, -1), -1):
        at = _acts_on(model, j, state.get("event") if j == k else model.events[j])
        if at is not None:
            return model.pos.get(at)
    return None


def _acts_on(model: GraphModel, k: int, event: dict | None) -> str | None:
    """The key of the box or sink step k acts on, or None."""
    at = active_key(model, {"k": k})
    if at is not None:
        return at
    event = event or {}
    nid = event.get("id", event.get("node", event.get("root")))
    return key(model.box_of[nid]) if nid is not None and nid in model.box_of else None
