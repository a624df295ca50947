"""The graph's structure and layout, as pure functions: which nodes a view of the timeline shows (all of it, or
one iteration of its training loop), how they group into boxes, and where each box goes (columns.py
says what they show at step k).

Every tensor version is a box (key `t<id>`), but for a leaf's versions made in place under no_grad, which
share the leaf's box; every leaf that requires grad also has an `AccumulateGrad` sink (key `a<id>`, an
ellipse) to its left, where backward ends. Colours follow torchviz: leaves light blue, ops grey, outputs
green, saved tensors orange.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.graph.layout import Layout, layered_layout
from app.graph.module_boxes import Calls
from app.timeline import last_step_index

LAYER_GAP = 2.8  # the gap between two layers' boxes holds a gradient's label
ROW_GAP = 1.3  # a node is 0.8 high: the gap below it holds its grad label
BOX_W, BOX_H = 1.6, 0.8
CONST_H = 0.7  # constants (no grad) are drawn smaller
SINK_W, SINK_H = 1.5, 0.5
SCALE = 72.0  # px per unit at the default zoom: every label is 11 px and fits its place (test_legibility.py)
FONT = 11.0  # px, every label of the graph
LINE = 0.24  # units between a box's title, value and grad_fn lines
GRAD_DY = 0.52  # units from a box's centre down to its grad label
BADGE_R = 0.13  # units: a badge's radius

COLOURS = {
    "leaf": "#add8e6",
    "const": "#f4f4f4",
    "op": "#d3d3d3",
    "output": "#caff70",
    "sink": "#ececec",
    "saved": "#ffa500",
    "module": "#e2d8f3",
    "freed": "#c8c8c8",
    "edge": "#9a9a9a",
    "flow": "#d62728",
    "active": "#d62728",
    "selected": "#1f5fbf",
    "lit": "#d99a00",
    "border": "#555555",
}
GHOST_ALPHA = 0.12


@dataclass
class GraphModel:
    """The static part of one view of the graph (the whole timeline, or one segment of it: an iteration of the
    training loop), with every node's place."""

    boxes: list[int] = field(default_factory=list)  # box ids (a box's first node id), in creation order
    members: dict[int, list[int]] = field(default_factory=dict)  # box id -> the node ids (versions) it shows
    box_of: dict[int, int] = field(default_factory=dict)  # node id -> its box
    sinks: list[int] = field(default_factory=list)  # box ids of leaves that have an AccumulateGrad sink
    layout: Layout = field(default_factory=Layout)  # key -> (layer, row), and bends of long edges
    pos: dict[str, tuple[float, float]] = field(default_factory=dict)  # key -> (x, y)
    edges: list[tuple[str, str]] = field(default_factory=list)  # (from key, to key), forward direction
    kinds: dict[int, str] = field(default_factory=dict)
    sink_from: dict[int, int] = field(default_factory=dict)  # leaf box id -> first op id that uses it
    step_of: list[int | None] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    extent: tuple[float, float, float, float] = (0.0, 1.0, 0.0, 1.0)  # x0, x1, y0, y1
    texts: dict[int, tuple[str, str, str, str]] = field(default_factory=dict)  # id -> fixed labels, memo
    geometry: dict[str, list] | None = None  # edge_geometry, memo
    shape: tuple | None = None  # what the layout depends on: views of one shape share one layout
    modules: dict[int, tuple[str, str]] = field(default_factory=dict)  # box id -> (name, label) of a module call
    lines: dict[int, set[int]] = field(default_factory=dict)  # box id -> the program lines that made its nodes


def key(node_id: int) -> str:
    return f"t{node_id}"


def sink_key(node_id: int) -> str:
    return f"a{node_id}"


def selectable(k: str, state: dict) -> bool:
    """Whether a click on node `k` selects it at this step: an AccumulateGrad always, a box once it exists."""
    return k.startswith("a") or int(k[1:]) in state["nodes"]


def shown(model: GraphModel, box: int, nodes) -> int | None:
    """The node a box shows at a step whose state has `nodes`: its newest version made by then."""
    for nid in reversed(model.members.get(box, (box,))):
        if nid in nodes:
            return nid
    return None


def view_of(events: list[dict], start: int, end: int, nodes) -> list[int]:
    """The node ids a view of events[start:end] shows: the nodes those events make or act on, and the nodes
    the ones they make take as inputs or saved (made before: the data, the parameters as the iteration found
    them)."""
    made: list[int] = []
    ids: set[int] = set()
    for e in events[start:end]:
        kind = e["kind"]
        if kind in ("leaf", "op", "inplace"):
            made.append(e["id"])
        elif kind in ("node", "grad", "zero_grad", "free"):
            if e.get("node") is not None:
                ids.add(e["node"])
            for g in e.get("grads_out") or ():
                if g.get("to") is not None:
                    ids.add(g["to"])
        elif kind == "backward" and e.get("root") is not None:
            ids.add(e["root"])
    ids.update(made)
    for nid in made:
        n = nodes[nid]
        for i in n.get("inputs") or ():
            if i is not None:
                ids.add(i)
        for s in n.get("saved") or ():
            if s.get("node") is not None:
                ids.add(s["node"])
    return sorted(ids)


@dataclass
class Facts:
    """What every view of a timeline needs, found once: for every step the backward step shown, the roots of
    the backward calls, and for each version of a leaf (made in place under no_grad) the leaf's first node."""

    step_of: list[int | None]
    roots: set[int]
    heads: dict[int, int]
    made_at: dict[int, int]  # node id -> the index of the event that made it


def facts(events: list[dict]) -> Facts:
    heads: dict[int, int] = {}
    roots: set[int] = set()
    made_at: dict[int, int] = {}
    for i, e in enumerate(events):
        kind = e["kind"]
        if kind in ("leaf", "op", "inplace"):
            made_at[e["id"]] = i
        if kind == "leaf":
            heads[e["id"]] = e["id"]
        elif kind == "inplace" and not e.get("grad_fn") and e["inputs"] and e["inputs"][0] in heads:
            heads[e["id"]] = heads[e["inputs"][0]]
        elif kind == "backward" and e.get("root") is not None:
            roots.add(e["root"])
    return Facts(last_step_index(events), roots, heads, made_at)


def build(events: list[dict], nodes, previous: GraphModel | None = None, view: list[int] | None = None,
          layouts: dict | None = None, known: Facts | None = None, groups: dict[int, int] | None = None,
          calls: Calls | None = None) -> GraphModel:
    """Lay out the nodes of a view (node ids; all of the timeline's by default) once, so stepping only changes
    colours and labels. A leaf and the versions of it made in place under no_grad (`x -= lr * x.grad`, an
    optimizer's step) are one box, keyed by the leaf's first node in every view.

    With the previous program's model, nodes it had keep their places (the builder grows graphs); with
    `layouts` (a dict kept by the caller), views of the same shape (the iterations of a loop) share one.
    With `groups` (node id -> a call of `calls`, module_boxes.py), the nodes of a module call are one box."""
    known = known or facts(events)
    ids = list(nodes) if view is None else view
    present = set(ids)
    model = GraphModel(events=events, step_of=known.step_of)
    roots = known.roots & present
    consumers: dict[int, list[int]] = {}
    for nid in ids:
        for i in nodes[nid].get("inputs") or []:
            if i is not None and i in present:
                consumers.setdefault(i, []).append(nid)
    if not roots:
        roots = {n for n in ids if nodes[n].get("grad_fn") and n not in consumers}
    order: list[str] = []
    group_box: dict[int, int] = {}  # module call -> its box
    linked: set[tuple[str, str]] = set()  # the edges into module boxes (drawn once each)
    for nid in ids:
        n = nodes[nid]
        if groups and nid in groups:
            _add_to_module(model, nid, n, groups[nid], group_box, calls, present, order, nid in roots, linked)
            continue
        box = known.heads.get(nid, nid)
        model.box_of[nid] = box
        if box in model.members:  # a new version of a leaf, made under no_grad: drawn in the leaf's box
            model.members[box].append(nid)
            if n.get("requires_grad") and model.kinds[box] == "const":
                model.kinds[box] = "leaf"
            continue
        model.boxes.append(box)
        model.members[box] = [nid]
        model.kinds[box] = _kind(n, nid in roots)
        order.append(key(box))
        if box != nid:
            continue  # a leaf's version, made by an update: not drawn from what it was made of
        for i in n.get("inputs") or []:
            if i is not None and i in present:
                model.edges.append((key(model.box_of[i]), key(box)))
    for box in model.boxes:
        if model.kinds[box] == "leaf":
            users = [c for m in model.members[box] for c in consumers.get(m, []) if nodes[c].get("grad_fn")]
            model.sinks.append(box)
            model.sink_from[box] = min(users) if users else model.members[box][0]
            order.insert(order.index(key(box)), sink_key(box))
            model.edges.append((sink_key(box), key(box)))
    for nid, box in model.box_of.items():
        line = events[known.made_at[nid]].get("line") if nid in known.made_at else None
        if line is not None:
            model.lines.setdefault(box, set()).add(line)
    _place(model, order, previous, layouts)
    return model


def _add_to_module(model: GraphModel, nid: int, node: dict, call: int, group_box: dict[int, int], calls: Calls,
                   present: set[int], order: list[str], is_output: bool, linked: set) -> None:
    """Node nid is drawn as the box of module call `call`: the box of the call's first node, whose edges come
    from everything outside it that the call's nodes use."""
    box = group_box.get(call)
    if box is None:
        box = group_box[call] = nid
        model.boxes.append(box)
        model.members[box] = []
        model.kinds[box] = "module"
        model.modules[box] = (calls.names[call], calls.labels[call])
        order.append(key(box))
    model.members[box].append(nid)
    model.box_of[nid] = box
    if is_output:
        model.kinds[box] = "output"
    me = key(box)
    for i in node.get("inputs") or []:
        if i is not None and i in present and model.box_of[i] != box:
            edge = (key(model.box_of[i]), me)
            if edge not in linked:
                linked.add(edge)
                model.edges.append(edge)


def _place(model: GraphModel, order: list[str], previous: GraphModel | None, layouts: dict | None) -> None:
    index = {k: i for i, k in enumerate(order)}
    model.shape = (len(order), tuple((index[u], index[v]) for u, v in model.edges))
    cached = layouts.get(model.shape) if layouts is not None and previous is None else None
    if cached is not None:  # the same nodes and edges in the same order: the same places, bends and all
        template_order, template = cached
        rename = dict(zip(template_order, order))
        model.layout = Layout(places={rename[k]: p for k, p in template.places.items()}, routes=template.routes,
                              edges=model.edges)
    else:
        model.layout = layered_layout(order, model.edges, previous.layout if previous else None)
        if layouts is not None:
            if len(layouts) > 64:
                layouts.clear()
            layouts[model.shape] = (order, model.layout)
    model.pos = {k: (layer * LAYER_GAP, -row * ROW_GAP) for k, (layer, row) in model.layout.places.items()}
    xs = [p[0] for p in model.pos.values()] or [0.0]
    ys = [p[1] for p in model.pos.values()] or [0.0]
    model.extent = (min(xs) - BOX_W, max(xs) + BOX_W, min(ys) - 1.0, max(ys) + 1.0)


def _is_leaf(node: dict) -> bool:
    """A leaf, or a new version of one made in place under no_grad (`x -= lr * x.grad`)."""
    return node["kind"] == "leaf" or (node["kind"] == "inplace" and not node.get("grad_fn"))


def _kind(node: dict, is_output: bool) -> str:
    if is_output:
        return "output"
    if _is_leaf(node):
        return "leaf" if node.get("requires_grad") else "const"
    return "op" if node.get("grad_fn") else "const"
