"""Where the chain rule and the saved tensors go on the graph at step k, as pure functions of a GraphModel, a
state and the timeline: the columns of the GraphView's teaching glyphs (teaching.py)."""

from __future__ import annotations

from app.graph import chain_model, saved_model
from app.graph.columns import current_step, edge_geometry
from app.graph.model import BOX_H, BOX_W, LAYER_GAP, SCALE, SINK_H, SINK_W, GraphModel, key, sink_key
from app.graph.text_width import fit, width
from app.timeline import introduced
from engine.trace.text import brief

CHIP_STYLE = {  # status -> (fill, border, text colour, alpha)
    "kept": ("#ffe2b0", "#d98200", "#5a3500", 1.0),
    "freed": ("#f0f0f0", "#b5b5b5", "#777777", 0.55),
    "outdated": ("#ffdcdc", "#d62728", "#8b0000", 1.0),
}
LINE_H = 0.25  # a line of 11 px text and its leading, in graph units, at the zoom a graph opens with
GAP_BELOW = 0.47  # an edge's label hangs from under the boxes it joins, between their grad labels
CHIP_ROOM = LAYER_GAP * SCALE - 24  # px a chip's text may take: two chips side by side in next layers stay apart
CHIP_DY = BOX_H / 2 + 0.14  # a chip's centre over its box's: clear of the box and of the grad label above it


def flowing(model: GraphModel, state: dict) -> list[tuple[int, int | None]]:
    """(edge index, index in the step's grads_out, or None for AccumulateGrad's edge) of every edge a gradient
    travels along at step k."""
    step = current_step(model, state)
    if step is None or step["node"] not in model.box_of:
        return []
    box = model.box_of[step["node"]]
    if step["name"] == "AccumulateGrad":
        return [(i, None) for i, edge in enumerate(model.edges) if edge == (sink_key(box), key(box))][:1]
    out, used = [], set()
    me = key(box)
    for j, g in enumerate(step.get("grads_out") or []):
        if g.get("to") is None or g["to"] not in model.box_of or g["value"] is None:
            continue
        source = key(model.box_of[g["to"]])
        for i, edge in enumerate(model.edges):
            if i not in used and edge == (source, me):
                used.add(i)
                out.append((i, j))
                break
    return out


def _segments(model: GraphModel, e: int) -> list[tuple[float, ...]]:
    g = edge_geometry(model)
    names = ("x0", "y0", "cx0", "cy0", "cx1", "cy1", "x1", "y1")
    return [tuple(g[n][row] for n in names) for row, edge in enumerate(g["edge"]) if edge == e]


def _bezier(seg: tuple[float, ...], t: float) -> tuple[float, float]:
    x0, y0, cx0, cy0, cx1, cy1, x1, y1 = seg
    a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t**3
    return a * x0 + b * cx0 + c * cx1 + d * x1, a * y0 + b * cy0 + c * cy1 + d * y1


def edge_label_columns(model: GraphModel, state: dict, timeline) -> dict[str, list]:
    """One label per edge carrying a gradient: the local derivative, grad × local = sent, and a broadcast sum,
    hanging under the middle of the edge (its top); edges between the same two nodes stack their labels."""
    cols: dict[str, list] = {"x": [], "y": [], "text": []}
    step = current_step(model, state)
    if step is None:
        return cols
    intro = introduced(timeline)
    placed = _obstacles(model)  # (left, right, top, bottom) of the boxes, then of the labels placed so far
    for e, j in flowing(model, state):
        if j is None:  # AccumulateGrad's edge: the grad it got, unless the sum of those that met there says it
            if chain_model.fan_in(model.events, model.step_of[state["k"]]) is not None:
                continue
            lines = [brief(step.get("grad_in"), chain_model.SMALL)]
        else:
            lines = chain_model.edge_lines(step, j, intro)
            to = state["nodes"].get(step["grads_out"][j]["to"]) if step["grads_out"][j]["to"] is not None else None
            if to is not None and to.get("name"):
                lines[0] = f"→ {to['name']}: {lines[0]}"
        segs = _segments(model, e)
        x, y = _bezier(segs[len(segs) // 2], 0.5 if len(segs) % 2 else 0.0)
        y = _free_place(placed, x, y - GAP_BELOW, max(map(width, lines)) / SCALE, len(lines) * LINE_H + 0.12)
        cols["x"].append(x)
        cols["y"].append(y)
        cols["text"].append("\n".join(lines))
    return cols


def _obstacles(model: GraphModel) -> list[tuple[float, float, float, float]]:
    """The boxes and sinks of the view, with the chip above a box, as (left, right, top, bottom)."""
    out = []
    for box in model.boxes:
        x, y = model.pos[key(box)]
        out.append((x - BOX_W / 2, x + BOX_W / 2, y + BOX_H / 2 + 0.3, y - BOX_H / 2))
    for box in model.sinks:
        x, y = model.pos[sink_key(box)]
        out.append((x - SINK_W / 2, x + SINK_W / 2, y + SINK_H / 2, y - SINK_H / 2))
    return out


def _free_place(placed: list, x: float, top: float, width: float, height: float) -> float:
    """The highest top at or under `top` where a label of this size centred at x overlaps none placed (labels
    of edges into the same node would cover each other); the label is then placed there."""
    left, right = x - width / 2, x + width / 2
    moved = True
    while moved:
        moved = False
        for a, b, t, u in placed:
            if left < b and a < right and top > u and top - height < t:
                top, moved = u - 0.06, True
    placed.append((left, right, top, top - height))
    return top


def pulse_columns(model: GraphModel, state: dict) -> dict[str, list]:
    """The path each gradient travels at step k (from the node that sends it to the one it reaches, sampled
    along the drawn curve), for the browser to animate."""
    xs, ys = [], []
    for e, _ in flowing(model, state):
        points = [_bezier(seg, t / 8) for seg in reversed(_segments(model, e)) for t in range(8, -1, -1)]
        xs.append([p[0] for p in points])
        ys.append([p[1] for p in points])
    return {"xs": xs, "ys": ys, "k": [state["k"]] * len(xs)}


def _covers_a_box(model: GraphModel, k: str, left: float, right: float, top: float) -> bool:
    """Whether a line of text from `top` down, between left and right, would lie over a box other than k's."""
    for other, (x, y) in model.pos.items():
        w, h = (SINK_W, SINK_H) if other.startswith("a") else (BOX_W, BOX_H)
        if other != k and left < x + w / 2 and x - w / 2 < right and top > y - h / 2 and top - LINE_H < y + h / 2:
            return True
    return False


def _under(model: GraphModel, k: str, gap: float) -> tuple[float, float]:
    x, y = model.pos[k]
    return x, y - (SINK_H if k.startswith("a") else BOX_H) / 2 - gap


def arrival_columns(model: GraphModel, state: dict, timeline) -> dict[str, list]:
    """Under the node a gradient reaches: the sum when several met there (`3.0 + 3.0 = 6.0`), and the seed of
    a backward call at its output (`gradient= v = [1, 1]` for a vector-Jacobian product)."""
    cols: dict[str, list] = {"x": [], "y": [], "text": [], "align": []}
    event = state.get("event") or {}
    events = model.events
    nodes = state["nodes"]
    if event.get("kind") == "backward":
        root = event.get("root")
        if root in model.box_of and root in nodes:  # the output is rightmost: its label ends at its right side
            k = key(model.box_of[root])
            text = chain_model.seed(event, nodes[root])
            x, y = _under(model, k, 0.38)
            right = x + BOX_W / 2
            left, above = right - width(text) / SCALE, model.pos[k][1] + BOX_H / 2 + 0.2 + LINE_H
            if _covers_a_box(model, k, left, right, y) and not _covers_a_box(model, k, left, right, above):
                y = above  # a leaf's, with others stacked under it: above it, clear of its version badge
            cols["x"].append(right)
            cols["y"].append(y)
            cols["text"].append(text)
            cols["align"].append("right")
        return cols
    step = current_step(model, state)
    if step is None or step["node"] not in model.box_of:
        return cols
    i = model.step_of[state["k"]]
    text = chain_model.fan_in(events, i)
    if text is None:
        return cols
    box = model.box_of[step["node"]]
    k = sink_key(box) if step["name"] == "AccumulateGrad" else key(box)
    x, y = _under(model, k, 0.38 if k.startswith("t") else 0.2)
    cols["x"].append(x)
    cols["y"].append(y)
    cols["text"].append("grads meet: " + text)
    cols["align"].append("center")
    return cols


def chip_columns(model: GraphModel, state: dict, index: saved_model.SavedIndex) -> dict[str, list]:
    """A chip on top of every node that saved tensors: what it saved and their versions, faded once freed, red
    once an in-place change outdated one (cut to CHIP_ROOM; `full` is the whole text, for the tooltip)."""
    cols: dict[str, list] = {c: [] for c in ("x", "y", "text", "fill", "line", "colour", "alpha", "tip", "full")}
    for chip in saved_model.chips(model, state, index):
        x, y = model.pos[key(chip.box)]
        fill, line, colour, alpha = CHIP_STYLE[chip.status]
        for c, v in zip(cols, (x, y + CHIP_DY, fit(chip.text, CHIP_ROOM), fill, line, colour, alpha, chip.tip,
                               chip.text)):
            cols[c].append(v)
    return cols


def note_columns(model: GraphModel, state: dict, index: saved_model.SavedIndex) -> dict[str, list]:
    """Red notes under a node: where backward will fail (foretold), and PyTorch's message where it did; each
    reaches towards the middle of the graph, so that it stays in view."""
    cols: dict[str, list] = {"x": [], "y": [], "text": [], "align": [], "baseline": []}
    failed = saved_model.failure(model, state)
    notes = [] if failed is None else [(failed[0], saved_model.wrap(failed[1], 44, 6))]
    notes += [(box, saved_model.wrap(text, 40)) for box, text in saved_model.warnings(model, state, index)
              if failed is None or box != failed[0]]
    x0, x1, _, _ = model.extent
    for box, text in notes:
        x, y = model.pos[key(box)]
        right = x > (x0 + x1) / 2
        cols["x"].append(x + BOX_W / 2 if right else x - BOX_W / 2)
        cols["y"].append(y - BOX_H / 2 - 0.2)
        cols["text"].append(text)
        cols["align"].append("right" if right else "left")
        cols["baseline"].append("top")
    return cols
