"""The `.grad` history: each leaf's `.grad` after every backward call, with zero_/None marks.

x positions: backward call n (1-based) is at x = n; a zero_/None between calls n and n+1 is at n + 0.5.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.trace.text import flat, number

MAX_ELEMENTS = 4
MAX_SERIES = 12
FUTURE_ALPHA = 0.18  # beyond this the chart is noise: the first ones are drawn


@dataclass
class History:
    lines: dict[str, list] = field(default_factory=lambda: {"xs": [], "ys": [], "name": [], "colour": []})
    points: dict[str, list] = field(
        default_factory=lambda: {"x": [], "y": [], "name": [], "text": [], "marker": [], "colour": [], "k": []}
    )
    loss: dict[str, list] = field(default_factory=lambda: {"x": [], "y": [], "text": [], "k": []})
    calls: int = 0
    now: list[float] = field(default_factory=list)  # x position of the step k, for every k
    # one per line of `lines`, in the same order: the leaf it follows, and its points' x, y, step and text
    series: list[dict] = field(default_factory=list)


PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22")


def _components(value: object, name: str) -> list[tuple[str, float]]:
    if isinstance(value, dict):  # a big tensor's summary
        return [(f"‖{name}.grad‖", value["norm"])]
    values = flat(value)
    if len(values) == 1:
        return [(f"{name}.grad", float(values[0]))]
    if len(values) <= MAX_ELEMENTS:
        return [(f"{name}.grad[{i}]", float(v)) for i, v in enumerate(values)]
    return [(f"‖{name}.grad‖", math.sqrt(sum(float(v) ** 2 for v in values)))]


def history(events: list[dict]) -> History:
    h = History()
    series: dict[tuple[int | None, str], tuple[list, list]] = {}  # (tensor id, label) -> (xs, ys)
    leaf_of: dict[tuple[int | None, str], str] = {}
    values_of: dict[int, object] = {}
    call = -1
    x = 0.0
    for k, e in enumerate(events):
        kind = e["kind"]
        if kind in ("leaf", "op", "inplace"):
            values_of[e["id"]] = e.get("value")
        elif kind == "backward":
            call = e["call"] if e.get("call") is not None else call + 1
            x = call + 1.0
            root = values_of.get(e["root"])
            if root is not None and not isinstance(root, dict) and len(flat(root)) == 1:
                h.loss["x"].append(x)
                h.loss["y"].append(float(flat(root)[0]))
                h.loss["text"].append(number(flat(root)[0]))
                h.loss["k"].append(k)
        elif kind == "grad":
            x = call + 1.0
            for label, v in _components(e["after"], e.get("name") or "tensor"):
                if (e.get("tensor"), label) in series or len(series) < MAX_SERIES:
                    leaf_of[(e.get("tensor"), label)] = e.get("name") or "tensor"
                    _add(series, h, (e.get("tensor"), label), x, v, number(v), "circle", k)
        elif kind == "zero_grad":
            x = call + 1.5
            for key in [s for s in series if s[0] == e.get("tensor")]:
                if e.get("how") == "none":
                    _add(series, h, key, x, math.nan, "None", "x", k)
                    h.points["y"][-1] = 0.0
                else:
                    _add(series, h, key, x, 0.0, "zero_()", "square", k)
        h.now.append(x)
    for i, ((_, label), (xs, ys)) in enumerate(series.items()):
        h.lines["xs"].append(xs)
        h.lines["ys"].append(ys)
        h.lines["name"].append(label)
        h.lines["colour"].append(PALETTE[i % len(PALETTE)])
    colour = {key: PALETTE[i % len(PALETTE)] for i, key in enumerate(series)}
    keys = h.points.pop("key", [])
    h.points["colour"] = [colour[key] for key in keys]
    rows = {key: [] for key in series}
    for i, key in enumerate(keys):
        rows[key].append(i)
    for key, at in rows.items():
        h.series.append({"leaf": leaf_of[key], "label": key[1], "colour": colour[key],
                         **{c: [h.points[c][i] for i in at] for c in ("x", "y", "k", "text", "marker")}})
    h.calls = call + 1
    return h


def _add(series: dict, h: History, key: tuple, x: float, y: float, text: str, marker: str, k: int) -> None:
    xs, ys = series.setdefault(key, ([], []))
    xs.append(x)
    ys.append(y)
    h.points["x"].append(x)
    h.points["y"].append(y)
    h.points["name"].append(key[1])
    h.points.setdefault("key", []).append(key)
    h.points["text"].append(text)
    h.points["marker"].append(marker)
    h.points["k"].append(k)
