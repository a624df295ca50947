"""Where the program is at each engine callback, and which names its finished statements bound.

The line is the innermost frame of the program's code. A statement's targets (from names.Statements) are
read from its frame at the first callback after the statement ran on: a binding that changed since the
statement started is reported as (target text, object, statement's line).
"""
import sys

from ..nn.modules import Module
from .errors import FILENAME

_MISSING = object()


class Where:
    def __init__(self, statements, budget, on_bound, loops=None):
        self._statements = statements
        self._budget = budget
        self._on_bound = on_bound
        self._loops = loops  # loops.Loops, told when a frame moves to another statement or returns
        self._pending = []  # per program frame, outermost first: [frame, statement, line, {target: object}]
        self._at = (None, None, None, None)  # (innermost program frame, its instruction, budget steps, line)

    def line(self):
        """The program's current line (None outside it), after reporting what finished statements bound.

        Called by the recorder's callbacks, which the engine (or the runtime's print) calls: the program's
        frame is at least 3 frames up (this method, the callback, the engine), and frames are looked at from
        there, since looking at a frame makes an object of it."""
        try:
            f = sys._getframe(3)
        except ValueError:
            return None
        while f is not None and f.f_code.co_filename != FILENAME:
            f = f.f_back
        if f is None:
            return None
        steps = self._budget.steps if self._budget is not None else None
        at = self._at
        if f is at[0]:
            if steps == at[2] and steps is not None:
                if f.f_lasti == at[1]:
                    return at[3]  # the same instruction still running, no loop went round: nothing new was bound
                line = f.f_lineno
                if line == at[3] and not self._pending[-1][1].shared:
                    # the same statement, still running (only a tick could run it again): nothing bound yet
                    self._at = (f, f.f_lasti, steps, line)
                    return line
            self._moved(self._pending, 1)  # the same frame moved on: the frames it was called from did not
        else:
            self._enter(f)
        line = f.f_lineno
        self._at = (f, f.f_lasti, steps, line)
        return line

    def _enter(self, inner):
        """The innermost program frame changed: frames that returned bound their targets, new ones start."""
        f = inner
        frames = []
        while f is not None:
            code = f.f_code
            if code.co_filename == FILENAME:
                frames.append(f)
                if code.co_name == "<module>":
                    break
            f = f.f_back
        frames.reverse()
        pending = self._pending
        same = 0
        n = min(len(frames), len(pending))
        while same < n and pending[same][0] is frames[same]:
            same += 1
        while len(pending) > same:  # frames that returned
            p = pending.pop()
            self._bind(p)
            if self._loops is not None:
                self._loops.returned(p[0])
        self._moved(pending, len(pending))
        statements = self._statements
        for fr in frames[same:]:
            stmt = statements.at(fr.f_lineno)
            pending.append([fr, stmt, fr.f_lineno, _snapshot(fr, stmt)])

    def _moved(self, pending, moving):
        """Reports what pending statements bound; the last `moving` frames may be at a new statement."""
        statements = self._statements
        first = len(pending) - moving
        for i, p in enumerate(pending):
            if p[3]:
                self._bind(p)
            if i >= first:
                fr = p[0]
                stmt = statements.at(fr.f_lineno)
                if stmt is not p[1]:
                    p[1], p[2], p[3] = stmt, fr.f_lineno, _snapshot(fr, stmt)
                    if self._loops is not None:
                        self._loops.moved(fr, p[2])

    def finish(self):
        """The program ended: report what its last statements bound."""
        while self._pending:
            self._bind(self._pending.pop())
        self._at = (None, None, None, None)

    def _bind(self, p):
        frame, _, line, snap = p
        if not snap:
            return
        loc = frame.f_locals
        for target, old in snap.items():
            obj = _lookup(loc, frame, target)
            if obj is not old:
                snap[target] = obj
                self._on_bound(".".join(target), obj, line)


def _snapshot(frame, stmt):
    if not stmt.targets:
        return None
    loc = frame.f_locals
    return {target: _lookup(loc, frame, target) for target in stmt.targets}


def _lookup(loc, frame, target):
    obj = loc.get(target[0], _MISSING)
    if obj is _MISSING:  # Python 3.13 shows only the comprehension's variables while one runs inlined
        obj = frame.f_globals.get(target[0], _MISSING)
    for attr in target[1:]:
        if not isinstance(obj, Module):  # only a module's parameters and submodules are looked up
            return _MISSING
        d = obj.__dict__  # (a program's subclass may not have run Module.__init__)
        obj = d.get("_parameters", {}).get(attr, d.get("_modules", {}).get(attr, _MISSING))
    return obj
