"""`pickle` of plain values: dumps and dump take numbers, text, bytes, None, and lists, tuples, dicts and sets of them
(OrderedDict, defaultdict of a plain factory and complex too); loads and load rebuild only those, through an Unpickler
that finds no other class or function (as torch.load(weights_only=True) restricts its own): a pickle naming
`os.system` or a class of the process is refused before anything is made. Tensors and modules are torch.save's.
dump and load take the run's own files (open(path, 'wb')) and io buffers; what is pickled is charged to the budget."""
from __future__ import annotations

import collections
import io
import pickle

from .budget import budget_now
from .module_views import SafeModule

_FOUND = {("builtins", kind.__name__): kind
          for kind in (set, frozenset, complex, list, dict, int, float, str, tuple, bool)}
_FOUND.update({("collections", "OrderedDict"): collections.OrderedDict,
               ("collections", "defaultdict"): collections.defaultdict})
_CLASSES = frozenset(_FOUND.values())
_FACTORIES = frozenset(v for (_, name), v in _FOUND.items() if name in ("set", "list", "dict", "int", "float", "str"))
PLAIN = ("pickle keeps plain values in the explorer (numbers, text, bytes, None, and lists, tuples, dicts and sets of "
         "them): save tensors, state dicts and models with torch.save")


class _Restricted(pickle.Unpickler):
    def find_class(self, module, name):
        found = _FOUND.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"{PLAIN}; this pickle names {module}.{name}")
        return found

    def persistent_load(self, pid):
        raise pickle.UnpicklingError(f"{PLAIN}; this pickle holds a persistent id")


class _Plain(pickle.Pickler):
    def reducer_override(self, obj):
        kind = type(obj)
        if kind is type and obj in _CLASSES:  # (the classes the pickle names: OrderedDict, a defaultdict's list)
            return NotImplemented
        if kind is complex or kind is collections.OrderedDict or obj is None or kind is bool:
            return NotImplemented
        if kind is collections.defaultdict and (obj.default_factory is None or obj.default_factory in _FACTORIES):
            return NotImplemented
        raise pickle.PicklingError(f"{PLAIN}; not {kind.__name__} objects")


def dumps(obj, protocol=None, *, fix_imports=True, buffer_callback=None):
    out = io.BytesIO()
    _Plain(out, protocol, fix_imports=fix_imports).dump(obj)
    data = out.getvalue()
    budget_now().on_alloc(len(data))
    return data


def loads(data, /, *, fix_imports=True, encoding="ASCII", errors="strict", buffers=()):
    if not isinstance(data, bytes):
        raise TypeError(f"a bytes-like object is required, not '{type(data).__name__}'")
    return _Restricted(io.BytesIO(data), fix_imports=fix_imports, encoding=encoding, errors=errors).load()


def pickle_views(runtime, package):
    def dump(obj, file, protocol=None, *, fix_imports=True, buffer_callback=None):
        file.write(dumps(obj, protocol, fix_imports=fix_imports))

    def load(file, *, fix_imports=True, encoding="ASCII", errors="strict", buffers=()):
        return _Restricted(file, fix_imports=fix_imports, encoding=encoding, errors=errors).load()

    return {package: SafeModule(package, {
        "dumps": dumps, "loads": loads, "dump": dump, "load": load, "HIGHEST_PROTOCOL": pickle.HIGHEST_PROTOCOL,
        "DEFAULT_PROTOCOL": pickle.DEFAULT_PROTOCOL, "PickleError": pickle.PickleError,
        "PicklingError": pickle.PicklingError, "UnpicklingError": pickle.UnpicklingError})}
