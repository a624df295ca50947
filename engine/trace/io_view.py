"""`import io` in a program: BytesIO and StringIO only, the buffers torch.save and torch.load take in the explorer
(it reads and writes no files: torch.save or torch.load given a path stops at its line, saying so). What a
program writes into a buffer is charged to its budget like any elements, so a loop of writes stops in time."""
from __future__ import annotations

import io
import os

from .budget import budget_now
from .errors import GuardError, program_line
from .module_views import SafeModule

FILE_REFUSAL = ("torch.{0}() given a file path: '{0}' to or from a file is not allowed, the explorer reads and writes "
                "no files; use an io.BytesIO() buffer (buffer = io.BytesIO(); torch.save(obj, buffer); "
                "buffer.seek(0); torch.load(buffer))")


class BytesIO(io.BytesIO):
    def write(self, data, /):
        budget_now().on_alloc(len(memoryview(data).cast("B")))
        return super().write(data)

    def writelines(self, lines, /):
        for line in lines:
            self.write(line)


class StringIO(io.StringIO):
    def write(self, text, /):
        budget_now().on_alloc(len(text) if isinstance(text, str) else 0)
        return super().write(text)

    def writelines(self, lines, /):
        for line in lines:
            self.write(line)


for _cls in (BytesIO, StringIO):
    _cls.__module__ = "_io"


def io_views(runtime, package):
    return {"io": SafeModule("io", {"BytesIO": BytesIO, "StringIO": StringIO})}


def buffers_only(function, name):
    """torch.save / torch.load as a program calls them: a path (a str or a pathlib view's Path) is a file of the
    run's own in-memory files (files_view.py); bytes or another os.PathLike stops at its line."""
    from .files_view import Path, files_now

    at = 1 if name == "save" else 0

    def call(*args, **kwargs):
        args = list(args)
        f = args[at] if len(args) > at else kwargs.get("f")
        if isinstance(f, (str, Path)):
            files = files_now()
            buffer = BytesIO() if name == "save" else BytesIO(files.read(f))
            if len(args) > at:
                args[at] = buffer
            else:
                kwargs["f"] = buffer
            out = function(*args, **kwargs)
            if name == "save":
                files.write(f, buffer.getvalue())
            return out
        if isinstance(f, (bytes, os.PathLike)):
            budget_now().stop(GuardError(FILE_REFUSAL.format(name), program_line()))
        return function(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__module__ = "torch"
    return call
