"""Saved tensors and versions on the graph, as pure functions of a graph model and a state: what each node saved
(with the version it saved), which saved tensors were freed, which an in-place change has outdated (foretelling
where backward will fail), and, when it does, the node it failed at with PyTorch's message."""

from __future__ import annotations

from dataclasses import dataclass

from app.graph_model import GraphModel, shown
from engine.trace.text import brief

SMALL = 4


@dataclass(frozen=True)
class Chip:
    box: int  # the box of the node that saved them
    text: str  # `saved self=a@v0 ✗ now v1`
    status: str  # "kept", "freed" or "outdated"
    tip: str


def newest_versions(model: GraphModel, nodes) -> dict[int, int]:
    """Tensor id -> the version of its newest node made by this step, among the nodes of the view."""
    out: dict[int, int] = {}
    for nid in model.box_of:
        if nid in nodes:
            n = nodes[nid]
            version = n.get("version") or 0
            if version >= out.get(n["tensor"], -1):
                out[n["tensor"]] = version
    return out


def _tensor_name(node: dict) -> str:
    name = node.get("name") or node.get("grad_fn") or node.get("op") or f"node {node['id']}"
    return f"({name})" if " " in name else name


def _entries(node: dict, nodes, newest: dict[int, int]) -> list[tuple[str, str, int | None, int | None]]:
    """(saved name, what it is, its version or None, the tensor's version now when changed since) per entry."""
    out = []
    for s in node.get("saved") or ():
        nid = s.get("node")
        if nid is None or nid not in nodes:
            value = s.get("value")
            out.append((s["name"], brief(value, SMALL) if value is not None else "a tensor", None, None))
            continue
        saved = nodes[nid]
        version = saved.get("version") or 0
        now = newest.get(saved["tensor"], version)
        changed = now if now != version and not s.get("copy") else None
        what = ("copy of " if s.get("copy") else "") + _tensor_name(saved)
        out.append((s["name"], what, version, changed))
    return out


def chips(model: GraphModel, state: dict) -> list[Chip]:
    """One chip per node that saved tensors for backward, at this step."""
    nodes = state["nodes"]
    newest = newest_versions(model, nodes)
    out = []
    for box in model.boxes:
        nid = shown(model, box, nodes)
        if nid is None:
            continue
        n = nodes[nid]
        if not n.get("saved") or not n.get("grad_fn"):
            continue
        parts, outdated = [], False
        for name, what, version, changed in _entries(n, nodes, newest):
            at = f"@v{version}" if version is not None else ""
            stale = f" ✗ now v{changed}" if changed is not None else ""
            outdated = outdated or changed is not None
            parts.append(f"{name}={what}{at}{stale}")
        status = "freed" if n.get("freed") else "outdated" if outdated else "kept"
        head = {"freed": "freed", "outdated": "saved", "kept": "saved"}[status]
        tip = {"freed": "freed by backward (retain_graph=False): a second backward through here fails",
               "outdated": "changed in place since it was saved: backward through here fails",
               "kept": "kept for backward"}[status]
        out.append(Chip(box, f"{head} " + ", ".join(parts), status, tip))
    return out


def warnings(model: GraphModel, state: dict) -> list[tuple[int, str]]:
    """(box, text) foretelling a failure: a saved tensor changed in place since it was saved (from the moment of
    the change), and at the start of a backward call, a node on its way whose saved tensors were freed."""
    nodes = state["nodes"]
    newest = newest_versions(model, nodes)
    out = []
    event = state.get("event") or {}
    reach = _reachable(model, nodes, event["root"]) if event.get("kind") == "backward" else None
    for box in model.boxes:
        nid = shown(model, box, nodes)
        if nid is None:
            continue
        n = nodes[nid]
        if not n.get("saved") or not n.get("grad_fn"):
            continue
        if n.get("freed"):
            if reach is not None and nid in reach:
                out.append((box, f"⚠ backward will fail at {n['grad_fn']}: its saved tensors were freed by "
                                 "an earlier backward (retain_graph=False)"))
            continue
        for _, what, version, changed in _entries(n, nodes, newest):
            if changed is not None:
                out.append((box, f"⚠ backward will fail at {n['grad_fn']}: saved {what}@v{version}, "
                                 f"{what} is now v{changed}"))
                break
    return out


def _reachable(model: GraphModel, nodes, root: int | None) -> set[int]:
    """The nodes a backward from `root` goes through (following inputs that have a grad_fn)."""
    seen: set[int] = set()
    todo = [root] if root is not None and root in nodes else []
    while todo:
        nid = todo.pop()
        if nid in seen:
            continue
        seen.add(nid)
        for i in nodes[nid].get("inputs") or ():
            if i is not None and i in nodes and nodes[i].get("grad_fn") and i not in seen:
                todo.append(i)
    return seen


def failure(model: GraphModel, state: dict) -> tuple[int, str] | None:
    """(box, PyTorch's message) when the step shown is the error a backward node raised, else None."""
    event = state.get("event") or {}
    nid = event.get("node")
    if event.get("kind") != "error" or nid is None or nid not in model.box_of:
        return None
    return model.box_of[nid], f"{event['type']}: {event['message']}"


def wrap(text: str, width: int = 56, lines: int = 8) -> str:
    """Text broken into lines of at most `width` characters at spaces, at most `lines` of them."""
    out: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        out.append(line)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: width - 1] + "…"
    return "\n".join(out)
