"""What one run may spend (steps, seconds, call depth, memory, elements, output, events), and the budget of
the program running now, which the engine's allocations and math's functions charge."""
from __future__ import annotations

import contextvars
import os
import time
from dataclasses import dataclass

from .errors import BudgetExceeded, GuardError, Stopped, program_line

try:
    _PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, OSError, ValueError):
    _PAGE_SIZE = 4096


@dataclass(frozen=True)
class Limits:
    max_steps: int = 10_000_000  # loop iterations, function calls and comprehension items
    max_seconds: float = 2.0
    max_elements: int = 1_000_000  # in one tensor, list, tuple or string
    max_total_elements: int = 50_000_000  # made over the whole run
    max_int_bits: int = 100_000
    max_output_chars: int = 100_000
    max_events: int = 100_000
    max_timeline_mb: float = 48  # the timeline's JSON, as the recorder estimates it while the program runs
    max_work: int = 300_000_000  # multiply-adds of one matrix product numpy does without BLAS (integers)
    max_depth: int = 100  # nested calls of the program's own functions
    max_memory_mb: float | None = 512  # growth of the process, where the platform reports it


_ACTIVE: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("guard_budget", default=None)


class Budget:
    """What one run may still spend. Once exceeded, closed or stopped by a refusal it stays so: every later
    tick raises again (a program cannot swallow the guard's errors with a `return` in a `finally`).

    `with budget:` makes it the budget that `charge_elements` charges, and raises its error at the end
    if the program swallowed it (a `return` in a `finally`).
    """

    def __init__(self, limits: Limits = Limits()):
        self.limits = limits
        self.steps = self.depth = self.elements = self.output = self.events = self.timeline_bytes = 0
        self.error: GuardError | None = None
        self.closed = False
        self.started = time.perf_counter()
        self.deadline = self.started + limits.max_seconds
        self._memory_base = memory_mb() if limits.max_memory_mb is not None else None
        self._next_memory_check = self.started
        # Told ("line", n) when the program's line has changed (at the time checks, at most every 10 ms, and as a
        # statement of its top level starts), and ("ended", None) when the budget closes: the browser's wall keeps
        # the last line and, once the budget has ended, gives the timeline its own time to be sent (static/wall.mjs).
        self.watch = None
        self._watched_line = None
        # Called with the time at the time checks while the program runs (so_far.Stream: what the program records
        # leaves it in pieces as it runs).
        self.stream = None

    def tick(self, line: int | None = None) -> bool:
        if self.error:
            self._raise_again()
        self.steps += 1
        if self.steps > self.limits.max_steps:
            self.exceed(f"the program ran more than {self.limits.max_steps:,} steps (an endless loop?)", line)
        now = time.perf_counter()
        if now > self.deadline:
            self._late(line, " (an endless loop?)")
        if now >= self._next_memory_check:
            self._check_memory(now, line)
        return True

    def at_line(self, line: int) -> None:
        """A statement of the program's top level starts: the watcher is told at once (such a statement runs once)."""
        if self.watch is not None and line != self._watched_line:
            self._watched_line = line
            self.watch("line", line)

    def stop_soon(self):
        """Ends the run at its next tick (a learner pressed Stop): safe from a signal handler."""
        self.stopping = True
        self.deadline = float("-inf")

    def _late(self, line, guess):
        if getattr(self, "stopping", False):
            self.stop(Stopped("the program was stopped", program_line() if line is None else line))
        self.exceed(f"the program ran longer than {self.limits.max_seconds:g} s{guess}", line)

    def enter(self, line: int | None = None) -> None:
        self.tick(line)
        if self.depth >= self.limits.max_depth:
            self.exceed(f"calls nested more than {self.limits.max_depth} deep (endless recursion?)", line)
        self.depth += 1

    def leave(self) -> None:
        self.depth -= 1

    def charge_elements(self, n: int, line: int | None = None) -> None:
        """Called before making a tensor, list or string of n elements; raises if it is too big."""
        if self.error:
            self._raise_again()
        if n > self.limits.max_elements:
            self.exceed(f"{n:,} elements at once are more than the limit of {self.limits.max_elements:,}", line)
        self.elements += n
        if self.elements > self.limits.max_total_elements:
            self.exceed(f"the program made more than {self.limits.max_total_elements:,} elements in all", line)

    def on_alloc(self, n: int) -> None:
        """The engine's observer hook, called before every op and allocation (0 before an in-place op): charges
        the elements and checks the time and memory, so that a long engine call (an optimizer step over a
        million parameters, many big ops on one line) stops at the limit too."""
        self.charge_elements(n)
        now = time.perf_counter()
        if now > self.deadline:
            self._late(None, "")
        if now >= self._next_memory_check:
            self._check_memory(now, None)

    def on_size(self, n: int) -> None:
        """The engine's observer hook when a result's size is known early (its allocation is charged later)."""
        if self.error:
            self._raise_again()
        if n > self.limits.max_elements:
            self.exceed(f"{n:,} elements at once are more than the limit of {self.limits.max_elements:,}")

    def on_work(self, n: int) -> None:
        """The engine's observer hook before a matrix product numpy computes without BLAS."""
        if self.error:
            self._raise_again()
        if n > self.limits.max_work:
            self.exceed(f"a matrix product of integer tensors with {n:,} multiply-adds is more than the limit of "
                        f"{self.limits.max_work:,} (use float tensors)")

    def charge_output(self, n: int, line: int | None = None) -> None:
        if self.error:
            self._raise_again()
        self.output += n
        if self.output > self.limits.max_output_chars:
            self.exceed(f"the program printed more than {self.limits.max_output_chars:,} characters", line)

    def charge_events(self, n: int = 1, line: int | None = None, size: int = 0) -> None:
        """Charges the recorder's events, and `size` bytes of the timeline's JSON."""
        if self.error:
            self._raise_again()
        self.events += n
        self.timeline_bytes += size
        if self.events > self.limits.max_events:
            self.exceed(f"the program made more than {self.limits.max_events:,} events (steps the explorer "
                        "records)", line)
        if self.timeline_bytes > self.limits.max_timeline_mb * 2**20:
            self.exceed(f"the program's timeline grew past {self.limits.max_timeline_mb:g} MB (the explorer "
                        "records every op: fewer iterations or smaller tensors)", line)

    def check(self) -> None:
        """Raises if the budget is spent or closed."""
        if self.error:
            self._raise_again()

    def close(self) -> None:
        """The run is over: from now on every tick and charge raises, so no code of the program runs any more
        (a method the engine or the recorder calls, a generator closed when it is collected)."""
        self.closed = True
        if self.error is None:
            self.error = BudgetExceeded("the program has ended: its code cannot run any more")
        if self.watch is not None:
            self.watch("ended", None)

    def exceed(self, reason: str, line: int | None = None):
        self.stop(BudgetExceeded(reason, program_line() if line is None else line))

    def stop(self, error: GuardError):
        """Ends the run on a guard's error (a refusal, the budget exceeded): every later tick raises it again."""
        if self.error is None:
            self.error = error
        raise error

    def _raise_again(self):
        raise type(self.error)(self.error.reason, self.error.line)

    def _check_memory(self, now, line):
        self._next_memory_check = now + 0.01
        if self.watch is not None:
            at = program_line()
            if at is not None and at != self._watched_line:
                self._watched_line = at
                self.watch("line", at)
        if self.stream is not None:
            self.stream(now)
        if self._memory_base is None:
            return
        used = memory_mb()
        if used is not None and used - self._memory_base > self.limits.max_memory_mb:
            self.exceed(f"the program used more than {self.limits.max_memory_mb:g} MB of memory", line)

    def __enter__(self):
        self._token = _ACTIVE.set(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        _ACTIVE.reset(self._token)
        if self.error and not isinstance(exc, GuardError):
            self._raise_again()
        return False


def active_budget() -> Budget | None:
    return _ACTIVE.get()


def budget_now() -> Budget:
    """The budget of the program running now, or a fresh one outside a run."""
    budget = _ACTIVE.get()
    return budget if budget is not None else Budget()


def charge_elements(n: int) -> None:
    """Charges the budget of the program running now (no-op outside a run)."""
    budget = _ACTIVE.get()
    if budget is not None:
        budget.charge_elements(n)


def memory_mb() -> float | None:
    """Resident memory from /proc (Linux); None where the platform does not tell (Pyodide)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE_SIZE / 2**20
    except (OSError, ValueError, IndexError):
        return None
