"""The training loop of a timeline, as pure functions: which loop it is, its iterations as ranges of events, the
loss of each, and the segments the graph shows one at a time.

The training loop is the loop whose iterations most often run a backward call (on a tie, the one with fewer
events per iteration: the batches of an epoch, not the epochs). Its iterations cut the timeline into segments:
each iteration is one, and so is each stretch of events outside them (before the loop, between the inner
loops of two epochs, after the loop). A program without such a loop is one segment.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field


@dataclass
class Iterations:
    line: int | None = None  # the training loop's line
    starts: list[int] = field(default_factory=list)  # event index where iteration j starts
    ends: list[int] = field(default_factory=list)  # … and where it ends (exclusive)
    numbers: list[int] = field(default_factory=list)  # the loop's own count of iteration j (0-based)
    loss: list[float | None] = field(default_factory=list)  # iteration j's loss: its first backward's root
    bounds: list[int] = field(default_factory=lambda: [0])  # segment s is events[bounds[s]:bounds[s + 1]]
    segment_of: dict[int, int] = field(default_factory=dict)  # iteration j -> its segment
    iteration_of: dict[int, int] = field(default_factory=dict)  # segment -> its iteration

    def __len__(self) -> int:
        return len(self.starts)

    def segment(self, k: int) -> int:
        """The segment showing step k (k = -1, before anything ran, is in the first)."""
        return max(0, bisect_right(self.bounds, max(k, 0)) - 1)

    def span(self, s: int, total: int) -> tuple[int, int]:
        """events[a:b] of segment s."""
        return self.bounds[s], (self.bounds[s + 1] if s + 1 < len(self.bounds) else total)

    def iteration(self, k: int) -> int | None:
        """The iteration step k is in, or None."""
        return self.iteration_of.get(self.segment(k))


def training_loop(events: list[dict], loops: list[dict]) -> Iterations:
    backward_at = [i for i, e in enumerate(events) if e["kind"] == "backward"]
    best, best_key = None, None
    for loop in loops:
        its = loop["iterations"]
        with_backward = sum(1 for _, a, b in its if _any_between(backward_at, a, b))
        if with_backward < 2:
            continue
        size = sum(b - a for _, a, b in its) / len(its)
        key = (with_backward, -size)
        if best_key is None or key > best_key:
            best, best_key = loop, key
    if best is None:
        return Iterations()
    its = best["iterations"]
    out = Iterations(line=best["line"], starts=[a for _, a, _ in its], ends=[b for _, _, b in its],
                     numbers=[n for n, _, _ in its])
    values = {}
    for e in events:
        if e["kind"] in ("leaf", "op", "inplace"):
            values[e["id"]] = e.get("value")
    for a, b in zip(out.starts, out.ends):
        j = bisect_right(backward_at, a - 1)
        loss = None
        if j < len(backward_at) and backward_at[j] < b:
            loss = _scalar(values.get(events[backward_at[j]]["root"]))
        out.loss.append(loss)
    bounds = []
    for j, (a, b) in enumerate(zip(out.starts, out.ends)):
        if not bounds or bounds[-1] != a:
            bounds.append(a)
        out.segment_of[j] = len(bounds) - 1
        out.iteration_of[len(bounds) - 1] = j
        bounds.append(b)
    if bounds[0] != 0:
        bounds.insert(0, 0)
        out.segment_of = {j: s + 1 for j, s in out.segment_of.items()}
        out.iteration_of = {s + 1: j for s, j in out.iteration_of.items()}
    if bounds[-1] >= len(events):
        bounds.pop()
    out.bounds = bounds
    return out


def _any_between(sorted_ks: list[int], a: int, b: int) -> bool:
    j = bisect_right(sorted_ks, a - 1)
    return j < len(sorted_ks) and sorted_ks[j] < b


def _scalar(value) -> float | None:
    while isinstance(value, list) and len(value) == 1:
        value = value[0]
    return float(value) if isinstance(value, (int, float)) else None


PHASES = ("forward", "zero_grad", "backward", "optimizer step")


def phase_of(event: dict, after_backward: bool) -> str | None:
    """The phase of a training step an event belongs to, or None (a print, a warning: the phase goes on)."""
    kind = event["kind"]
    if kind == "zero_grad":
        return "zero_grad"
    if kind == "backward" or event.get("call") is not None:
        return "backward"
    if kind == "inplace" and ("update" in event or not event.get("grad_fn")) and after_backward:
        return "optimizer step"
    if kind in ("leaf", "op", "inplace", "grad"):
        return "optimizer step" if after_backward and not event.get("grad_fn") else "forward"
    return None


def phases(events: list[dict], start: int, end: int) -> list[tuple[str, int, int]]:
    """The phases of events[start:end] in order: (name, first step, last step), a phase again when it comes
    again (`zero_grad` before or after the update)."""
    out: list[list] = []
    after_backward = False
    for k in range(start, end):
        e = events[k]
        name = phase_of(e, after_backward)
        if e["kind"] == "backward":
            after_backward = True
        if name is None:
            if out:
                out[-1][2] = k
            continue
        if out and out[-1][0] == name:
            out[-1][2] = k
        else:
            out.append([name, k, k])
    return [tuple(p) for p in out]
