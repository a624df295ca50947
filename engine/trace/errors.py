"""How a guarded program ends when the guard stops it, and where in the program that happened."""
from __future__ import annotations

import sys

FILENAME = "<program>"  # the file name of the program's code: frames with it are the program's


class GuardError(Exception):
    """A program refused before or while running. `message` starts with the line when it is known."""

    kind = "GuardError"

    def __init__(self, reason: str, line: int | None = None):
        self.reason, self.line = reason, line
        self.message = f"line {line}: {reason}" if line else reason
        super().__init__(self.message)


class GuardSyntaxError(GuardError):
    kind = "SyntaxError"


class BudgetExceeded(GuardError):
    kind = "BudgetExceeded"


class Stopped(BudgetExceeded):
    """A learner pressed Stop."""

    kind = "Stopped"


def program_line() -> int | None:
    """The line the program is at now: that of the innermost frame of its code (None outside it)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename != FILENAME:
        frame = frame.f_back
    return frame.f_lineno if frame is not None else None
