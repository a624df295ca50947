"""The canvas builder's graph (pure): leaves and ops with input ports, the node backward is called on, and the
edits the canvas makes. Every edit returns a new Graph whose nodes are in an order the program can run them in.
code.py turns a Graph into PyTorch and back."""

from __future__ import annotations

import ast
import keyword
import re
from dataclasses import dataclass, replace

import numpy as np

BINARY = {"+": "{a} + {b}", "−": "{a} - {b}", "×": "{a} * {b}", "÷": "{a} / {b}", "pow": "{a} ** {b}",
          "@": "{a} @ {b}"}
UNARY = {"exp": "{a}.exp()", "log": "{a}.log()", "tanh": "{a}.tanh()", "sigmoid": "{a}.sigmoid()",
         "relu": "{a}.relu()", "sum": "{a}.sum()", "mean": "{a}.mean()"}
LEAF = "leaf"
PALETTE = [LEAF, *BINARY, *UNARY]
PORTS = {**{op: ("a", "b") for op in BINARY}, **{op: ("a",) for op in UNARY}, LEAF: ()}

Input = str | float | None  # a node's name, a number, or not connected


@dataclass(frozen=True)
class Node:
    name: str
    op: str  # LEAF or a key of BINARY / UNARY
    inputs: tuple[Input, ...] = ()
    value: str = "1.0"  # a leaf's value: a float or a nested list of floats, as Python writes it
    requires_grad: bool = True
    inline: bool = False  # written inside its one consumer's line (`y = x * x + 1.0`), named `y·1`, `y·2`, …


@dataclass(frozen=True)
class Graph:
    nodes: tuple[Node, ...] = ()
    backwards: tuple[str, ...] = ()  # the nodes `.backward()` is called on, in the order of the calls

    @property
    def names(self) -> list[str]:
        return [n.name for n in self.nodes]

    def node(self, name: str) -> Node:
        for n in self.nodes:
            if n.name == name:
                return n
        raise ValueError(f"there is no node {name!r}")


def check_name(name: str) -> str:
    name = name.strip()
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or keyword.iskeyword(name) or name in ("torch", "print"):
        raise ValueError(f"{name!r} is not a usable variable name (letters, digits and _, not a keyword)")
    return name


def leaf_value(text: str) -> str:
    """`3` -> `3.0`, `1, 2` or `[1, 2]` -> `[1.0, 2.0]`; anything but numbers and lists of them is refused."""
    text = text.strip()
    if not text:
        raise ValueError("give a value, e.g. 3.0 or [1.0, 2.0]")
    if not text.startswith("[") and "," in text:
        text = f"[{text}]"
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise ValueError(f"{text!r} is not a number or a list of numbers") from exc
    floats = _floats(value)
    shape_of_literal(floats)
    return repr(floats)


def _floats(value):
    if isinstance(value, bool) or not isinstance(value, int | float | list | tuple):
        raise ValueError(f"{value!r} is not a number or a list of numbers")
    if isinstance(value, list | tuple):
        if not value:
            raise ValueError("a list needs at least one number")
        return [_floats(v) for v in value]
    if not np.isfinite(value):
        raise ValueError("use finite numbers")
    return float(value)


def shape_of_literal(value) -> tuple[int, ...]:
    try:
        return np.array(value, dtype=float).shape
    except ValueError as exc:
        raise ValueError("the rows of a nested list must be equally long") from exc


def next_name(graph: Graph) -> str:
    """`a`, `b`, … `z`, then `a1`, `b1`, … : the first not in use."""
    taken = set(graph.names)
    for i in range(1000):
        for c in "abcdefghijklmnopqrstuvwxyz":
            name = c if i == 0 else f"{c}{i}"
            if name not in taken:
                return name
    raise ValueError("no free name")


def add(graph: Graph, op: str, name: str | None = None) -> Graph:
    """A new node of the palette's kind `op`, its ports not connected."""
    if op not in PORTS:
        raise ValueError(f"unknown op {op!r}")
    name = check_name(name) if name else next_name(graph)
    if name in graph.names:
        raise ValueError(f"{name!r} is taken")
    return Graph((*graph.nodes, Node(name, op, (None,) * len(PORTS[op]))), graph.backwards)


def feeds(graph: Graph, name: str) -> set[str]:
    """The nodes computed from `name` (itself included)."""
    out = {name}
    for n in graph.nodes:  # in program order, so one pass suffices
        if any(i in out for i in n.inputs if isinstance(i, str)):
            out.add(n.name)
    return out


def connect(graph: Graph, source: Input, target: str, port: int) -> Graph:
    """Port `port` of `target` reads `source` (a node, a number, or None to disconnect)."""
    node = graph.node(target)
    if not 0 <= port < len(node.inputs):
        raise ValueError(f"{target} has no input {port}")
    if isinstance(source, str):
        graph.node(source)
        if source in feeds(graph, target):
            raise ValueError(f"{source} is computed from {target}: connecting it would make a loop")
    elif source is not None:
        if isinstance(source, bool) or not isinstance(source, int | float) or not np.isfinite(source):
            raise ValueError(f"{source!r} is not a number")
        source = float(source)
        if node.op in UNARY or node.op == "@":
            raise ValueError(f"{node.op} needs tensors, not a number")
        if any(isinstance(i, float) for j, i in enumerate(node.inputs) if j != port):
            raise ValueError("one input of an op must be a tensor")
    inputs = tuple(source if j == port else i for j, i in enumerate(node.inputs))
    return _ordered(_swap(graph, replace(node, inputs=inputs)))


def set_leaf(graph: Graph, name: str, value: str | None = None, requires_grad: bool | None = None) -> Graph:
    node = graph.node(name)
    if node.op != LEAF:
        raise ValueError(f"{name} is an op: its value is computed")
    changes = {} if value is None else {"value": leaf_value(value)}
    if requires_grad is not None:
        changes["requires_grad"] = bool(requires_grad)
    return _swap(graph, replace(node, **changes))


def rename(graph: Graph, old: str, new: str) -> Graph:
    new = check_name(new)
    if new == old:
        return graph
    if new in graph.names:
        raise ValueError(f"{new!r} is taken")
    nodes = tuple(replace(n, name=new if n.name == old else n.name, inline=n.inline and n.name != old,
                          inputs=tuple(new if i == old else i for i in n.inputs)) for n in graph.nodes)
    return _ordered(Graph(nodes, tuple(new if b == old else b for b in graph.backwards)))


def delete(graph: Graph, name: str) -> Graph:
    """Without the node; the ports it fed are left unconnected."""
    graph.node(name)
    nodes = tuple(replace(n, inputs=tuple(None if i == name else i for i in n.inputs))
                  for n in graph.nodes if n.name != name)
    return _ordered(Graph(nodes, tuple(b for b in graph.backwards if b != name)))


def backward_from(graph: Graph, name: str) -> Graph:
    """One more `.backward()` call, from `name`, after the others; if backward is called from it already, no
    longer (the button toggles)."""
    graph.node(name)
    if name in graph.backwards:
        return _ordered(Graph(graph.nodes, tuple(b for b in graph.backwards if b != name)))
    return _ordered(Graph(graph.nodes, (*graph.backwards, name)))


def ancestors(graph: Graph, name: str) -> set[str]:
    """The node and every node it is computed from."""
    by_name = {n.name: n for n in graph.nodes}
    seen, todo = set(), [name]
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo += [i for i in by_name[n].inputs if isinstance(i, str)]
    return seen


def complete(graph: Graph) -> set[str]:
    """The nodes whose inputs are connected all the way back to leaves: the ones the program computes."""
    done: set[str] = set()
    for n in graph.nodes:
        if all(i is not None and (isinstance(i, float) or i in done) for i in n.inputs):
            done.add(n.name)
    return done


def shapes(graph: Graph) -> dict[str, tuple[int, ...] | None]:
    """Each computed node's shape, as PyTorch would give it (None: the op cannot take its inputs' shapes)."""
    arrays: dict[str, np.ndarray | None] = {}
    done = complete(graph)
    for n in graph.nodes:
        if n.name not in done:
            continue
        if n.op == LEAF:
            arrays[n.name] = np.zeros(shape_of_literal(ast.literal_eval(n.value)))
            continue
        ins = [np.float64(i) if isinstance(i, float) else arrays[i] for i in n.inputs]
        if any(i is None for i in ins):
            arrays[n.name] = None
        elif n.op in ("sum", "mean"):
            arrays[n.name] = np.zeros(())
        elif n.op in UNARY:
            arrays[n.name] = ins[0]
        else:
            try:
                arrays[n.name] = (ins[0] @ ins[1]) if n.op == "@" else np.zeros(np.broadcast_shapes(
                    np.shape(ins[0]), np.shape(ins[1])))
            except ValueError:
                arrays[n.name] = None
    return {k: (None if a is None else np.shape(a)) for k, a in arrays.items()}


def _swap(graph: Graph, node: Node) -> Graph:
    return Graph(tuple(node if n.name == node.name else n for n in graph.nodes), graph.backwards)


def _ordered(graph: Graph) -> Graph:
    """The graph as its program reads: an inline node is one its single consumer's line writes out (any other
    becomes a line of its own, under a free name); lines keep their order, except that each comes after the
    lines it reads; a line's inline nodes come just before it, left to right, inner first, named `line·k`."""
    uses = [i for n in graph.nodes for i in n.inputs if isinstance(i, str)]
    loose = [n.name for n in graph.nodes if n.inline and (uses.count(n.name) != 1 or n.name in graph.backwards)]
    if loose:
        return rename(graph, loose[0], next_name(graph))  # which puts the graph in order again
    by_name = {n.name: n for n in graph.nodes}

    def subtree(n: Node) -> list[Node]:
        out = []
        for i in n.inputs:
            if isinstance(i, str) and by_name[i].inline:
                out += subtree(by_name[i])
        return [*out, n]

    lines = [subtree(n) for n in graph.nodes if not n.inline]
    placed: list[Node] = []
    names: set[str] = set()
    while lines:
        for k, line in enumerate(lines):
            if all(not isinstance(x, str) or x in names or x in {m.name for m in line[:j]}
                   for j, n in enumerate(line) for x in n.inputs):
                placed += lines.pop(k)
                names |= {n.name for n in line}
                break
        else:
            raise ValueError("the graph has a loop")
    renames: dict[str, str] = {}
    count: dict[str, int] = {}
    for k, n in enumerate(placed):
        if n.inline:
            root = next(m for m in placed[k:] if not m.inline).name
            count[root] = count.get(root, 0) + 1
            renames[n.name] = f"{root}·{count[root]}"
    nodes = tuple(replace(n, name=renames.get(n.name, n.name),
                          inputs=tuple(renames.get(i, i) if isinstance(i, str) else i for i in n.inputs))
                  for n in placed)
    return Graph(nodes, graph.backwards)
