"""Readable names: assignment targets read from the program's AST, and short names for temporaries."""
import ast


class Statement:
    """A statement of the program: `targets` are the texts it binds (`y`, `lin.weight`, `parts`)."""

    __slots__ = ("line", "targets")

    def __init__(self, line, targets):
        self.line = line
        self.targets = targets


_NONE = Statement(None, ())


def _target_texts(node, out):
    if isinstance(node, (ast.Tuple, ast.List)):
        for elt in node.elts:
            _target_texts(elt, out)
    elif isinstance(node, ast.Starred):
        _target_texts(node.value, out)
    elif isinstance(node, ast.Name):
        out.append((node.id,))
    elif isinstance(node, ast.Attribute):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            out.append((node.id, *reversed(parts)))
    elif isinstance(node, ast.Subscript):  # y[0] = ...: the write names y
        while isinstance(node, (ast.Subscript, ast.Attribute)):
            node = node.value
        _target_texts(node, out)


def _targets(stmt):
    out = []
    if isinstance(stmt, ast.Assign):
        for t in stmt.targets:
            _target_texts(t, out)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and getattr(stmt, "value", None) is not None:
        _target_texts(stmt.target, out)
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        _target_texts(stmt.target, out)
    return tuple(dict.fromkeys(out))


_COMPOUND_HEADERS = {
    ast.For: lambda s: s.iter,
    ast.While: lambda s: s.test,
    ast.If: lambda s: s.test,
}


class Statements:
    """Line -> the innermost statement on it (a compound statement owns only its header lines), from the
    program's tree as parsed (None: no statements)."""

    def __init__(self, tree=None):
        self._by_line = {}
        todo = list(reversed(tree.body)) if tree is not None else []
        while todo:  # statements only, outer before inner: the innermost statement on a line wins
            node = todo.pop()
            self._add(node)
            inner = [*getattr(node, "body", ()), *(s for h in getattr(node, "handlers", ()) for s in h.body),
                     *(s for case in getattr(node, "cases", ()) for s in case.body),
                     *getattr(node, "orelse", ()), *getattr(node, "finalbody", ())]
            todo.extend(reversed(inner))

    def _add(self, node):
        header = _COMPOUND_HEADERS.get(type(node))
        if header is not None:
            end = header(node).end_lineno
        elif hasattr(node, "body"):
            end = node.lineno
        else:
            end = node.end_lineno
        targets = _targets(node)
        prev = self._by_line.get(node.lineno)
        if prev is not None and prev.line == node.lineno:  # `a = x * 2; b = a + 1` on one line
            targets = tuple(dict.fromkeys(prev.targets + targets))
        stmt = Statement(node.lineno, targets)
        for line in range(node.lineno, end + 1):
            self._by_line[line] = stmt

    def at(self, line):
        return self._by_line.get(line, _NONE)


# --- names for temporaries ---------------------------------------------------------------------------
MAX_LEN = 28

_INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/", "mm": "@", "mv": "@", "bmm": "@", "pow_tensor": "**"}
_METHOD = {
    "exp", "log", "sin", "cos", "tanh", "sigmoid", "relu", "sqrt", "abs", "sgn", "clone", "t", "sum", "mean",
    "max", "min", "softmax", "log_softmax", "reciprocal", "view", "unsqueeze", "squeeze", "transpose",
    "permute", "expand", "clamp", "dot", "where", "maximum", "minimum", "flatten",
}
_RENAME = {
    "sum_dim": "sum", "mean_dim": "mean", "max_dim": "max", "min_dim": "min", "squeeze_dim": "squeeze",
    "squeeze_": "squeeze", "unsafe_view": "reshape", "to_copy": "to", "pow_tensor": "pow",
}


_floats = {}


def number(x):
    """A Python number in few characters: 6.0 -> '6', 1/3 -> '0.3333'."""
    if type(x) is not float:
        return str(x)
    text = _floats.get(x)
    if text is None:
        text = str(int(x)) if x.is_integer() and abs(x) < 1e15 else f"{x:.4g}"
        if len(_floats) > 4096:
            _floats.clear()
        _floats[x] = text
    return text


def _operand(name):
    return f"({name})" if " " in name else name


def op_name(op, names, attrs):
    """A readable name for the output of `op` applied to inputs called `names` (numbers already texts)."""
    a = names[0] if names else ""
    n = op.name
    if n in _INFIX and len(names) == 2:
        text = f"{_operand(a)} {_INFIX[n]} {_operand(names[1])}"
    elif n == "pow":
        text = f"{_operand(a)}**{number(attrs.get('exponent'))}"
    elif n == "rsub":
        text = f"{number(attrs.get('other'))} - {_operand(a)}"
    elif n == "rpow":
        text = f"{number(attrs.get('base'))}**{_operand(a)}"
    elif n == "neg":
        text = f"-{_operand(a)}"
    elif n == "select" and attrs.get("dim") == 0:
        text = f"{_operand(a)}[{attrs.get('index')}]"
    elif n in ("select", "slice", "index", "unbind"):
        text = f"{_operand(a)}[…]"
    elif n in ("stack", "cat"):
        text = f"{n}({', '.join(names)})"
    else:
        m = _RENAME.get(n, n)
        if m in _METHOD or n in _RENAME:
            rest = ", ".join(names[1:])
            text = f"{_operand(a)}.{m}({rest})"
        else:
            text = f"{m}({', '.join(names)})"
    if len(text) > MAX_LEN:
        text = f"… {_INFIX[n]} …" if n in _INFIX else f"{_RENAME.get(n, n)}(…)"
    return text


def leaf_name(data):
    """A readable name for an unnamed tensor: its value when short, else its shape."""
    if data.size == 1 and data.ndim <= 1:
        v = number(data.reshape(()).item())
        return v if data.ndim == 0 else f"[{v}]"
    if data.ndim == 1 and data.size <= 3:
        return "[" + ", ".join(number(v) for v in data.tolist()) + "]"
    return "tensor " + "×".join(map(str, data.shape))
