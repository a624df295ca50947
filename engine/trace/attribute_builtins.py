"""getattr, setattr, hasattr, vars, delattr and dir as a program calls them, and the attribute checks behind them
and behind `obj.name` in its code: a mixin of runtime.Runtime (the rules are allowlist.py's and docs/security.md's)."""
from types import ModuleType, SimpleNamespace

from .allowlist import CALL_ONLY, attribute_refusal, call_only_refusal, is_private, private_refusal
from .classes import is_class
from .module_tables import MODULE_TABLES, module_table
from .module_views import SafeModule


class AttributeBuiltins:
    def check_attr_name(self, obj, name):
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
        reason = attribute_refusal(name) or (call_only_refusal(name) if name in CALL_ONLY else None)
        if reason:
            self.refuse(reason)
        if is_private(name) and not self.classes.defines(obj, name):
            self.refuse(private_refusal(name))

    def private(self, obj, name):
        """`obj._name`: only an attribute the program's own classes define or its code set on its own objects, and
        a module's tables, read-only (module_tables.py)."""
        if name in MODULE_TABLES and isinstance(obj, self.module_class):
            return module_table(obj, name)
        if not self.classes.defines(obj, name):
            self.refuse(private_refusal(name))
        return self.attr(getattr(obj, name), name)

    def private_settable(self, obj, name):
        if not self.classes.defines(obj, name, setting=True):
            self.refuse(private_refusal(name))
        return obj

    def getattr_(self, obj, name, *default):
        if type(name) is str and name in MODULE_TABLES and isinstance(obj, self.module_class):
            return module_table(obj, name)
        self.check_attr_name(obj, name)
        if len(default) > 1:
            raise TypeError(f"getattr expected at most 3 arguments, got {2 + len(default)}")
        try:
            value = getattr(obj, name)
        except AttributeError:
            if default:
                return default[0]
            raise
        return self.attr(value, name)

    def setattr_(self, obj, name, value, /):
        """setattr(obj, name, value), as tutorials register layers (`setattr(self, f'fc{i}', layer)`): what
        `obj.name = value` may do, refused where that statement would be."""
        setattr(self.attribute_owner(obj, name), name, value)

    def hasattr_(self, obj, name):
        if type(name) is str and name in MODULE_TABLES and isinstance(obj, self.module_class):
            return hasattr(obj, name)
        self.check_attr_name(obj, name)
        try:
            self.attr(getattr(obj, name), name)
        except AttributeError:
            return False
        return True

    def vars_(self, *args):
        """vars(obj) of the program's own objects (an argparse Namespace or SimpleNamespace too): a copy of their
        attributes, so that the program reads them as Python gives them, and changes them only by setting them."""
        if len(args) != 1:
            if not args:
                self.refuse("vars() without an argument reads the program's names, which is not allowed: name the "
                            "object, as in vars(args)")
            raise TypeError(f"vars expected at most 1 argument, got {len(args)}")
        obj = args[0]
        cls = type(obj)
        if is_class(obj) or cls not in self.classes.made or any(
                base not in self.classes.made and base is not object for base in cls.__mro__[1:]
                if base.__module__ != "argparse" and base is not SimpleNamespace):
            what = "a class" if is_class(obj) else "a module" if isinstance(obj, (ModuleType, SafeModule)) else (
                f"{cls.__name__} objects" + (", whose class derives from the engine's" if cls in self.classes.made
                                            else ""))
            self.refuse(f"vars() is allowed on the program's own objects only (not on {what})")
        return dict(obj.__dict__)

    def delattr_(self, obj, name, /):
        """delattr(model, name), as the forward-AD tutorial swaps a module's parameters for dual tensors: what
        `del obj.name` may do, refused where that statement would be."""
        delattr(self.attribute_owner(obj, name), name)

    def attribute_owner(self, obj, name):
        """The object setattr/delattr may change for `name`, after the checks `obj.name = …` gets."""
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
        if name.startswith("_") and not is_private(name):
            self.refuse(f"attributes starting with '_' are not allowed ({name!r})")
        reason = attribute_refusal(name) or (call_only_refusal(name) if name in CALL_ONLY else None)
        if reason:
            self.refuse(reason)
        return self.private_settable(obj, name) if is_private(name) else self.settable(obj)

    def dir_(self, *args):
        """dir(obj), as `dir(optim)` lists what a package offers: names only (reading one still goes through the
        checks of `obj.name`); a module's view lists the names it holds."""
        if len(args) != 1:
            if not args:
                self.refuse("dir() without an argument reads the program's names, which is not allowed: name the "
                            "object, as in dir(model)")
            raise TypeError(f"dir expected at most 1 argument, got {len(args)}")
        if isinstance(args[0], SafeModule):
            return sorted(name for name in vars(args[0]) if name not in ("_name", "_hint"))
        return dir(args[0])
