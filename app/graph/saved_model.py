"""Saved tensors and versions on the graph, as pure functions of a graph model and a state: what each node saved
(with the version it saved), which saved tensors were freed, which an in-place change has outdated (foretelling
where backward will fail), and, when it does, the node it failed at with PyTorch's message."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field

from app.graph.model import GraphModel, shown
from engine.trace.text import brief

SMALL = 4


@dataclass(frozen=True)
class Chip:
    box: int  # the box of the node that saved them
    text: str  # `saved self=a@v0 ✗ now v1`
    status: str  # "kept", "freed" or "outdated"
    tip: str


@dataclass(frozen=True)
class SavedIndex:
    """What a view's nodes saved, found once per view: the boxes whose nodes saved tensors, every tensor's
    versions (node ids ascending, the newest version by each), and per node that saved tensors the (node,
    tensor) of each; what a step shows of a node is kept by what it depends on (`memo`)."""

    savers: list[int]
    versions: dict[int, tuple[list[int], list[int]]]
    saved_tensors: dict[int, tuple[tuple[int, int], ...]]
    memo: dict = field(default_factory=dict, compare=False)

    def newest(self, tensor: int, made: int) -> int | None:
        """The version of the tensor's newest node among the first `made` nodes (those made by a step)."""
        ids, versions = self.versions.get(tensor, ((), ()))
        j = bisect_left(ids, made) - 1
        return versions[j] if j >= 0 else None

    def now(self, nid: int, made: int) -> tuple:
        """What node nid's saved entries depend on at a step: the newest version of each saved tensor."""
        return tuple(self.newest(t, made) if s < made else None for s, t in self.saved_tensors.get(nid, ()))


def saved_index(model: GraphModel, intro) -> SavedIndex:
    """intro(node id) -> the event that made the node (app.timeline.introduced)."""
    savers, versions, saved_tensors = [], {}, {}
    for nid in sorted(model.box_of):
        ev = intro(nid)
        ids, vs = versions.setdefault(ev["tensor"], ([], []))
        ids.append(nid)
        vs.append(max(ev.get("version") or 0, vs[-1] if vs else 0))
        if ev.get("saved") and ev.get("grad_fn"):
            saved_tensors[nid] = tuple((e["node"], intro(e["node"])["tensor"]) for e in ev["saved"]
                                       if e.get("node") is not None and intro(e["node"]) is not None)
    for box in model.boxes:
        if any(m in saved_tensors for m in model.members[box]):
            savers.append(box)
    return SavedIndex(savers, versions, saved_tensors)


def _tensor_name(node: dict) -> str:
    name = node.get("name") or node.get("grad_fn") or node.get("op") or f"node {node['id']}"
    return f"({name})" if " " in name else name


def _entries(node: dict, nodes, index: SavedIndex) -> list[tuple[str, str, int | None, int | None]]:
    """(saved name, what it is, its version or None, the tensor's version now when changed since) per entry."""
    made = len(nodes)
    key = ("entries", node["id"], index.now(node["id"], made))
    out = index.memo.get(key)
    if out is None:
        out = index.memo[key] = _find_entries(node, nodes, index, made)
    return out


def _find_entries(node: dict, nodes, index: SavedIndex, made: int) -> list:
    out = []
    for s in node.get("saved") or ():
        nid = s.get("node")
        if nid is None or nid not in nodes:
            value = s.get("value")
            what = "None" if s.get("none") else brief(value, SMALL) if value is not None else "a tensor"
            out.append((s["name"], what, None, None))
            continue
        saved = nodes[nid]
        version = saved.get("version") or 0
        now = index.newest(saved["tensor"], made)
        changed = now if now is not None and now != version and not s.get("copy") else None
        what = ("copy of " if s.get("copy") else "") + _tensor_name(saved)
        out.append((s["name"], what, version, changed))
    return out


def _savers(model: GraphModel, nodes, index: SavedIndex):
    """(box, node) of every box whose node shown at this step saved tensors."""
    for box in index.savers:
        nid = shown(model, box, nodes)
        if nid is not None:
            n = nodes[nid]
            if n.get("saved") and n.get("grad_fn"):
                yield box, n


def chips(model: GraphModel, state: dict, index: SavedIndex) -> list[Chip]:
    """One chip per node that saved tensors for backward, at this step."""
    nodes = state["nodes"]
    out = []
    for box, n in _savers(model, nodes, index):
        key = ("chip", n["id"], bool(n.get("freed")), index.now(n["id"], len(nodes)))
        chip = index.memo.get(key)
        if chip is None:
            chip = index.memo[key] = _chip(box, n, nodes, index)
        out.append(chip)
    return out


def _chip(box: int, n: dict, nodes, index: SavedIndex) -> Chip:
    """The chip of node n (shown in box) at a step."""
    parts, outdated = [], False
    for name, what, version, changed in _entries(n, nodes, index):
        at = f"@v{version}" if version is not None else ""
        stale = f" ✗ now v{changed}" if changed is not None else ""
        outdated = outdated or changed is not None
        parts.append(f"{name}={what}{at}{stale}")
    status = "freed" if n.get("freed") else "outdated" if outdated else "kept"
    head = "freed" if status == "freed" else "saved"
    tip = {"freed": "freed by backward (retain_graph=False): a second backward through here fails",
           "outdated": "changed in place since it was saved: backward through here fails",
           "kept": "kept for backward"}[status]
    return Chip(box, f"{head} " + ", ".join(parts), status, tip)


def warnings(model: GraphModel, state: dict, index: SavedIndex) -> list[tuple[int, str]]:
    """(box, text) foretelling a failure: a saved tensor changed in place since it was saved (from the moment of
    the change), and at the start of a backward call, a node on its way whose saved tensors were freed."""
    nodes = state["nodes"]
    out = []
    event = state.get("event") or {}
    reach = _reachable(nodes, event["root"]) if event.get("kind") == "backward" else None
    for box, n in _savers(model, nodes, index):
        if n.get("freed"):
            if reach is not None and n["id"] in reach:
                out.append((box, f"⚠ backward will fail at {n['grad_fn']}: its saved tensors were freed by "
                                 "an earlier backward (retain_graph=False)"))
            continue
        key = ("warning", n["id"], index.now(n["id"], len(nodes)))
        if key not in index.memo:
            index.memo[key] = next((f"⚠ backward will fail at {n['grad_fn']}: saved {what}@v{version}, {what} is "
                                    f"now v{changed}" for _, what, version, changed in _entries(n, nodes, index)
                                    if changed is not None), None)
        if index.memo[key] is not None:
            out.append((box, index.memo[key]))
    return out


def _reachable(nodes, root: int | None) -> set[int]:
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
