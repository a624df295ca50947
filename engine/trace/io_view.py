"""`import io` in a program: BytesIO and StringIO only, the buffers torch.save and torch.load take in the explorer
(given a path they use the run's own in-memory files: files_view.py). What a
program writes into a buffer is charged to its budget like any elements, so a loop of writes stops in time."""
from __future__ import annotations

import io

from .budget import budget_now
from .module_views import SafeModule


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
