"""The allow-list a program is held to before it runs: which syntax, names, attributes and imports it may use.

Imports of torch (torch.nn, .nn.functional, .nn.init, .optim, .autograd) and math only; functions, lambdas,
loops, if/else, comprehensions, try/except/finally, `with torch.no_grad()` and the like. Refused: names and
attributes starting with `_` (but `_` itself, and reading `__name__`), classes, decorators, generators, async,
global/nonlocal, match; the builtins that reach outside (open, eval, getattr, type, vars, ...); attributes that
walk to frames or code (f_*, gi_*, tb_*, co_*, ...), format strings with attribute access (format, format_map),
or write files (save, tofile, ...).
"""
from __future__ import annotations

import ast

from .errors import GuardError
from .sizing import MAX_FORMAT_WIDTH, SIZED_METHODS, format_width_ok

MAX_SOURCE_CHARS = 100_000
MAX_NESTING = 100

ENGINE_MODULES = {
    "torch": "engine",
    "torch.nn": "engine.nn",
    "torch.nn.functional": "engine.nn.functional",
    "torch.nn.init": "engine.nn.init",
    "torch.optim": "engine.optim",
    "torch.autograd": "engine.autograd",
}
ALLOWED_IMPORTS = frozenset([*ENGINE_MODULES, "math"])

# Refused by name at check time unless the program binds the name itself (`input = torch.randn(3)`);
# none of them is among the builtins a program gets.
FORBIDDEN_NAMES = frozenset("""open eval exec compile getattr setattr delattr hasattr globals locals vars dir
    input breakpoint help exit quit memoryview type super object classmethod staticmethod property iter
    aiter anext bytes bytearray format BaseException SystemExit KeyboardInterrupt GeneratorExit
    BaseExceptionGroup ExceptionGroup copyright credits license""".split())

# Attributes that walk to frames, code, classes or files, or format strings with attribute access.
FORBIDDEN_ATTRS = frozenset("""format format_map mro translate to_bytes tofile dump ctypes save load
    from_file cell_contents""".split())
FORBIDDEN_ATTR_PREFIXES = ("f_", "co_", "gi_", "cr_", "ag_", "tb_", "func_", "im_")

GRAD_MODES = frozenset("no_grad enable_grad set_grad_enabled inference_mode detect_anomaly".split())

_ALLOWED_NODES = frozenset("""Module Expr Assign AugAssign AnnAssign For While If Break Continue Pass
    FunctionDef Return Delete Try ExceptHandler Raise Assert Import ImportFrom alias With withitem
    BoolOp BinOp UnaryOp Lambda IfExp Dict Set ListComp SetComp DictComp GeneratorExp comprehension
    Compare Call keyword FormattedValue JoinedStr Constant Attribute Subscript Starred Name List Tuple
    Slice NamedExpr arguments arg""".split())
_PLAIN_NODES = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
_NODE_REASONS = {
    "ClassDef": "classes are not allowed",
    "AsyncFunctionDef": "async code is not allowed",
    "AsyncFor": "async code is not allowed",
    "AsyncWith": "async code is not allowed",
    "Await": "async code is not allowed",
    "Yield": "generators ('yield') are not allowed",
    "YieldFrom": "generators ('yield') are not allowed",
    "Global": "'global' is not allowed",
    "Nonlocal": "'nonlocal' is not allowed",
    "Match": "'match' statements are not allowed",
    "TryStar": "'except*' is not allowed",
    "TypeAlias": "'type' statements are not allowed",
}


def check(tree: ast.Module) -> None:
    """Holds a parsed program to the allow-list; raises GuardError at the first construct it refuses."""
    _Checker(bound_names(tree)).visit(tree)


def bound_names(tree):
    """The names a program binds; refuses it first if it is nested too deeply for the recursive passes that
    follow (this one goes iteratively)."""
    names = set()
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            raise GuardError("the program is nested too deeply", getattr(node, "lineno", None))
        if isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ExceptHandler)):
            if node.name:
                names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.partition(".")[0])
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend((child, depth + 1) for child in value if isinstance(child, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append((value, depth + 1))
    return names


def _is_grad_mode(expr):
    if not isinstance(expr, ast.Call):
        return False
    attrs, func = [], expr.func
    while isinstance(func, ast.Attribute):
        attrs.append(func.attr)
        func = func.value
    return isinstance(func, ast.Name) and ((attrs[0] if attrs else func.id) in GRAD_MODES or "autograd" in attrs)


class _Checker(ast.NodeVisitor):
    def __init__(self, bound):
        self.line = None
        self.bound = bound
        self.called = set()  # ids of Attribute nodes called right away

    def refuse(self, reason):
        raise GuardError(reason, self.line)

    def visit(self, node):
        outer, self.line = self.line, getattr(node, "lineno", self.line)
        name = type(node).__name__
        if name not in _ALLOWED_NODES and not isinstance(node, _PLAIN_NODES):
            self.refuse(_NODE_REASONS.get(name, f"'{name}' is not allowed"))
        super().visit(node)
        self.line = outer

    def check_name(self, name):
        if name.startswith("_") and name != "_":
            self.refuse(f"names starting with '_' are not allowed ({name!r})")
        if name in FORBIDDEN_NAMES and name not in self.bound:
            self.refuse(f"{name!r} is not allowed")

    def check_attr(self, attr):
        if attr.startswith("_"):
            self.refuse(f"attributes starting with '_' are not allowed ({attr!r})")
        if attr in FORBIDDEN_ATTRS or attr.startswith(FORBIDDEN_ATTR_PREFIXES):
            self.refuse(f"the attribute {attr!r} is not allowed")

    def visit_Constant(self, node):  # (ast.NodeVisitor's looks for visit_Num and the like first)
        pass

    def visit_Name(self, node):
        if not (node.id == "__name__" and isinstance(node.ctx, ast.Load)):
            self.check_name(node.id)

    def visit_Attribute(self, node):
        self.check_attr(node.attr)
        if node.attr in SIZED_METHODS and id(node) not in self.called:
            self.refuse(f"'.{node.attr}' can only be called directly, as in 'x.{node.attr}(...)'")
        self.generic_visit(node)

    def visit_Call(self, node):
        self.called.add(id(node.func))
        self.generic_visit(node)

    def visit_FunctionDef(self, node):
        if node.decorator_list:
            self.refuse("decorators are not allowed")
        if getattr(node, "type_params", None):
            self.refuse("type parameters are not allowed")
        self.check_name(node.name)
        self.generic_visit(node)

    def visit_arg(self, node):
        self.check_name(node.arg)
        self.generic_visit(node)

    def visit_keyword(self, node):
        if node.arg is not None and node.arg.startswith("_"):
            self.refuse(f"names starting with '_' are not allowed ({node.arg!r})")
        self.generic_visit(node)

    def visit_ExceptHandler(self, node):
        if node.name:
            self.check_name(node.name)
        self.generic_visit(node)

    def visit_comprehension(self, node):
        if node.is_async:
            self.refuse("async code is not allowed")
        self.generic_visit(node)

    def visit_Import(self, node):
        for alias in node.names:
            if alias.name not in ALLOWED_IMPORTS:
                self.refuse(f"imports other than torch and math are not allowed ({alias.name!r})")
            self.check_name(alias.asname or alias.name.partition(".")[0])

    def visit_ImportFrom(self, node):
        if node.level or node.module not in ALLOWED_IMPORTS:
            module = "." * node.level + (node.module or "")
            self.refuse(f"imports other than torch and math are not allowed ({module!r})")
        for alias in node.names:
            if alias.name != "*":
                self.check_attr(alias.name)
                self.check_name(alias.asname or alias.name)

    def visit_With(self, node):
        if not all(_is_grad_mode(item.context_expr) for item in node.items):
            self.refuse("'with' is only allowed with torch.no_grad(), torch.enable_grad(), "
                        "torch.set_grad_enabled(...) and torch.autograd context managers")
        self.generic_visit(node)

    def visit_FormattedValue(self, node):
        spec = node.format_spec
        if spec is not None:
            if not all(isinstance(v, ast.Constant) for v in spec.values):
                self.refuse("f-string format specs cannot contain {expressions}")
            if not format_width_ok("".join(v.value for v in spec.values)):
                self.refuse(f"format widths over {MAX_FORMAT_WIDTH:,} are not allowed")
        self.generic_visit(node)
