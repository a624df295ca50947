"""What the canvas board draws (pure): where each node sits, and each node's labels and ports."""

from __future__ import annotations

from app.canvas import code as cc
from app.canvas import model as cm

NODE_W, NODE_H = 104, 44  # px, as the board's CSS draws a node
GAP_X, GAP_Y = 48, 14
MARGIN = 10


def depths(graph: cm.Graph) -> dict[str, int]:
    """A leaf's column is 0, an op's is one right of its inputs' (at least 1)."""
    out: dict[str, int] = {}
    for n in graph.nodes:
        inputs = [out[i] for i in n.inputs if isinstance(i, str)]
        out[n.name] = 0 if n.op == cm.LEAF else 1 + max(inputs, default=0)
    return out


def place(graph: cm.Graph, positions: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Every node's top-left corner: where it was, or (a new node) in the column of its depth, below the nodes
    already there."""
    out = {n: xy for n, xy in positions.items() if n in graph.names}
    for name, depth in depths(graph).items():
        if name in out:
            continue
        x = MARGIN + depth * (NODE_W + GAP_X)
        y = MARGIN
        while any(abs(px - x) < NODE_W and abs(py - y) < NODE_H + GAP_Y / 2 for px, py in out.values()):
            y += NODE_H + GAP_Y
        out[name] = (x, y)
    return out


def formula(graph: cm.Graph, name: str) -> str:
    """The node's code, as the board shows it: `a = 2.0`, `c = a * b`, or an inline node's `(x - 1.0)`."""
    by_name = {n.name: n for n in graph.nodes}
    n = by_name[name]
    if n.op == cm.LEAF:
        return f"{n.name} = {n.value}"
    text = cc.expression(n, by_name)
    return text if n.inline else f"{n.name} = {text}"


def board(graph: cm.Graph, positions: dict, selected: str | None) -> dict:
    """The board's view: nodes with their place, text and ports (each port: the node wired to it, if any)."""
    done = cm.complete(graph)
    nodes = []
    for n in graph.nodes:
        x, y = positions[n.name]
        ports = [{"label": label, "from": i if isinstance(i, str) else None,
                  "text": "?" if i is None else f"{i:g}" if isinstance(i, float) else i}
                 for label, i in zip(cm.PORTS[n.op], n.inputs, strict=True)]
        kind = "leaf" if n.op == cm.LEAF else "op"
        note = ("requires_grad" if n.requires_grad else "constant") if kind == "leaf" else (
            "waits for inputs" if n.name not in done else f"inline: {n.name}" if n.inline else "")
        nodes.append({"name": n.name, "kind": kind, "formula": formula(graph, n.name), "note": note, "x": x, "y": y,
                      "ports": ports, "waiting": n.name not in done, "backward": n.name in graph.backwards,
                      "selected": selected == n.name})
    return {"nodes": nodes, "palette": cm.PALETTE}
