"""What a program records leaves it as it is recorded: `Stream` sends the recorder's events in pieces while the program
runs (at the budget's time checks, every PIECE_EVERY seconds), with what changed in what it sent before (a node
named by a later assignment, the loop iterations and module calls that ended); its last message (`Stream.tail`) holds
only what was not sent yet. `Pieces` puts them together again, checking each one's form, into the timeline run()
returned; a program ended at any moment (Stop, its budget plus a margin, its memory cap, a crash) keeps what it
recorded up to its last piece. What is sent is capped (`cap` bytes, the timeline's JSON cap): past it no events are
sent, and the timeline ends with what fit and an error event that says so.

A piece is JSON: {"keys": the new key lists and "table": the new entries of the table (both numbered on from the
pieces before), "events": packed as Timeline.to_json packs them (packing.py), "renames": [[node id, the name's number
in the table]], "iterations": [[loop line, index, start, end]] that ended,
"open": [[loop line, index, start]] the iterations running now, "calls": the new module calls (as Timeline.modules,
"end" null while running), "ends": [[call, end]] of calls sent running}; the tail has "source" and "output" too."""
from __future__ import annotations

import json
import re
import time

from .packing import Packer
from .timeline import Timeline, _unknown

PIECE_EVERY = 0.25  # s: a run shorter than this sends everything in its tail
RESERVE = 2**20  # bytes of the cap (at most an eighth) kept for the tail: the program's source, its output, an error
_SURROGATES = re.compile("[\\ud800-\\udfff]")
_PIECE = ("keys", "table", "events", "renames", "iterations", "open", "calls", "ends")


def _encoded(data) -> bytes:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=_unknown)
    if not text.isascii():
        text = _SURROGATES.sub("\ufffd", text)  # a lone surrogate a program printed (as Timeline.to_json)
    return text.encode()


class _Sent:
    """What the receiver has: the key lists and the table (the packer's, up to its mark), how many events, each loop
    line's iterations, the module calls (and those sent running), and the bytes sent."""

    def __init__(self):
        self.packer, self.events, self.iterations = Packer(), 0, {}
        self.calls, self.running, self.bytes = 0, [], 0
        self.mark = self.packer.mark()

    def copy(self):
        """What the receiver will have once the next piece arrives (it shares the packer: undo() takes back what a
        piece that is not sent packed)."""
        other = _Sent()
        other.packer, other.events = self.packer, self.events
        other.iterations, other.calls, other.running, other.bytes = (dict(self.iterations), self.calls,
                                                                     list(self.running), self.bytes)
        other.mark = self.mark
        return other

    def undo(self):
        self.packer.undo(self.mark)


class Stream:
    """Sends `send(bytes)` the pieces of what the program has recorded, while it runs (`__call__`, at the budget's
    time checks), each once PIECE_EVERY seconds have passed since the last; `tail(timeline)` is the rest, once the
    run is over. Nothing it does reaches the program: a piece that cannot be made (memory) is made later."""

    def __init__(self, send=None, cap: int = 32 * 2**20, *, every: float | None = None, flush=None):
        self.send, self.cap, self.every = send, cap, PIECE_EVERY if every is None else every
        self.flush = flush  # called at the time checks between pieces: what was sent but is not yet out goes on
        self.reserve = min(RESERVE, cap // 8)
        self.pieces = 0  # sent
        self.spent = 0.0  # seconds spent making and sending them
        self.full = False  # the cap is reached: no more events are sent
        self._sent = _Sent()
        self._rec = None
        self._next = float("inf")

    @property
    def bytes(self):
        return self._sent.bytes

    def attach(self, rec, source: str) -> None:
        """The run's recorder (runner.run)."""
        self._rec = rec
        rec.renamed = []  # the nodes it names after they were recorded
        if self.send is not None:
            self._next = time.perf_counter() + self.every

    def __call__(self, now: float) -> None:
        if now < self._next or self._rec is None or not self._rec.running or self.full:
            if self.flush is not None:
                self.flush()
            return
        try:
            data, sent = self._piece(self._rec, self._rec.events)
            if data is not None:
                self.send(data)
                self.pieces += 1
                self._sent = sent
                self._rec.renamed.clear()
        except Exception:  # noqa: BLE001 - a piece that cannot be made now (memory) goes with a later one
            self._sent.undo()
        spent = time.perf_counter() - now
        self.spent += spent
        self._next = time.perf_counter() + self.every

    def tail(self, timeline: Timeline) -> bytes:
        """The last message: what of `timeline` (run's) was not sent, with its source and output."""
        rec = self._rec
        if rec is not None and timeline.events is not rec.events:  # run's last resort: a timeline of its own
            self._sent, rec = _Sent(), None
        events = timeline.events
        n = self._sent.events if self.full else len(events)
        error = self._cap_error(events, n) if self.full else None
        if error is not None and events and events[-1].get("kind") == "error":  # the program's own end, told whole
            error = {**events[-1], "message": f"{events[-1]['message']} (what it recorded is kept up to the "
                                              f"timeline's limit of {self.cap / 2**20:g} MB)"}
        data, self._sent = self._piece(rec, events, n, final=timeline, error=error)
        return data

    def _cap_error(self, events, n):
        return {"kind": "error", "line": events[n - 1].get("line") if n else None, "type": "OutputLimit",
                "message": f"the program's timeline is bigger than the limit of {self.cap / 2**20:g} MB: the "
                           "explorer shows what fits (fewer iterations or smaller tensors show all of it)"}

    def _piece(self, rec, events, n=None, final=None, error=None, cut=True):
        """A piece's JSON with events[sent:n] (and `error`), and what the receiver has once it arrives; (None, …)
        when there is nothing new. One that would pass the cap holds the events that fit (`full`)."""
        sent = self._sent.copy()
        packer = sent.packer
        n = len(events) if n is None else n
        if rec is not None:
            rec._values.flush()  # the summaries of big tensors, filled in batches
            nodes = rec._nodes
            renames = {nid: nodes[nid]["name"] for nid in rec.renamed if nid <= packer.last_node}
            found, calls = rec.loops.found, rec.modules.calls
            running = [] if final is not None else [[a.line, a.index, a.start] for a in rec.loops._open]
        else:
            renames, running = {}, []
            found = {loop["line"]: loop["iterations"] for loop in final.loops} if final is not None else {}
            calls = final.modules if final is not None else []
        new = events[sent.events:n]
        if final is None and not new and not renames and len(calls) == sent.calls and not sent.running:
            return None, sent
        try:
            packed = packer.pack(new)
            sent.events += len(new)
            if error is not None:
                packed += packer.pack([error])  # (not one of the run's)
            renamed = [[nid, packer.ref(name)] for nid, name in renames.items()]
            data = {"keys": packer.new_keys(sent.mark[0]), "table": packer.table[sent.mark[1]:], "events": packed,
                    "renames": renamed}
        except BaseException:
            sent.undo()
            raise
        sent.mark = packer.mark()
        self._ranges(data, sent, found, running, calls, n)
        if not cut:
            data["full"] = True  # no more events are sent
        if final is not None:
            output = final.output if n == len(events) else "".join(e["text"] for e in events[:n]
                                                                   if e["kind"] == "print")
            data["source"], data["output"] = final.source, output
        try:
            text = _encoded(data)
        except BaseException:
            self._sent.undo()
            raise
        room = self.cap - sent.bytes - (0 if final is not None else self.reserve)
        if len(text) > room and cut:
            self._sent.undo()
            return self._cut(rec, events, n, final, room)
        sent.bytes += len(text)
        return text, sent

    def _cut(self, rec, events, n, final, room):
        """The cap is reached: a piece of the events that fit, and no more pieces (the tail says so)."""
        start = self._sent.events
        if final is not None:
            room -= self.reserve // 2  # the tail's other parts and its error event
        kept = 0
        for ev in events[start:n]:
            room -= len(_encoded([0, *ev.values()])) + 1
            if room < 0 or ev["kind"] == "error":
                break
            kept += 1
        self.full = True
        if final is None:
            return self._piece(rec, events, start + kept, cut=False) if kept else (None, self._sent.copy())
        return self._piece(rec, events, start + kept, final=final, error=self._cap_error(events, start + kept),
                           cut=False)

    @staticmethod
    def _ranges(data, sent, found, running, calls, n):
        """The iterations and module calls that ended since the last piece, and those running now (up to event n)."""
        iterations = []
        for line, its in found.items():
            had = sent.iterations.get(line, 0)
            iterations += [[line, i, start, min(end, n)] for i, start, end in its[had:] if start < n]
            sent.iterations[line] = len(its)
        data["iterations"] = iterations
        data["open"] = [act for act in running if act[2] < n]
        data["ends"] = [[i, min(calls[i]["end"], n)] for i in sent.running if calls[i]["end"] is not None]
        new = [c for c in calls[sent.calls:] if c["start"] <= n]
        sent.running = [i for i in sent.running if calls[i]["end"] is None]
        sent.running += [sent.calls + j for j, c in enumerate(new) if c["end"] is None]
        data["calls"] = [c if c["end"] is None else {**c, "end": min(c["end"], n)} for c in new]
        sent.calls += len(new)


_NODES = ("leaf", "op", "inplace")


def _ints(value, n):
    return isinstance(value, list) and len(value) == n and all(type(v) is int and 0 <= v < 2**53 for v in value)


class Pieces:
    """A Stream's pieces put together again (the server's wall reads them from its child, the app's worker gets them
    from the program worker): `add` each in order, bytes or text (ValueError for what is not a piece, or past `cap`
    bytes in all), then `data(source)` is the timeline as Timeline.to_json writes it (before json.dumps): the run's
    once the tail has come, else what it had recorded so far (the iterations and module calls running then end at
    its last event). The form of each piece is checked here; app/timeline_check.py checks the timeline it makes."""

    def __init__(self, cap: int = 32 * 2**20):
        self.cap, self.size = cap, 0
        self.keys, self._at = [], []  # key lists, and where each puts a node's id and name in a packed event
        self.table = []  # what the events refer to (packing.py)
        self.events, self._nodes = [], {}  # packed, and the node events by id
        self.found, self.open, self.calls = {}, [], []
        self.tail = None
        self.full = False  # the stream reached its cap: what ran after its last piece was not sent

    def add(self, text) -> None:
        if self.tail is not None:
            raise ValueError("a piece came after the last")
        self.size += len(text) if isinstance(text, (bytes, bytearray)) else len(text.encode("utf-8", "replace"))
        if self.size > self.cap:
            raise ValueError(f"its pieces are bigger than {self.cap / 2**20:g} MB")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise ValueError(f"a piece is not JSON ({type(e).__name__})") from None
        if not isinstance(data, dict) or not set(_PIECE) <= set(data) <= {*_PIECE, "source", "output", "full"} or (
                ("source" in data) != ("output" in data)):
            raise ValueError("a piece is not a piece's object")
        self._keys(data["keys"])
        if not isinstance(data["table"], list):
            raise ValueError("a piece's table is not a list")
        self.table += data["table"]
        self._events(data["events"])
        self._renames(data["renames"])
        self._ranges(data)
        self.full = self.full or data.get("full") is True
        if "source" in data:
            if not isinstance(data["source"], str) or not isinstance(data["output"], str):
                raise ValueError("its last piece's source or output is not text")
            self.tail = data

    def _keys(self, keys):
        if not isinstance(keys, list) or len(self.keys) + len(keys) > 10_000:
            raise ValueError("its keys are not lists of field names")
        for names in keys:
            if not (isinstance(names, list) and names[:2] == ["kind", "line"] and len(set(names)) == len(names)
                    and all(isinstance(name, str) for name in names)):
                raise ValueError("its keys are not lists of field names")
            self.keys.append(names)
            self._at.append((names.index("id") + 1, names.index("name") + 1) if {"id", "name"} <= set(names)
                            else None)

    def _events(self, events):
        if not isinstance(events, list):
            raise ValueError("a piece's events are not a list")
        keys, at, nodes, kept = self.keys, self._at, self._nodes, self.events
        for packed in events:
            if not (isinstance(packed, list) and packed and type(packed[0]) is int and 0 <= packed[0] < len(keys)
                    and len(packed) == len(keys[packed[0]]) + 1):
                raise ValueError(f"event {len(kept)} is not packed by its keys")
            where = at[packed[0]]
            if where is not None and packed[1] in _NODES and type(packed[where[0]]) is int:
                nodes[packed[where[0]]] = (packed, where[1])
            kept.append(packed)

    def _renames(self, renames):
        if not isinstance(renames, list):
            raise ValueError("a piece's renames are not a list")
        for rename in renames:
            if not (isinstance(rename, list) and len(rename) == 2 and type(rename[0]) is int
                    and type(rename[1]) is int and 0 <= rename[1] < len(self.table)
                    and isinstance(self.table[rename[1]], str)):
                raise ValueError("a piece's renames are not [node id, name]")
            if rename[0] in self._nodes:  # (a node the recorder met but could not record, its budget spent: none)
                packed, at = self._nodes[rename[0]]
                packed[at] = rename[1]

    def _ranges(self, data):
        n = len(self.events)
        for it in data["iterations"] if isinstance(data["iterations"], list) else [None]:
            if not (_ints(it, 4) and it[2] < it[3] <= n):
                raise ValueError("a piece's loop iterations are not ranges of its events")
            self.found.setdefault(it[0], []).append(it[1:])
        if not isinstance(data["open"], list) or not all(_ints(it, 3) and it[2] <= n for it in data["open"]):
            raise ValueError("a piece's loop iterations are not ranges of its events")
        self.open = data["open"]
        calls, ends = data["calls"], data["ends"]
        if not isinstance(calls, list) or not all(isinstance(c, dict) and "end" in c and "start" in c for c in calls):
            raise ValueError("a piece's module calls are not calls")
        self.calls += calls
        if not isinstance(ends, list) or not all(_ints(e, 2) and e[0] < len(self.calls) and e[1] <= n for e in ends):
            raise ValueError("a piece's module calls end at no event")
        for i, end in ends:
            self.calls[i]["end"] = end

    def data(self, source: str) -> dict:
        n = len(self.events)
        found = {line: list(its) for line, its in self.found.items()}
        calls = self.calls
        tail = self.tail
        if tail is None:  # what ran until the last piece: the iterations and calls running then end there
            for line, index, start in self.open:
                if start < n:
                    found.setdefault(line, []).append([index, start, n])
            calls = [c if c["end"] is not None else {**c, "end": n} for c in calls]
            output = "".join(e[3] for e in self.events if e[1] == "print" and len(e) > 3 and isinstance(e[3], str))
        else:
            source, output = tail["source"], tail["output"]
        return {"source": source, "output": output, "keys": self.keys, "table": self.table, "events": self.events,
                "modules": calls, "loops": [{"line": line, "iterations": its} for line, its in sorted(found.items())]}

    def timeline(self, source: str) -> Timeline:
        return Timeline.from_data(self.data(source))
