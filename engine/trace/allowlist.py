"""The allow-list a program is held to before it runs: which syntax, names, attributes and imports it may use.

Admitted: imports of torch (torch.nn, .nn.functional, .nn.init, .nn.utils, .optim, .autograd, .distributions, and
the submodules in ENGINE_MODULES the engine has), math, random and a sized view of numpy (numpy_view.py), as
importable.py lists them; functions, lambdas, generators, decorators on functions and classes, classes (methods,
class attributes, `super().__init__()`), loops, if/else, comprehensions, try/except/finally, global/nonlocal, `with
torch.no_grad()` and the like. Reading `__name__`, `__qualname__` and `__class__`, and a few private attributes of
the engine's objects (`x._version`, `x._base`, `x._is_view()`, `grad_fn._saved_self`, `grad_fn._raw_saved_self`,
...).

Refused: other names and attributes starting with `_` (a class may define only the dunder methods in
METHOD_DUNDERS); metaclasses and class keywords, class bodies that do more than define
methods and attributes; `super` other than `super()` or `super(ThisClass, self)` in a method; async, match,
except*; the builtins that reach outside (open, compile, delattr, ...); attributes that walk to frames or
code (f_*, gi_*, tb_*, co_*, ...) or write files (tofile, ...; torch.save and torch.load take io buffers only, checked
when they run: io_view.py); `.format` and the sized string methods
unless called right away.

A refusal costs one statement: `check` marks the innermost statement that holds each refused construct, and
the instrumenter turns it into a raise of the GuardError at that statement, when it runs. Only what leaves
nothing to run (a syntax error, a program too long or nested too deeply) refuses the whole program.
"""
from __future__ import annotations
import __future__

import ast
import re

from .errors import GuardError
from .importable import ALLOWED_IMPORTS, ENGINE_PRIVATE_NAMES, IMPORTABLE, PARTLY_ADMITTED, REFUSED_MODULES
from .sizing import MAX_FORMAT_WIDTH, SIZED_METHODS, format_width_ok

MAX_SOURCE_CHARS = 100_000
HOOK_PREFIX = "_g_"  # the names of the guard's hooks in a program's globals (runtime.py)
MAX_NESTING = 100

MAX_INT_LITERAL_BITS = 100_000  # (Limits.max_int_bits): a hex literal of 100,000 characters is 400,000 bits
# `from __future__ import print_function` (older tutorials start so): directives to the compiler, no module.
FUTURE_FEATURES = frozenset(__future__.all_feature_names)

# Refused by name unless the program binds the name itself (`input = torch.randn(3)`); none of them is
# among the builtins a program gets (but `object`, which only a class's bases may name).
FORBIDDEN_NAMES = frozenset("""compile globals locals input breakpoint
    help exit quit memoryview object aiter anext bytes bytearray BaseException SystemExit KeyboardInterrupt
    GeneratorExit BaseExceptionGroup ExceptionGroup copyright credits license""".split())
NAME_REASONS = {"compile": "'compile' is not allowed: code objects are not a program's to hold; give the text to "
                           "eval() or exec() instead"}

# Attributes that walk to frames, code, classes or files, or format with attribute access.
FORBIDDEN_ATTRS = frozenset("""format_map mro translate to_bytes tofile ctypes from_file
    cell_contents""".split())  # (numpy's `a.dump(file)` stops at arrays.ARRAY_ATTRIBUTES; pickle.dump is the run's)
FORBIDDEN_ATTR_PREFIXES = ("f_", "co_", "gi_", "cr_", "ag_", "tb_", "func_", "im_")

# Module attributes no view exports (module_views.py): they read or write files. The engine's torch.save and
# torch.load, and torchvision.utils.save_image, are added to their views as files_view.buffers_only makes them (a
# path is a file of the run's own).
FILE_ATTRS = frozenset("save load save_image".split())

# Methods only called right away, never taken as values: the runtime sizes or checks their arguments first.
CALL_ONLY = SIZED_METHODS | {"format"}

# Dunder attributes a program may read anywhere (`__class__` goes through runtime.visible_class).
READABLE_DUNDERS = frozenset(["__name__", "__qualname__", "__class__", "__version__"])
# Protocol methods a program may call by name, right away (`loader.__iter__()`, `dataset.__getitem__(0)`): the
# runtime does what iter(x), next(x), len(x) and x[i] do (runtime.Runtime.dunder); their number of arguments.
CALLED_DUNDERS = {"__iter__": 0, "__next__": 0, "__len__": 0, "__getitem__": 1}
# Private attributes of the engine's objects that PyTorch learners read.
ENGINE_PRIVATE = re.compile(r"_version|_base|_is_view|_saved_\w+|_raw_saved_\w+")

# The dunder methods a class may define: construction, display, containers, operators, comparisons. Not
# those Python or C run at odd times or to look up attributes, make classes or size things (__del__,
# __getattr__, __getattribute__, __setattr__, __new__, __init_subclass__, __class_getitem__, __set_name__,
# __get__, __set__, __index__, __format__, __reduce__, ...): see docs/security.md.
_OPERATORS = "add sub mul matmul truediv floordiv mod pow and or xor lshift rshift".split()
METHOD_DUNDERS = frozenset(
    """__init__ __post_init__ __call__ __repr__ __str__ __len__ __getitem__ __setitem__ __delitem__ __contains__
    __iter__ __next__ __bool__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__ __neg__ __pos__ __abs__
    __invert__""".split()
    + [f"__{prefix}{op}__" for op in _OPERATORS for prefix in ("", "r", "i")])

GRAD_MODES = frozenset("no_grad enable_grad set_grad_enabled inference_mode detect_anomaly".split())
# and torch.autograd's (forward_ad.dual_level too); at run time: only the engine's objects (cached:
# torch.nn.utils.parametrize.cached())
WITH_MANAGERS = GRAD_MODES | {"tqdm", "trange", "dual_level", "cached", "fork_rng", "saved_tensors_hooks",
                               "save_on_cpu", "set_detect_anomaly", "open", "nullcontext", "suppress",
                               "autocast", "context", "rc_context", "printoptions", "record_function", "profile",
                               "sdpa_kernel", "TemporaryDirectory", "NamedTemporaryFile"}
WITH_REFUSAL = ("'with' is only allowed with torch.no_grad(), torch.enable_grad(), torch.set_grad_enabled(...), "
                "torch.autograd context managers, torch.random.fork_rng(), torch.nn.attention.sdpa_kernel(...), "
                "torch.profiler.record_function(...), tqdm(...), open(...), tempfile's, contextlib's and "
                "the program's own @contextmanager functions")

_ALLOWED_NODES = frozenset("""Module Expr Assign AugAssign AnnAssign For While If Break Continue Pass
    FunctionDef ClassDef Return Delete Try ExceptHandler Raise Assert Import ImportFrom alias With withitem
    Global Nonlocal BoolOp BinOp UnaryOp Lambda IfExp Dict Set ListComp SetComp DictComp GeneratorExp
    comprehension Yield YieldFrom Compare Call keyword FormattedValue JoinedStr Constant Attribute Subscript
    Starred Name List Tuple Slice NamedExpr arguments arg""".split())
_PLAIN_NODES = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
_NODE_REASONS = {
    "AsyncFunctionDef": "async code is not allowed",
    "AsyncFor": "async code is not allowed",
    "AsyncWith": "async code is not allowed",
    "Await": "async code is not allowed",
    "Match": "'match' statements are not allowed",
    "TryStar": "'except*' is not allowed",
    "TypeAlias": "'type' statements are not allowed",
}
_CLASS_BODY = (ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.Pass)


def check(tree: ast.Module, bound=frozenset()) -> dict[ast.stmt, GuardError]:
    """Holds a parsed program to the allow-list: the statements it refuses, each with its GuardError (the
    innermost statement that holds a refused construct). Raises GuardError if the program is nested too
    deeply to check at all. `bound`: names bound already (text given to exec() sees its caller's)."""
    checker = _Checker(bound_names(tree) | bound, _own_managers(tree))
    checker.visit(tree)
    return checker.refused


def import_refusal(module: str) -> str:
    """Why `import module` is refused: its own reason for the modules that reach outside, else the list."""
    listed = f"imports other than {IMPORTABLE} are not allowed ({module!r})"
    parts = module.split(".")
    for name in (".".join(parts[:n]) for n in range(len(parts), 0, -1)):  # torch.ao.quantization: torch.ao's
        if name in REFUSED_MODULES:
            return f"{listed}: {REFUSED_MODULES[name]}"
    if module.partition(".")[0] in PARTLY_ADMITTED:
        return f"{listed}: {PARTLY_ADMITTED[module.partition('.')[0]]}"
    return listed


def is_private(attr: str) -> bool:
    """Whether `x.attr` is a `_private` attribute, which only the program's own classes and objects may have
    (checked when the program runs: runtime.Runtime.private)."""
    return (attr.startswith("_") and not attr.startswith(("__", HOOK_PREFIX)) and attr != "_"
            and not ENGINE_PRIVATE.fullmatch(attr))


def private_refusal(attr: str) -> str:
    return (f"attributes starting with '_' are not allowed ({attr!r}): only those of the program's own classes "
            "and objects")


def attribute_refusal(attr: str) -> str | None:
    """Why reading `x.attr` is refused, or None (`__init__` on super() is the checker's own case; a `_private`
    attribute is checked when it runs)."""
    if attr.startswith("_"):
        if attr in READABLE_DUNDERS or ENGINE_PRIVATE.fullmatch(attr) or is_private(attr):
            return None
        return f"attributes starting with '_' are not allowed ({attr!r})"
    if attr in FORBIDDEN_ATTRS or attr.startswith(FORBIDDEN_ATTR_PREFIXES):
        return f"the attribute {attr!r} is not allowed"
    return None


def call_only_refusal(attr: str) -> str:
    return f"'.{attr}' can only be called directly, as in 'x.{attr}(...)'"


def bound_names(tree):
    """The names a program binds; refuses it first if it is nested too deeply for the recursive passes that
    follow (this one goes iteratively)."""
    names = set()
    stack = [(tree, 0, None)]
    while stack:
        node, depth, line = stack.pop()
        line = getattr(node, "lineno", line)  # (a context, an operator or `arguments` has none: its parent's)
        if depth > MAX_NESTING:
            raise GuardError("the program is nested too deeply", line)
        if isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.ExceptHandler)):
            if node.name:
                names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.partition(".")[0])
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend((child, depth + 1, line) for child in value if isinstance(child, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append((value, depth + 1, line))
    return names


def _own_managers(tree):
    """The program's functions decorated with @contextmanager: `with timer():` (checked when it runs, as every
    manager is: runtime.Runtime.context)."""
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and any(
        (d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", None)) == "contextmanager"
        for d in node.decorator_list))


def _is_manager(expr, own=frozenset()):
    if not isinstance(expr, ast.Call):
        return False
    attrs, func = [], expr.func
    while isinstance(func, ast.Attribute):
        attrs.append(func.attr)
        func = func.value
    name = attrs[0] if attrs else getattr(func, "id", None)
    return isinstance(func, ast.Name) and (name in WITH_MANAGERS or name in own or "autograd" in attrs)


def _is_constant(stmt):
    """A docstring, or `...` as a placeholder."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def _is_method_alias(stmt, methods):
    """`__radd__ = __add__` (or `__hash__ = None`) in a class body: a dunder it may define, made one of the
    class's own methods defined above it."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return False
    value = stmt.value
    return stmt.targets[0].id in METHOD_DUNDERS and (
        isinstance(value, ast.Name) and value.id in methods
        or isinstance(value, ast.Constant) and value.value is None)


class _Scope:
    """A class body or a function being checked: `super(ThisClass, self)` needs both."""

    __slots__ = ("kind", "name", "first_arg", "in_class")

    def __init__(self, kind, name, first_arg=None, in_class=None):
        self.kind, self.name, self.first_arg, self.in_class = kind, name, first_arg, in_class


class _Checker(ast.NodeVisitor):
    def __init__(self, bound, managers=frozenset()):
        self.line = None
        self.bound, self.managers = bound, managers
        self.called = set()  # ids of Attribute nodes called right away
        self.dunder_calls = set()  # ids of the CALLED_DUNDERS attributes called right away, arguments plain
        self.super_calls = set()  # ids of Name nodes `super` that are checked super(...) calls
        self.aliases = set()  # ids of Name nodes `__radd__` in `__radd__ = __add__` in a class body
        self.scopes = []
        self.refused = {}

    def refuse(self, reason):
        raise GuardError(reason, self.line)

    def visit(self, node):
        outer, self.line = self.line, getattr(node, "lineno", self.line)
        try:
            if isinstance(node, ast.stmt):
                try:
                    self.visit_node(node)
                except GuardError as e:  # the innermost statement holding the refused construct
                    self.refused[node] = e
            else:
                self.visit_node(node)
        finally:
            self.line = outer

    def visit_node(self, node):
        name = type(node).__name__
        if name not in _ALLOWED_NODES and not isinstance(node, _PLAIN_NODES):
            self.refuse(_NODE_REASONS.get(name, f"'{name}' is not allowed"))
        super().visit(node)

    def visit_statements(self, body, in_class=False):
        methods = set()  # a class body's methods so far: `__radd__ = __add__` may name one of them
        for stmt in body:
            if in_class and not (isinstance(stmt, _CLASS_BODY) or _is_constant(stmt)):
                self.refused[stmt] = GuardError(
                    "a class body may only define methods and class attributes", stmt.lineno)
                continue
            if in_class and _is_method_alias(stmt, methods):
                self.aliases.update((id(stmt.targets[0]), id(stmt.value)))
            self.visit(stmt)
            if isinstance(stmt, ast.FunctionDef):
                methods.add(stmt.name)

    def check_name(self, name):
        """A program's own `_private` names are fine (in a class body too: the class's `_private` attributes),
        but for dunders and the guard's hooks (_g_tick, …)."""
        if name.startswith(("__", HOOK_PREFIX)):
            self.refuse(f"names starting with '_' are not allowed here ({name!r}): only a program's own "
                        f"'_private' variables and functions")
        if name in FORBIDDEN_NAMES and name not in self.bound:
            self.refuse(NAME_REASONS.get(name, f"{name!r} is not allowed"))

    def visit_Constant(self, node):  # (ast.NodeVisitor's looks for visit_Num and the like first)
        if type(node.value) is int and node.value.bit_length() > MAX_INT_LITERAL_BITS:
            self.refuse(f"integer literals over {MAX_INT_LITERAL_BITS:,} bits are too big")

    def visit_Name(self, node):
        if node.id == "__name__" and isinstance(node.ctx, ast.Load) or id(node) in self.aliases:
            return
        if node.id == "super" and id(node) not in self.super_calls:
            self.refuse("'super' is only allowed as super() or super(ThisClass, self) in a method")
        self.check_name(node.id)

    def visit_Attribute(self, node):
        attr = node.attr
        if attr.startswith("_") and not isinstance(node.ctx, ast.Load) and not is_private(attr):
            self.refuse(f"attributes starting with '_' are not allowed ({attr!r})")
        if attr in CALLED_DUNDERS and id(node) in self.dunder_calls:
            return self.generic_visit(node)
        if attr == "__init__":
            if not (isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                    and node.value.func.id == "super"):
                self.refuse("'__init__' can only be called on super(), as in 'super().__init__(...)'")
        else:
            reason = attribute_refusal(attr)
            if reason:
                self.refuse(reason)
        if attr in CALL_ONLY and id(node) not in self.called:
            self.refuse(call_only_refusal(attr))
        self.generic_visit(node)

    def visit_Call(self, node):
        func = node.func
        self.called.add(id(func))
        if (isinstance(func, ast.Attribute) and func.attr in CALLED_DUNDERS and not node.keywords
                and not any(isinstance(a, ast.Starred) for a in node.args)):
            self.dunder_calls.add(id(func))
        if isinstance(func, ast.Name) and func.id == "super":
            self.check_super(node)
            self.super_calls.add(id(func))
        if (isinstance(func, ast.Name) and func.id == "type" and "type" not in self.bound
                and (len(node.args) != 1 or node.keywords)):
            self.refuse("type() with three arguments makes a class: write a class statement instead")
        self.generic_visit(node)

    def check_super(self, node):
        if not node.args and not node.keywords:
            return
        function = self.scopes[-1] if self.scopes else None
        if (len(node.args) == 2 and not node.keywords and function is not None and function.kind == "def"
                and function.in_class is not None and all(isinstance(a, ast.Name) for a in node.args)
                and node.args[0].id == function.in_class and node.args[1].id == function.first_arg):
            return
        self.refuse("'super' is only allowed as super() or super(ThisClass, self) in a method")

    def visit_FunctionDef(self, node):
        if getattr(node, "type_params", None):
            self.refuse("type parameters are not allowed")
        in_class = self.scopes[-1].name if self.scopes and self.scopes[-1].kind == "class" else None
        if in_class is not None and node.name.startswith("__") and node.name.endswith("__"):
            if node.name not in METHOD_DUNDERS:
                self.refuse(f"a class may not define {node.name!r} (see which dunder methods it may define "
                            "in docs/security.md)")
        else:
            self.check_name(node.name)
        for decorator in node.decorator_list:
            self.visit(decorator)
        self.visit(node.args)
        if node.returns is not None:
            self.visit(node.returns)
        args = node.args.posonlyargs + node.args.args
        self.scopes.append(_Scope("def", node.name, args[0].arg if args else None, in_class))
        try:
            self.visit_statements(node.body)
        finally:
            self.scopes.pop()

    def visit_Lambda(self, node):
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node.body)):
            self.refuse("a generator is a def with yield, not a lambda")  # (its code could not tick)
        self.visit(node.args)
        self.scopes.append(_Scope("def", "<lambda>"))
        try:
            self.visit(node.body)
        finally:
            self.scopes.pop()

    def visit_ClassDef(self, node):
        for decorator in node.decorator_list:
            self.visit(decorator)
        if node.keywords:
            self.refuse("class keywords (metaclass=...) are not allowed")
        if getattr(node, "type_params", None):
            self.refuse("type parameters are not allowed")
        self.check_name(node.name)
        for base in node.bases:
            if isinstance(base, ast.Starred):
                self.refuse("a class's bases must be written out, not unpacked with '*'")
            if not (isinstance(base, ast.Name) and base.id == "object"):
                self.visit(base)
        self.scopes.append(_Scope("class", node.name))
        try:
            self.visit_statements(node.body, in_class=True)
        finally:
            self.scopes.pop()

    def generic_visit(self, node):
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                if value and isinstance(value[0], ast.stmt):
                    self.visit_statements(value)
                else:
                    for item in value:
                        if isinstance(item, ast.AST):
                            self.visit(item)
            elif isinstance(value, ast.AST):
                self.visit(value)

    def visit_Global(self, node):
        for name in node.names:
            self.check_name(name)

    visit_Nonlocal = visit_Global

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
                self.refuse(import_refusal(alias.name))
            if alias.name != "__future__" or alias.asname:
                self.check_name(alias.asname or alias.name.partition(".")[0])

    def visit_ImportFrom(self, node):
        if node.module == "__future__" and not node.level:
            for alias in node.names:
                if alias.name not in FUTURE_FEATURES:
                    self.refuse(f"{alias.name!r} is not a __future__ feature")
                self.check_name(alias.asname or alias.name)
            return
        if node.level or node.module not in ALLOWED_IMPORTS:
            module = "." * node.level + (node.module or "")
            self.refuse(import_refusal(module))
        for alias in node.names:
            if f"{node.module}.{alias.name}" in REFUSED_MODULES:  # from torchvision.transforms import v2
                self.refuse(import_refusal(f"{node.module}.{alias.name}"))
            if alias.name != "*":
                if alias.name.startswith("_") and alias.name not in ENGINE_PRIVATE_NAMES:
                    self.refuse(f"names starting with '_' are not allowed ({alias.name!r})")
                reason = attribute_refusal(alias.name)
                if reason:
                    self.refuse(reason)
                self.check_name(alias.asname or alias.name)

    def visit_With(self, node):
        if not all(_is_manager(item.context_expr, self.managers) for item in node.items):
            self.refuse(WITH_REFUSAL)
        self.generic_visit(node)

    def visit_FormattedValue(self, node):
        spec = node.format_spec
        if spec is not None:
            if not all(isinstance(v, ast.Constant) for v in spec.values):
                self.refuse("f-string format specs cannot contain {expressions}")
            if not format_width_ok("".join(v.value for v in spec.values)):
                self.refuse(f"format widths over {MAX_FORMAT_WIDTH:,} are not allowed")
        self.generic_visit(node)
