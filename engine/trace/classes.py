"""The classes of one run: what a program's own classes may derive from, and what the program sees of classes
that are not its own.

Every class statement goes through `Classes.build` (the program's `__build_class__`): its bases are checked
before Python makes the class (no metaclass, no `__mro_entries__`, no class of the engine's it could upset),
and the class is remembered as the program's, whose objects the program may set attributes of. A `__len__`
it defines is wrapped: Python trusts `len()` to size what `list(obj)` allocates.

`type(x)` and `x.__class__` give a class itself only when the program may use it: its own classes, the
engine's, and the builtin types it has anyway. Any other class (`bytes`, numpy's `ndarray`, `range`, a
generator's, `type` itself) it sees as a ClassName: a name that compares and answers isinstance, but cannot
make objects, be derived from or be walked.
"""
from __future__ import annotations

import builtins
import operator

from .allowlist import is_private
from .errors import GuardError, program_line
from .module_views import origin

# Where the bases a program's classes may derive from are, in the modules a program imports.
ENGINE_BASES = (("torch.nn", "Module"), ("torch.autograd", "Function"), ("torch.optim", "Optimizer"),
                ("torch.optim.lr_scheduler", "LRScheduler"), ("torch.utils.data", "Dataset"),
                ("torch.utils.data", "IterableDataset"), ("torch.utils.data", "Sampler"),
                ("torchvision.datasets", "VisionDataset"))

_TRACE = __name__.rpartition(".")[0] + "."  # the guard's own classes are not the engine's


def is_class(value):
    """Whether value is a class (not an object that says it is one through __class__, as list[int] does)."""
    return issubclass(type(value), type)


def engine_bases(views):
    """The classes (of the given module views) that a program's classes may derive from."""
    found = []
    for module, name in ENGINE_BASES:
        view = views.get(module)
        base = vars(view).get(name) if view is not None else None
        if is_class(base):
            found.append(base)
    return tuple(found)


class ClassName:
    """What a program sees of a class it may not use: its name, its repr, equality and isinstance."""

    __slots__ = ("_cls",)

    def __init__(self, cls):
        object.__setattr__(self, "_cls", cls)

    def __setattr__(self, name, value):
        raise AttributeError(f"the class {self._cls.__name__!r} is read-only here")

    __delattr__ = __setattr__

    @property
    def __name__(self):
        return self._cls.__name__

    def __getattr__(self, name):
        if name == "__qualname__":
            return self._cls.__qualname__
        raise AttributeError(f"the class {self._cls.__name__!r} has no attribute {name!r} a program may read")

    def __repr__(self):
        return repr(self._cls)

    def __eq__(self, other):
        return isinstance(other, ClassName) and other._cls is self._cls

    def __hash__(self):
        return hash(self._cls)

    def __instancecheck__(self, obj):
        return isinstance(obj, self._cls)

    def __subclasscheck__(self, cls):
        return issubclass(cls._cls if isinstance(cls, ClassName) else cls, self._cls)


class Classes:
    """The program's classes in one run, and the checks that involve classes."""

    def __init__(self, budget, origins, shared, bases, builtin_types):
        self.budget = budget
        self.origins, self.shared, self.bases, self.builtin_types = origins, shared, bases, builtin_types
        self.made = {}  # the program's classes -> the attributes the program defined in each
        self.private_set = set()  # (id(object), name): the `_private` attributes the program set on its objects
        self.names = {}  # id(class) -> (class, its ClassName)

    def refuse(self, reason):
        self.budget.stop(GuardError(reason, program_line()))

    def build(self, func, name, *bases, **keywords):
        """`class name(*bases): body` (func runs the body): Python's __build_class__ after the checks."""
        if keywords:
            self.refuse("class keywords (metaclass=...) are not allowed")
        for base in bases:
            self.check_base(base)
        cls = builtins.__build_class__(func, name, *bases)
        own = set(vars(cls)) & set(func.__code__.co_names)  # what its body defined (not a base's __init_subclass__)
        for attr in own:
            owner = self.owner(cls.__mro__[1:], attr) if is_private(attr) else None
            if owner is not None and owner not in self.made:
                self.refuse(f"a class may not redefine {attr!r}, which {owner.__name__} uses itself")
        self.adopt(cls, own)
        length = cls.__dict__.get("__len__")
        if length is not None:
            type.__setattr__(cls, "__len__", self.sized_len(length))
        return cls

    def check_base(self, base):
        if base is object or is_class(base) and (
                base in self.made or any(issubclass(base, allowed) for allowed in self.bases)
                or type(base) is type and base.__module__ == "builtins" and issubclass(base, Exception)):
            return
        name = base.__name__ if is_class(base) or type(base) is ClassName else type(base).__name__
        allowed = ", ".join(base.__name__ for base in self.bases)
        self.refuse(f"a class may only derive from object, the program's own classes, exceptions"
                    f"{' and ' + allowed if allowed else ''} (not {name})")

    def sized_len(self, method):
        limit = self.budget.limits.max_elements

        def __len__(obj):
            n = operator.index(method(obj))
            if n > limit:
                self.refuse(f"__len__() returned {n:,}, more than the limit of {limit:,} elements")
            return n

        return __len__

    def adopt(self, cls, own):
        """Makes `cls` one of the program's classes, whose attributes `own` the program defined."""
        self.made[cls] = set(own)

    @staticmethod
    def owner(mro, attr):
        """The first class of `mro` that defines `attr`, or None."""
        return next((klass for klass in mro if attr in vars(klass)), None)

    def defines(self, obj, attr, setting=False):
        """Whether the program may read (or set) `obj.<attr>`, a `_private` attribute: obj is one of its classes
        or their objects, and the attribute is one its classes define, or that its code set on obj (or any if
        obj's classes are all its own), or one nothing defines yet; never one an engine class defines or set."""
        if type(obj) is super:
            return self.super_defines(obj, attr, setting)
        if not self.owns(obj):
            return False
        if is_class(obj):
            owner = self.owner(obj.__mro__, attr)
            if owner is None and setting:
                self.made[obj].add(attr)
            return owner is None or attr in self.made.get(owner, ())
        key = (id(obj), attr)
        if attr in getattr(obj, "__dict__", ()):
            return key in self.private_set or all(k in self.made or k.__module__ == "builtins"
                                                  for k in type(obj).__mro__)
        owner = self.owner(type(obj).__mro__, attr)
        if owner is not None and attr not in self.made.get(owner, ()):
            return False
        if setting:
            self.private_set.add(key)
        return True

    def super_defines(self, proxy, attr, setting):
        """`super()._name` in a method of the program's class: the attribute the next class in the MRO defines
        must be one the program defined (setting through super() is Python's own AttributeError)."""
        this, start = proxy.__thisclass__, proxy.__self_class__
        if this not in self.made or not self.owns(proxy.__self__):
            return False
        if setting:
            return True
        mro = start.__mro__
        owner = self.owner(mro[mro.index(this) + 1:], attr)
        return owner is None or attr in self.made.get(owner, ())

    def owns(self, obj):
        """Whether obj is one of the program's classes or an object of one (it may set their attributes)."""
        return obj in self.made if is_class(obj) else type(obj) in self.made

    def visible(self, cls):
        """The class itself if the program may use it, else its ClassName."""
        if not is_class(cls):
            return cls
        if cls in self.made or id(cls) in self.shared or cls in self.builtin_types:
            return cls
        if (not issubclass(cls, type) and origin(cls) in self.origins
                and not (cls.__module__ or "").startswith(_TRACE)):
            return cls
        entry = self.names.get(id(cls))
        if entry is None:
            entry = self.names[id(cls)] = (cls, ClassName(cls))
        return entry[1]
