"""The parts of Python's standard library a PyTorch tutorial imports beside torch: `argparse` (argparse_view.py),
`collections`, `copy`,
`dataclasses`, `functools`, `itertools`, `statistics`, `string`, `time` and `typing`, each a read-only view
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

from .allowlist import STDLIB_NAMES
from .argparse_view import argparse_names
from .errors import program_line
from .module_views import SafeModule


def stdlib_views(runtime, package):
    """`import <package>`: the view of it for the run of `runtime` (its budget and its classes)."""
    module = importlib.import_module(package)  # (when a program first imports it: the engine starts without)
    attrs = {name: getattr(module, name) for name in STDLIB_NAMES[package].split()}
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


_CHECKED = {"argparse": argparse_names, "collections": _collections, "dataclasses": _dataclasses,
            "functools": _functools, "itertools": _itertools, "time": _time}
