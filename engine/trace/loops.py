"""The iterations of the program's loops, as ranges of the timeline's events.

The guard ticks its budget at the start of every iteration of every `for` and `while` with the loop's line
(`Budget.tick(line)`); `Budget` here is the guard's, which also tells `Loops` of those ticks. `Loops` keeps,
for each loop activation (a loop entered in one frame), the iteration running now, and for each loop line the
iterations that recorded events: `[index, start, end]`, where index counts the activation's iterations from
0 and events[start:end] are the iteration's. An iteration ends when the next one starts, when its frame moves
to a statement outside the loop or returns, or when the program ends.
"""
from __future__ import annotations

import sys

from . import guard


class Budget(guard.Budget):
    """The guard's budget; a tick of a loop's line also starts an iteration of `loops`."""

    def __init__(self, limits, loops=None):
        super().__init__(limits)
        self.loops = loops

    def tick(self, line=None):
        ok = super().tick(line)
        loops = self.loops
        if loops is not None and line in loops.lines:
            loops.tick(line, sys._getframe(1))  # the program's frame, which called the tick
        return ok


class _Activation:
    __slots__ = ("line", "first", "last", "frame", "index", "start")

    def __init__(self, line, span, frame, start):
        self.line = line
        self.first, self.last = span
        self.frame = frame
        self.index = 0
        self.start = start


class Loops:
    def __init__(self, spans, events):
        """spans: loop line -> (first, last line), from names.Statements; events: the recorder's list."""
        self.lines = spans
        self._events = events
        self._open = []  # activations, outermost first
        self.found = {}  # loop line -> [[index, start, end], ...]

    def tick(self, line, frame):
        open_ = self._open
        k = len(self._events)
        while open_:
            top = open_[-1]
            if top.frame is frame:
                if top.line == line:  # the next iteration of the loop running now
                    self._end_iteration(top, k)
                    top.index += 1
                    top.start = k
                    return
                if top.first <= line <= top.last:
                    break  # a loop inside it starts
                self._close(k)  # it ended: this loop is a later one, or one around it
            elif _calls(top.frame, frame):
                break  # a loop in a function called from it starts
            else:
                self._close(k)  # its function returned
        open_.append(_Activation(line, self.lines[line], frame, k))

    def moved(self, frame, line):
        """A frame of the program moved to a statement at `line`: loops it left have ended."""
        open_ = self._open
        while open_ and open_[-1].frame is frame and not open_[-1].first <= line <= open_[-1].last:
            self._close(len(self._events))

    def returned(self, frame):
        """A frame of the program returned: its loops have ended."""
        open_ = self._open
        while open_ and any(a.frame is frame for a in open_):
            self._close(len(self._events))

    def finish(self):
        while self._open:
            self._close(len(self._events))

    def _close(self, k):
        self._end_iteration(self._open.pop(), k)

    def _end_iteration(self, act, k):
        if k > act.start:
            self.found.setdefault(act.line, []).append([act.index, act.start, k])

    def table(self, until=None):
        """The loops as the timeline holds them: [{"line", "iterations": [[index, start, end], ...]}], by line.
        `until` (while the program runs): the iterations running now end there."""
        found = self.found
        if until is not None:
            found = {line: list(its) for line, its in found.items()}
            for act in self._open:
                if until > act.start:
                    found.setdefault(act.line, []).append([act.index, act.start, until])
        return [{"line": line, "iterations": its} for line, its in sorted(found.items())]


def _calls(outer, inner, depth=200):
    """Whether frame `outer` is on the stack below frame `inner`."""
    f = inner.f_back
    while f is not None and depth:
        if f is outer:
            return True
        f = f.f_back
        depth -= 1
    return False
