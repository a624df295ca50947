"""The calls of nn.Modules, as ranges of the timeline's events: which ops each call of `model.0` made.

The engine tells of every Module.__call__ (observe's `on_module`); a call is
`{"name", "label", "start", "end", "parent", "line"}`: events[start:end] happened inside it, `parent` is the
index of the call it was made in (or None), `name` the module's path under the name the program bound it to
(`model.0`; its class name while it has none), `label` its class with its sizes (`Linear(2→2)`).
Nothing of a program's own subclass runs here (no extra_repr): its label is its class name.
"""
from __future__ import annotations

import weakref

from ..nn.modules import Module


class ModuleCalls:
    def __init__(self, events):
        self._events = events
        self._names = {}  # id(module) -> (weakref to it, its path)
        self._open = []  # indices in `calls` of the calls running now, outermost first
        self.calls = []

    def name(self, text, module):
        """The program bound `module` to `text`: it and its submodules are named after it (the first name
        stays)."""
        todo = [(text, module)]
        while todo:
            prefix, m = todo.pop()
            known = self._names.get(id(m))
            if known is None or known[0]() is not m:
                self._names[id(m)] = (weakref.ref(m), prefix)
            for child, sub in m.__dict__.get("_modules", {}).items():
                if isinstance(sub, Module):
                    todo.append((f"{prefix}.{child}", sub))

    def enter(self, module, line):
        known = self._names.get(id(module))
        name = known[1] if known is not None and known[0]() is module else type(module).__name__
        parent = self._open[-1] if self._open else None
        self._open.append(len(self.calls))
        self.calls.append({"name": name, "label": label(module), "start": len(self._events), "end": None,
                           "parent": parent, "line": line})

    def exit(self):
        if self._open:
            self.calls[self._open.pop()]["end"] = len(self._events)

    def finish(self):
        while self._open:
            self.exit()


def label(module) -> str:
    """`Linear(2→2)` for the engine's layers with sizes, else the class name."""
    d = module.__dict__
    kind = type(module).__name__
    if "in_features" in d and "out_features" in d and type(module).__module__.startswith("engine."):
        return f"{kind}({d['in_features']}→{d['out_features']})"
    return kind
