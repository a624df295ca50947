"""Local-derivative formulas from the op table, in words and with the numbers of one backward step."""
import re

from ..graph import CopySlices
from .text import number, short_array

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


def _symbol(node, word, grad):
    """The value a formula's symbol had in this step, as a short text, or None if unknown or too big."""
    if word == "grad":
        data = grad._data
    elif word in node._saved:
        data = node._saved[word].tensor._data
    elif word in _SCALAR_ATTRS:
        v = node.attrs.get(word, _SCALAR_ATTRS[word])
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            return None
        text = number(v)
        return f"({text})" if v < 0 else text
    else:
        return None
    if data.size > SMALL:
        return None
    text = short_array(data, SMALL)
    return f"({text})" if text.startswith("-") else text


def _with_numbers(text, node, grad, known):
    """The formula's text with its symbols' values; `known` holds the values found so far in this step."""
    symbols, pieces = _template(text)
    if symbols is None:
        return None
    terms = {}
    for w in symbols:
        t = known.get(w, False)
        if t is False:
            t = known[w] = _symbol(node, w, grad)
        if t is None:
            return None
        terms[w] = t
    return "".join([terms.get(p, p) if i % 2 else p for i, p in enumerate(pieces)])


def with_numbers(step):
    """The formula of one backward step with the values it used: '∂/∂self = other · grad = 3 · 1 = 3'."""
    node = step.node
    if not node.next_functions or not step.grads_out:
        return None
    parts = []
    known = {}
    for name, text, (fn, _), out in zip(_arg_names(node), node.formula(), node.next_functions, step.grads_out):
        if fn is None or out is None:
            continue
        filled = _with_numbers(text, node, step.grad_in, known)
        result = short_array(out._data, SMALL)
        if filled is None or filled == result:
            parts.append(f"∂/∂{name} = {text} = {result}")
        else:
            parts.append(f"∂/∂{name} = {text} = {filled} = {result}")
    return "; ".join(parts) or None
