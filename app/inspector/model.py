"""What the inspector lists for the clicked node at step k, as (label, text) rows."""

from __future__ import annotations

from app.graph.model import shown
from app.player.caption import node_name
from app.timeline import formula_at
from engine.trace.formulas import SMALL
from engine.trace.text import brief, short


def saved_value(nodes: dict, entry: dict) -> str:
    """What one saved entry holds: a node's name, a small value the graph does not show (an index), or None
    (a dim that index did not index, a bound clamp was not given)."""
    if entry.get("node") is not None:
        return node_name(nodes, entry["node"])
    if entry.get("none"):
        return "None"
    value = entry.get("value")
    return brief(value, SMALL) if value is not None else "a tensor"


def next_functions(nodes: dict, node: dict) -> str:
    """PyTorch's `grad_fn.next_functions`, e.g. `((AccumulateGrad, 0), (None, 0))`."""
    if not node.get("grad_fn"):
        return "—"
    parts = []
    for i in node.get("inputs") or []:
        n = nodes.get(i) if i is not None else None
        if n is None:
            fn = "None"
        elif n["kind"] == "leaf":
            fn = "AccumulateGrad" if n.get("requires_grad") else "None"
        else:
            fn = n.get("grad_fn") or "None"
        parts.append(f"({fn}, 0)")
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def rows(timeline, state: dict, selected: str | None, graph=None) -> tuple[str, list[tuple[str, str]]]:
    """(heading, rows) for the box with key `t<id>` or `a<id>` of `graph` (the node it shows at this step: the
    newest version of a leaf's box); a hint when nothing is selected."""
    if not selected:
        return "Inspector", [("", "Click a node in the graph to see its value, grad and grad_fn.")]
    nodes = state["nodes"]
    nid = int(selected[1:])
    if graph is not None and nid in graph.members:
        nid = shown(graph, nid, nodes)
    node = nodes.get(nid) if nid is not None else None
    if node is None:
        return "Inspector", [("", "This node has not been computed yet at this step.")]
    if selected.startswith("a"):
        return _sink(state, nid, node)
    k = state["k"]
    heading = node.get("name") or node.get("grad_fn") or node.get("op") or f"node {nid}"
    out = [
        ("value", short(node["value"], limit=64)),
        ("grad", short(node.get("grad"), limit=64)),
        ("shape", f"torch.Size({list(node.get('shape') or [])})"),
        ("dtype", f"torch.{node.get('dtype')}"),
        ("requires_grad", str(bool(node.get("requires_grad")))),
        ("is_leaf", str(node["kind"] == "leaf" or not node.get("grad_fn"))),
        ("grad_fn", node.get("grad_fn") or "None"),
    ]
    if node.get("grad_fn"):
        inputs = ", ".join(node_name(nodes, i) if i is not None else "a number" for i in node.get("inputs") or [])
        out.append(("inputs", inputs or "—"))
        out.append(("next_functions", next_functions(nodes, node)))
        saved = node.get("saved") or []
        if saved:
            state_word = "freed" if node.get("freed") else "kept"
            listed = ", ".join(f"{s['name']} = {saved_value(nodes, s)}" for s in saved)
            out.append(("saved tensors", f"{listed} ({state_word})"))
        else:
            out.append(("saved tensors", "none"))
    out.append(("version", str(node.get("version") or 0)))
    with_numbers = formula_at(timeline, nid, k) if node.get("grad_fn") else None
    if with_numbers:
        out.append(("vjp", with_numbers))
    elif node.get("formula"):
        out.append(("vjp", node["formula"]))
    return heading, out


def _sink(state: dict, nid: int, leaf: dict) -> tuple[str, list[tuple[str, str]]]:
    name = leaf.get("name") or "leaf"
    out = [
        ("accumulates into", f"{name}.grad"),
        (f"{name}.grad", short(leaf.get("grad"), limit=64)),
        ("vjp", f"{name}.grad += grad  (first time: {name}.grad = grad)"),
    ]
    return "AccumulateGrad", out
