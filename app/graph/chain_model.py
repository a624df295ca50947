"""The chain rule where the eye is, as pure functions of the timeline: what each edge carrying a gradient says
at a backward step (the local derivative in the program's names, then grad × local = what is sent), the sum
of the grads that met at a node (fan-in), the sum over broadcast dims, and the seed of a backward call (the
vector of a vector-Jacobian product)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from app.timeline import arg_names, filled
from engine.trace.text import brief, compact, number, numel, shape_of, shape_text, short

SMALL = 4  # values up to this many elements are written out in a formula (engine.trace.formulas.SMALL)
WRITTEN = 8  # and up to this many as a value on an edge
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_DEFAULTS = {"alpha": 1}  # scalars a formula names that an op records only when not their default


def local_factor(words: str) -> str | None:
    """The local derivative a formula multiplies the incoming grad by: `exponent · self^(exponent−1) · grad`
    -> `exponent · self^(exponent−1)`, `grad` -> `1`, `grad / other` -> `1 / other`; None when the formula is not
    a product with grad (`grad @ mat2ᵀ`, `grad expanded to self's shape`)."""
    if words == "grad":
        return "1"
    if words == "−grad":
        return "−1"
    if words.endswith(" · grad") and "grad" not in words[:-7]:
        return words[:-7]
    if words.startswith("grad / ") and "grad" not in words[7:]:
        rest = words[7:]
        return f"1 / {rest}"
    if words.startswith("−grad · ") and "grad" not in words[8:]:
        return "−" + words[8:]
    if words.startswith("grad · ") and "grad" not in words[7:]:
        return words[7:]
    if words.count("grad") == 1 and " · grad / " in words:
        return words.replace(" · grad", "")
    return None


LINE = 46  # characters: a longer line of numbers gives way to its result


def _wrapped(text: str) -> bool:
    """Whether text is one bracketed group: `(x * 2)`, `[1, 2]` (not `(x * 2) + 3`)."""
    if not text or text[0] not in "([":
        return False
    depth = 0
    for i, c in enumerate(text):
        depth += c in "([" and 1 or c in ")]" and -1 or 0
        if depth == 0:
            return i == len(text) - 1
    return False


def _paren(text: str) -> str:
    return f"({text})" if (" " in text or text.startswith("-")) and not _wrapped(text) else text


def names_of(node: dict, intro, n: int) -> dict[str, str]:
    """Formula symbol -> what the program calls it: the op's inputs by name, `result` the node's own name, and
    the numbers a formula names (`exponent` -> 2)."""
    out = {}
    inputs = node.get("inputs") or []
    for arg, nid in zip(arg_names(node, max(n, len(inputs))), inputs):
        made = intro(nid) if nid is not None else None
        if made is not None and made.get("name"):
            out[arg] = _paren(made["name"])
    for saved in node.get("saved") or ():  # a number the op made a tensor of: `x * 2` saves other = 2
        if saved.get("node") is None and saved["name"] not in out and _value(saved.get("value")) is not None:
            out[saved["name"]] = _value(saved["value"])
    if node.get("name"):
        out["result"] = _paren(node["name"])
    for name, value in {**_DEFAULTS, **(node.get("scalars") or {})}.items():
        out[name] = _paren(number(value))
    return out


def named(text: str, names: dict[str, str]) -> str:
    return _WORD.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def _value(v) -> str | None:
    """A value written out when small (`6.0`, `[1,2]`), else None."""
    if v is None or isinstance(v, dict) or numel(v) > WRITTEN:
        return None
    return _paren(_text(v))


def _text(v) -> str:
    """A value as an edge shows it: `6.0`, `[[1,1,1],[1,1,1]]`, or `2×3 values` when too wide."""
    if isinstance(v, list) and numel(v) == 1:
        return _text(v[0]) if isinstance(v[0], list) else brief(v[0])
    return brief(v) if not isinstance(v, list) else compact(v, width=24)


def edge_lines(step: dict, j: int, intro) -> list[str]:
    """What edge j of backward step `step` (a `node` event) says: the local derivative in the program's names
    (`× 2 · x^(2−1)`), the product with numbers (`1.0 × 2 · 2.0^(2−1) = 4.0`), and for a broadcast input the
    sum over the broadcast dims (`Σ dim 0: [1.0, 1.0] + [1.0, 1.0] = [2.0, 2.0]`)."""
    sent = step["grads_out"][j]
    result = sent.get("unreduced", sent["value"])
    res = _text(result)
    node = intro(step["node"]) if step.get("node") is not None else None
    words = _words(node, j, len(step["grads_out"])) if node is not None and "formula" not in step else None
    lines = []
    if words is None:
        lines.append(f"= {res}")
    else:
        names = names_of(node, intro, len(step["grads_out"]))
        local = local_factor(words)
        grad = _value(step.get("grad_in"))
        if local is not None:
            lines.append(f"× {named(local, names)}")
            numbers = local if local in ("1", "−1") else filled(local, step, intro)
            lines.append(f"{grad} × {numbers} = {res}" if grad is not None and numbers is not None else f"= {res}")
        else:
            lines.append(named(words, names))
            numbers = filled(words, step, intro)
            lines.append(f"= {numbers} = {res}" if numbers is not None and numbers != res else f"= {res}")
    if "unreduced" in sent:
        lines.append(broadcast_sum(sent["unreduced"], sent["value"]))
    return [line if len(line) <= LINE else _shorter(line, result) for line in lines]


def _shorter(line: str, result) -> str:
    """A line too long for an edge: its words cut, or its numbers reduced to the result."""
    if line.startswith("×") or "=" not in line:
        return line[: LINE - 1] + "…"
    res = _text(result)
    return f"= {res}" if len(res) <= LINE - 2 else f"= {short(result, limit=1)}"


def _words(node: dict, j: int, n: int) -> str | None:
    """The formula in words of the grad a node sends to its input j."""
    text = node.get("formula")
    if not text:
        return None
    parts = dict(part[3:].split(" = ", 1) for part in text.split("; ") if part.startswith("∂/∂") and " = " in part)
    names = arg_names(node, n)
    return parts.get(names[j]) if j < len(names) else None


def broadcast_sum(unreduced, value) -> str:
    """The engine's sum of a grad over the dims its input was broadcast along: `Σ dim 0: [1, 1] + [1, 1] = [2, 2]`,
    every slice written out when there are few and small, else `Σ dims 0, 2 of 2×3 values = […]`."""
    full, to = shape_of(unreduced), shape_of(value)
    lead = len(full) - len(to)
    dims = list(range(lead)) + [lead + i for i, d in enumerate(to) if d == 1 and full[lead + i] != 1]
    where = f"Σ dim {dims[0]}" if len(dims) == 1 else "Σ dims " + ", ".join(map(str, dims))
    result = _text(value)
    if len(dims) == 1 and not isinstance(unreduced, dict) and full[dims[0]] <= SMALL:
        slices = [_take(unreduced, dims[0], i) for i in range(full[dims[0]])]
        if all(numel(s) <= WRITTEN for s in slices):
            text = f"{where}: " + " + ".join(_paren(_text(s)) for s in slices) + f" = {result}"
            if len(text) <= LINE:
                return text
    text = f"{where} of {_text(unreduced)} = {result}"
    return text if len(text) <= LINE else f"{where} of {shape_text(full)} → {shape_text(to)}"


def _take(value, dim: int, i: int):
    """value[..., i, ...] with i at dim, keeping the other dims (nested lists)."""
    if dim == 0:
        return value[i]
    return [_take(v, dim - 1, i) for v in value]


def arrivals(events: list[dict], i: int) -> list:
    """The grads that met at the node of backward step events[i] (a `node` event), in the order they arrived:
    what earlier steps of the same call sent there, and the call's seed at its root. A nested call's events (a
    hook's backward) are passed over; an event outside every call ends the search."""
    step = events[i]
    target, call = step["node"], step.get("call")
    ix = _arrivals_index(events)
    start = _before(ix.backwards.get(call, ()), i)  # the call's backward event
    found = [events[start].get("seed")] if start >= 0 and events[start].get("root") == target else []
    if call is not None and _before(ix.outside, i) > start:
        start, found = _before(ix.outside, i), []
    at, values = ix.sent.get((call, target), ((), ()))
    for k in range(bisect.bisect_right(at, start), bisect.bisect_left(at, i)):
        found.extend(values[k])
    return found


@dataclass(frozen=True)
class _Arrivals:
    """One timeline's events by where backward steps find the grads that met at a node: the backward events
    of each call, the events outside every call, and per (call, node) the steps that sent it grads."""

    backwards: dict  # call -> indices of its `backward` events
    outside: list[int]  # indices of events of no call
    sent: dict  # (call, node id) -> ([indices of `node` events], [the grads each sent there, in edge order])


_last_index: tuple[list, int, _Arrivals] | None = None  # the events indexed last (a timeline is never changed)


def _arrivals_index(events: list[dict]) -> _Arrivals:
    global _last_index
    last = _last_index
    if last is not None and last[0] is events and last[1] == len(events):
        return last[2]
    backwards: dict = {}
    outside: list[int] = []
    sent: dict = {}
    for j, ev in enumerate(events):
        call = ev.get("call")
        if call is None:
            outside.append(j)
        if ev["kind"] == "backward":
            backwards.setdefault(call, []).append(j)
        elif ev["kind"] == "node":
            for g in ev["grads_out"]:
                if g["value"] is not None:
                    at, values = sent.setdefault((call, g.get("to")), ([], []))
                    if not at or at[-1] != j:
                        at.append(j)
                        values.append([])
                    values[-1].append(g["value"])
    ix = _Arrivals(backwards, outside, sent)
    _last_index = (events, len(events), ix)
    return ix


def _before(indices, i: int) -> int:
    """The largest index below i in the sorted list, or -1."""
    k = bisect.bisect_left(indices, i)
    return indices[k - 1] if k else -1


def fan_in(events: list[dict], i: int) -> str | None:
    """`3.0 + 3.0 = 6.0` when grads from several edges met at the node of step events[i], else None."""
    parts = arrivals(events, i)
    if len(parts) < 2:
        return None
    total = _text(events[i]["grad_in"])
    texts = [_value(p) for p in parts]
    if any(t is None for t in texts) or len(parts) > 6:
        return f"Σ of {len(parts)} grads = {total}"
    return " + ".join(texts) + f" = {total}"


def seed(backward: dict, root: dict | None) -> str:
    """The grad a backward call starts from: `seed 1.0 = ∂y/∂y`, or for a non-scalar output the `gradient=`
    vector v of the vector-Jacobian product vᵀ·J."""
    name = (root or {}).get("name") or "output"
    value = backward.get("seed")
    if root is not None and root.get("shape"):
        return f"gradient= v = {_text(value)}\nbackward computes vᵀ·J"
    return f"seed {short(value)} = ∂{name}/∂{name}" if len(name) <= 12 else f"seed {short(value)}"
