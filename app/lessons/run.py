"""Running a lesson: its program (program.py) through the runner, as one program, then the timeline told where
each block starts (a `block` event in place of each marker's print) and each block's printed output apart.

A block that fails is handled as a notebook would go on after a failing cell: the run is made again with the
rest of that block, from the top-level statement that failed (or the whole block when the failing line is
elsewhere: a function another block defined), left out; the block's output ends with the error, and the blocks
after it run. Where a notebook stored an output and the engine prints something else, the block says so."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field

from app.lessons.model import Lesson
from app.lessons.program import Program, compose
from engine.trace.timeline import Timeline


@dataclass
class BlockRun:
    number: int
    cell: int
    first: int  # the program's lines of the block
    last: int
    start: int  # the index of its `block` event in the timeline (None when the run ended before it)
    end: int  # the index after its last event
    output: str = ""  # what it printed
    error: str = ""  # the error that stopped it ("RuntimeError: …"), the rest of it not run
    notes: list[str] = field(default_factory=list)
    stored: str | None = None  # a notebook cell's stored output
    stored_note: str = ""
    differs: bool = False  # the stored output is not what the engine prints

    def to_dict(self) -> dict:
        return dict(vars(self))


@dataclass
class LessonRun:
    timeline: Timeline
    blocks: list[BlockRun]
    program: Program | None = None

    def block_at(self, k: int) -> int | None:
        """The block whose step k is (None before the first block starts)."""
        found = None
        for b in self.blocks:
            if b.start is not None and b.start <= k:
                found = b.number
        return found

    def to_json_blocks(self) -> list[dict]:
        return [b.to_dict() for b in self.blocks]


def default_runner(source: str) -> Timeline:
    from engine.trace import run

    return run(source)


def run_lesson(lesson: Lesson, run=default_runner) -> LessonRun:
    """`run(source) -> Timeline`: engine.trace.run, or the isolated runner the app uses."""
    runs = lesson_runs(lesson)
    source = next(runs)
    while True:
        try:
            source = runs.send(run(source))
        except StopIteration as done:
            return done.value


def lesson_runs(lesson: Lesson) -> Generator[str, Timeline, LessonRun]:
    """The runs a lesson takes, for a caller that runs each program its own way (off the server's loop, in the
    site's program worker): yields each program to run, is sent its timeline, and returns the LessonRun."""
    program = compose(lesson)
    cut: dict[int, int] = {}
    errors: dict[int, str] = {}
    for _ in range(len(program.blocks) + 1):
        timeline = yield program.source(cut)
        err = timeline.error
        if err is None:
            break
        b = _running(timeline, program) if err.get("line") is None or program.block_of_line(err["line"]) is None \
            else _failing(timeline, program, err)
        if b is None:
            break
        offset = program.blocks[b].statement_at(err["line"]) if err.get("line") is not None else 0
        if b in cut and cut[b] <= offset:
            break  # nothing left to leave out: the error stays at the end of the timeline
        cut[b] = offset
        where = f" (line {err['line'] - program.blocks[b].first + 1})" \
            if program.block_of_line(err.get("line")) == b else ""
        errors[b] = f"{err.get('type')}: {err.get('message')}{where}"
    return _split(lesson, program, timeline, cut, errors)


def _running(timeline: Timeline, program: Program) -> int | None:
    """The block that was running when the run ended: the last marker printed."""
    last = None
    for ev in timeline.events:
        if ev["kind"] == "print" and ev["text"].startswith(f"\x1e{program.nonce}:"):
            last = int(ev["text"].rsplit(":", 1)[1])
    return last


def _failing(timeline, program, err) -> int | None:
    """The block of the failing line when it ran in that block (or the program was refused before it ran)."""
    running = _running(timeline, program)
    by_line = program.block_of_line(err["line"])
    return by_line if running is None or running == by_line else running


def _split(lesson: Lesson, program: Program, timeline: Timeline, cut, errors) -> LessonRun:
    marks = {program.marker(b.number): b.number for b in program.blocks}
    events, texts, starts = [], [], {}
    for ev in timeline.events:
        if ev["kind"] == "print" and ev["text"] in marks and "call" not in ev:
            n = marks[ev["text"]]
            if n not in starts:
                starts[n] = len(events)
                events.append({"kind": "block", "line": ev["line"], "block": n})
                continue
        if ev["kind"] == "print":
            texts.append(ev["text"])
        events.append(ev)
    shifted = Timeline(source=program.display(), events=events, output="".join(texts),
                       loops=timeline.loops, modules=timeline.modules)  # one event for one: ranges stand
    code = lesson.code
    blocks = []
    order = sorted(starts.items(), key=lambda kv: kv[1])
    for b in program.blocks:
        start = starts.get(b.number)
        later = [s for n, s in order if start is not None and s > start]
        end = later[0] if later else len(events)
        out = "" if start is None else "".join(ev["text"] for ev in events[start:end] if ev["kind"] == "print")
        notes = list(b.notes)
        if b.number in cut and b.number not in errors:
            notes.append("not run")
        if start is None:
            notes.append("not run: the program ended before this block")
        cell = code[b.number]
        br = BlockRun(b.number, b.cell, b.first, b.last, start, end if start is not None else start,
                      output=out, error=errors.get(b.number, ""), notes=notes, stored=cell.stored,
                      stored_note=cell.stored_note)
        br.differs = cell.stored is not None and _same_text(cell.stored) != _same_text(out)
        blocks.append(br)
    return LessonRun(shifted, blocks, program)


def _same_text(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())

