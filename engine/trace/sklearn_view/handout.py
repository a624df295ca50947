"""What the emulations hand a program: numpy arrays as the guard's sized arrays (arrays.ndarray), also inside
tuples, lists, Bunches and what generators yield."""
from __future__ import annotations

import functools
import inspect

from ..arrays import as_array
from .bunch import Bunch


def handed_out(value):
    if isinstance(value, Bunch):
        return Bunch(**{key: as_array(item) for key, item in value.items()})
    return as_array(value)


def arrays_out(fn):
    """fn, its results (and a generator's items) handed out as the program's arrays."""
    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def generate(*args, **kwargs):
            for item in fn(*args, **kwargs):
                yield handed_out(item)

        return generate

    @functools.wraps(fn)
    def call(*args, **kwargs):
        return handed_out(fn(*args, **kwargs))

    return call


def _own_method(cls, name, method):
    """method, taking only objects of cls as self (as a builtin type's methods do): none of the program's or the
    engine's objects is set through an estimator's method."""
    @functools.wraps(method)
    def call(self, *args, **kwargs):
        if not isinstance(self, cls):
            raise TypeError(f"descriptor {name!r} for {cls.__name__!r} objects doesn't apply to a "
                            f"{type(self).__name__!r} object")
        return method(self, *args, **kwargs)

    return call


def handing_out_arrays(cls):
    """cls with its public methods wrapped by arrays_out, each for cls's objects only (the estimators' decorator)."""
    for name in dir(cls):
        value = inspect.getattr_static(cls, name)
        if inspect.isfunction(value) and not name.startswith("_"):
            setattr(cls, name, _own_method(cls, name, arrays_out(value)))
    return cls
