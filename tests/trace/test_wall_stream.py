"""What a program records leaves it in pieces as it runs (engine/trace/so_far.py): the pieces and the last message
make the timeline run() returns, and a child the wall ends (a crash here; Stop, its budget plus 1 s or its memory
cap the same way) keeps every event up to its last piece, however many, up to the timeline's cap."""
import json
import sys
import time

import pytest

from app.program.examples import EXAMPLES
from engine.trace import loops, run
from engine.trace.isolated import run_isolated
from engine.trace.so_far import Pieces, Stream
from tests.trace.corpus import TRACE_PROGRAMS

EVENTS = ("import torch\nimport time\nx = torch.ones(2)\nfor i in range(10000):\n    y = x * i\nt = time.time()\n"
          "while time.time() - t < 0.6:\n    pass\nt = ()\nfor i in range(300000):\n    t = tuple([t])\nd = {t: 1}\n")


def assembled(pieces) -> Pieces:
    received = Pieces()
    for piece in pieces:
        received.add(piece)
    return received


def test_the_pieces_make_the_timeline_of_run(monkeypatch):
    """A piece at every tick of the program (in a run, at most one per PIECE_EVERY): names given after a node was
    sent, loop iterations and module calls that end later, and the last message, make run()'s timeline."""
    real = loops.Budget.tick

    def tick(self, line=None):
        ok = real(self, line)
        if self.stream is not None:
            self.stream(time.perf_counter())
        return ok

    monkeypatch.setattr(loops.Budget, "tick", tick)
    renames = 0
    for source in [e.source for e in EXAMPLES] + list(TRACE_PROGRAMS.values())[::4]:
        sent = []
        stream = Stream(sent.append, every=0.0)
        timeline = run(source, stream=stream)
        sent.append(stream.tail(timeline))
        assert assembled(sent).timeline("").to_json() == timeline.to_json(), source
        renames += sum(len(json.loads(piece)["renames"]) for piece in sent)
    assert renames > 100


def test_a_piece_not_sent_goes_with_a_later_one(monkeypatch):
    """A piece that could not be sent (memory) is not counted as sent: the next one carries its events, key lists
    and table entries again, and the pieces still make run()'s timeline."""
    real = loops.Budget.tick

    def tick(self, line=None):
        ok = real(self, line)
        if self.stream is not None:
            self.stream(time.perf_counter())
        return ok

    monkeypatch.setattr(loops.Budget, "tick", tick)
    sent, tries = [], []

    def send(piece):
        tries.append(piece)
        if len(tries) % 2:
            raise MemoryError
        sent.append(piece)

    source = ("import torch\nw = torch.ones(2, requires_grad=True)\nfor i in range(20):\n    loss = (w * i).sum()\n"
              "    loss.backward()\nprint(w.grad)\n")
    stream = Stream(send, every=0.0)
    timeline = run(source, stream=stream)
    sent.append(stream.tail(timeline))
    assert len(tries) > 2 and assembled(sent).timeline("").to_json() == timeline.to_json()


@pytest.mark.skipif(sys.platform == "emscripten", reason="no processes in Pyodide")
def test_a_child_ended_after_10000_events_keeps_them_all():
    timeline = run_isolated(EVENTS, max_seconds=60)  # (its time on an idle machine: ~3 s)
    assert (timeline.error["type"], timeline.error["line"]) == ("Crash", 12), timeline.error
    assert [(e["kind"], e["line"]) for e in timeline.events] == [("leaf", 3), *[("op", 5)] * 10000, ("error", 12)]
    assert timeline.loops[0]["line"] == 4 and len(timeline.loops[0]["iterations"]) == 10000


@pytest.mark.skipif(sys.platform == "emscripten", reason="no processes in Pyodide")
def test_a_runaway_that_records_without_end_is_kept_up_to_the_cap_and_told_so():
    runaway = "import torch\nx = torch.ones(60)\nwhile True:\n    y = x * 1\n"  # ~450 bytes an event
    timeline = run_isolated(runaway, seconds=2.0, output_mb=0.125)
    ends = ("the program ran longer than 2 s and was stopped", "the program's timeline grew past 48 MB")  # which first
    message = timeline.error["message"]
    assert message.startswith(ends) and message.endswith(
        " (what it recorded is kept up to the timeline's limit of 0.125 MB)"), timeline.error
    assert len(timeline.events) > 150 and len(timeline.to_json().encode()) <= 2**17
    assert all(e["kind"] == "op" for e in timeline.events[1:-1])


def test_what_is_not_a_piece_is_refused():
    stream = Stream(None)
    good = stream.tail(run("import torch\nx = torch.ones(2)\nfor i in range(2):\n    y = x * i\n"))
    data = json.loads(good)
    assert assembled([good]).timeline("").events[-1]["kind"] == "op"
    broken = [
        ({**data, "renames": [[0, ["<b>x</b>"]]]}, "renames are not"),
        ({**data, "events": [[7, "op"]]}, "event 0 is not packed by its keys"),
        ({**data, "iterations": [[3, 0, 0, 99]]}, "loop iterations are not ranges of its events"),
        ({**data, "ends": [[0, 1]]}, "module calls end at no event"),
        ({**data, "keys": [["line", "kind"]]}, "its keys are not lists of field names"),
        ({**data, "html": "<b>"}, "a piece is not a piece's object"),
    ]
    for piece, says in broken:
        with pytest.raises(ValueError, match=says):
            assembled([json.dumps(piece)])
    with pytest.raises(ValueError, match="a piece came after the last"):
        assembled([good, good])
    with pytest.raises(ValueError, match="bigger than"):
        Pieces(cap=100).add(good)
