"""checked(text, source): the timeline the static site's program worker sent, as a Timeline, once it has been
checked against the timeline's schema (docs/timeline.md) and the wall's size limits; ValueError (saying what is
wrong) for anything else; streamed(pieces, last, source): the same of the pieces it sends as its program runs. The
program worker runs somebody else's program: if the guard were bypassed there, its messages are the only way it
reaches the app, and the app uses none it has not checked (docs/security.md)."""

from __future__ import annotations

import json

from engine.trace.budget import Limits
from engine.trace.packing import unpack
from engine.trace.runner import LIMITS
from engine.trace.so_far import Pieces
from engine.trace.timeline import Timeline

MAX_BYTES = 32 * 2**20  # the program worker's output cap (isolated.browser_json's output_mb)
MAX_SOURCE = 100_000  # a longer program is refused before it is parsed
MAX_EVENTS = LIMITS["max_events"] + 1  # and the error event that ended it
MAX_OUTPUT = Limits().max_output_chars + 10_000  # what it printed (a print that passes the budget is kept whole)
MAX_DEPTH = 40  # of a value: nested lists of a tensor, a plot's series

NODE = {"id", "tensor", "name", "grad_fn", "value", "shape", "dtype", "requires_grad", "version"}
OP = NODE | {"op", "expr", "inputs", "saved", "formula", "scalars", "update"}
PLOT = {"figure", "opened", "aspect", "cell", "grid", "series", "title", "xlabel", "ylabel", "xscale", "yscale",
        "xlim", "ylim", "legend", "suptitle", "xticks", "yticks", "shown", "closed", "cleared"}
# kind -> (the fields it must have, the others it may have), beside "kind" and "line"
KINDS = {
    "leaf": (NODE, {"detached_from", "op", "formula", "call"}),
    "op": (NODE | {"op", "expr", "inputs"}, OP | {"call"}),
    "inplace": (NODE | {"op", "inputs"}, OP | {"call"}),
    "backward": ({"root", "call"}, {"seed", "retain_graph", "create_graph", "api"}),
    "node": ({"call", "name", "node"}, {"grad_in", "grads_in", "grads_out", "formula", "ran", "captured"}),
    "grad": ({"node", "tensor", "name"}, {"before", "contribution", "after", "how", "call"}),
    "zero_grad": ({"node", "tensor", "name"}, {"how", "call"}),
    "free": ({"node"}, {"call"}),
    "print": ({"text"}, {"call"}),
    "plot": ({"figure"}, PLOT | {"call"}),
    "warning": ({"category", "message"}, {"call"}),
    "error": ({"type", "message"}, {"node", "call"}),
    "block": ({"block"}, set()),  # a lesson's code block starts (app/lessons/run.py)
}
INTS = {"id", "tensor", "node", "root", "call", "version", "detached_from", "figure", "block"}
TEXTS = {"name", "op", "expr", "grad_fn", "dtype", "formula", "text", "category", "message", "type", "how", "api"}
BOOLS = {"requires_grad", "retain_graph", "create_graph", "ran", "captured"}
MAX_TEXT = {"text": MAX_OUTPUT, "message": 100_000, "formula": 100_000, "expr": 100_000}


def checked(text, source: str) -> Timeline:
    if not isinstance(text, str):
        raise ValueError("it is not JSON text")
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise ValueError(f"it is bigger than {MAX_BYTES // 2**20} MB")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ValueError(f"it is not JSON ({type(e).__name__})") from None
    return Timeline(source=source, events=_check(data, source), output=data["output"], loops=data["loops"],
                    modules=data["modules"])


def streamed(pieces, last, source: str) -> tuple[Timeline, bool]:
    """The timeline of the pieces the program worker sent while its program ran, and of its last message (None: the
    wall ended it, and what the program recorded up to its last piece is the timeline), once each piece has the form
    of one (so_far.Pieces) and what they make is a timeline of the schema and sizes above; and whether what it
    recorded was cut at the cap."""
    received = Pieces(MAX_BYTES)
    for piece in [*pieces, *([] if last is None else [last])]:
        if not isinstance(piece, str):
            raise ValueError("a piece is not JSON text")
        received.add(piece)
    if last is not None and received.tail is None:
        raise ValueError("its last message is not the last piece")
    data = received.data(source)
    timeline = Timeline(source=source, events=_check(data, source), output=data["output"], loops=data["loops"],
                        modules=data["modules"])
    return timeline, received.full


def _check(data, source):
    """The events of a timeline's object (Timeline.to_json's, before json.dumps) once it is checked."""
    if not isinstance(data, dict) or set(data) != {"source", "output", "loops", "modules", "keys", "table", "events"}:
        raise ValueError("it is not a timeline's object")
    if data["source"] != source:
        raise ValueError("it is the timeline of another program")
    lines = source.count("\n") + 1
    keys, events = data["keys"], data["events"]
    if not isinstance(keys, list) or len(keys) > 10_000 or not all(
            isinstance(names, list) and names[:2] == ["kind", "line"] and len(set(names)) == len(names)
            and all(isinstance(name, str) for name in names) for names in keys):
        raise ValueError("its keys are not lists of field names")
    if not isinstance(events, list) or len(events) > MAX_EVENTS:
        raise ValueError(f"it has more than {MAX_EVENTS:,} events")
    if not isinstance(data["table"], list):
        raise ValueError("its table is not a list")
    events = unpack(keys, data["table"], events)  # (ValueError for an event not packed by its keys and the table)
    printed = []
    for i, event in enumerate(events):
        _check_event(event, i, lines)
        if event["kind"] == "error" and i != len(events) - 1:
            raise ValueError(f"event {i} is an error before the last event")
        if event["kind"] == "print":
            printed.append(event["text"])
    output = data["output"]
    if not isinstance(output, str) or len(output) > MAX_OUTPUT or output != "".join(printed):
        raise ValueError("its output is not what its print events wrote")
    _check_ranges(data["loops"], data["modules"], len(events), lines)
    return events


def _check_event(event, i, lines):
    kind = event["kind"]
    if kind not in KINDS:
        raise ValueError(f"event {i} is of no kind a timeline has")
    required, optional = KINDS[kind]
    fields = set(event) - {"kind", "line"}
    if not required <= fields or not fields <= required | optional:
        raise ValueError(f"event {i} ({kind}) does not have a {kind} event's fields")
    line = event["line"]
    if line is not None and not (type(line) is int and 1 <= line <= lines):
        raise ValueError(f"event {i} is at no line of the program")
    for name, value in event.items():
        if name in INTS:
            ok = type(value) is int and 0 <= value < 2**53 or (value is None and name != "figure")
        elif name in TEXTS:
            ok = value is None or isinstance(value, str) and len(value) <= MAX_TEXT.get(name, 10_000)
        elif name in BOOLS:
            ok = type(value) is bool
        else:
            ok = _plain(value, MAX_DEPTH)
        if not ok:
            raise ValueError(f"event {i} ({kind}) has a {name} no timeline has")


def _plain(value, depth):
    """JSON numbers, texts, booleans and nulls in lists and objects nested at most `depth` deep."""
    if value is None or isinstance(value, (bool, int, float)):
        return True
    if isinstance(value, str):
        return len(value) <= 100_000
    if depth == 0:
        return False
    if isinstance(value, list):
        return all(_plain(v, depth - 1) for v in value)
    if isinstance(value, dict):
        return all(_plain(v, depth - 1) for v in value.values())
    return False


def _check_ranges(loops, modules, n, lines):
    def index(v, top=n):
        return type(v) is int and 0 <= v <= top

    def at(v):
        return v is None or type(v) is int and 1 <= v <= lines

    if not isinstance(loops, list) or not all(
            isinstance(loop, dict) and set(loop) == {"line", "iterations"} and at(loop["line"])
            and isinstance(loop["iterations"], list) and all(
                isinstance(it, list) and len(it) == 3 and index(it[0], 2**53) and index(it[1]) and index(it[2])
                and it[1] <= it[2] for it in loop["iterations"]) for loop in loops):
        raise ValueError("its loops are not ranges of its events")
    if not isinstance(modules, list) or not all(
            isinstance(m, dict) and set(m) == {"name", "label", "start", "end", "parent", "line"}
            and isinstance(m["name"], str) and isinstance(m["label"], str) and len(m["name"]) + len(m["label"]) < 10_000
            and index(m["start"]) and index(m["end"]) and m["start"] <= m["end"] and at(m["line"])
            and (m["parent"] is None or index(m["parent"], j - 1)) for j, m in enumerate(modules)):
        raise ValueError("its module calls are not ranges of its events")
