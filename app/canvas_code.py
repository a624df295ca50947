"""The canvas builder's graph as a PyTorch program, and such a program read back into a graph (pure).

A node whose inputs are not all connected is written as a comment (`# c = a * ?  # not run …`), so the program
always runs; reading the program back restores it. Only the builder's subset of Python is read: `import torch`,
`x = torch.tensor(number or list, requires_grad=…)`, `y = x * 2.0` and the other ops of the palette, one
`y.backward()` and `print`s of what was computed.
"""

from __future__ import annotations

import ast

from app import canvas_model as cm

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
    lines = [HEADER]
    for n in graph.nodes:
        line = f"{n.name} = {_expression(n)}"
        lines.append(line if n.name in done else f"# {line}{WAITING}")
    out = graph.backward
    if out is not None:
        if out not in done:
            lines.append(f"# {out}.backward(){WAITING}")
        else:
            shape = cm.shapes(graph).get(out)
            scalar = shape is None or shape == ()
            lines.append(f"{out}.backward()" if scalar else f"{out}.backward(gradient=torch.ones_like({out}))")
            lines += [f"print({n.name}.grad)" for n in graph.nodes if n.op == cm.LEAF and n.requires_grad]
    return "\n".join(lines) + "\n"


def _expression(n: cm.Node) -> str:
    if n.op == cm.LEAF:
        return f"torch.tensor({n.value}{', requires_grad=True' if n.requires_grad else ''})"
    if n.op in cm.UNARY:
        return cm.UNARY[n.op].format(a=_operand(n.inputs[0]))
    a, b = (_operand(i) for i in n.inputs)
    if isinstance(n.inputs[0], float) and n.inputs[0] < 0:
        a = f"({a})"  # -2.0 ** x is -(2.0 ** x)
    return cm.BINARY[n.op].format(a=a, b=b)


def _operand(i: cm.Input) -> str:
    return "?" if i is None else repr(i) if isinstance(i, float) else i


def read(source: str) -> cm.Graph:
    """The graph of a program in the builder's subset; OutsideCanvas when it is not one."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise OutsideCanvas(exc.lineno or 1, f"Python cannot read it ({exc.msg})") from None
    statements = [(s.lineno, s, False) for s in tree.body]
    for number, text in enumerate(source.splitlines(), 1):
        text = text.strip()
        if text.startswith("#") and text.endswith(WAITING.strip()):
            body = text[1:-len(WAITING.strip())].strip().replace("?", _PORT)
            try:
                statements += [(number, s, True) for s in ast.parse(body).body]
            except SyntaxError:
                continue
    graph = cm.Graph()
    printing = False
    for line, s, waiting in sorted(statements, key=lambda t: t[0]):
        if isinstance(s, ast.Import) and [(a.name, a.asname) for a in s.names] == [("torch", None)]:
            continue
        if _is_print(s):
            printing = True
            continue
        if printing or graph.backward is not None:
            raise OutsideCanvas(line, "the canvas calls backward last, and prints only after it")
        out = _backward_of(s)
        if out is not None:
            if out not in graph.names:
                raise OutsideCanvas(line, f"{out} is not a node")
            graph = cm.backward_from(graph, out)
            continue
        graph = cm.Graph((*graph.nodes, _node(s, line, graph, waiting)), graph.backward)
    return graph


def _node(s: ast.stmt, line: int, graph: cm.Graph, waiting: bool) -> cm.Node:
    if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
        raise OutsideCanvas(line, "the canvas draws `name = torch.tensor(…)`, `name = a * b` and the like, "
                                  "`name.backward()` and `print(…)`")
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
            return _leaf(name, v)
        if isinstance(v, ast.BinOp) and type(v.op) in _BIN_OPS:
            inputs = (_input(v.left, graph), _input(v.right, graph))
            if all(isinstance(i, float) for i in inputs):
                raise ValueError("one input of an op must be a tensor")
            return cm.Node(name, _BIN_OPS[type(v.op)], inputs)
        if (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in cm.UNARY
                and not v.args and not v.keywords):
            a = _input(v.func.value, graph)
            if isinstance(a, float):
                raise ValueError(f"{v.func.attr} needs a tensor")
            return cm.Node(name, v.func.attr, (a,))
    except ValueError as exc:
        raise OutsideCanvas(line, str(exc)) from None
    raise OutsideCanvas(line, f"the palette has no op for `{ast.unparse(v)}`")


def _leaf(name: str, call: ast.Call) -> cm.Node:
    if len(call.args) != 1 or any(k.arg != "requires_grad" for k in call.keywords):
        raise ValueError("a leaf is torch.tensor(value) with requires_grad=True or False")
    rg = False
    for k in call.keywords:
        if not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, bool)):
            raise ValueError("requires_grad is True or False")
        rg = k.value.value
    return cm.Node(name, cm.LEAF, (), cm.leaf_value(ast.unparse(call.args[0])), rg)


def _input(e: ast.expr, graph: cm.Graph) -> cm.Input:
    if isinstance(e, ast.Name):
        if e.id == _PORT:
            return None
        if e.id not in graph.names:
            raise ValueError(f"{e.id} is not a node made before this line")
        return e.id
    try:
        value = ast.literal_eval(e)
    except ValueError:
        raise ValueError(f"`{ast.unparse(e)}` is not a node's name or a number") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"`{ast.unparse(e)}` is not a node's name or a number")
    return float(value)


def _backward_of(s: ast.stmt) -> str | None:
    """`x` for `x.backward()` or `x.backward(gradient=torch.ones_like(x))`."""
    if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)):
        return None
    f = s.value.func
    if not (isinstance(f, ast.Attribute) and f.attr == "backward" and isinstance(f.value, ast.Name)):
        return None
    name = f.value.id
    if s.value.args or ast.unparse(s.value) not in (f"{name}.backward()",
                                                    f"{name}.backward(gradient=torch.ones_like({name}))"):
        return None
    return name


def _is_print(s: ast.stmt) -> bool:
    return (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
            and s.value.func.id == "print" and not s.value.keywords
            and all(isinstance(a, ast.Name | ast.Attribute) for a in s.value.args))
