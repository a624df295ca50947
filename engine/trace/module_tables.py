"""`module._parameters`, `_buffers`, `_modules`, `_forward_pre_hooks` and `_forward_hooks` as a program reads them
(torch's pruning tutorial prints `module._forward_pre_hooks`; scripts walk `model._modules.items()`): read-only views
of the module's own tables, printed as torch's dicts and OrderedDicts. The tables themselves stay out of reach: a
program that changed them (a Parameter put in without register_parameter, a hook taken out behind its handle) would
change what the engine and the recorder rely on; it changes them through the module's methods and attributes.
What a view hands out is what the module's public methods hand out (its parameters, buffers, submodules and hooks);
its keys(), values() and items() are the table's own read-only views."""
from __future__ import annotations

from collections.abc import Mapping

from .budget import budget_now
from .errors import GuardError, program_line

MODULE_TABLES = frozenset("_parameters _buffers _modules _forward_pre_hooks _forward_hooks".split())


class TableView(Mapping):
    __slots__ = ("_table", "_name")

    def __init__(self, table, name):
        object.__setattr__(self, "_table", table)
        object.__setattr__(self, "_name", name)

    def __getitem__(self, key):
        return self._table[key]

    def __iter__(self):
        return iter(self._table)

    def __len__(self):
        return len(self._table)

    def __contains__(self, key):
        return key in self._table

    def keys(self):
        return self._table.keys()

    def values(self):
        return self._table.values()

    def items(self):
        return self._table.items()

    def __repr__(self):
        return repr(self._table)

    def _refuse(self, *args):
        budget_now().stop(GuardError(
            f"module.{self._name} is read-only here ({self._name!r}): a module's parameters, buffers, submodules "
            "and hooks change through its attributes and methods (register_parameter, register_buffer, "
            "add_module, the handles register_forward_hook returns)", program_line()))

    __setitem__ = __delitem__ = __setattr__ = __delattr__ = __ior__ = _refuse


def module_table(module, name):
    return TableView(getattr(module, name), name)
