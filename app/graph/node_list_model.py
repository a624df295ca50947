"""The graph's nodes as a keyboard can reach them: one item per node drawn at step k, in reading order of the
picture (left to right, top to bottom), with a name and what a screen reader should say about it (what it is,
not its numbers: those are the inspector's, and the list then changes only when a node appears)."""

from __future__ import annotations

from app.graph.columns import title
from app.graph.model import GraphModel, key, shown, sink_key


def items(graph: GraphModel | None, state: dict | None) -> list[list[str]]:
    """[key, label, description] per node that exists at this step."""
    if graph is None or state is None:
        return []
    nodes = state["nodes"]
    found: list[tuple[tuple[float, float], list[str]]] = []
    for box in graph.boxes:
        nid = shown(graph, box, nodes)
        if nid is None:
            continue
        node = nodes[nid]
        k = key(box)
        fn = node.get("grad_fn")
        what = f"{fn} output" if fn else ("leaf" if node.get("requires_grad") else "constant")
        label, longer = title(node), title(node, 40)  # what the button shows starts what is said (WCAG 2.5.3)
        said = f"{label}: {what}" + (f" ({longer})" if longer != label else "")
        found.append((_place(graph, k), [k, label, said]))
    for box in graph.sinks:
        if graph.sink_from.get(box) not in nodes:
            continue
        leaf = nodes.get(shown(graph, box, nodes)) or {}
        name = leaf.get("name") or "leaf"
        k = sink_key(box)
        found.append((_place(graph, k), [k, f"AccumulateGrad ({name})", f"AccumulateGrad into {name}.grad"]))
    found.sort(key=lambda item: item[0])
    return [item for _, item in found]


def _place(graph: GraphModel, k: str) -> tuple[float, float]:
    x, y = graph.pos.get(k, (0.0, 0.0))
    return round(x, 3), -round(y, 3)
