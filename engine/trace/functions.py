"""What the tracer shows of a custom autograd.Function: the label of its application (`MyReLU.apply(x)`), its
inputs' names (forward's parameters) and, as its node's formula, the user's own backward code: the source of
the `return` statements of their backward, read from the program's source at the lines its code object gives."""
import ast

from ..autograd.function import Function
from .labels import MAX_LEN
from .text import number, short_array

SMALL = 4  # grads up to this many elements are written out in a step's formula


def label_parts(cls, args):
    """(expr, label texts): `Cls.apply({0}, 5)` over the tensor arguments, numbers written in."""
    slots, k = [], 0
    for a in args:
        if hasattr(a, "_vbox"):
            slots.append(f"{{{k}}}")
            k += 1
        elif isinstance(a, (int, float)) and not isinstance(a, bool):
            slots.append(number(a))
        else:
            slots.append("None" if a is None else "…")
    return f"{cls.__name__}.apply({', '.join(slots)})"


def label(expr, names, index=None):
    """The name of an output: `MyReLU.apply(x)`, `Split.apply(x)[1]` for the second of several."""
    text = expr.format(*(f"({n})" if " " in n else n for n in names))
    if len(text) > MAX_LEN:
        text = expr.split(".apply(")[0] + ".apply(…)"
    return text if index is None else f"{text}[{index}]"


def _user_code(fn):
    """The code object of a function, under the wrappers functools.wraps made (once_differentiable)."""
    seen = 0
    while hasattr(fn, "__wrapped__") and seen < 8:
        fn = fn.__wrapped__
        seen += 1
    return getattr(fn, "__code__", None)


def _def_at(tree, code):
    """The FunctionDef of code in the program's tree (its first line is the first decorator's)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == code.co_name:
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if first == code.co_firstlineno:
                return node
    return None


def _returns(node):
    """The return statements of a function body, not those of functions or classes defined in it."""
    found, todo = [], list(node.body)
    while todo:
        n = todo.pop(0)
        if isinstance(n, ast.Return):
            found.append(n)
        elif not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo[:0] = list(ast.iter_child_nodes(n))
    return found


class Sources:
    """The program's source, parsed once when a Function first needs it, and what was read of each backward."""

    def __init__(self, source, filename):
        self._source = source
        self._filename = filename
        self._tree = None
        self._texts = {}

    def backward_code(self, node):
        """The source of the return statements of node's Function's backward (`return grad * 2`), one per line,
        or None when that backward is not the program's code."""
        code = _user_code(node._get_user_fn())
        if code is None or code.co_filename != self._filename or not self._source:
            return None
        text = self._texts.get(code, False)
        if text is False:
            text = self._texts[code] = self._read(code)
        return text

    def _read(self, code):
        if self._tree is None:
            try:
                self._tree = ast.parse(self._source)
            except SyntaxError:
                return None
        node = _def_at(self._tree, code)
        if node is None:
            return None
        texts = [" ".join(ast.get_source_segment(self._source, r).split()) for r in _returns(node)]
        return "\n".join(texts) or None


def input_names(cls, args):
    """forward's parameter names for the tensor arguments (ctx left out), else input0, input1, …"""
    code = _user_code(cls.forward)
    names = []
    if code is not None:
        params = code.co_varnames[:code.co_argcount]
        setup = cls.setup_context is not Function.setup_context  # then forward takes no ctx
        params = params if setup else params[1:]
        names = [p for p, a in zip(params, args) if hasattr(a, "_vbox")]
    k = sum(hasattr(a, "_vbox") for a in args)
    return names if len(names) == k else [f"input{i}" for i in range(k)]


def with_numbers(code, names, step):
    """A backward step of the Function: its code, then what it sent to each input."""
    parts = [f"∂/∂{name} = {short_array(g._data, SMALL)}" for name, (fn, _), g in
             zip(names, step.node.next_functions, step.grads_out or ()) if fn is not None and g is not None]
    if not parts:
        return code
    return f"{code} ⇒ {'; '.join(parts)}" if code else "; ".join(parts)
