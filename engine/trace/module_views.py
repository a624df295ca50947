"""What a program sees of the modules it may import: read-only views of their public names that are not
modules (SafeModule), the engine's modules under their torch names, and the packages those come from."""
from __future__ import annotations

import importlib
import math
import operator
import random
import sys
from types import BuiltinFunctionType, FunctionType, ModuleType, NoneType, UnionType

from .allowlist import FILE_ATTRS, FORBIDDEN_ATTRS, FORBIDDEN_NAMES
from .budget import budget_now
from .importable import ENGINE_MODULES, ENGINE_PRIVATE_NAMES


class SafeModule:
    """What a program sees of a module: its public names that are not modules, read-only; `hint` says what an
    emulated module has, to a program that asks it for a name it lacks."""

    def __init__(self, name, attrs=(), hint=None):
        self.__dict__.update(attrs)
        self.__dict__["_name"] = name
        self.__dict__["_hint"] = hint

    def __getattr__(self, attr):
        hint = f" ({self._hint})" if self._hint else ""
        raise AttributeError(f"module {self._name!r} has no attribute {attr!r}{hint}")

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
        except ModuleNotFoundError as e:  # the engine does not have it (or its package) yet
            if not (real == e.name or real.startswith(f"{e.name}.")):
                raise
    return found


def origin(value):
    """The top-level package that defines a function or class, or the class of any other object."""
    owner = value if isinstance(value, (type, FunctionType, BuiltinFunctionType)) else type(value)
    return (getattr(owner, "__module__", None) or "").partition(".")[0]


def _exportable(value, origins):
    if value is None or type(value) in (bool, int, float, complex, str) or origin(value) in origins:
        return True
    if type(value) is UnionType:  # torch.types.Number: int | float | bool
        return all(arg in (bool, int, float, complex, str, NoneType) or origin(arg) in origins
                   for arg in value.__args__)
    numpy = sys.modules.get("numpy")  # dtypes and scalar types, not numpy's functions
    return numpy is not None and (
        isinstance(value, numpy.dtype) or isinstance(value, type) and issubclass(value, numpy.generic))


def module_views(modules):
    """SafeModule views of the given modules, their submodules attached as attributes, and the top-level
    packages the modules come from."""
    origins = {module.__name__.partition(".")[0] for module in modules.values()}
    views = {name: SafeModule(name) for name in modules}
    view_of = {id(module): views[name] for name, module in modules.items()}
    for name, module in modules.items():
        attrs = views[name].__dict__
        if isinstance(getattr(module, "__version__", None), str):
            attrs["__version__"] = module.__version__
        for attr in dir(module):
            if (attr.startswith("_") and attr not in ENGINE_PRIVATE_NAMES or attr in FORBIDDEN_ATTRS
                    or attr in FORBIDDEN_NAMES or attr in FILE_ATTRS):
                continue
            value = getattr(module, attr, None)
            if isinstance(value, ModuleType):
                if id(value) in view_of:
                    attrs[attr] = view_of[id(value)]
                elif callable(value):  # engine.trace, the runner's package, which is also torch.trace, the op
                    attrs[attr] = value.__call__
            elif _exportable(value, origins):
                attrs[attr] = value
    for name, view in views.items():
        parent, _, child = name.rpartition(".")
        if parent in views:  # (not over a function of the same name: torch.autograd.gradcheck is the function)
            views[parent].__dict__.setdefault(child, view)
    return views, origins


RANDOM_FUNCTIONS = """seed random uniform randint randrange choice choices shuffle sample gauss normalvariate
    lognormvariate expovariate vonmisesvariate gammavariate triangular betavariate paretovariate weibullvariate
    getrandbits""".split()


def random_views():
    """`import random`: Python's random functions drawing from the run's own Random, seeded 0 when the run
    starts (a program's numbers are the same every run; nothing of one run reaches the next). What they
    make is sized: `choices(k=...)`, `sample(k=...)`, `getrandbits(k)`, and `shuffle` charges the time."""
    rng = random.Random(0)
    attrs = {name: getattr(rng, name) for name in RANDOM_FUNCTIONS}

    def choices(population, weights=None, *, cum_weights=None, k=1):
        budget_now().on_alloc(operator.index(k))
        return rng.choices(population, weights, cum_weights=cum_weights, k=k)

    def sample(population, k, *, counts=None):
        budget_now().on_alloc(operator.index(k))
        return rng.sample(population, k, counts=counts)

    def getrandbits(k):
        budget = budget_now()
        if operator.index(k) > budget.limits.max_int_bits:
            budget.exceed(f"integers over {budget.limits.max_int_bits:,} bits are too big")
        return rng.getrandbits(k)

    def shuffle(x):
        budget_now().on_alloc(len(x))
        rng.shuffle(x)

    def seed(a=None, version=2):
        rng.seed(0 if a is None else a, version)

    attrs.update(choices=choices, sample=sample, getrandbits=getrandbits, shuffle=shuffle, seed=seed)
    return {"random": SafeModule("random", attrs)}

