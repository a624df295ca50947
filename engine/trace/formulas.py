"""Local-derivative formulas from the op table: in words when an op runs, and with the numbers of one backward
step when a step is shown (from the timeline's events)."""
import re

from ..graph import CopySlices
from ..ops import OPS
from .text import brief, number, numel

_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_FUNCTIONS = {"cos", "sin", "ln", "sign", "exp"}
_SCALAR_ATTRS = {"exponent": None, "alpha": 1, "value": 1, "weight": None, "other": None,
                 "self": None}  # self: the number of pow(Scalar self, Tensor exponent)
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


def _value_text(v):
    """A value as a formula shows it (a number, or a few numbers in brackets), or None if unknown or too big."""
    if v is None or isinstance(v, dict) or numel(v) > SMALL:
        return None
    text = brief(v, SMALL)
    return f"({text})" if text.startswith("-") else text


def _number_text(v):
    if v is None or type(v) not in (int, float):
        return None
    text = number(v)
    return f"({text})" if v < 0 else text


def _symbol(word, step, node, saved, intro):
    """The value a formula's symbol had in a backward step, as a short text, or None if unknown or too big."""
    if word == "grad":
        return _value_text(step["grad_in"])
    if word in saved:
        entry = saved[word]
        if entry.get("node") is not None:
            made = intro(entry["node"])
            return _value_text(made["value"]) if made is not None else None
        return _value_text(entry.get("value"))
    if word in _SCALAR_ATTRS:
        return _number_text((node.get("scalars") or {}).get(word, _SCALAR_ATTRS[word]))
    return None


def _fill(text, symbol, known):
    """The formula's text with its symbols' values (symbol(word) -> text or None), or None if one is unknown;
    `known` holds the values found so far."""
    symbols, pieces = _template(text)
    if symbols is None:
        return None
    terms = {}
    for w in symbols:
        t = known.get(w, False)
        if t is False:
            t = known[w] = symbol(w)
        if t is None:
            return None
        terms[w] = t
    return "".join([terms.get(p, p) if i % 2 else p for i, p in enumerate(pieces)])


def update_with_numbers(ev, intro):
    """An optimizer's update of a parameter (an `inplace` event with `update`) with the values it used:
    'param − lr · grad = 0.5 − 0.1 · 2.0 = 0.3', or 'param − lr · grad = 2000 values' when some are too big to
    write out."""
    update = ev["update"]
    prev = ev["inputs"][0]
    before = intro(prev) if prev is not None else None
    numbers, tensors = update.get("scalars") or {}, update.get("values") or {}

    def symbol(word):
        if word == "param":
            return _value_text(before["value"]) if before is not None else None
        if word in numbers:
            return _number_text(numbers[word])
        return _value_text(tensors.get(word))

    rule, result = update["rule"], brief(ev["value"], SMALL)
    filled = _fill(rule, symbol, {})
    return f"{rule} = {filled} = {result}" if filled not in (None, result) else f"{rule} = {result}"


def inplace_with_numbers(ev, intro):
    """An in-place op with the values it used, `0.5 - 0.0004 = 0.4996`, or None when some are too big."""
    expr = ev.get("expr")
    if not expr:
        return None
    texts = []
    for i in ev["inputs"]:
        made = intro(i) if i is not None else None
        t = _value_text(made["value"]) if made is not None else None
        if t is None:
            return None
        texts.append(t)
    return f"{expr.format(*texts)} = {brief(ev['value'], SMALL)}"


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


arg_names = _event_arg_names


def filled(text, step, intro):
    """Part of a formula (`exponent · self^(exponent−1)`) with the values one backward step used, or None when
    one is unknown or too big to write out."""
    nid = step["node"]
    node = intro(nid) if nid is not None else None
    if node is None:
        return None
    saved = {s["name"]: s for s in node.get("saved") or ()}
    return _fill(text, lambda w: _symbol(w, step, node, saved, intro), {})


def with_numbers(step, intro):
    """The local derivatives of one backward step (a `node` event) with the values it used:
    '∂/∂self = other · grad = 3 · 1 = 3', or for AccumulateGrad '6 goes into x.grad at the next step' (the
    `.grad` write is a step of its own: until then x.grad is what it was). intro(id) is the event that
    introduced graph node id (None if unknown). Rendered from what the timeline holds when it is shown, not
    by the recorder at every step."""
    if "formula" in step:  # a custom Function's step: its backward's code, rendered by the recorder
        return step["formula"]
    if "grads_in" in step:  # a node with several outputs: no one formula
        return None
    nid = step["node"]
    node = intro(nid) if nid is not None else None
    if node is None:
        return None
    grad_in = step["grad_in"]
    if step["name"] == "AccumulateGrad":
        if not step["ran"] or grad_in is None:
            return None
        return f"{brief(grad_in, SMALL)} goes into {node['name']}.grad at the next step"
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
        filled = _fill(text, lambda w: _symbol(w, step, node, saved, intro), known)
        result = brief(sent["value"], SMALL)
        if filled is None or filled == result:
            out.append(f"∂/∂{name} = {text} = {result}")
        else:
            out.append(f"∂/∂{name} = {text} = {filled} = {result}")
    return "; ".join(out) or None
