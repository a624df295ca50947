"""Local-derivative formulas from the op table: in words when an op runs, and with the numbers of one backward
step when a step is shown (from the timeline's events)."""
import re

from ..graph import CopySlices
from ..ops import OPS
from .text import brief, number, numel

_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_FUNCTIONS = {"cos", "sin", "ln", "sign", "exp"}
_SCALAR_ATTRS = {"exponent": None, "alpha": 1, "value": 1, "weight": None, "base": None, "other": None}
SMALL = 4  # tensors up to this many elements are written out in a formula


def _arg_names(node):
    op = node._op
    if isinstance(node, CopySlices):  # the base, then the inner op's other inputs
        return ("self",) + _arg_names(node._inner)[1:]
    if op is None:
        return tuple(f"input{i}" for i in range(len(node.next_functions)))
    if op.variadic:
        return tuple(f"{op.args[0]}[{i}]" for i in range(len(node.next_functions)))
    return op.args


def in_words(node):
    """'∂/∂self = other · grad; ∂/∂other = self · grad' for the inputs the node sends grads to."""
    key = (node._op, node._need) if not isinstance(node, CopySlices) else None
    text = _in_words.get(key, False)
    if text is False:
        parts = [
            f"∂/∂{name} = {formula}"
            for name, formula, (fn, _) in zip(_arg_names(node), node.formula(), node.next_functions)
            if fn is not None
        ]
        text = "; ".join(parts) or None
        if key is not None:
            _in_words[key] = text
    return text


_in_words = {}
_templates = {}


def _template(text):
    """(symbols, pieces) of a formula: pieces alternate literal text and symbols; symbols None if none."""
    t = _templates.get(text)
    if t is None:
        pieces = _WORD.split(text)
        words = _WORD.findall(text)
        symbols = tuple(dict.fromkeys(w for w in words if w not in _FUNCTIONS)) or None
        out = [pieces[0]]
        for w, literal in zip(words, pieces[1:]):
            out.extend((w, literal))
        t = _templates[text] = (symbols, out)
    return t


def scalars(attrs):
    """The numbers among an op's attributes that its formulas name (`exponent`, `alpha`, …)."""
    found = None
    for name in _SCALAR_ATTRS:
        v = attrs.get(name)
        if v is not None and type(v) in (int, float):
            if found is None:
                found = {}
            found[name] = v
    return found


def _symbol(word, step, node, saved, intro):
    """The value a formula's symbol had in a backward step, as a short text, or None if unknown or too big."""
    if word == "grad":
        v = step["grad_in"]
    elif word in saved:
        entry = saved[word]
        if entry.get("node") is not None:
            v = intro(entry["node"])
            v = v["value"] if v is not None else None
        else:
            v = entry.get("value")
        if v is None:
            return None
    elif word in _SCALAR_ATTRS:
        v = (node.get("scalars") or {}).get(word, _SCALAR_ATTRS[word])
        if v is None:
            return None
        text = number(v)
        return f"({text})" if v < 0 else text
    else:
        return None
    if v is None or isinstance(v, dict) or numel(v) > SMALL:
        return None
    text = brief(v, SMALL)
    return f"({text})" if text.startswith("-") else text


def _with_numbers(text, step, node, saved, intro, known):
    """The formula's text with its symbols' values; `known` holds the values found so far in this step."""
    symbols, pieces = _template(text)
    if symbols is None:
        return None
    terms = {}
    for w in symbols:
        t = known.get(w, False)
        if t is False:
            t = known[w] = _symbol(w, step, node, saved, intro)
        if t is None:
            return None
        terms[w] = t
    return "".join([terms.get(p, p) if i % 2 else p for i, p in enumerate(pieces)])


def _event_arg_names(node, n):
    """The names of a graph node's inputs, as _arg_names gives them, from the event that introduced it."""
    op = OPS.get(node.get("op"))
    if op is None:
        return tuple(f"input{i}" for i in range(n))
    if node.get("grad_fn") == "CopySlices":
        return ("self",) + op.args[1:]
    if op.variadic:
        return tuple(f"{op.args[0]}[{i}]" for i in range(n))
    return op.args


def with_numbers(step, intro):
    """The local derivatives of one backward step (a `node` event) with the values it used:
    '∂/∂self = other · grad = 3 · 1 = 3', or for AccumulateGrad 'x.grad += 6'. intro(id) is the event that
    introduced graph node id (None if unknown). Rendered from what the timeline holds when it is shown, not
    by the recorder at every step."""
    nid = step["node"]
    node = intro(nid) if nid is not None else None
    if node is None:
        return None
    grad_in = step["grad_in"]
    if step["name"] == "AccumulateGrad":
        if not step["ran"] or grad_in is None:
            return None
        return f"{node['name']}.grad += {brief(grad_in, SMALL)}"
    grads_out = step["grads_out"]
    words = node.get("formula")
    if not grads_out or not words:
        return None
    parts = dict(part[3:].split(" = ", 1) for part in words.split("; "))  # "∂/∂self = …" -> {"self": "…"}
    saved = {s["name"]: s for s in node.get("saved") or ()}
    out, known = [], {}
    for name, sent in zip(_event_arg_names(node, len(grads_out)), grads_out):
        text = parts.get(name)
        if text is None or sent["value"] is None:
            continue
        filled = _with_numbers(text, step, node, saved, intro, known)
        result = brief(sent["value"], SMALL)
        if filled is None or filled == result:
            out.append(f"∂/∂{name} = {text} = {result}")
        else:
            out.append(f"∂/∂{name} = {text} = {filled} = {result}")
    return "; ".join(out) or None
