"""What the graph shows at step k, as pure functions of a GraphModel and a state: the columns each Bokeh
ColumnDataSource of the GraphView gets (positions once per view, colours and labels every step)."""

from __future__ import annotations

from app.graph.model import (
    BADGE_R,
    BOX_H,
    BOX_W,
    COLOURS,
    CONST_H,
    GHOST_ALPHA,
    LAYER_GAP,
    ROW_GAP,
    SCALE,
    SINK_W,
    GraphModel,
    key,
    shown,
    sink_key,
)
from app.graph.module_boxes import title as title_of_module
from app.graph.text_width import fit
from engine.trace.text import compact, short

IN_BOX = BOX_W * SCALE - 8  # px a label inside a box may take at the default zoom
UNDER_BOX = BOX_W * SCALE  # px a grad label under a box may take: its box's column
ON_EDGE = (LAYER_GAP - BOX_W) * SCALE - 8  # px a flowing gradient's label may take: the gap between layers


def static_columns(model: GraphModel) -> dict[str, dict[str, list]]:
    """Positions and shapes: set once per timeline."""
    boxes = {
        "key": [key(n) for n in model.boxes],
        "x": [model.pos[key(n)][0] for n in model.boxes],
        "y": [model.pos[key(n)][1] for n in model.boxes],
        "h": [CONST_H if model.kinds[n] == "const" else BOX_H for n in model.boxes],
    }
    sinks = {
        "key": [sink_key(n) for n in model.sinks],
        "x": [model.pos[sink_key(n)][0] for n in model.sinks],
        "y": [model.pos[sink_key(n)][1] for n in model.sinks],
    }
    return {"boxes": boxes, "sinks": sinks}


def active_key(model: GraphModel, state: dict) -> str | None:
    step = current_step(model, state)
    if step is None or step["node"] not in model.box_of:
        return None
    box = model.box_of[step["node"]]
    return sink_key(box) if step["name"] == "AccumulateGrad" else key(box)


def current_step(model: GraphModel, state: dict) -> dict | None:
    """The backward `node` event being shown at step k (also while its grad/free events play)."""
    k = state["k"]
    if k < 0 or k >= len(model.step_of):
        return None
    i = model.step_of[k]
    return None if i is None else model.events[i]


def _texts(model: GraphModel, box: int, nid: int, nodes) -> tuple[str, str, str, str]:
    """(title, value, fn, tip_value) of a box showing node nid: they never change once it exists, so they are
    kept. A box of several versions shows their history where an op shows its grad_fn: `v0 → v1 → v2`."""
    texts = model.texts.get(nid)
    if texts is None and box in model.modules:
        name, label = model.modules[box]
        value = nodes[nid]["value"]
        texts = (fit(name, IN_BOX), fit(compact(value), IN_BOX), fit(label, IN_BOX),
                 f"{title_of_module(name, label)} → {short(value, limit=12)}")
        model.texts[nid] = texts
    elif texts is None:
        node = nodes[nid]
        const = model.kinds[box] == "const"
        members = model.members[box]
        if len(members) > 1:
            fn = version_history([nodes[m].get("version") or 0 for m in members[: members.index(nid) + 1]])
        else:
            fn = title(node) if const else node.get("grad_fn") or ""
        texts = ("" if const and len(members) == 1 else fit(title(node), IN_BOX), fit(compact(node["value"]), IN_BOX),
                 fit(fn, IN_BOX), short(node["value"], limit=12))
        model.texts[nid] = texts
    return texts


def version_history(versions: list[int], last: int = 3) -> str:
    """`v0 → v1 → v2`, the newest few."""
    text = " → ".join(f"v{v}" for v in versions[-last:])
    return ("… → " if len(versions) > last else "") + text


def box_columns(model: GraphModel, state: dict, selected: str | None = None, lit: int | None = None) -> dict[str, list]:
    """What every box shows at step k; `lit`: a program line whose nodes are outlined (the editor's hovered)."""
    nodes = state["nodes"]
    active = active_key(model, state)
    cols: dict[str, list] = {c: [] for c in (
        "fill", "alpha", "line", "width", "dash", "title", "value", "grad", "fn", "tip_value", "tip_grad")}
    fill, alpha, line_, width_ = cols["fill"], cols["alpha"], cols["line"], cols["width"]
    title_, value_, grad_, fn_, tip_v, tip_g = (
        cols[c] for c in ("title", "value", "grad", "fn", "tip_value", "tip_grad"))
    for box in model.boxes:
        nid = shown(model, box, nodes)
        kind = model.kinds[box]
        fill.append(COLOURS[kind])
        cols["dash"].append("dashed" if kind == "const" else "solid")
        if nid is None:
            alpha.append(GHOST_ALPHA)
            for c in (title_, value_, grad_, fn_, tip_v, tip_g):
                c.append("")
        else:
            alpha.append(1.0)
            t, v, fn, tv = _texts(model, box, nid, nodes)
            grad = nodes[nid].get("grad")
            title_.append(t)
            value_.append(v)
            fn_.append(fn)
            tip_v.append(tv)
            grad_.append("" if grad is None else fit("grad " + compact(grad), UNDER_BOX))
            tip_g.append("None" if grad is None else short(grad, limit=12))
        if active is None and selected is None and lit is None:
            line_.append(COLOURS["border"])
            width_.append(1.0)
        else:
            line, width = _outline(key(box), active, selected, lit is not None and lit in model.lines.get(box, ()))
            line_.append(line)
            width_.append(width)
    return cols


def sink_columns(model: GraphModel, state: dict, selected: str | None = None) -> dict[str, list]:
    nodes = state["nodes"]
    active = active_key(model, state)
    cols: dict[str, list] = {"alpha": [], "line": [], "width": [], "title": [], "tip_value": [], "tip_grad": []}
    for box in model.sinks:
        alive = model.sink_from[box] in nodes
        cols["alpha"].append(1.0 if alive else GHOST_ALPHA)
        cols["title"].append("AccumulateGrad" if alive else "")
        nid = shown(model, box, nodes)
        leaf = nodes[nid] if nid is not None else {}
        cols["tip_value"].append(f"{leaf.get('name') or 'leaf'}.grad")
        cols["tip_grad"].append(short(leaf.get("grad"), limit=12))
        line, width = _outline(sink_key(box), active, selected)
        cols["line"].append(line)
        cols["width"].append(width)
    return cols


def _outline(k: str, active: str | None, selected: str | None, lit: bool = False) -> tuple[str, float]:
    if k == active:
        return COLOURS["active"], 4.0
    if k == selected:
        return COLOURS["selected"], 3.0
    if lit:
        return COLOURS["lit"], 3.5
    return COLOURS["border"], 1.0


def title(node: dict, limit: int = 18) -> str:
    name = node.get("name") or ("const" if node["kind"] == "leaf" else node.get("op") or "op")
    return name if len(name) <= limit else name[: limit - 1] + "…"


def edge_geometry(model: GraphModel) -> dict[str, list]:
    """Bezier curves from the right side of each input to the left side of its user; fan-in drawn twice."""
    if model.geometry is None:
        model.geometry = _edge_geometry(model)
    return model.geometry


def _edge_geometry(model: GraphModel) -> dict[str, list]:
    """One row per curve segment; column `edge` says which edge it belongs to. A long edge leaves and
    enters its nodes in a curve and runs between them as a polyline through its bend points (which sit
    between the nodes of the layers it crosses), thinned to the points where its course changes."""
    seen: dict[tuple[str, str], int] = {}
    cols: dict[str, list] = {c: [] for c in ("x0", "y0", "x1", "y1", "cx0", "cy0", "cx1", "cy1", "edge")}

    def curve(e: int, a: tuple[float, float], b: tuple[float, float], bend: float = 0.0) -> None:
        mid = (a[0] + b[0]) / 2
        for c, value in zip(cols, (a[0], a[1], b[0], b[1], mid, a[1] + bend, mid, b[1] + bend, e)):
            cols[c].append(value)

    def line(e: int, a: tuple[float, float], b: tuple[float, float]) -> None:
        third = ((b[0] - a[0]) / 3, (b[1] - a[1]) / 3)
        control = (a[0] + third[0], a[1] + third[1], b[0] - third[0], b[1] - third[1])
        for c, value in zip(cols, (a[0], a[1], b[0], b[1], *control, e)):
            cols[c].append(value)

    for e, (u, v) in enumerate(model.edges):
        (ux, uy), (vx, vy) = model.pos[u], model.pos[v]
        start = (ux + (SINK_W if u.startswith("a") else BOX_W) / 2, uy)
        end = (vx - BOX_W / 2, vy)
        bends = model.layout.routes.get(e)
        if not bends:
            dup = seen.get((u, v), 0)
            seen[(u, v)] = dup + 1
            curve(e, start, end, 0.4 * ((dup + 1) // 2) * (1 if dup % 2 else -1))
            continue
        path = [(layer * LAYER_GAP + side * BOX_W / 2, -row * ROW_GAP) for layer, row in bends for side in (-1, 1)]
        curve(e, start, path[0])
        kept = _thin(path)
        for a, b in zip(kept, kept[1:]):
            line(e, a, b)
        curve(e, path[-1], end)
    return cols


def _thin(points: list[tuple[float, float]], tolerance: float = 0.2) -> list[tuple[float, float]]:
    """Ramer-Douglas-Peucker: the fewest points whose polyline stays within `tolerance` of all of them (a
    bend's points are where a box of its layer would be: 0.2 keeps the line well clear of the boxes
    beside it, a row away)."""
    keep = {0, len(points) - 1}
    spans = [(0, len(points) - 1)]
    while spans:
        i, j = spans.pop()
        (ax, ay), (bx, by) = points[i], points[j]
        length = max(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5, 1e-12)
        far, worst = None, tolerance
        for m in range(i + 1, j):
            px, py = points[m]
            d = abs((bx - ax) * (ay - py) - (ax - px) * (by - ay)) / length
            if d > worst:
                far, worst = m, d
        if far is not None:
            keep.add(far)
            spans += [(i, far), (far, j)]
    return [points[m] for m in sorted(keep)]


def edge_columns(model: GraphModel, state: dict) -> dict[str, list]:
    """Colour, width and alpha of every edge at step k: red where a gradient is flowing."""
    nodes = state["nodes"]
    flowing = _flowing_edges(model, state)
    styles = []
    alive_at: dict[str, bool] = {}  # a node's edges ask the same thing: asked once per node

    def alive_node(n: str) -> bool:
        if n not in alive_at:
            alive_at[n] = _alive(model, n, nodes)
        return alive_at[n]

    for i, (u, v) in enumerate(model.edges):
        alive = alive_node(u) and alive_node(v)
        hot = i in flowing
        styles.append((COLOURS["flow"] if hot else COLOURS["edge"], 3.5 if hot else 1.4,
                       1.0 if alive else GHOST_ALPHA))
    segments = edge_geometry(model)["edge"]
    return {
        "colour": [styles[e][0] for e in segments],
        "width": [styles[e][1] for e in segments],
        "alpha": [styles[e][2] for e in segments],
    }


def _alive(model: GraphModel, k: str, nodes: dict) -> bool:
    box = int(k[1:])
    return (model.sink_from[box] if k.startswith("a") else box) in nodes


def _flowing_edges(model: GraphModel, state: dict) -> dict[int, object]:
    """Edge index -> the gradient travelling along it at step k (against the edge's direction)."""
    step = current_step(model, state)
    if step is None:
        return {}
    out: dict[int, object] = {}
    if step["node"] not in model.box_of:
        return out
    if step["name"] == "AccumulateGrad":
        box = model.box_of[step["node"]]
        target = (sink_key(box), key(box))
        for i, edge in enumerate(model.edges):
            if edge == target:
                out[i] = step.get("grad_in")
        return out
    used: set[int] = set()
    me = key(model.box_of[step["node"]])
    for g in step.get("grads_out") or []:
        if g.get("to") is None or g["to"] not in model.box_of:
            continue
        source = key(model.box_of[g["to"]])
        for i, edge in enumerate(model.edges):
            if i not in used and edge == (source, me):
                used.add(i)
                out[i] = g["value"]
                break
    return out


def badge_columns(model: GraphModel, state: dict) -> dict[str, list]:
    """Version badges after in-place changes (a box of several versions shows their history instead); what a
    node saved is on its chip (teach_columns.chip_columns)."""
    nodes = state["nodes"]
    cols: dict[str, list] = {"x": [], "y": [], "text": [], "fill": [], "tip": [], "key": []}
    for box in model.boxes:
        nid = shown(model, box, nodes)
        if nid is None:
            continue
        n = nodes[nid]
        x, y = model.pos[key(box)]
        if box in model.modules:
            continue  # a module call's box: its ops' versions show when it is opened
        if n.get("version") and len(model.members[box]) == 1:
            cols["x"].append(x - BOX_W / 2 + BADGE_R)
            cols["y"].append(y + BOX_H / 2 + 0.6 * BADGE_R)
            cols["text"].append(f"v{n['version']}")
            cols["fill"].append("#ffffff")
            cols["tip"].append(f"version {n['version']} after an in-place change")
            cols["key"].append(key(box))
    return cols
