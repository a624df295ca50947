"""Assignment targets read from the program's AST: what each statement binds, so the recorder can name tensors."""
import ast


class Statement:
    """A statement of the program: `targets` are the texts it binds (`y`, `lin.weight`, `parts`); `shared`: its
    line holds other statements too (`a = x * 2; b = a + 1`)."""

    __slots__ = ("line", "targets", "shared")

    def __init__(self, line, targets, shared=False):
        self.line = line
        self.targets = targets
        self.shared = shared


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
    program's tree as parsed (None: no statements); `loops`: the line of each `for` and `while` -> the lines
    it spans (first, last)."""

    def __init__(self, tree=None):
        self._by_line = {}
        self.loops = {}
        todo = list(reversed(tree.body)) if tree is not None else []
        while todo:  # statements only, outer before inner: the innermost statement on a line wins
            node = todo.pop()
            self._add(node)
            inner = [*getattr(node, "body", ()), *(s for h in getattr(node, "handlers", ()) for s in h.body),
                     *(s for case in getattr(node, "cases", ()) for s in case.body),
                     *getattr(node, "orelse", ()), *getattr(node, "finalbody", ())]
            todo.extend(reversed(inner))

    def _add(self, node):
        if isinstance(node, (ast.For, ast.While)):
            self.loops[node.lineno] = (node.lineno, node.end_lineno)
        header = _COMPOUND_HEADERS.get(type(node))
        if header is not None:
            end = header(node).end_lineno
        elif hasattr(node, "body"):
            end = node.lineno
        else:
            end = node.end_lineno
        targets = _targets(node)
        prev = self._by_line.get(node.lineno)
        shared = prev is not None and prev.line == node.lineno  # `a = x * 2; b = a + 1` on one line
        if shared:
            targets = tuple(dict.fromkeys(prev.targets + targets))
        stmt = Statement(node.lineno, targets, shared)
        for line in range(node.lineno, end + 1):
            self._by_line[line] = stmt

    def at(self, line):
        return self._by_line.get(line, _NONE)
