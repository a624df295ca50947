"""`torch.backends.cudnn.deterministic = True` in a program: the flags of torch.backends are the one place a program
sets attributes of a module. It sets them through a FlagSetter, which takes only the flags' names and hands each
value to the engine's property (torch's checks); the flags are engine state the runner puts back after the run."""
from __future__ import annotations

from ..backends import cuda, cudnn, mkldnn
from ..backends.flags import FLAGS
from .module_views import SafeModule

FLAG_MODULES = {"torch.backends.cudnn": cudnn, "torch.backends.mkldnn": mkldnn}


def flag_names(target):
    prefix = "matmul." if target is cuda.matmul else target.__name__.rpartition(".")[2] + "."
    return frozenset(key[len(prefix):] for key in FLAGS if key.startswith(prefix))


class FlagSetter:
    __slots__ = ("_target", "_refuse")

    def __init__(self, target, refuse):
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_refuse", refuse)

    def __getattr__(self, name):  # `x.a += 1` reads through the setter
        return getattr(self._target, name)

    def __setattr__(self, name, value):
        if name not in flag_names(self._target):
            self._refuse(f"setting attributes of module objects is not allowed ({name!r} is not one of "
                         "torch.backends' flags)")
        setattr(self._target, name, value)


def flag_target(obj, views):
    """The engine object whose flags `obj` (what a program holds: a view, or torch.backends.cuda.matmul) sets."""
    if obj is cuda.matmul:
        return obj
    for name, module in FLAG_MODULES.items():
        if views.get(name) is obj:
            return module
    return None


class FlagsView(SafeModule):
    """The view of a torch.backends module with flags: they are read from the engine as they stand now."""

    def __getattr__(self, attr):
        module = FLAG_MODULES.get(self._name)
        if module is not None and attr in flag_names(module):
            return getattr(module, attr)
        return SafeModule.__getattr__(self, attr)


def live_flags(views):
    for name in FLAG_MODULES:
        if name in views:
            object.__setattr__(views[name], "__class__", FlagsView)


class TensorSetter:
    """`out.g = ...` on a tensor the run made: new attributes and torch's settable properties (grad, data,
    requires_grad); not a method of Tensor, which the engine's own code calls (torch would let it be shadowed)."""

    __slots__ = ("_tensor", "_refuse")

    def __init__(self, tensor, refuse):
        object.__setattr__(self, "_tensor", tensor)
        object.__setattr__(self, "_refuse", refuse)

    def __getattr__(self, name):  # `x.a += 1` reads through the setter
        return getattr(self._tensor, name)

    def __setattr__(self, name, value):
        defined = getattr(type(self._tensor), name, None)
        if defined is not None and not (isinstance(defined, property) and defined.fset is not None):
            self._refuse(f"setting {name!r} of a tensor is not allowed: Tensor defines it")
        setattr(self._tensor, name, value)
