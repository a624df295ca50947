"""What a program has recorded so far, as a Timeline, while it still runs; and `Snapshots`, which hands it on now
and then. The browser's program worker can be ended at any moment (Stop, its budget plus a margin, its memory
cap): what it sent last is the part of the run the learner can still step through (static/wall.mjs)."""
from __future__ import annotations

import mmap
import struct
import time

from .timeline import Timeline


def so_far(rec, source: str) -> Timeline:
    """The events recorded until now, with the loops' and module calls' ranges as they stand (an iteration or a
    call still running ends at the last event) and what the program printed. Runs no code of the program."""
    rec._values.flush()  # the summaries of big tensors, filled in batches
    events = list(rec.events)
    n = len(events)
    loops = rec.loops.table(until=n)
    modules = [m if m["end"] is not None else {**m, "end": n} for m in rec.modules.calls]
    output = "".join(e["text"] for e in events if e["kind"] == "print")
    return Timeline(source=source, events=events, output=output, loops=loops, modules=modules)


MOST = 2 * 2**20  # bytes of timeline, as the recorder estimates them (an upper bound: ~0.7 MB of JSON, ~6,500
# events of a training loop), past which no snapshot is made: a snapshot costs about a tenth of the time it took to
# record what it holds, so the snapshots of a long run would cost it more than a few percent


class Snapshots:
    """Called at the budget's time checks (every 10 ms) while a program runs: sends `send(json)` what it has
    recorded so far (Timeline.to_json), the first time after `first` seconds, then at most every `every` seconds
    and never more often than keeps the time it takes under `share` of the time between two (a bigger snapshot is
    sent more seldom), until the timeline passes `most` bytes (the recorder's estimate); the last one sent stays
    what the wall keeps. A snapshot of more than `cap` bytes is not sent. Nothing it does reaches the program: a
    failure skips that snapshot."""

    def __init__(self, send, cap: int, *, first: float = 0.5, every: float = 0.5, share: float = 0.03,
                 most: int = MOST):
        self.send, self.cap, self.first, self.every, self.share, self.most = send, cap, first, every, share, most
        self.sent = 0
        self.spent = 0.0  # seconds spent making and sending snapshots
        self._rec = self._source = None
        self._next = float("inf")

    def attach(self, rec, source: str) -> None:
        """The run's recorder (runner.run): snapshots start `first` seconds from now."""
        self._rec, self._source = rec, source
        self._next = time.perf_counter() + self.first

    def __call__(self, now: float) -> None:
        if now < self._next or self._rec is None or not self._rec.running:
            return
        if self._rec.budget is not None and self._rec.budget.timeline_bytes > self.most:
            self._next = float("inf")
            return
        try:
            text = so_far(self._rec, self._source).to_json()
            if (len(text) if text.isascii() else len(text.encode("utf-8", "replace"))) <= self.cap:
                self.send(text)
                self.sent += 1
        except Exception:  # noqa: BLE001, S110 - a snapshot that cannot be made (memory) is skipped
            pass
        spent = time.perf_counter() - now
        self.spent += spent
        self._next = time.perf_counter() + max(self.every, spent / self.share)


class SharedSlots:
    """Where a forked child's snapshots wait for its parent (the server's wall, isolated.run_isolated): two slots of
    memory shared across the fork, each up to `cap` bytes. The child writes into the slot not read last, then
    names it in the header, so a child killed while it writes leaves the previous snapshot whole."""

    _HEAD = struct.Struct("=qq")  # the complete slot (-1: none yet) and its length

    def __init__(self, cap: int):
        self.cap = cap
        self.memory = mmap.mmap(-1, self._HEAD.size + 2 * cap)  # anonymous and shared: the child's writes are seen
        self._HEAD.pack_into(self.memory, 0, -1, 0)

    def write(self, text: str) -> None:
        """The child's Snapshots.send."""
        data = text.encode("utf-8", "replace")
        if len(data) > self.cap:
            return
        slot = 1 - max(self._HEAD.unpack_from(self.memory, 0)[0], 0)
        start = self._HEAD.size + slot * self.cap
        self.memory[start:start + len(data)] = data
        self._HEAD.pack_into(self.memory, 0, slot, len(data))

    def read(self) -> Timeline | None:
        """The parent's: the last snapshot the child wrote, or None."""
        slot, size = self._HEAD.unpack_from(self.memory, 0)
        if slot not in (0, 1) or not 0 < size <= self.cap:
            return None
        start = self._HEAD.size + slot * self.cap
        try:
            return Timeline.from_json(self.memory[start:start + size])
        except (ValueError, KeyError, TypeError, IndexError):
            return None

    def close(self) -> None:
        self.memory.close()
