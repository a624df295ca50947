"""The guard: runs a learner's program only after checking it, and then only within budgets.

`check` parses a program and holds it to an allow-list: imports of torch (torch.nn, .nn.functional, .nn.init,
.optim, .autograd) and math only; functions, lambdas, loops, if/else, comprehensions, try/except/finally,
`with torch.no_grad()` and the like. Refused: names and attributes starting with `_` (but `_` itself, and
reading `__name__`), classes, decorators, generators, async, global/nonlocal, match; the builtins that reach
outside (open, eval, getattr, type, vars, ...); attributes that walk to frames or code (f_*, gi_*, tb_*,
co_*, ...), format strings with attribute access (format, format_map), or write files (save, tofile, ...).

`compile_program` rewrites it so that every loop iteration, function call and comprehension item ticks a
`Budget` (steps, seconds, call depth, memory), so that the operations that can blow up in one C call
(`*`, `+`, `**`, `<<`, `%` on sequences and ints, `str.join`, `str.ljust`, `list.extend`, ...) are sized
first, and so that attribute reads refuse modules and attribute writes refuse classes, modules, functions
and the engine's own objects. `safe_globals` gives it a few safe builtins, and an `__import__` that hands
out read-only views (`SafeModule`) of the engine's public API as `torch`.

No threads, signals or `resource`: the same code guards Pyodide. What it cannot stop is one C-level
operation on data made huge through shared references (`str()` or `==` of lists nested through repeated
references, `zip(*many)`, numpy broadcasting on `tensor.numpy()` arrays): on a server, also run programs
in a worker process with a hard timeout and memory limit.

The engine's factories emit `on_alloc(numel)` to its observers before allocating; `run` adds the budget as
one (`Budget.on_alloc`), and `charge_elements(n)` charges the budget of the program running now, if any.
"""
from __future__ import annotations

import ast
import builtins
import contextvars
import functools
import importlib
import math
import operator
import os
import re
import sys
import time
from dataclasses import dataclass
from types import BuiltinFunctionType, CodeType, FunctionType, ModuleType

FILENAME = "<program>"
MAX_SOURCE_CHARS = 100_000
MAX_NESTING = 100
MAX_FORMAT_WIDTH = 10_000

ENGINE_MODULES = {
    "torch": "engine",
    "torch.nn": "engine.nn",
    "torch.nn.functional": "engine.nn.functional",
    "torch.nn.init": "engine.nn.init",
    "torch.optim": "engine.optim",
    "torch.autograd": "engine.autograd",
}
ALLOWED_IMPORTS = frozenset([*ENGINE_MODULES, "math"])

SAFE_BUILTINS = """abs all any bin bool callable chr dict divmod enumerate filter float frozenset hex int
    isinstance len list map max min next oct ord reversed round set sorted str tuple zip
    ArithmeticError AssertionError AttributeError Exception ImportError IndexError KeyError LookupError
    NameError NotImplementedError OverflowError RuntimeError StopIteration TypeError ValueError
    ZeroDivisionError""".split()

_SAFE_BUILTINS = {name: getattr(builtins, name) for name in SAFE_BUILTINS}

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

_ARRAY_ALLOCATORS = frozenset(["repeat", "resize"])

# Methods whose result size is set by their arguments: only called directly, and sized first.
SIZED_METHODS = frozenset("join ljust rjust center zfill expandtabs replace extend".split())

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

_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.MatMult: "@", ast.Div: "/", ast.Mod: "%",
            ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^",
            ast.BitAnd: "&", ast.FloorDiv: "//"}
_CHECKED = {"+": "__g_add", "*": "__g_mul", "**": "__g_pow", "<<": "__g_lshift", "%": "__g_mod"}
_INPLACE = {"+": operator.iadd, "*": operator.imul, "**": operator.ipow, "<<": operator.ilshift, "%": operator.imod}
_SEQUENCES = (str, bytes, list, tuple)
_CONTAINERS = (list, tuple, set, frozenset, dict, type({}.keys()), type({}.values()), type({}.items()))
_PRINTF_SPEC = re.compile(r"%%|%(?:\([^)]*\))?[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?")

try:
    _PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, OSError, ValueError):
    _PAGE_SIZE = 4096


class GuardError(Exception):
    """A program refused before or while running. `message` starts with the line when it is known."""

    kind = "GuardError"

    def __init__(self, reason: str, line: int | None = None):
        self.reason, self.line = reason, line
        self.message = f"line {line}: {reason}" if line else reason
        super().__init__(self.message)


class GuardSyntaxError(GuardError):
    kind = "SyntaxError"


class BudgetExceeded(GuardError):
    kind = "BudgetExceeded"


@dataclass(frozen=True)
class Limits:
    max_steps: int = 10_000_000  # loop iterations, function calls and comprehension items
    max_seconds: float = 2.0
    max_elements: int = 1_000_000  # in one tensor, list, tuple or string
    max_total_elements: int = 50_000_000  # made over the whole run
    max_int_bits: int = 100_000
    max_output_chars: int = 100_000
    max_events: int = 100_000
    max_depth: int = 100  # nested calls of the program's own functions
    max_memory_mb: float | None = 512  # growth of the process, where the platform reports it


_ACTIVE: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("guard_budget", default=None)


class Budget:
    """What one run may still spend. Once exceeded it stays exceeded: every later tick raises again.

    `with budget:` makes it the budget that `charge_elements` charges, and raises its error at the end
    if the program swallowed it (a `return` in a `finally`).
    """

    def __init__(self, limits: Limits = Limits()):
        self.limits = limits
        self.steps = self.depth = self.elements = self.output = self.events = 0
        self.error: BudgetExceeded | None = None
        self.started = time.perf_counter()
        self.deadline = self.started + limits.max_seconds
        self._memory_base = _memory_mb() if limits.max_memory_mb is not None else None
        self._next_memory_check = self.started

    def tick(self, line: int | None = None) -> bool:
        if self.error:
            self._raise_again()
        self.steps += 1
        if self.steps > self.limits.max_steps:
            self.exceed(f"the program ran more than {self.limits.max_steps:,} steps (an endless loop?)", line)
        now = time.perf_counter()
        if now > self.deadline:
            self.exceed(f"the program ran longer than {self.limits.max_seconds:g} s (an endless loop?)", line)
        if now >= self._next_memory_check:
            self._check_memory(now, line)
        return True

    def enter(self, line: int | None = None) -> None:
        self.tick(line)
        if self.depth >= self.limits.max_depth:
            self.exceed(f"calls nested more than {self.limits.max_depth} deep (endless recursion?)", line)
        self.depth += 1

    def leave(self) -> None:
        self.depth -= 1

    def charge_elements(self, n: int, line: int | None = None) -> None:
        """Called before making a tensor, list or string of n elements; raises if it is too big."""
        if self.error:
            self._raise_again()
        if n > self.limits.max_elements:
            self.exceed(f"{n:,} elements at once are more than the limit of {self.limits.max_elements:,}", line)
        self.elements += n
        if self.elements > self.limits.max_total_elements:
            self.exceed(f"the program made more than {self.limits.max_total_elements:,} elements in all", line)

    on_alloc = charge_elements  # the engine's observer hook

    def charge_output(self, n: int, line: int | None = None) -> None:
        if self.error:
            self._raise_again()
        self.output += n
        if self.output > self.limits.max_output_chars:
            self.exceed(f"the program printed more than {self.limits.max_output_chars:,} characters", line)

    def charge_events(self, n: int = 1, line: int | None = None) -> None:
        if self.error:
            self._raise_again()
        self.events += n
        if self.events > self.limits.max_events:
            self.exceed(f"the program made more than {self.limits.max_events:,} events", line)

    def exceed(self, reason: str, line: int | None = None):
        self.error = BudgetExceeded(reason, _program_line() if line is None else line)
        raise self.error

    def _raise_again(self):
        raise BudgetExceeded(self.error.reason, self.error.line)

    def _check_memory(self, now, line):
        self._next_memory_check = now + 0.01
        if self._memory_base is None:
            return
        used = _memory_mb()
        if used is not None and used - self._memory_base > self.limits.max_memory_mb:
            self.exceed(f"the program used more than {self.limits.max_memory_mb:g} MB of memory", line)

    def __enter__(self):
        self._token = _ACTIVE.set(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        _ACTIVE.reset(self._token)
        if self.error and not isinstance(exc, BudgetExceeded):
            self._raise_again()
        return False


def active_budget() -> Budget | None:
    return _ACTIVE.get()


def charge_elements(n: int) -> None:
    """Charges the budget of the program running now (no-op outside a run)."""
    budget = _ACTIVE.get()
    if budget is not None:
        budget.charge_elements(n)


def _memory_mb() -> float | None:
    """Resident memory from /proc (Linux); None where the platform does not tell (Pyodide)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE_SIZE / 2**20
    except (OSError, ValueError, IndexError):
        return None


def _program_line() -> int | None:
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename != FILENAME:
        frame = frame.f_back
    return frame.f_lineno if frame is not None else None


# --- checking --------------------------------------------------------------------------------------


def check(source: str) -> ast.Module:
    """Parses and validates a program; raises GuardError (GuardSyntaxError for bad syntax)."""
    if len(source) > MAX_SOURCE_CHARS:
        raise GuardError(f"the program is longer than {MAX_SOURCE_CHARS:,} characters")
    try:
        tree = ast.parse(source, FILENAME)
    except SyntaxError as e:
        raise GuardSyntaxError(e.msg, e.lineno) from None
    except (ValueError, RecursionError, MemoryError) as e:
        raise GuardSyntaxError(str(e) or "the program is too complex to parse") from None
    _Validator(tree, _scan(tree)).visit(tree)
    return tree


def _scan(tree):
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


def _format_width_ok(spec: str) -> bool:
    return all(len(d) <= 9 and int(d) <= MAX_FORMAT_WIDTH for d in re.findall(r"\d+", spec))


class _Validator(ast.NodeVisitor):
    def __init__(self, tree, bound):
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
            if not _format_width_ok("".join(v.value for v in spec.values)):
                self.refuse(f"format widths over {MAX_FORMAT_WIDTH:,} are not allowed")
        self.generic_visit(node)


# --- instrumenting ---------------------------------------------------------------------------------


def compile_program(source: str, budget: Budget | None = None) -> CodeType:
    """Checks, instruments and compiles a program. (The budget is bound at run time, by safe_globals.)

    Code objects are immutable and hold nothing of a run, so the last few programs' are kept (a refused
    program raises, and is not kept)."""
    return _compile(source)


@functools.lru_cache(maxsize=32)
def _compile(source: str) -> CodeType:
    tree = _Instrument().visit(check(source))
    try:
        return compile(tree, FILENAME, "exec", dont_inherit=True)
    except SyntaxError as e:  # e.g. 'return' outside a function
        raise GuardSyntaxError(e.msg, e.lineno) from None
    except (RecursionError, MemoryError):
        raise GuardError("the program is too complex to compile") from None


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
        return _call("__g_slice", *(part or ast.Constant(None) for part in (node.lower, node.upper, node.step)))
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


class _Instrument(ast.NodeTransformer):
    """Inserts the budget's ticks and routes attribute access and growing operations through helpers."""

    def __init__(self):
        self.temps = 0

    def temp(self):
        self.temps += 1
        return f"__g_t{self.temps}"

    def tick(self, node):
        return _stmt(_call("__g_tick", ast.Constant(node.lineno)), node)

    def visit_Constant(self, node):
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        symbol = _SYMBOLS[type(node.op)]
        if symbol not in _CHECKED or _cannot_grow(node):
            return node
        return _located(_call(_CHECKED[symbol], node.left, node.right), node)

    def visit_Attribute(self, node):
        """`x.a` becomes `__g_attr(x.a, "a")`, which refuses modules; `x.a = v` becomes `__g_settable(x).a = v`.

        The attribute itself is still read and written by the program's own code, so that warnings raised
        by properties point at the program's line."""
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            node.value = _located(_call("__g_settable", node.value), node)
            return node
        return _located(_call("__g_attr", node, ast.Constant(node.attr)), node)

    def visit_Call(self, node):
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in SIZED_METHODS):
            return self.generic_visit(node)
        args = [self.visit(func.value), ast.Constant(func.attr), *(self.visit(a) for a in node.args)]
        keywords = [self.visit(k) for k in node.keywords]
        return _located(_call("__g_method", *args, keywords=keywords), node)

    def visit_FormattedValue(self, node):
        self.generic_visit(node)
        node.value = _located(_call("__g_shown", node.value), node)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        target, symbol = node.target, _SYMBOLS[type(node.op)]
        checked, symbol = symbol in _CHECKED, ast.Constant(symbol)
        if not checked:
            return node
        if isinstance(target, ast.Name):
            value = _call("__g_inplace", symbol, ast.Name(target.id, ast.Load()), node.value)
            return _assign(target.id, value, node)
        obj = self.temp()  # evaluate the target's object (and index) once, as `op=` does
        if isinstance(target, ast.Attribute):
            current = ast.Attribute(ast.Name(obj, ast.Load()), target.attr, ast.Load())
            store = ast.Attribute(ast.Name(obj, ast.Load()), target.attr, ast.Store())
            value = _call("__g_inplace", symbol, current, node.value)
            return [_assign(obj, target.value, node), _located(ast.Assign([store], value), node)]
        key = self.temp()
        item = ast.Subscript(ast.Name(obj, ast.Load()), ast.Name(key, ast.Load()), ast.Load())
        store = ast.Subscript(ast.Name(obj, ast.Load()), ast.Name(key, ast.Load()), ast.Store())
        value = _call("__g_inplace", symbol, item, node.value)
        return [_assign(obj, target.value, node), _assign(key, _slice_value(target.slice), node),
                _located(ast.Assign([store], value), node)]

    def visit_For(self, node):
        self.generic_visit(node)
        node.body.insert(0, self.tick(node))
        return node

    visit_While = visit_For

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        leave = ast.Try(body=node.body, handlers=[], orelse=[], finalbody=[_stmt(_call("__g_leave"), node)])
        node.body = [_stmt(_call("__g_enter", ast.Constant(node.lineno)), node), _located(leave, node)]
        return node

    def visit_Lambda(self, node):
        self.generic_visit(node)
        no_args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                kwarg=None, defaults=[])
        node.body = _located(_call("__g_call", ast.Constant(node.lineno), ast.Lambda(no_args, node.body)), node)
        return node

    def visit_ListComp(self, node):
        self.generic_visit(node)
        for generator in node.generators:
            generator.ifs.insert(0, _located(_call("__g_tick", ast.Constant(node.lineno)), node))
        return node

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp

    def visit_ExceptHandler(self, node):
        self.generic_visit(node)
        node.body.insert(0, _stmt(_call("__g_reraise"), node))
        return node


# --- running ---------------------------------------------------------------------------------------


class SafeModule:
    """What a program sees of a module: its public names that are not modules, read-only."""

    def __init__(self, name, attrs=()):
        self.__dict__.update(attrs)
        self.__dict__["_name"] = name

    def __getattr__(self, attr):
        raise AttributeError(f"module {self._name!r} has no attribute {attr!r}")

    def __setattr__(self, attr, value):
        raise AttributeError(f"module {self._name!r} is read-only")

    __delattr__ = __setattr__

    def __repr__(self):
        return f"<module {self._name!r}>"


def default_modules() -> dict[str, ModuleType]:
    """The engine's modules under their torch names (those that exist yet), and math."""
    found = {"math": math}
    for public, real in ENGINE_MODULES.items():
        try:
            found[public] = importlib.import_module(real)
        except ModuleNotFoundError as e:
            if e.name != real:
                raise
    return found


def _origin(value):
    """The top-level package that defines a function or class, or the class of any other object."""
    owner = value if isinstance(value, (type, FunctionType, BuiltinFunctionType)) else type(value)
    return (getattr(owner, "__module__", None) or "").partition(".")[0]


def _exportable(value, origins):
    if value is None or type(value) in (bool, int, float, complex, str) or _origin(value) in origins:
        return True
    numpy = sys.modules.get("numpy")  # dtypes and scalar types, not numpy's functions
    return numpy is not None and (
        isinstance(value, numpy.dtype) or isinstance(value, type) and issubclass(value, numpy.generic))


def _module_views(modules):
    """SafeModule views of the given modules, their submodules attached as attributes."""
    origins = {module.__name__.partition(".")[0] for module in modules.values()}
    views = {name: SafeModule(name) for name in modules}
    view_of = {id(module): views[name] for name, module in modules.items()}
    for name, module in modules.items():
        attrs = views[name].__dict__
        for attr in dir(module):
            if attr.startswith("_") or attr in FORBIDDEN_ATTRS or attr in FORBIDDEN_NAMES:
                continue
            value = getattr(module, attr, None)
            if isinstance(value, ModuleType):
                if id(value) in view_of:
                    attrs[attr] = view_of[id(value)]
            elif _exportable(value, origins):
                attrs[attr] = value
    for name, view in views.items():
        parent, _, child = name.rpartition(".")
        if parent in views:
            views[parent].__dict__[child] = view
    return views, origins


def _views(modules):
    """The views of the modules a program may import (math's functions that make big ints sized first), the
    packages they come from, and the ids of everything they hold: no program may set attributes of those."""
    views, origins = _module_views(modules)
    if "math" in views:
        math_view = vars(views["math"])
        math_view.pop("lcm", None)
        math_view.update(prod=_prod, **{name: _int_function(getattr(math, name))
                                        for name in ("factorial", "comb", "perm")})
    shared = frozenset(id(v) for view in views.values() for v in (view, *vars(view).values()))
    return views, frozenset(origins), shared


@functools.lru_cache(maxsize=1)
def _default_views():
    """The engine's views, made once: read-only, and bound to no run (math's functions charge the budget
    of the program running now)."""
    return _views(default_modules())


def _budget_now():
    budget = _ACTIVE.get()
    return budget if budget is not None else Budget()


def _prod(iterable, /, *, start=1):
    mul = _Runtime(_budget_now()).mul
    for item in iterable:
        start = mul(start, item)
    return start


def _int_function(fn):
    def checked(n, *rest):
        size = operator.index(n)
        budget = _budget_now()
        if size * size.bit_length() > budget.limits.max_int_bits:
            budget.exceed(f"math.{fn.__name__}({size}) is too big")
        return fn(n, *rest)

    return checked


def _reraise():
    """Starts every `except` block: a program may not catch the guard's own errors."""
    error = sys.exc_info()[1]
    if isinstance(error, GuardError):
        raise error


def _result_len(op, a, b):
    """How many items or characters `a op b` will hold, for the ops that make sequences grow; else 0."""
    try:
        if op == "*" and isinstance(a, _SEQUENCES):
            return len(a) * max(operator.index(b), 0)
        if op == "*" and isinstance(b, _SEQUENCES):
            return len(b) * max(operator.index(a), 0)
        if op == "+" and isinstance(a, _SEQUENCES):
            return len(a) + len(b)
    except Exception:  # not a size after all (a float tensor, ...): the operation decides
        pass
    return 0


def _method_result_len(obj, name, args, kwargs):
    if not isinstance(obj, (str, bytes, list)):
        return 0
    try:
        if name == "join":
            return sum(map(len, args[0])) + len(obj) * max(len(args[0]) - 1, 0)
        if name in ("ljust", "rjust", "center", "zfill"):
            return max(len(obj), operator.index(args[0]))
        if name == "expandtabs":
            tab = operator.index(kwargs.get("tabsize", args[0] if args else 8))
            return len(obj) + obj.count("\t" if isinstance(obj, str) else b"\t") * max(tab, 0)
        if name == "replace":
            old, new = args[:2]
            count = operator.index(args[2] if len(args) > 2 else kwargs.get("count", -1))
            hits = obj.count(old) if old else len(obj) + 1
            return len(obj) + (hits if count < 0 else min(hits, count)) * max(len(new) - len(old), 0)
        if name == "extend":
            return len(obj) + len(args[0])
    except Exception:  # wrong arguments: the method itself raises the right error
        pass
    return 0


class _Runtime:
    """The helpers an instrumented program calls, bound to one budget."""

    def __init__(self, budget, print_fn=print, modules=None):
        self.budget, self.print_fn = budget, print_fn
        self.max_int_bits = budget.limits.max_int_bits
        self.checked = {"+": self.add, "*": self.mul, "**": self.power, "<<": self.lshift, "%": self.mod}
        self.views, self.origins, self.shared = _default_views() if modules is None else _views(modules)

    def namespace(self):
        hooks = {"__g_tick": self.budget.tick, "__g_enter": self.budget.enter, "__g_leave": self.budget.leave,
                 "__g_call": self.call, "__g_inplace": self.inplace, "__g_attr": self.attr,
                 "__g_settable": self.settable, "__g_method": self.method, "__g_shown": self.shown,
                 "__g_reraise": _reraise, "__g_slice": slice}
        hooks.update({_CHECKED[symbol]: helper for symbol, helper in self.checked.items()})
        names = dict(_SAFE_BUILTINS)
        names.update(print=self.print, range=self.range, sum=self.sum, pow=self.pow, round=self.round,
                     repr=self.repr, __import__=self.import_)
        return {"__builtins__": names, "__name__": "__main__", **hooks}

    def refuse(self, reason):
        raise GuardError(reason, _program_line())

    def call(self, line, thunk):
        self.budget.enter(line)
        try:
            return thunk()
        finally:
            self.budget.leave()

    # `a op b` for the operators that can make huge sequences or ints; `apply` is the in-place op for `op=`.
    def add(self, a, b, apply=operator.add):
        if isinstance(a, _SEQUENCES):
            self.grow("+", a, b)
        return apply(a, b)

    def mul(self, a, b, apply=operator.mul):
        if type(a) is int and type(b) is int:
            if a.bit_length() + b.bit_length() > self.max_int_bits:
                self.int_too_big()
        elif isinstance(a, _SEQUENCES) or isinstance(b, _SEQUENCES):
            self.grow("*", a, b)
        return apply(a, b)

    def power(self, a, b, apply=operator.pow):
        if type(a) is int and type(b) is int and b > 0 and a.bit_length() > 1:
            if a.bit_length() * b > self.max_int_bits:
                self.int_too_big()
        return apply(a, b)

    def lshift(self, a, b, apply=operator.lshift):
        if type(a) is int and type(b) is int and a and a.bit_length() + b > self.max_int_bits:
            self.int_too_big()
        return apply(a, b)

    def mod(self, a, b, apply=operator.mod):
        if isinstance(a, (str, bytes)):
            self.check_printf(a if isinstance(a, str) else a.decode("latin-1"))
            self.shown(b)
        return apply(a, b)

    def inplace(self, symbol, a, b):
        return self.checked[symbol](a, b, _INPLACE[symbol])

    def grow(self, op, a, b):
        n = _result_len(op, a, b)
        if n:
            self.budget.charge_elements(n)

    def int_too_big(self):
        self.budget.exceed(f"integers over {self.max_int_bits:,} bits are too big")

    def check_printf(self, text):
        for match in _PRINTF_SPEC.finditer(text):
            for width in match.groups():
                if width == "*" or width and not _format_width_ok(width):
                    self.refuse(f"'%' format widths must be numbers up to {MAX_FORMAT_WIDTH:,}")

    def attr(self, value, name):
        if isinstance(value, ModuleType):
            self.refuse(f"modules are not available to programs ({name!r})")
        if name in _ARRAY_ALLOCATORS:  # on the arrays that tensor.numpy() returns
            numpy = sys.modules.get("numpy")
            if numpy is not None and isinstance(getattr(value, "__self__", None), numpy.ndarray):
                self.refuse(f"numpy's ndarray.{name}() is not available; use the tensor's methods")
        return value

    def settable(self, obj):
        if (isinstance(obj, (type, ModuleType, SafeModule)) or id(obj) in self.shared
                or _origin(obj) not in self.origins):
            kind = "module" if isinstance(obj, (ModuleType, SafeModule)) else type(obj).__name__
            self.refuse(f"setting attributes of {kind} objects is not allowed")
        return obj

    def method(self, obj, name, *args, **kwargs):
        if (obj is str or obj is bytes or obj is list) and args:  # str.join(sep, items)
            obj, args = args[0], args[1:]
        if name in ("join", "extend") and isinstance(obj, (str, bytes, list)) and args:
            args = (list(args[0]), *args[1:])
        n = _method_result_len(obj, name, args, kwargs)
        if n:
            self.budget.charge_elements(n)
        return self.attr(getattr(obj, name), name)(*args, **kwargs)

    def shown(self, obj):
        """Before a value is turned into text: refuses it if the text would be longer than a run may print,
        else charges its size (so that many f-strings of big values add up)."""
        limit, count, stack = self.budget.limits.max_output_chars, 0, [obj]
        while stack:
            item = stack.pop()
            count += len(item) + 1 if isinstance(item, (str, bytes, *_CONTAINERS)) else 1
            if count > limit:
                self.budget.exceed(f"this value is too big to show (more than {limit:,} characters)")
            if isinstance(item, dict):
                stack.extend(item.items())
            elif isinstance(item, _CONTAINERS):
                stack.extend(item)
        self.budget.charge_elements(count)
        return obj

    def print(self, *args, sep=" ", end="\n", flush=False):
        sep, end = " " if sep is None else sep, "\n" if end is None else end
        if not isinstance(sep, str) or not isinstance(end, str):
            raise TypeError("print(): sep and end must be None or strings")
        self.shown((args, sep, end))
        text = sep.join(map(str, args)) + end
        self.budget.charge_output(len(text))
        self.print_fn(text, end="")

    def repr(self, obj):
        return repr(self.shown(obj))

    def range(self, *args):
        numbers = range(*args)
        try:
            if len(numbers) <= self.budget.limits.max_elements:
                return numbers
        except OverflowError:
            pass
        return self.ticking(numbers, _program_line())

    def ticking(self, iterable, line):
        for item in iterable:
            self.budget.tick(line)
            yield item

    def sum(self, iterable, /, start=0):
        if isinstance(start, _SEQUENCES):
            self.refuse("sum() can't add up lists, tuples or strings here; use a loop or a comprehension")
        return sum(iterable, start)

    def round(self, number, ndigits=None):
        if ndigits is not None and abs(operator.index(ndigits)) > MAX_FORMAT_WIDTH:
            self.refuse(f"round() to more than {MAX_FORMAT_WIDTH:,} digits is not allowed")
        return round(number) if ndigits is None else round(number, ndigits)

    def pow(self, base, exp, mod=None):
        return self.power(base, exp) if mod is None else pow(base, exp, mod)

    def import_(self, name, globals=None, locals=None, fromlist=(), level=0):
        view = self.views.get(name)
        top = self.views.get(name.partition(".")[0])
        if view is None or top is None or level:
            raise ImportError(f"No module named {name!r}")
        for item in fromlist or ():
            if item != "*" and item not in vars(view):
                raise ImportError(f"cannot import name {item!r} from {name!r}")
        return view if fromlist else top


def safe_globals(print_fn=print, budget: Budget | None = None, modules=None) -> dict:
    """Globals for running a compiled program: safe builtins, torch/math imports, the budget's hooks.

    print_fn is called as print_fn(text, end="") with the text the program prints. modules maps the
    names a program may import ("torch", "torch.nn", ..., "math") to modules; by default the engine's.
    """
    budget = budget if budget is not None else Budget()
    return _Runtime(budget, print_fn, modules).namespace()


def run(source: str, *, print_fn=print, limits: Limits = Limits(), modules=None,
        budget: Budget | None = None) -> dict:
    """Checks, compiles and runs a program; returns its globals. Raises GuardError or the program's own
    errors (NameError, ZeroDivisionError, ...), which a recorder reports as error events."""
    budget = budget if budget is not None else Budget(limits)
    code = compile_program(source)
    namespace = safe_globals(print_fn, budget, modules)
    observe = sys.modules.get("engine.observe") if modules is None else None
    if observe is not None:
        observe.add(budget)
    try:
        with budget:
            exec(code, namespace)
    finally:
        if observe is not None:
            observe.remove(budget)
    return namespace
