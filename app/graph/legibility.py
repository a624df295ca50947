"""Where every box and label of the graph is drawn at a zoom, in px, as pure functions of a GraphModel and a
state: what the overlap test (tests/app/test_legibility.py) checks, and the view draws with the same numbers."""

from __future__ import annotations

from app.graph import columns as gc
from app.graph.model import BADGE_R, BOX_W, FONT, GRAD_DY, LINE, SCALE, SINK_H, SINK_W, GraphModel
from app.graph.text_width import width

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in px, y up

LABEL_H = FONT * 1.2
# The labels of a box: (column, offset of its centre from the box's centre, in units).
BOX_LABELS = (("title", LINE), ("value", 0.0), ("fn", -LINE))


def _rect(x: float, y: float, w: float, h: float, scale: float) -> Rect:
    return (x * scale - w / 2, y * scale - h / 2, x * scale + w / 2, y * scale + h / 2)


def shapes(model: GraphModel, state: dict, scale: float = SCALE) -> list[tuple[str, str, Rect]]:
    """(kind, owner key, rect) of every box, ellipse and badge drawn at step k: kind `box`, `sink`, `badge`."""
    out = []
    static = gc.static_columns(model)
    b = static["boxes"]
    for k, x, y, h in zip(b["key"], b["x"], b["y"], b["h"]):
        out.append(("box", k, _rect(x, y, BOX_W * scale, h * scale, scale)))
    s = static["sinks"]
    for k, x, y in zip(s["key"], s["x"], s["y"]):
        out.append(("sink", k, _rect(x, y, SINK_W * scale, SINK_H * scale, scale)))
    badges = gc.badge_columns(model, state)
    for k, x, y in zip(badges["key"], badges["x"], badges["y"]):
        out.append(("badge", k, _rect(x, y, 2 * BADGE_R * scale, 2 * BADGE_R * scale, scale)))
    return out


def labels(model: GraphModel, state: dict, scale: float = SCALE) -> list[tuple[str, str, str, Rect]]:
    """(column, owner key, text, rect) of every label drawn at step k with all details shown."""
    out = []
    static = gc.static_columns(model)
    b = static["boxes"]
    cols = gc.box_columns(model, state)
    for i, (k, x, y) in enumerate(zip(b["key"], b["x"], b["y"])):
        for name, dy in BOX_LABELS:
            text = cols[name][i]
            if text:
                out.append((name, k, text, _rect(x, y + dy, width(text), LABEL_H, scale)))
        if cols["grad"][i]:
            out.append(("grad", k, cols["grad"][i], _rect(x, y - GRAD_DY, width(cols["grad"][i]), LABEL_H, scale)))
    s = static["sinks"]
    sinks = gc.sink_columns(model, state)
    for k, x, y, text in zip(s["key"], s["x"], s["y"], sinks["title"]):
        if text:
            out.append(("sink", k, text, _rect(x, y, width(text), LABEL_H, scale)))
    badges = gc.badge_columns(model, state)
    for k, x, y, text in zip(badges["key"], badges["x"], badges["y"], badges["text"]):
        out.append(("badge", k, text, _rect(x, y, width(text), LABEL_H, scale)))
    return out  # the chain rule's labels on edges place themselves clear of these (teach_columns._free_place)


def overlap(a: Rect, b: Rect, margin: float = 0.0) -> bool:
    return a[0] < b[2] - margin and b[0] < a[2] - margin and a[1] < b[3] - margin and b[1] < a[3] - margin


def inside(a: Rect, b: Rect) -> bool:
    return a[0] >= b[0] and a[2] <= b[2] and a[1] >= b[1] and a[3] <= b[3]


def problems(model: GraphModel, state: dict, scale: float = SCALE) -> list[str]:
    """What overlaps at step k: boxes on boxes, labels on labels, labels on boxes not their own, and a box's
    own labels outside it. Empty when the graph is legible."""
    found: list[str] = []
    drawn = shapes(model, state, scale)
    texts = labels(model, state, scale)
    solid = [(k, r) for kind, k, r in drawn if kind in ("box", "sink")]
    found += [f"boxes {a} and {b} overlap" for (a, ra), (b, rb) in _pairs(solid) if overlap(ra, rb)]
    owner = {k: r for k, r in solid}
    for name, k, text, r in texts:
        if name in ("title", "value", "fn", "sink") and not inside(r, owner[k]):
            found.append(f"{name} {text!r} of {k} does not fit its box")
    for (a, ra), (b, rb) in _pairs([(f"{n} {t!r} of {k}", r) for n, k, t, r in texts]):
        if overlap(ra, rb):
            found.append(f"labels {a} and {b} overlap")
    for name, k, text, r in texts:
        if name in ("title", "value", "fn", "sink"):
            continue
        for kb, rb in solid:
            if kb != k and overlap(r, rb, margin=0.5):
                found.append(f"{name} {text!r} of {k} overlaps box {kb}")
    return found


def _pairs(items: list[tuple[str, Rect]]):
    """The pairs of items whose x-extents meet (a sweep over x: a graph has up to a few thousand)."""
    items = sorted(items, key=lambda it: it[1][0])
    for i, (a, ra) in enumerate(items):
        for b, rb in items[i + 1:]:
            if rb[0] >= ra[2]:
                break
            yield (a, ra), (b, rb)
