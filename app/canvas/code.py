"""The canvas builder's graph as a PyTorch program, and such a program read back into a graph (pure).

A node whose inputs are not all connected is written as a comment (`# c = a * ?  # not run …`), so the program
always runs; reading the program back restores it. Only the builder's subset of Python is read: `import torch`,
`x = torch.tensor(number or list, requires_grad=…)`, `y = x * 2.0` and the other ops of the palette, one or
more `y.backward()` calls (`retain_graph=True` where a later one needs it) and `print`s of what was computed.
"""

from __future__ import annotations

import ast

from app.canvas import model as cm

HEADER = "import torch\n"
WAITING = "  # not run yet: connect every input"
_PORT = "__unconnected_port__"  # stands for `?` while a waiting line is read
_BIN_OPS = {ast.Add: "+", ast.Sub: "−", ast.Mult: "×", ast.Div: "÷", ast.Pow: "pow", ast.MatMult: "@"}


class OutsideCanvas(ValueError):
    """The program uses Python the canvas cannot draw; `line` says where (1-based)."""

    def __init__(self, line: int, why: str):
        super().__init__(f"line {line}: {why}")
        self.line = line


def write(graph: cm.Graph) -> str:
    done = cm.complete(graph)
    by_name = {n.name: n for n in graph.nodes}
    lines = [HEADER]
    for n in graph.nodes:
        if n.inline:
            continue
        line = f"{n.name} = {expression(n, by_name)}"
        lines.append(line if n.name in done else f"# {line}{WAITING}")
    runs = [out for out in graph.backwards if out in done]
    for k, out in enumerate(graph.backwards):
        if out not in done:
            lines.append(f"# {out}.backward(){WAITING}")
            continue
        shape = cm.shapes(graph).get(out)
        args = [] if shape is None or shape == () else [f"gradient=torch.ones_like({out})"]
        if _again(graph, out, graph.backwards[k + 1:], done):
            args.append("retain_graph=True")
        lines.append(f"{out}.backward({', '.join(args)})")
    if runs:
        lines += [f"print({n.name}.grad)" for n in graph.nodes if n.op == cm.LEAF and n.requires_grad]
    return "\n".join(lines) + "\n"


def _again(graph: cm.Graph, out: str, later: tuple[str, ...], done: set[str]) -> bool:
    """Whether a later backward call that runs goes through an op of this one's graph: PyTorch frees what
    backward saved unless `retain_graph=True` keeps it for the next call."""
    ops = {n for n in cm.ancestors(graph, out) if graph.node(n).op != cm.LEAF}
    return any(ops & cm.ancestors(graph, b) for b in later if b in done)


def expression(n: cm.Node, by_name: dict[str, cm.Node]) -> str:
    """What the node's line assigns, its inline inputs written out (`?` for a port not connected)."""
    if n.op == cm.LEAF:
        return f"torch.tensor({n.value}{', requires_grad=True' if n.requires_grad else ''})"
    return ast.unparse(_tree(n, by_name)).replace(_PORT, "?")


def _tree(n: cm.Node, by_name: dict[str, cm.Node]) -> ast.expr:
    def operand(i: cm.Input) -> ast.expr:
        if i is None:
            return ast.Name(_PORT)
        if isinstance(i, float):
            return ast.UnaryOp(ast.USub(), ast.Constant(-i)) if i < 0 or repr(i) == "-0.0" else ast.Constant(i)
        return _tree(by_name[i], by_name) if by_name[i].inline else ast.Name(i)

    if n.op in cm.UNARY:
        return ast.Call(ast.Attribute(operand(n.inputs[0]), n.op), [], [])
    op = next(k for k, v in _BIN_OPS.items() if v == n.op)
    return ast.BinOp(operand(n.inputs[0]), op(), operand(n.inputs[1]))


def read(source: str) -> cm.Graph:
    """The graph of a program in the builder's subset; OutsideCanvas when it is not one."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise OutsideCanvas(exc.lineno or 1, f"Python cannot read it ({exc.msg})") from None
    statements = [(s.lineno, s) for s in tree.body]
    for number, text in enumerate(source.splitlines(), 1):
        text = text.strip()
        if text.startswith("#") and text.endswith(WAITING.strip()):
            body = text[1:-len(WAITING.strip())].strip().replace("?", _PORT)
            try:
                statements += [(number, s) for s in ast.parse(body).body]
            except SyntaxError:
                continue
    graph = cm.Graph()
    printing = False
    for line, s in sorted(statements, key=lambda t: t[0]):
        if isinstance(s, ast.Import) and [(a.name, a.asname) for a in s.names] == [("torch", None)]:
            continue
        if _is_print(s):
            printing = True
            continue
        if printing:
            raise OutsideCanvas(line, "the canvas calls backward last, and prints only after it")
        out = _backward_of(s)
        if out is not None:
            if out not in graph.names:
                raise OutsideCanvas(line, f"{out} is not a node")
            graph = cm.Graph(graph.nodes, (*graph.backwards, out))
            continue
        if graph.backwards:
            raise OutsideCanvas(line, "the canvas calls backward last, and prints only after it")
        graph = cm.Graph((*graph.nodes, *_nodes(s, line, graph)), graph.backwards)
    return graph


def _nodes(s: ast.stmt, line: int, graph: cm.Graph) -> list[cm.Node]:
    """The node a line assigns, after the inline nodes of its expression (inner first, left to right)."""
    if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
        raise OutsideCanvas(line, "the canvas draws `name = torch.tensor(…)`, `name = a * b + 1.0` and the "
                                  "like, `name.backward()` and `print(…)`")
    name = s.targets[0].id
    try:
        cm.check_name(name)
    except ValueError as exc:
        raise OutsideCanvas(line, str(exc)) from None
    if name in graph.names:
        raise OutsideCanvas(line, f"{name} is assigned again: on the canvas each name is one node")
    v = s.value
    try:
        if isinstance(v, ast.Call) and ast.unparse(v.func) == "torch.tensor":
            return [_leaf(name, v)]
        made: list[cm.Node] = []
        root = _op(v, name, graph, made, name)
        if root is None:
            raise ValueError(f"the palette has no op for `{ast.unparse(v)}`")
        return [*made, root]
    except ValueError as exc:
        raise OutsideCanvas(line, str(exc)) from None


def _op(v: ast.expr, name: str, graph: cm.Graph, made: list[cm.Node], line_name: str) -> cm.Node | None:
    """The op node of expression `v` (None: `v` is no op of the palette); its inline inputs go into `made`."""
    if isinstance(v, ast.BinOp) and type(v.op) in _BIN_OPS:
        inputs = (_input(v.left, line_name, graph, made), _input(v.right, line_name, graph, made))
        if all(isinstance(i, float) for i in inputs):
            raise ValueError("one input of an op must be a tensor")
        return cm.Node(name, _BIN_OPS[type(v.op)], inputs)
    if (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in cm.UNARY
            and not v.args and not v.keywords):
        a = _input(v.func.value, line_name, graph, made)
        if isinstance(a, float):
            raise ValueError(f"{v.func.attr} needs a tensor")
        return cm.Node(name, v.func.attr, (a,))
    return None


def _leaf(name: str, call: ast.Call) -> cm.Node:
    if len(call.args) != 1 or any(k.arg != "requires_grad" for k in call.keywords):
        raise ValueError("a leaf is torch.tensor(value) with requires_grad=True or False")
    rg = False
    for k in call.keywords:
        if not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, bool)):
            raise ValueError("requires_grad is True or False")
        rg = k.value.value
    return cm.Node(name, cm.LEAF, (), cm.leaf_value(ast.unparse(call.args[0])), rg)


def _input(e: ast.expr, line_name: str, graph: cm.Graph, made: list[cm.Node]) -> cm.Input:
    if isinstance(e, ast.Name):
        if e.id == _PORT:
            return None
        if e.id not in graph.names:
            raise ValueError(f"{e.id} is not a node made before this line")
        return e.id
    inner = _op(e, "", graph, made, line_name)
    if inner is not None:
        inner = cm.Node(f"{line_name}·{len(made) + 1}", inner.op, inner.inputs, inline=True)
        made.append(inner)
        return inner.name
    try:
        value = ast.literal_eval(e)
    except ValueError:
        raise ValueError(f"`{ast.unparse(e)}` is not a node's name, a number or an op of the palette") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"`{ast.unparse(e)}` is not a node's name, a number or an op of the palette")
    return float(value)


def _backward_of(s: ast.stmt) -> str | None:
    """`x` for `x.backward()` or `x.backward(gradient=torch.ones_like(x))`, either with `retain_graph=True`."""
    if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)):
        return None
    f = s.value.func
    if not (isinstance(f, ast.Attribute) and f.attr == "backward" and isinstance(f.value, ast.Name)):
        return None
    name = f.value.id
    calls = [f"{name}.backward({', '.join(args)})" for args in (
        [], ["retain_graph=True"], [f"gradient=torch.ones_like({name})"],
        [f"gradient=torch.ones_like({name})", "retain_graph=True"])]
    if s.value.args or ast.unparse(s.value) not in calls:
        return None
    return name


def _is_print(s: ast.stmt) -> bool:
    return (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
            and s.value.func.id == "print" and not s.value.keywords
            and all(isinstance(a, ast.Name | ast.Attribute) for a in s.value.args))
