"""How big a result will be, worked out before the one C call that makes it: sequences that grow under
`+`, `*` and the string and list methods whose result size their arguments set, and format widths."""
from __future__ import annotations

import operator
import re

MAX_FORMAT_WIDTH = 10_000

SEQUENCES = (str, bytes, list, tuple)
CONTAINERS = (list, tuple, set, frozenset, dict, type({}.keys()), type({}.values()), type({}.items()))
PRINTF_SPEC = re.compile(r"%%|%(?:\([^)]*\))?[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?")

# Methods whose result size is set by their arguments: only called directly, and sized first.
SIZED_METHODS = frozenset("join ljust rjust center zfill expandtabs replace extend".split())


def format_width_ok(spec: str) -> bool:
    return all(len(d) <= 9 and int(d) <= MAX_FORMAT_WIDTH for d in re.findall(r"\d+", spec))


def result_len(op, a, b):
    """How many items or characters `a op b` will hold, for the ops that make sequences grow; else 0."""
    try:
        if op == "*" and isinstance(a, SEQUENCES):
            return len(a) * max(operator.index(b), 0)
        if op == "*" and isinstance(b, SEQUENCES):
            return len(b) * max(operator.index(a), 0)
        if op == "+" and isinstance(a, SEQUENCES):
            return len(a) + len(b)
    except Exception:  # not a size after all (a float tensor, ...): the operation decides
        pass
    return 0


def method_result_len(obj, name, args, kwargs):
    """How many items or characters `obj.name(*args, **kwargs)` will hold, for SIZED_METHODS; else 0."""
    if not isinstance(obj, (str, bytes, list)):
        return 0
    try:
        if name == "join":
            return sum(map(len, args[0])) + len(obj) * max(len(args[0]) - 1, 0)
        if name in ("ljust", "rjust", "center", "zfill"):
            return max(len(obj), operator.index(args[0]))
        if name == "expandtabs":
            tab = operator.index(kwargs.get("tabsize", args[0] if args else 8))
            return len(obj) + obj.count("\t" if isinstance(obj, str) else b"\t") * max(tab, 0)
        if name == "replace":
            old, new = args[:2]
            count = operator.index(args[2] if len(args) > 2 else kwargs.get("count", -1))
            hits = obj.count(old) if old else len(obj) + 1
            return len(obj) + (hits if count < 0 else min(hits, count)) * max(len(new) - len(old), 0)
        if name == "extend":
            return len(obj) + len(args[0])
    except Exception:  # wrong arguments: the method itself raises the right error
        pass
    return 0
