"""How the tracer labels graph nodes: an op's result as the user wrote the op (from its spelling in the op
table: `a + b`, `x.exp()`, `x.sum(1)`, `cat([a, b], dim=1)`, `x**2`), and an unnamed tensor by its value or shape.

An op's arguments other than its tensors (dim, alpha, min, …) are shown where they differ from the defaults of the
call that made it (its bind's signature), so that the label is the PyTorch expression itself."""
import inspect

from .. import dtypes
from .text import number

MAX_LEN = 28
_SIGNATURES = {}


def operand(name):
    return f"({name})" if " " in name else name


def _value(v):
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, (int, float)):
        return number(v)
    if isinstance(v, (tuple, list)) and all(isinstance(x, (int, float)) for x in v):
        return "(" + ", ".join(map(_value, v)) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, dtypes.dtype):
        return repr(v)
    if isinstance(v, str):
        return repr(v)
    return "…"


def _signature(op):
    """(parameters after the op's tensor inputs, the *args parameter's name or None) of the call that makes op."""
    sig = _SIGNATURES.get(op.name)
    if sig is None:
        params = list(inspect.signature(op.bind).parameters.values()) if op.bind else []
        n = 0 if op.variadic else len(op.args)
        rest = [p for p in params[1 if op.variadic else n:] if p.kind is not p.VAR_KEYWORD]
        star = next((p.name for p in rest if p.kind is p.VAR_POSITIONAL), None)
        sig = _SIGNATURES[op.name] = ([p for p in rest if p.kind is not p.VAR_POSITIONAL], star)
    return sig


def _arguments(op, attrs):
    """The op's non-tensor arguments as a call shows them: required ones positionally, others as keywords when
    they differ from their defaults, a shape (`*shape`) unpacked."""
    params, star = _signature(op)
    out = []
    named = {p.name for p in params}
    if star is not None:
        packed = [v for k, v in attrs.items() if k not in named and isinstance(v, tuple)]
        if packed:
            out += [_value(x) for x in packed[0]] or ["()"]  # x.view(()): a 0-d shape
    for p in params:
        if p.name not in attrs:
            continue
        v = attrs[p.name]
        if p.default is p.empty:
            out.append(_value(v))
        elif v is not p.default and (p.default is None or v != p.default):  # (a tensor compared with None)
            out.append(f"{p.name}={_value(v)}")
    return out


def template(op, n_inputs, attrs):
    """The expression op(…) as a format string over its inputs' names ({0}, {1}, …), its numbers filled in."""
    spell = op.spelling
    slots = [f"{{{i}}}" for i in range(n_inputs)]
    if spell is None:
        return f"{op.name}({', '.join(slots)})"
    if spell.name is not None:
        if callable(spell.name):
            return spell.name(slots, attrs)
        return spell.name.format(*slots, **{k: _value(v) for k, v in attrs.items()})
    extra = _arguments(op, attrs)
    if spell.infix and not extra:
        if n_inputs == 2:
            return f"{{0}} {spell.infix} {{1}}"
        if "other" in attrs:  # a Scalar overload inside a derivative formula: grad * 2
            return f"{{0}} {spell.infix} {number(attrs['other'])}"
    if op.variadic:
        word = (spell.function or (op.name,))[0]
        return f"{word}([{', '.join(slots)}]{''.join(', ' + e for e in extra)})"
    if spell.method:
        return f"{{0}}.{spell.method[0]}({', '.join(slots[1:] + extra)})"
    word = (spell.function or spell.functional or tuple("torch.special." + n for n in spell.special) or (op.name,))[0]
    return f"{word}({', '.join(slots + extra)})"


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


def with_absent(expr, inputs):
    """An expression template with the optional tensors not given written as None (`{0}.clamp({1}, None)`)."""
    for i, x in enumerate(inputs):
        if x is None:
            expr = expr.replace(f"{{{i}}}", "None")
    return expr


def leaf_label(data):
    """A readable name for an unnamed tensor: its value when short, else its shape."""
    if data.size == 1 and data.ndim <= 1:
        v = number(data.reshape(()).item())
        return v if data.ndim == 0 else f"[{v}]"
    if data.ndim == 1 and data.size <= 3:
        return "[" + ", ".join(number(v) for v in data.tolist()) + "]"
    return "tensor " + "×".join(map(str, data.shape))
