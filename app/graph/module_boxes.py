"""Which nodes a module call's box stands for, as pure functions of the timeline's module calls
(engine/trace/module_calls.py).

A call of a module that calls no other module (a `Linear`, a `Tanh`, a loss, a learner's module written in
ops) is drawn as one box, named after the module (`model.0: Linear(2→2)`), unless the learner opened it; a
container (`Sequential`, a module made of modules) is drawn as its modules' boxes and its own ops. With TOP
in `opened` every module is closed until opened: the model is one box (`model: Net`), opened it shows its
layers as boxes, an opened layer its ops. A box stands for the ops its call made (and the constants it made);
the leaves that require grad (parameters) stay boxes of their own, drawn once.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

ALL = "*"  # in `opened`: every module drawn as its ops
TOP = "^"  # in `opened`: containers closed too (the outermost module calls are the boxes)


@dataclass
class Calls:
    """The calls drawn as boxes, sorted by start: they never overlap (a call in another is not one)."""

    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)

    def at(self, i: int) -> int | None:
        """The index of the call whose box holds what event i made, or None."""
        j = bisect_right(self.starts, i) - 1
        return j if j >= 0 and i < self.ends[j] else None


def boxed_calls(calls: list[dict], opened: tuple[str, ...] = ()) -> Calls:
    """The calls drawn as boxes: the outermost closed ones. A call is closed unless its module is opened (by
    name); without TOP, a container's calls are open too."""
    out = Calls()
    if ALL in opened:
        return out
    parents = {c["parent"] for c in calls if c.get("parent") is not None}
    closed = [c["name"] not in opened and (TOP in opened or i not in parents) for i, c in enumerate(calls)]
    for i, c in enumerate(calls):
        if not closed[i] or _inside_closed(calls, closed, i) or c.get("end") is None or c["end"] <= c["start"]:
            continue
        out.starts.append(c["start"])
        out.ends.append(c["end"])
        out.names.append(c["name"])
        out.labels.append(c["label"])
    return out


def _inside_closed(calls: list[dict], closed: list[bool], i: int) -> bool:
    parent = calls[i].get("parent")
    while parent is not None:
        if closed[parent]:
            return True
        parent = calls[parent].get("parent")
    return False


def grouping(boxed: Calls, made_at: dict[int, int], ids, nodes) -> dict[int, int]:
    """Node id -> the index of the boxed call it belongs to, for the nodes of `ids` that one made: its ops,
    and its constants (a leaf that requires grad keeps its own box)."""
    out: dict[int, int] = {}
    if not boxed.starts:
        return out
    for nid in ids:
        i = made_at.get(nid)
        if i is None:
            continue
        j = boxed.at(i)
        if j is None:
            continue
        n = nodes[nid]
        if n["kind"] == "leaf" and n.get("requires_grad"):
            continue
        out[nid] = j
    return out


def title(name: str, label: str) -> str:
    return f"{name}: {label}" if label != name else name
