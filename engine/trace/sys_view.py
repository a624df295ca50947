"""`import sys` as scripts use it: `argv` (the command line of a run with no arguments, which argparse reads too),
`exit()` (ends the program: with no status or 0 cleanly, with a message printed to the console as Python prints it
to stderr, with another status as an error), `stdout`/`stderr` writing to the console, the interpreter's version
and limits to read, a per-run `path` list (appending to it changes nothing: a program imports only what the
explorer admits). `setrecursionlimit` changes nothing: the guard keeps its own limits. Nothing else of the real
`sys` (modules, frames, settrace, the real streams) is reachable."""
from __future__ import annotations

import sys

from .argparse_view import PROG
from .errors import GuardError, program_line
from .module_views import SafeModule


class ProgramExit(GuardError):
    """sys.exit(): the program ends; with status 0 or None that is no error (runner.py drops it)."""

    kind = "SystemExit"

    def __init__(self, code, line):
        self.code = code
        super().__init__(f"the program exited with status {code}", line)

    @property
    def clean(self):
        return self.code is None or self.code == 0


class Console:
    """sys.stdout or sys.stderr: what is written goes to the program's console."""

    def __init__(self, runtime, name):
        self._runtime, self.name = runtime, name

    def write(self, text, /):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._runtime.print(text, end="")
        return len(text)

    def writelines(self, lines, /):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def isatty(self):
        return False

    def __repr__(self):
        return f"<_io.TextIOWrapper name='<{self.name}>' mode='w' encoding='utf-8'>"


Console.__module__ = __name__

_READ = "version version_info platform maxsize float_info int_info byteorder hexversion".split()


def sys_views(runtime, package):
    def exit(status=None):
        if status is not None and not isinstance(status, int):
            runtime.print(str(status))
        runtime.budget.stop(ProgramExit(status if status is None or isinstance(status, int) else 1, program_line()))

    def setrecursionlimit(limit):
        if not isinstance(limit, int):
            raise TypeError("'float' object cannot be interpreted as an integer")
        if limit < 1:
            raise ValueError("recursion limit must be greater or equal than 1")

    attrs = {name: getattr(sys, name) for name in _READ}
    attrs.update(argv=[PROG], exit=exit, stdout=Console(runtime, "stdout"), stderr=Console(runtime, "stderr"),
                 getrecursionlimit=lambda: sys.getrecursionlimit(), setrecursionlimit=setrecursionlimit, path=[""],
                 getdefaultencoding=lambda: "utf-8")
    return {"sys": SafeModule("sys", attrs)}
