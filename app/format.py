"""Short, readable text for tensor values (nested lists) in the graph, captions and inspector."""

from __future__ import annotations

import math


def number(v: object, digits: int = 4) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return str(v)
        if v == int(v) and abs(v) < 1e6:
            return f"{int(v)}.0" if v != 0 or math.copysign(1, v) > 0 else "-0.0"
        return f"{v:.{digits}g}"
    return str(v)


def numel(value: object) -> int:
    if isinstance(value, list):
        return sum(numel(v) for v in value)
    return 1


def flat(value: object) -> list:
    if isinstance(value, list):
        return [x for v in value for x in flat(v)]
    return [value]


def short(value: object, limit: int = 6, digits: int = 4) -> str:
    """`3.0`, `[1.0, 2.0]`, `[[1.0], [44.0]]`, or `2×3 values` when there are more than `limit`."""
    if value is None:
        return "None"
    if not isinstance(value, list):
        return number(value, digits)
    if numel(value) > limit:
        return "×".join(str(d) for d in shape_of(value)) + " values"
    return _nested(value, digits)


def _nested(value: object, digits: int) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_nested(v, digits) for v in value) + "]"
    return number(value, digits)


def shape_of(value: object) -> list[int]:
    dims = []
    while isinstance(value, list):
        dims.append(len(value))
        value = value[0] if value else None
    return dims


def compact(value: object, width: int = 16) -> str:
    """Fits a graph box: `3.0`, `[0.25,8,16]`, or `3×1 values` when the list would be wider than `width`."""
    if not isinstance(value, list):
        return short(value)
    text = _tight(value)
    return text if len(text) <= width else "×".join(str(d) for d in shape_of(value)) + " values"


def _tight(value: object) -> str:
    if isinstance(value, list):
        return "[" + ",".join(_tight(v) for v in value) + "]"
    return f"{value:.4g}" if isinstance(value, float) else str(value)
