"""The Timeline: a traced program as plain JSON-serialisable events, and state_at to step through it."""
import gc
import json
import re
from dataclasses import dataclass, field

from .packing import Packer, unpack
from .states import Index

_SURROGATES = re.compile("[\\ud800-\\udfff]")


@dataclass
class Timeline:
    """`events` (dicts, see docs/timeline.md), `output` (the program's stdout), `source`, `loops` (the iterations of
    its loops as ranges of events), `modules` (the calls of its nn.Modules,
    likewise). Treat as immutable: state_at caches an index of the events on first use."""

    source: str
    events: list
    output: str
    loops: list = field(default_factory=list)
    modules: list = field(default_factory=list)  # the calls of nn.Modules as ranges of events (module_calls.py)
    _index: Index | None = field(default=None, init=False, repr=False, compare=False)

    def to_json(self):
        """The timeline as JSON text that always encodes as UTF-8 (a lone surrogate a program printed or put in
        a name, `print(chr(0xdc80))`, becomes U+FFFD). Events are packed as so_far's pieces pack them
        (packing.py): by their keys, what they repeat in a table."""
        packer = Packer()
        packed = packer.pack(self.events)
        text = json.dumps({"source": self.source, "output": self.output, "loops": self.loops,
                           "modules": self.modules, "keys": packer.new_keys(0), "table": packer.table,
                           "events": packed}, ensure_ascii=False, separators=(",", ":"), default=_unknown)
        return text if text.isascii() else _SURROGATES.sub("\ufffd", text)

    @classmethod
    def from_json(cls, text):
        collecting = gc.isenabled()
        gc.disable()  # hundreds of thousands of new lists and dicts, none in a cycle: the collector only slows it
        try:
            return cls.from_data(json.loads(text))
        finally:
            if collecting:
                gc.enable()

    @classmethod
    def from_data(cls, data):
        """The timeline of to_json's object (before json.dumps, or after json.loads)."""
        collecting = gc.isenabled()
        gc.disable()
        try:
            events = unpack(data["keys"], data["table"], data["events"])
        finally:
            if collecting:
                gc.enable()
        return cls(source=data["source"], events=events, output=data["output"], loops=data["loops"],
                   modules=data.get("modules", []))

    @property
    def error(self):
        """The error event that stopped the program, or None."""
        if self.events and self.events[-1]["kind"] == "error":
            return self.events[-1]
        return None


def _unknown(value):
    """What JSON cannot hold (an object a program made its way into an event): its type's name. Its own repr is
    not asked: no code of a program runs after its run."""
    return f"<{type(value).__name__}>"


def index(timeline):
    """The timeline's index (built on first use)."""
    if timeline._index is None:
        timeline._index = Index(timeline.events)
    return timeline._index


def state_at(timeline, k):
    """What the screen shows after events 0..k (k = -1: before anything ran). Pure; the first call on a
    timeline indexes it once, every later call costs about the number of nodes shown."""
    return index(timeline).state(k)


def formula_at(timeline, nid, k):
    """The formula with numbers of graph node nid's latest backward step at or before step k, or None."""
    ix = index(timeline)
    i = ix.last_step(nid, k)
    return ix.formula(i) if i is not None else None
