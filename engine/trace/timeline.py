"""The Timeline: a traced program as plain JSON-serialisable events, and state_at to step through it."""
import json
import re
from dataclasses import dataclass, field

from .states import Index

_SURROGATES = re.compile("[\\ud800-\\udfff]")


@dataclass
class Timeline:
    """`events` (dicts, see docs/timeline.md), `output` (the program's stdout), `source`. Treat as immutable:
    state_at caches an index of the events on first use."""

    source: str
    events: list
    output: str
    _index: Index | None = field(default=None, init=False, repr=False, compare=False)

    def to_json(self):
        """The timeline as JSON text that always encodes as UTF-8: a lone surrogate a program printed or put in
        a name (`print(chr(0xdc80))`) becomes U+FFFD."""
        text = json.dumps({"source": self.source, "output": self.output, "events": self.events},
                          ensure_ascii=False, separators=(",", ":"))
        return text if text.isascii() else _SURROGATES.sub("\ufffd", text)

    @classmethod
    def from_json(cls, text):
        data = json.loads(text)
        return cls(source=data["source"], events=data["events"], output=data["output"])

    @property
    def error(self):
        """The error event that stopped the program, or None."""
        if self.events and self.events[-1]["kind"] == "error":
            return self.events[-1]
        return None


def state_at(timeline, k):
    """What the screen shows after events 0..k (k = -1: before anything ran). Pure; the first call on a
    timeline indexes it once, every later call costs about the number of nodes shown."""
    if timeline._index is None:
        timeline._index = Index(timeline.events)
    return timeline._index.state(k)
