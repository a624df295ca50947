"""The helpers an instrumented program calls (the `_g_*` hooks and the builtins it gets), bound to one
budget: sizing before the C calls that can blow up (sequences, big ints, `pow`, division, `int(text, base)`),
attribute checks (numpy's methods from an allow-list, handing out sized arrays: arrays.py), format checks,
print, range, import (the views of torch and math, and per run those of random, numpy and the standard library's
modules), nesting (nesting.py) and the program's classes (classes.Classes).

No threads, signals or `resource`: the same code guards Pyodide. What it cannot stop is one C-level
operation on data made huge through shared references (`str()` or `==` of lists nested through repeated
references, `zip(*many)`): that is the wall's (docs/security.md).
"""
from __future__ import annotations
import __future__

import builtins
import functools
import math
import operator
import string
import sys
from types import MethodType, ModuleType

import numpy as np

from .. import observe, serialization
from ..nn.modules.module import Module
from ..tensor import Tensor
from ..vision import utils as vision_utils
from . import arrays, nesting
from .allowlist import (
    CALLED_DUNDERS,
    WITH_REFUSAL,
)
from .attribute_builtins import AttributeBuiltins
from .budget import Budget, budget_now
from .classes import Classes, engine_bases
from .contexts import Context
from .errors import GuardError, program_line
from .evaluate import Evaluator
from .exact_numbers import FRACTIONS, fraction_product_bits
from .files_view import buffers_only, open_
from .flag_setter import FlagSetter, TensorSetter, flag_target, live_flags
from .importable import ENGINE_MODULES
from .instrument import CHECKED
from .module_views import SafeModule, default_modules, module_views, origin
from .run_views import RUN_VIEWS
from .sized_operators import SizedOperators
from .sizing import (
    CONTAINERS,
    MAX_FORMAT_WIDTH,
    PRINTF_SPEC,
    SEQUENCES,
    format_width_ok,
    method_result_len,
)
from .sys_view import Console

SAFE_BUILTINS = """abs all any bin bool callable chr dict divmod enumerate filter float frozenset hash hex id
    int isinstance issubclass len list map max min next oct ord reversed round set slice sorted str tuple zip
    property staticmethod classmethod super object NotImplemented
    ArithmeticError AssertionError AttributeError Exception ImportError IndexError KeyError LookupError
    NameError NotImplementedError OverflowError RuntimeError StopIteration SyntaxError TypeError ValueError
    ZeroDivisionError Warning UserWarning DeprecationWarning FutureWarning
    RuntimeWarning OSError IOError FileNotFoundError FileExistsError IsADirectoryError NotADirectoryError
    PermissionError""".split()  # super and object: only as the checker lets them be written

_SAFE_BUILTINS = {name: getattr(builtins, name) for name in SAFE_BUILTINS}
# The classes among them that type(x) gives as themselves (not super: super(type, obj) walks).
_BUILTIN_TYPES = frozenset(v for v in _SAFE_BUILTINS.values() if isinstance(v, type)) - {super, object}
_FORMATTER = string.Formatter()
_FUTURE = SafeModule("__future__", {name: getattr(__future__, name) for name in __future__.all_feature_names})
_TRACE = __name__.rpartition(".")[0] + "."  # the guard's own objects: never the program's to change

_NUMPY_OWNERS = (np.ndarray, np.generic, np.flatiter)
_LEFT = object()  # shown(): the walk left the container below it
_BUILTIN_METHOD = type([].append)  # numpy's methods are of this type
def views(modules):
    """The views of the modules a program may import (math's functions that make big ints sized first), the
    packages they come from, and the ids of everything they hold: no program may set attributes of those."""
    found, origins = module_views(modules)
    if "math" in found:
        math_view = vars(found["math"])
        math_view.pop("lcm", None)
        math_view.update(prod=_prod, **{name: _int_function(getattr(math, name))
                                        for name in ("factorial", "comb", "perm")})
    live_flags(found)
    if getattr(modules.get("torch"), "save", None) is serialization.save:  # the engine's (not a test's stand-in)
        vars(found["torch"]).update({name: buffers_only(getattr(serialization, name), name) for name in ("save",
                                                                                                        "load")})
    if getattr(modules.get("torchvision.utils"), "save_image", None) is vision_utils.save_image:
        vars(found["torchvision.utils"])["save_image"] = buffers_only(vision_utils.save_image, "save_image",
                                                                      "torchvision.utils")
    shared = frozenset(id(v) for view in found.values() for v in (view, *vars(view).values()))
    return found, frozenset(origins), shared, engine_bases(found)


@functools.lru_cache(maxsize=1)
def default_views():
    """The engine's views, made once: read-only, and bound to no run (math's functions charge the budget
    of the program running now)."""
    return views(default_modules())


def _prod(iterable, /, *, start=1):
    mul = Runtime(budget_now()).mul
    for item in iterable:
        start = mul(start, item)
    return start


def _int_function(fn):
    def checked(n, *rest):
        size = operator.index(n)
        budget = budget_now()
        if size * size.bit_length() > budget.limits.max_int_bits:
            budget.exceed(f"math.{fn.__name__}({size}) is too big")
        return fn(n, *rest)

    return checked


class Runtime(SizedOperators, AttributeBuiltins):
    """The helpers an instrumented program calls, bound to one budget."""

    def __init__(self, budget, print_fn=print, modules=None, plot_fn=None):
        self.budget, self.print_fn = budget, print_fn
        self.plot_fn = plot_fn if plot_fn is not None else _unseen
        self.max_int_bits = budget.limits.max_int_bits
        self.checked = {"+": self.add, "*": self.mul, "**": self.power, "<<": self.lshift, "%": self.mod,
                        "//": self.floordiv}
        views_, self.origins, self.shared, bases = default_views() if modules is None else views(modules)
        self.views = dict(views_)  # and, once imported, the views made for this run (random, numpy)
        self.run_shared = set()  # ids of what those hold
        self._numpy_state = None
        self.classes = Classes(budget, self.origins, self.shared, bases, _BUILTIN_TYPES)
        nn = self.views.get("torch.nn")  # (the engine's nn.Module, or a test's stand-in)
        self.module_class = vars(nn).get("Module", Module) if nn is not None else Module

    def numpy_state(self):
        """The run's own numpy RandomState, seeded 0 (numpy's and scikit-learn's views draw from it)."""
        if self._numpy_state is None:
            self._numpy_state = np.random.RandomState(0)
        return self._numpy_state

    def namespace(self):
        hooks = {"_g_tick": self.budget.tick, "_g_line": self.budget.at_line, "_g_enter": self.budget.enter,
                 "_g_leave": self.budget.leave,
                 "_g_call": self.call, "_g_inplace": self.inplace, "_g_attr": self.attr,
                 "_g_settable": self.settable, "_g_private": self.private, "_g_private_settable": self.private_settable,
                 "_g_method": self.method, "_g_dunder": self.dunder, "_g_shown": self.shown,
                 "_g_reraise": self.reraise, "_g_refuse": self.refused, "_g_context": self.context,
                 "_g_slice": slice, "_g_int": self.int_, **nesting.HOOKS}
        hooks.update({CHECKED[symbol]: helper for symbol, helper in self.checked.items()})
        names = dict(_SAFE_BUILTINS)
        base = {"__builtins__": names, **hooks}
        evaluator = Evaluator(self.budget, base)
        names.update(print=self.print, range=self.range, sum=self.sum, pow=self.pow, round=self.round,
                     repr=self.repr, type=self.type_, iter=self.iter_, getattr=self.getattr_,
                     setattr=self.setattr_, delattr=self.delattr_,
                     hasattr=self.hasattr_, vars=self.vars_, dir=self.dir_, format=self.format_,
                     __import__=self.import_, divmod=self.divmod, open=open_,
                     __build_class__=self.classes.build, eval=evaluator.eval, exec=evaluator.exec,
                     **nesting.BUILTINS)
        return {**base, "__name__": "__main__"}

    def refuse(self, reason):
        self.budget.stop(GuardError(reason, program_line()))

    def context(self, manager):
        """`with manager:` whose exit is skipped once the run is over: a generator suspended in a
        `with torch.enable_grad():` and collected later must not set the grad mode of later runs. The manager
        must be the engine's or a view's (the checker only saw its name)."""
        kind = type(manager)
        ours = origin(manager) in self.origins or kind.__module__.startswith(_TRACE)  # the engine's, or a view's
        if self.classes.owns(manager) or not (ours and hasattr(kind, "__enter__") and hasattr(kind, "__exit__")):
            self.refuse(WITH_REFUSAL)
        return Context(manager, self.budget)

    def refused(self, reason, line):
        """A statement the checker refused, reached."""
        self.budget.stop(GuardError(reason, line))

    def reraise(self):
        """Starts every `except` block: a program may not catch the guard's own errors, nor run code once its
        budget is spent or closed (a generator closed after its program ended)."""
        error = sys.exc_info()[1]
        if isinstance(error, GuardError):
            raise error
        self.budget.check()

    def call(self, line, thunk):
        self.budget.enter(line)
        try:
            return thunk()
        finally:
            self.budget.leave()

    def check_printf(self, text):
        for match in PRINTF_SPEC.finditer(text):
            for width in match.groups():
                if width == "*" or width and not format_width_ok(width):
                    self.refuse(f"'%' format widths must be numbers up to {MAX_FORMAT_WIDTH:,}")

    def attr(self, value, name):
        if name == "__class__":
            return self.classes.visible(value)
        if isinstance(value, ModuleType):
            self.refuse(f"modules are not available to programs ({name!r})")
        if name == "numpy" and callable(value):  # tensor.numpy(): the array as the program may hold it
            return arrays.returning_arrays(value)
        kind = type(value)
        if kind is _BUILTIN_METHOD and isinstance(value.__self__, _NUMPY_OWNERS):
            return self.numpy_method(value.__self__, name, value)
        if kind is np.ndarray:  # (a.base, a.T of a plain array): the program holds only sized ones
            return arrays.as_array(value)
        if kind is memoryview:
            self.refuse(f"memoryviews are not available to programs ({name!r})")
        if name == "detach" and kind is MethodType and isinstance(value.__self__, Tensor):
            return _announced_detach(value)
        return value

    def numpy_method(self, owner, name, method):
        """A method of numpy's arrays and scalars: from an allow-list, sized (arrays.ndarray), results ours."""
        if name not in arrays.ARRAY_ATTRIBUTES:
            self.refuse(f"numpy's {type(owner).__name__}.{name}() is not available here")
        if not isinstance(owner, (arrays.ndarray, np.flatiter)) and hasattr(np.ndarray, name):
            method = getattr(arrays.as_array(np.asarray(owner)), name)  # a plain array's or a scalar's: sized
        return arrays.returning_arrays(method)

    def settable(self, obj):
        if self.classes.owns(obj):
            return obj
        target = flag_target(obj, self.views)
        if target is not None:
            return FlagSetter(target, self.refuse)
        if isinstance(obj, Tensor) and id(obj) not in self.shared and id(obj) not in self.run_shared:
            return TensorSetter(obj, self.refuse)
        if (isinstance(obj, (type, ModuleType, SafeModule)) or id(obj) in self.shared or id(obj) in self.run_shared
                or origin(obj) not in self.origins or type(obj).__module__.startswith(_TRACE)):
            kind = "module" if isinstance(obj, (ModuleType, SafeModule)) else type(obj).__name__
            self.refuse(f"setting attributes of {kind} objects is not allowed")
        return obj

    def method(self, obj, name, /, *args, **kwargs):
        if (obj is str or obj is bytes or obj is list) and args:  # str.join(sep, items)
            obj, args = args[0], args[1:]
        if name == "format" and isinstance(obj, str):
            self.check_format(obj)
            self.shown((args, kwargs))
        if name in ("join", "extend") and isinstance(obj, (str, bytes, list)) and args:
            args = (list(args[0]), *args[1:])
        n = method_result_len(obj, name, args, kwargs)
        if n:
            self.budget.charge_elements(n)
        return self.attr(getattr(obj, name), name)(*args, **kwargs)

    def dunder(self, obj, name, /, *args):
        """`x.__iter__()`, `x.__next__()`, `x.__len__()`, `x.__getitem__(i)` called by name: what iter(x), next(x),
        len(x) and x[i] do (the method itself is never handed out)."""
        if not hasattr(type(obj), name):
            raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'")
        if len(args) != CALLED_DUNDERS[name]:
            raise TypeError(f"{type(obj).__name__}.{name}() takes {CALLED_DUNDERS[name] or 'no'} "
                            f"argument{'s' if CALLED_DUNDERS[name] != 1 else ''} ({len(args)} given)")
        if name == "__iter__":
            return self.iter_(obj)
        if name == "__next__":
            return next(obj)
        if name == "__len__":
            return len(obj)
        return obj[args[0]]

    def check_format(self, text):
        """`text.format(...)` reads only its arguments: no `{0.attr}` or `{0[key]}`, no `{:{width}}`."""
        for _, field, spec, _ in _FORMATTER.parse(text):
            if field and not (field.isdecimal() or field.isidentifier()):
                self.refuse("format fields may only be numbers or names, as in '{0}' or '{loss}', not "
                            f"look-ups ({'{' + field + '}'!r})")
            if spec:
                if "{" in spec:
                    self.refuse("format specs cannot contain {fields}")
                self.check_spec(spec)

    def check_spec(self, spec):
        if not format_width_ok(spec):
            self.refuse(f"format widths over {MAX_FORMAT_WIDTH:,} are not allowed")

    def format_(self, value, spec=""):
        if isinstance(spec, str):
            self.check_spec(spec)
        return format(self.shown(value), spec)

    def type_(self, *args, **kwargs):
        if len(args) == 3:
            self.refuse("type() with three arguments makes a class: write a class statement instead")
        if len(args) != 1 or kwargs:
            raise TypeError("type() takes 1 or 3 arguments")
        return self.classes.visible(type(args[0]))

    def iter_(self, obj, *sentinel):
        if sentinel:
            self.refuse("iter(callable, sentinel) is not available: use a while loop")
        return iter(obj)

    def shown(self, obj):
        """Before a value is turned into text: refuses it if the text would be longer than a run may print,
        else charges its size (so that many f-strings of big values add up)."""
        limit, count, stack, path = self.budget.limits.max_output_chars, 0, [obj], set()
        while stack:
            item = stack.pop()
            if item is _LEFT:
                path.discard(stack.pop())
                continue
            count += len(item) + 1 if isinstance(item, (str, bytes, *CONTAINERS)) else 1
            if count > limit:
                self.budget.exceed(f"this value is too big to show (more than {limit:,} characters)")
            if isinstance(item, CONTAINERS) and len(item):
                if id(item) in path:  # a container inside itself: Python shows it as [...]
                    continue
                path.add(id(item))
                stack += [id(item), _LEFT]
                stack.extend(item.items() if isinstance(item, dict) else item)
        self.budget.charge_elements(count)
        return obj

    def print(self, *args, sep=" ", end="\n", file=None, flush=False):
        sep, end = " " if sep is None else sep, "\n" if end is None else end
        if not isinstance(sep, str) or not isinstance(end, str):
            raise TypeError("print(): sep and end must be None or strings")
        self.shown((args, sep, end))
        text = sep.join(map(str, args)) + end
        if file is not None and not isinstance(file, Console):
            file.write(text)
            return
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
        return self.ticking(numbers, program_line())

    def ticking(self, iterable, line):
        for item in iterable:
            self.budget.tick(line)
            yield item

    def sum(self, iterable, /, start=0):
        if isinstance(start, SEQUENCES):
            self.refuse("sum() can't add up lists, tuples or strings here; use a loop or a comprehension")
        if self.fractions:  # (a sum of Fractions multiplies their denominators: sized as they pass)
            iterable = self.sized_fractions(iterable, start)
        return sum(iterable, start)

    def sized_fractions(self, iterable, start):
        bits = fraction_product_bits(start, 0)
        for item in iterable:
            if type(item) in FRACTIONS:
                bits += fraction_product_bits(item, 0)
                self.fraction_bits(bits)
            yield item

    def round(self, number, ndigits=None):
        if ndigits is not None and abs(operator.index(ndigits)) > MAX_FORMAT_WIDTH:
            self.refuse(f"round() to more than {MAX_FORMAT_WIDTH:,} digits is not allowed")
        return round(number) if ndigits is None else round(number, ndigits)

    def pow(self, base, exp, mod=None):
        if mod is None:
            return self.power(base, exp)
        if type(base) is int and type(exp) is int and type(mod) is int:
            bits, size = max(mod.bit_length(), 64), exp.bit_length() if exp > 0 else mod.bit_length()
            if size * bits * bits > self.max_int_bits ** 2 * 2:
                self.budget.exceed(f"pow() with a {exp.bit_length():,}-bit exponent and a {mod.bit_length():,}-bit "
                                   "modulus is too much work")
        return pow(base, exp, mod)

    def import_(self, name, globals=None, locals=None, fromlist=(), level=0):
        if name == "__future__" and not level:
            return _FUTURE
        package = name.partition(".")[0]
        if package in RUN_VIEWS and package not in self.views and not level:
            made = RUN_VIEWS[package](self, package)
            self.views.update(made)
            self.run_shared.update(id(v) for view in made.values() for v in (view, *vars(view).values()))
        view = self.views.get(name)
        top = self.views.get(name.partition(".")[0])
        if view is None or top is None or level:
            if name in ENGINE_MODULES:
                raise ImportError(f"No module named {name!r} (the explorer does not have it yet)")
            raise ImportError(f"No module named {name!r}")
        for item in fromlist or ():
            if item != "*" and item not in vars(view):
                hint = f" ({view._hint})" if getattr(view, "_hint", None) else ""
                raise ImportError(f"cannot import name {item!r} from {name!r}{hint}")
        return view if fromlist else top


def _unseen(drawn):
    """What a program draws when nothing records it (the guard run alone)."""


def safe_globals(print_fn=print, budget: Budget | None = None, modules=None, plot_fn=None) -> dict:
    """Globals for running a compiled program: safe builtins, torch/math imports, the budget's hooks.

    print_fn is called as print_fn(text, end="") with the text the program prints, plot_fn with each drawing
    call's fields (plot_view.py). modules maps the
    names a program may import ("torch", "torch.nn", ..., "math") to modules; by default the engine's.
    """
    budget = budget if budget is not None else Budget()
    return Runtime(budget, print_fn, modules, plot_fn).namespace()


def _announced_detach(method):
    """`x.detach` as the program calls it: the recorder hears of the new leaf (an engine-internal detach is not
    the program's, and makes no node)."""
    def detach():
        out = method()
        observe.emit("on_detach", out, method.__self__)
        return out
    return detach
