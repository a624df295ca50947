"""A module's hooks as torch keeps them: forward (pre-)hooks in an OrderedDict by handle id (what a program
sees as module._forward_pre_hooks), backward hooks in lists."""
from collections import OrderedDict

from ...graph import RemovableHandle


class HookTable(OrderedDict):
    """A module's forward (pre-)hooks as torch keeps them: the functions by their handle's id, in calling order,
    and the ids of those called with kwargs or always."""

    def __init__(self):
        super().__init__()
        self.with_kwargs, self.always_call = set(), set()

    def __repr__(self):
        return f"OrderedDict({list(self.items())!r})" if self else "OrderedDict()"

    def calls(self):
        return [(fn, hid in self.with_kwargs, hid in self.always_call) for hid, fn in self.items()]


def _add_hook(hooks, fn, prepend=False, with_kwargs=False, always_call=False):
    handle = RemovableHandle(hooks, fn)
    hooks[handle.id] = fn
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    if with_kwargs:
        hooks.with_kwargs.add(handle.id)
    if always_call:
        hooks.always_call.add(handle.id)
    return handle


def _add_hook_fn(hooks, fn, prepend=False):
    hooks.insert(0, fn) if prepend else hooks.append(fn)
    return RemovableHandle(hooks, fn)
