"""The rewriter: a checked program's tree with the runtime's hooks put in (the `_g_*` names, which
runtime.Runtime.namespace provides; one underscore, so that Python does not mangle them inside classes).

Every loop iteration, function call (generators: every start), comprehension item and `finally` block ticks
the budget, so no code of the program runs once its budget is spent or closed; the operations that can blow
up in one C call (`*`, `+`, `**`, `<<`, `%` on sequences and ints, `str.join`, `str.ljust`, `list.extend`,
...) and `str.format` go through helpers that size or check them first; attribute reads go through a helper
that refuses modules and shows classes as runtime.visible_class does, attribute writes through one that
refuses classes, modules, functions and the engine's own objects; every `except` block starts by re-raising
the guard's own errors; a `with` block's exit is skipped once the run is over; each statement the checker
refused becomes a raise of its GuardError.
"""
from __future__ import annotations

import ast

from .allowlist import CALL_ONLY, CALLED_DUNDERS, is_private
from .errors import GuardError

SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.MatMult: "@", ast.Div: "/", ast.Mod: "%",
           ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^",
           ast.BitAnd: "&", ast.FloorDiv: "//"}
CHECKED = {"+": "_g_add", "*": "_g_mul", "**": "_g_pow", "<<": "_g_lshift", "%": "_g_mod", "//": "_g_floordiv"}


def instrument(tree: ast.Module, refused: dict[ast.stmt, GuardError]) -> ast.Module:
    """Rewrites the tree in place (and returns it); `refused` maps statements to their GuardErrors."""
    return _Instrument(refused).visit(tree)


def _is_generator(function):
    """Whether a function's own body (not the functions and classes in it) yields."""
    todo = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def _call(name, *args, keywords=()):
    return ast.Call(ast.Name(name, ast.Load()), list(args), list(keywords))


def _located(new, like):
    """Gives the nodes the instrumenter made (those without a location yet) the location of `like`, the node
    they stand for, as ast.fix_missing_locations would, without walking the program's own nodes."""
    where = like.lineno, like.col_offset, like.end_lineno, like.end_col_offset
    todo = [new]
    while todo:
        node = todo.pop()
        if "lineno" in node._attributes:
            if hasattr(node, "lineno"):
                continue  # the program's node, or one located already, with all inside it
            node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = where
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                todo.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                todo.append(value)
    return new


def _stmt(expr, like):
    return _located(ast.Expr(expr), like)


def _assign(name, value, like):
    return _located(ast.Assign([ast.Name(name, ast.Store())], value), like)


def _slice_value(node):
    """A subscript's index as an expression that can be stored: `a:b` becomes `slice(a, b, None)`."""
    if isinstance(node, ast.Slice):
        return _call("_g_slice", *(part or ast.Constant(None) for part in (node.lower, node.upper, node.step)))
    if isinstance(node, ast.Tuple):
        return ast.Tuple([_slice_value(e) for e in node.elts], ast.Load())
    return node


def _cannot_grow(node):
    """Arithmetic with a float constant, or a number added to something, makes no sequence or big int."""
    def number(operand, types=(int, float, complex)):
        return isinstance(operand, ast.Constant) and type(operand.value) in types

    operands = (node.left, node.right)
    return (any(number(x, (float, complex)) for x in operands)
            or isinstance(node.op, ast.Add) and any(map(number, operands))
            or isinstance(node.op, ast.Mod) and number(node.left))


_RUN_ONCE = (ast.If, ast.With, ast.Try)  # at the top level, their bodies run once too (unlike a loop's or a function's)


def mark_lines(tree: ast.Module) -> ast.Module:
    """Puts a `_g_line(n)` before each statement of the program's top level (in place): a program that then sits in
    one C call no tick interrupts is reported at that line by the browser's wall, which cannot ask it for a
    traceback. Its loops and functions are left to the time checks: there a mark would cost every iteration and
    call. (Not for eval()/exec() text: its lines are the caller's.)"""
    tree.body = _marked(tree.body)
    return tree


def _marked(body):
    out = []
    for stmt in body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__" or _is_docstring(stmt, out):
            out.append(stmt)
            continue
        if isinstance(stmt, _RUN_ONCE):
            for field in ("body", "orelse", "finalbody"):
                if getattr(stmt, field, None):
                    setattr(stmt, field, _marked(getattr(stmt, field)))
        out.append(_stmt(_call("_g_line", ast.Constant(stmt.lineno)), stmt))
        out.append(stmt)
    return out


def _is_docstring(stmt, before):
    return not before and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
        and isinstance(stmt.value.value, str)


class _Instrument(ast.NodeTransformer):
    """Inserts the budget's ticks and routes attribute access and growing operations through helpers."""

    def __init__(self, refused):
        self.refused = refused
        self.temps = 0

    def visit(self, node):
        error = self.refused.get(node)
        if error is not None:
            return _stmt(_call("_g_refuse", ast.Constant(error.reason), ast.Constant(error.line)), node)
        return super().visit(node)

    def temp(self):
        self.temps += 1
        return f"_g_t{self.temps}"

    def tick(self, node):
        return _stmt(_call("_g_tick", ast.Constant(node.lineno)), node)

    def visit_Constant(self, node):
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        symbol = SYMBOLS[type(node.op)]
        if symbol not in CHECKED or _cannot_grow(node):
            return node
        return _located(_call(CHECKED[symbol], node.left, node.right), node)

    def visit_Attribute(self, node):
        """`x.a` becomes `_g_attr(x.a, "a")`, which refuses modules; `x.a = v` becomes `_g_settable(x).a = v`;
        a `_private` one `_g_private(x, "_a")` and `_g_private_settable(x, "_a")._a = v`.

        Other attributes is still read and written by the program's own code, so that warnings raised
        by properties point at the program's line."""
        self.generic_visit(node)
        name = ast.Constant(node.attr)
        if not isinstance(node.ctx, ast.Load):
            hook = ("_g_private_settable", node.value, name) if is_private(node.attr) else ("_g_settable", node.value)
            node.value = _located(_call(*hook), node)
            return node
        if is_private(node.attr):  # checked before it is read: the engine's own may not be read at all
            return _located(_call("_g_private", node.value, name), node)
        return _located(_call("_g_attr", node, name), node)

    def visit_Call(self, node):
        func = node.func
        if isinstance(func, ast.Name) and func.id == "int" and (len(node.args) > 1 or node.keywords):
            self.generic_visit(node)  # int(text, base): sized first, if `int` is still the builtin
            node.args.insert(0, node.func)
            node.func = _located(ast.Name("_g_int", ast.Load()), node)
            return node
        if (isinstance(func, ast.Attribute) and func.attr in CALLED_DUNDERS and not node.keywords
                and not any(isinstance(a, ast.Starred) for a in node.args)):
            args = [self.visit(func.value), ast.Constant(func.attr), *(self.visit(a) for a in node.args)]
            return _located(_call("_g_dunder", *args), node)
        if not (isinstance(func, ast.Attribute) and func.attr in CALL_ONLY):
            return self.generic_visit(node)
        args = [self.visit(func.value), ast.Constant(func.attr), *(self.visit(a) for a in node.args)]
        keywords = [self.visit(k) for k in node.keywords]
        return _located(_call("_g_method", *args, keywords=keywords), node)

    def visit_FormattedValue(self, node):
        self.generic_visit(node)
        node.value = _located(_call("_g_shown", node.value), node)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        target, symbol = node.target, SYMBOLS[type(node.op)]
        checked, symbol = symbol in CHECKED, ast.Constant(symbol)
        if not checked:
            return node
        if isinstance(target, ast.Name):
            value = _call("_g_inplace", symbol, ast.Name(target.id, ast.Load()), node.value)
            return _assign(target.id, value, node)
        obj = self.temp()  # evaluate the target's object (and index) once, as `op=` does
        if isinstance(target, ast.Attribute):
            current = ast.Attribute(ast.Name(obj, ast.Load()), target.attr, ast.Load())
            store = ast.Attribute(ast.Name(obj, ast.Load()), target.attr, ast.Store())
            value = _call("_g_inplace", symbol, current, node.value)
            return [_assign(obj, target.value, node), _located(ast.Assign([store], value), node)]
        key = self.temp()
        item = ast.Subscript(ast.Name(obj, ast.Load()), ast.Name(key, ast.Load()), ast.Load())
        store = ast.Subscript(ast.Name(obj, ast.Load()), ast.Name(key, ast.Load()), ast.Store())
        value = _call("_g_inplace", symbol, item, node.value)
        return [_assign(obj, target.value, node), _assign(key, _slice_value(target.slice), node),
                _located(ast.Assign([store], value), node)]

    def visit_For(self, node):
        self.generic_visit(node)
        node.body.insert(0, self.tick(node))
        return node

    visit_While = visit_For

    def visit_FunctionDef(self, node):
        generator = _is_generator(node)
        self.generic_visit(node)
        if generator:  # runs a piece at a time, suspended in between: ticks when it starts, loops tick on
            node.body.insert(0, self.tick(node))
            node.decorator_list.append(_located(ast.Name("_g_generator_function", ast.Load()), node))
            return node
        leave = ast.Try(body=node.body, handlers=[], orelse=[], finalbody=[_stmt(_call("_g_leave"), node)])
        node.body = [_stmt(_call("_g_enter", ast.Constant(node.lineno)), node), _located(leave, node)]
        return node

    def visit_Lambda(self, node):
        self.generic_visit(node)
        no_args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                kwarg=None, defaults=[])
        node.body = _located(_call("_g_call", ast.Constant(node.lineno), ast.Lambda(no_args, node.body)), node)
        return node

    def visit_ListComp(self, node):
        self.generic_visit(node)
        for generator in node.generators:
            generator.ifs.insert(0, _located(_call("_g_tick", ast.Constant(node.lineno)), node))
        return node

    visit_SetComp = visit_DictComp = visit_ListComp

    def visit_GeneratorExp(self, node):
        """Also notes how deeply generator expressions nest (nesting.Nesting)."""
        self.visit_ListComp(node)
        first = node.generators[0]
        first.iter = _located(_call("_g_source", first.iter), first.iter)
        return _located(_call("_g_generator", node), node)

    def visit_Tuple(self, node):
        """A tuple display that may hold tuples is checked for how deeply they nest (nesting.Nesting)."""
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or all(isinstance(e, (ast.Constant, ast.Slice)) for e in node.elts) \
                or any(isinstance(e, ast.Slice) for e in node.elts):
            return node
        return _located(_call("_g_tuple", node), node)

    def visit_With(self, node):
        self.generic_visit(node)
        for item in node.items:  # a generator closed after its run must not undo what the runner restored
            item.context_expr = _located(_call("_g_context", item.context_expr), item.context_expr)
        return node

    def visit_Try(self, node):
        self.generic_visit(node)
        if node.finalbody:  # also run when a generator is closed, after its program ended
            node.finalbody.insert(0, self.tick(node.finalbody[0]))
        return node

    def visit_ExceptHandler(self, node):
        self.generic_visit(node)
        node.body.insert(0, _stmt(_call("_g_reraise"), node))
        return node
