"""The parts of Python's standard library a PyTorch tutorial imports beside torch: `argparse` (argparse_view.py),
`collections`, `copy`,
`dataclasses`, `functools`, `itertools`, `statistics`, `string`, `time`, `types` (SimpleNamespace) and `typing`,
each a read-only view
of the names listed here (made for each run, like `random`), none that reads files, walks objects, evaluates
text or changes what other runs share.

What a program could use to change shared objects takes only its own: `dataclass`, `total_ordering` and
`wraps` decorate only the program's own classes and functions, and the classes `namedtuple` and
`dataclass(slots=True)` make are the program's (it may derive from them and set their objects' attributes).
Iterators that never end (`count`, `cycle`, `repeat` without a count) tick the budget as they go, so
`sum(itertools.count())` stops at the time limit with its line; `time.sleep` longer than the time left stops
at once.
"""
from __future__ import annotations

import importlib
import time
from types import FunctionType

from .allowlist import MAX_FORMAT_WIDTH
from .argparse_view import argparse_names
from .classes import ClassName
from .errors import program_line
from .importable import STDLIB_NAMES
from .module_views import SafeModule


def stdlib_views(runtime, package):
    """`import <package>`: the view of it for the run of `runtime` (its budget and its classes)."""
    module = importlib.import_module(package)  # (when a program first imports it: the engine starts without)
    attrs = {name: getattr(module, name) for name in STDLIB_NAMES[package].split() if name != "ABC"}
    attrs.update(_CHECKED.get(package, lambda run: {})(runtime))
    return {package: SafeModule(package, attrs)}


def _own_class(runtime, cls, what):
    if not (isinstance(cls, type) and cls in runtime.classes.made):
        runtime.refuse(f"{what} may only decorate the program's own classes")
    return cls


def _collections(runtime):
    import collections

    def namedtuple(typename, field_names, *, rename=False, defaults=None, module="__main__"):
        cls = collections.namedtuple(typename, field_names, rename=rename, defaults=defaults, module=module)
        runtime.classes.adopt(cls, vars(cls))  # (`_make`, `_replace`, `_asdict`, `_fields` are its API)
        return cls

    return {"namedtuple": namedtuple}


def _dataclasses(runtime):
    import dataclasses

    def dataclass(cls=None, /, **options):
        def wrap(cls):
            made = dataclasses.dataclass(_own_class(runtime, cls, "dataclass"), **options)
            if made is not cls:  # slots=True makes a new class
                runtime.classes.adopt(made, runtime.classes.made[cls])
            return made

        return wrap if cls is None else wrap(cls)

    return {"dataclass": dataclass}


def _functools(runtime):
    import functools

    def total_ordering(cls):
        return functools.total_ordering(_own_class(runtime, cls, "total_ordering"))

    def wraps(wrapped, assigned=functools.WRAPPER_ASSIGNMENTS, updated=functools.WRAPPER_UPDATES):
        def decorate(wrapper):
            if not (type(wrapper) is FunctionType and wrapper.__module__ == "__main__"):
                runtime.refuse("functools.wraps may only decorate the program's own functions")
            return functools.update_wrapper(wrapper, wrapped, assigned, updated)

        return decorate

    return {"total_ordering": total_ordering, "wraps": wraps}


def _itertools(runtime):
    import itertools

    limit = runtime.budget.limits.max_elements

    def ticking(iterator):
        return runtime.ticking(iterator, program_line())

    def count(start=0, step=1):
        return ticking(itertools.count(start, step))

    def cycle(iterable):
        return ticking(itertools.cycle(iterable))

    def repeat(obj, times=None):
        if times is None or times > limit:
            return ticking(itertools.repeat(obj) if times is None else itertools.repeat(obj, times))
        return itertools.repeat(obj, times)

    return {"count": count, "cycle": cycle, "repeat": repeat}


def _time(runtime):
    budget = runtime.budget

    def sleep(seconds):
        if seconds > budget.deadline - time.perf_counter():
            budget.exceed(f"time.sleep({seconds:g}) would run past the time limit of {budget.limits.max_seconds:g} s",
                          program_line())
        time.sleep(seconds)

    return {"sleep": sleep}


MAX_INDENT = 64  # json's, pprint's and textwrap's indents: longer ones are not for reading


def _abc(runtime):
    import abc

    fresh = abc.ABCMeta("ABC", (), {"__slots__": (), "__module__": "abc"})  # its registry dies with the run
    runtime.classes.bases += (fresh,)

    def abstractmethod(function):
        if not (type(function) is FunctionType and function.__module__ == "__main__"):
            runtime.refuse("abc.abstractmethod may only decorate the program's own functions")
        return abc.abstractmethod(function)

    return {"ABC": fresh, "abstractmethod": abstractmethod}


def _enum(runtime):
    import enum

    runtime.classes.bases += (enum.Enum,)  # Flag, IntEnum and IntFlag derive from it
    return {}


def _numbers(runtime):
    import numbers

    return {name: ClassName(getattr(numbers, name)) for name in STDLIB_NAMES["numbers"].split()}


def _short(runtime, what, text):
    if text is not None and len(str(text) if isinstance(text, int) else text) > MAX_INDENT:
        runtime.refuse(f"{what} longer than {MAX_INDENT} characters is not allowed")


def _json(runtime):
    import json

    def dumps(obj, *, indent=None, separators=None, **options):
        runtime.shown(obj)
        _short(runtime, "an indent", " " * indent if isinstance(indent, int) else indent)
        for separator in separators or ():
            _short(runtime, "a separator", separator)
        text = json.dumps(obj, indent=indent, separators=separators, **options)
        runtime.budget.charge_elements(len(text))
        return text

    return {"dumps": dumps}


def _pprint(runtime):
    import pprint

    def pformat(obj, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True, underscore_numbers=False):
        runtime.shown(obj)
        _short(runtime, "an indent", " " * indent)
        if width > MAX_FORMAT_WIDTH:
            runtime.refuse(f"widths over {MAX_FORMAT_WIDTH:,} are not allowed")
        text = pprint.pformat(obj, indent, width, depth, compact=compact, sort_dicts=sort_dicts,
                              underscore_numbers=underscore_numbers)
        runtime.budget.charge_elements(len(text))
        return text

    def pprint_(obj, stream=None, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True,
                underscore_numbers=False):
        if stream is not None:
            runtime.refuse("pprint.pprint prints to the program's output only (stream=None)")
        runtime.print(pformat(obj, indent, width, depth, compact=compact, sort_dicts=sort_dicts,
                              underscore_numbers=underscore_numbers))

    def pp(obj, *args, sort_dicts=False, **kwargs):
        pprint_(obj, *args, sort_dicts=sort_dicts, **kwargs)

    pprint_.__name__ = pprint_.__qualname__ = "pprint"
    return {"pformat": pformat, "pprint": pprint_, "pp": pp}


def _textwrap(runtime):
    import textwrap

    def grown(text, *indents):
        """At most one of each indent per line, a line per character."""
        runtime.budget.charge_elements(len(text) * (1 + sum(len(i) for i in indents if i)))

    def indent(text, prefix, predicate=None):
        grown(text, prefix)
        return textwrap.indent(text, prefix, predicate)

    def wrap(text, width=70, **options):
        for key in ("initial_indent", "subsequent_indent", "placeholder"):
            _short(runtime, key, options.get(key))
        grown(text, options.get("initial_indent"), options.get("subsequent_indent"))
        return textwrap.wrap(text, width, **options)

    def fill(text, width=70, **options):
        return "\n".join(wrap(text, width, **options))

    return {"indent": indent, "wrap": wrap, "fill": fill}


def _operator(runtime):
    """The operators that can make huge sequences or ints go through the runtime's sized ones, as `a * b` does."""
    return {"add": runtime.add, "mul": runtime.mul, "pow": runtime.power, "mod": runtime.mod,
            "floordiv": runtime.floordiv}


def _warnings(runtime):
    import warnings

    def warn(message, category=None, stacklevel=1):
        if category is not None and not (isinstance(category, type) and issubclass(category, Warning)):
            raise TypeError(f"category must be a Warning subclass, not '{type(category).__name__}'")
        warnings.warn(message, category, stacklevel=stacklevel + 1)

    def patterns(**texts):
        """The filter's texts are regular expressions, which can run for ever inside one C call: plain text and
        `.*` only."""
        for what, text in texts.items():
            if not isinstance(text, str):
                raise TypeError(f"{what} must be a string")
            _short(runtime, f"warnings.filterwarnings' {what}", text)
            if any(c in _REGEX_OPERATORS for c in text.replace(".*", "")):
                runtime.refuse(f"warnings.filterwarnings' {what} may be plain text with .* only (as in "
                               "'.*deprecated.*'): other regular-expression operators are not allowed")

    def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
        patterns(message=message, module=module)
        warnings.filterwarnings(action, message, category, module, lineno, append)

    def simplefilter(action, category=Warning, lineno=0, append=False):
        warnings.simplefilter(action, category, lineno, append)

    return {"warn": warn, "filterwarnings": filterwarnings, "simplefilter": simplefilter}


_REGEX_OPERATORS = frozenset(".^$*+?{}[]\\|()")


def _types(runtime):
    import types

    class SimpleNamespace(types.SimpleNamespace):
        """The run's own, so that a program may set its attributes (`config.lr = ...`), as scripts do."""

        def __repr__(self):  # as Python's own prints: namespace(a=1)
            return f"namespace({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"

    runtime.classes.made[SimpleNamespace] = set()
    return {"SimpleNamespace": SimpleNamespace}


def _inspect(runtime):
    """`inspect.signature(torch.optim.AdamW).parameters` (nanoGPT asks whether AdamW takes `fused`): the signature
    of a callable whose defaults are plain values (numbers, text, None, tuples of them), or of the program's own
    functions; anything else would hand out objects the engine keeps as defaults."""
    import inspect

    plain = (type(None), bool, int, float, complex, str, bytes)

    def plain_default(value):
        return (value is inspect.Parameter.empty or isinstance(value, plain)
                or (type(value) is tuple and all(plain_default(v) for v in value)))

    class Signature(inspect.Signature):  # its from_callable (reachable on a signature) checks as signature() does
        __slots__ = ()

        @classmethod
        def from_callable(cls, obj, *, follow_wrapped=True, globals=None, locals=None, eval_str=False):
            return signature(obj, follow_wrapped=follow_wrapped)

    def signature(obj, *, follow_wrapped=True):
        own = type(obj) is FunctionType and obj.__module__ == "__main__"
        found = inspect.signature(obj, follow_wrapped=follow_wrapped)
        if not own and not all(plain_default(p.default) for p in found.parameters.values()):
            runtime.refuse("inspect.signature shows the signatures of the program's own functions, and of others "
                           "whose defaults are plain values (numbers, text, None, tuples of them)")
        return Signature(list(found.parameters.values()), return_annotation=found.return_annotation,
                         __validate_parameters__=False)

    return {"signature": signature}


_CHECKED = {"argparse": argparse_names, "inspect": _inspect,
            "types": _types, "collections": _collections, "dataclasses": _dataclasses,
            "functools": _functools, "itertools": _itertools, "time": _time, "abc": _abc, "enum": _enum,
            "numbers": _numbers, "json": _json, "pprint": _pprint, "textwrap": _textwrap, "operator": _operator,
            "warnings": _warnings}
