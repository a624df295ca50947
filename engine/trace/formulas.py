"""Local-derivative formulas from the op table, in words and with the numbers of one backward step."""
import re

from .names import number

_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_FUNCTIONS = {"cos", "sin", "ln", "sign", "exp"}
_SCALAR_ATTRS = ("exponent", "alpha", "value", "weight", "base", "other")
_DEFAULTS = {"alpha": 1, "value": 1}
SMALL = 4  # tensors up to this many elements are written out in a formula


def compact(data):
    """A numpy array in few characters: a number, a short list, or its shape."""
    if data.size == 1:
        return number(data.reshape(()).item())
    if data.size <= SMALL:
        return _nested(data.tolist())
    return "⟨" + "×".join(map(str, data.shape)) + "⟩"


def _nested(x):
    if isinstance(x, list):
        return "[" + ", ".join(_nested(v) for v in x) + "]"
    return number(x)


def _arg_names(node):
    op = node._op
    inner = getattr(node, "_inner", None)
    if inner is not None:  # CopySlices: the base, then the inner op's other inputs
        return ("self",) + _arg_names(inner)[1:]
    if op is None:
        return tuple(f"input{i}" for i in range(len(node.next_functions)))
    if op.variadic:
        return tuple(f"{op.args[0]}[{i}]" for i in range(len(node.next_functions)))
    return op.args


def in_words(node):
    """'∂/∂self = other · grad; ∂/∂other = self · grad' for the inputs the node sends grads to."""
    texts = node.formula()
    names = _arg_names(node)
    parts = [
        f"∂/∂{name} = {text}"
        for name, text, (fn, _) in zip(names, texts, node.next_functions)
        if fn is not None
    ]
    return "; ".join(parts) or None


def _symbols(node, grad):
    values = {}
    for k, saved in node._saved.items():
        values[k] = saved.tensor._data
    for k in _SCALAR_ATTRS:
        v = node.attrs.get(k, _DEFAULTS.get(k))
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            values.setdefault(k, v)
    if grad is not None:
        values["grad"] = grad._data
    return values


def _term(v):
    if isinstance(v, (int, float)):
        text = number(v)
        return f"({text})" if v < 0 else text
    if v.size > SMALL:
        return None
    text = compact(v)
    return f"({text})" if text.startswith("-") else text


def _with_numbers(text, values):
    words = _WORD.findall(text)
    if not words or any(w not in values and w not in _FUNCTIONS for w in words):
        return None
    terms = {}
    for w in words:
        if w in values and w not in terms:
            t = _term(values[w])
            if t is None:
                return None
            terms[w] = t
    return _WORD.sub(lambda m: terms.get(m.group(0), m.group(0)), text)


def with_numbers(step):
    """The formula of one backward step with the values it used: '∂/∂self = other · grad = 3 · 1 = 3'."""
    node = step.node
    if not node.next_functions:
        return None
    values = _symbols(node, step.grad_in)
    parts = []
    for name, text, (fn, _), out in zip(_arg_names(node), node.formula(), node.next_functions,
                                        step.grads_out or ()):
        if fn is None or out is None:
            continue
        filled = _with_numbers(text, values)
        result = compact(out._data)
        if filled is None or filled == result:
            parts.append(f"∂/∂{name} = {text} = {result}")
        else:
            parts.append(f"∂/∂{name} = {text} = {filled} = {result}")
    return "; ".join(parts) or None
