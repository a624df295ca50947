"""How the tracer labels graph nodes: an op's result as the user wrote the op (from its spelling in the op
table: `a + b`, `x.exp()`, `cat(a, b)`, `x**2`), and an unnamed tensor by its value or shape."""
from .text import number

MAX_LEN = 28


def operand(name):
    return f"({name})" if " " in name else name


def template(op, n_inputs, attrs):
    """The expression op(…) as a format string over its inputs' names ({0}, {1}, …), its numbers filled in."""
    spell = op.spelling
    slots = [f"{{{i}}}" for i in range(n_inputs)]
    rest = ", ".join(slots[1:])
    if spell is None:
        return f"{op.name}({', '.join(slots)})"
    if spell.name is not None:
        if callable(spell.name):
            return spell.name(slots, attrs)
        numbers = {k: number(v) for k, v in attrs.items() if isinstance(v, (int, float))}
        return spell.name.format(*slots, **numbers)
    if spell.infix:
        if n_inputs == 2:
            return f"{{0}} {spell.infix} {{1}}"
        if "other" in attrs:  # a Scalar overload inside a derivative formula: grad * 2
            return f"{{0}} {spell.infix} {number(attrs['other'])}"
    if spell.method:
        return f"{{0}}.{spell.method[0]}({rest})"
    word = (spell.function or spell.functional or (op.name,))[0]
    return f"{word}({', '.join(slots)})"


def op_label(op, names, attrs):
    """A readable name for the output of `op` applied to inputs called `names` (numbers already texts)."""
    text = template(op, len(names), attrs).format(*map(operand, names))
    if len(text) > MAX_LEN:
        spell = op.spelling
        if spell is not None and spell.infix and len(names) == 2:
            return f"… {spell.infix} …"
        return f"{(spell and spell.shown) or op.name}(…)"
    return text


_texts = {}


def op_texts(op, names, attrs):
    """(op_label, template) of an op applied to inputs called `names`: a training loop asks for the same ones
    at every iteration, so they are kept."""
    try:
        key = (op.name, tuple(names), *[(k, type(v), v) for k, v in attrs.items()])  # 2 and 2.0 label apart
        hit = _texts.get(key)
    except TypeError:  # an attribute that cannot be a key (a list)
        key = hit = None
    if hit is None:
        hit = (op_label(op, names, attrs), template(op, len(names), attrs))
        if key is not None:
            if len(_texts) > 4096:
                _texts.clear()
            _texts[key] = hit
    return hit


def leaf_label(data):
    """A readable name for an unnamed tensor: its value when short, else its shape."""
    if data.size == 1 and data.ndim <= 1:
        v = number(data.reshape(()).item())
        return v if data.ndim == 0 else f"[{v}]"
    if data.ndim == 1 and data.size <= 3:
        return "[" + ", ".join(number(v) for v in data.tolist()) + "]"
    return "tensor " + "×".join(map(str, data.shape))
