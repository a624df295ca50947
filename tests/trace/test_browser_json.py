"""browser_json: what the static site's program worker (static/program.mjs) sends the page, in Pyodide and here: the
pieces of what the program records as it runs, then the rest (so_far.Stream), which make the timeline of run()."""
import json

from engine.trace import isolated, run
from engine.trace.so_far import Pieces
from engine.trace.timeline import Timeline

PROGRAM = "import torch\nx = torch.tensor(3.0, requires_grad=True)\ny = x ** 2\ny.backward()\nprint(x.grad)\n"


def assembled(tail, pieces=()) -> Timeline:
    received = Pieces()
    for piece in [*pieces, tail]:
        received.add(piece)
    return received.timeline("")


def test_it_is_the_timeline_of_run_with_the_browser_budget(monkeypatch):
    assert assembled(isolated.browser_json(PROGRAM)).to_json() == run(PROGRAM).to_json()
    budgets = []
    monkeypatch.setattr(isolated, "run",
                        lambda source, watch=None, stream=None, **limits: budgets.append(limits) or run(source))
    isolated.browser_json(PROGRAM)
    isolated.browser_json(PROGRAM, max_seconds=2)
    assert budgets == [{"max_seconds": isolated.BROWSER_SECONDS}, {"max_seconds": 2}]


def test_a_timeline_over_the_cap_keeps_the_events_that_fit():
    source = "import torch\nx = torch.rand(8, 8)\nfor i in range(2000):\n    x = x * 1.0001\nprint('done')\n"
    full = run(source)
    for pieces in ([], None):  # all in its last message, and streamed as it runs
        sent = []
        tail = isolated.browser_json(source, output_mb=1, recorded=None if pieces is not None else sent.append)
        timeline = assembled(tail, sent)
        assert sum(len(text.encode()) for text in [*sent, tail]) <= 2**20 and timeline.error["type"] == "OutputLimit"
        assert timeline.error["line"] == 4 and "limit of 1 MB" in timeline.error["message"]
        assert timeline.events[:-1] == full.events[:len(timeline.events) - 1] and len(timeline.events) > 1000


def test_a_memory_error_names_the_workers_memory_cap(monkeypatch):
    error = {"kind": "error", "line": 3, "type": "MemoryError", "message": ""}
    monkeypatch.setattr(isolated, "run", lambda source, **limits: Timeline(source=source, events=[error], output=""))
    event = json.loads(isolated.browser_json("x = 1", memory_mb=1024))["events"][0]
    assert event[2:] == [3, "MemoryError", "the program needed more memory than its limit of 1,024 MB"]


def test_stopped_is_one_error_event_that_says_why():
    timeline = isolated.stopped("x = 1", "the program ran longer than 20 s and was stopped")
    assert timeline.events == [{"kind": "error", "line": None, "type": "BudgetExceeded",
                                "message": "the program ran longer than 20 s and was stopped"}]


def test_the_worker_is_told_the_programs_line_as_it_goes_and_the_end_of_its_budget():
    """What static/program.mjs posts the wall: the line, when it changed (at the budget's time checks, and as each
    statement of the top level starts), and the budget's end, after which the timeline is fitted and sent."""
    told = []
    source = "n = 0\nwhile n < 200000:\n    n += 1\nimport torch\nfor i in range(20000):\n    x = torch.ones(2)\n"
    isolated.browser_json(source, watch=lambda kind, line: told.append((kind, line)))
    assert told[-1] == ("ended", None) and told.count(("ended", None)) == 1
    lines = [line for kind, line in told[:-1]]
    assert all(kind == "line" for kind, _ in told[:-1]) and {1, 2, 4, 5, 6} <= set(lines) <= {1, 2, 3, 4, 5, 6}, lines
    assert all(a != b for a, b in zip(lines, lines[1:])), "posted only when the line changed"


def test_a_top_level_statement_is_posted_as_it_starts():
    # (the browser's wall cannot ask a program stuck in one C call for its traceback: the line it reports is the
    # last one posted, which must be the statement after the loop, not the loop's)
    told = []
    source = "a = [0]\nfor i in range(30):\n    a = [a, a]\nif a:\n    e = ValueError(1)\n    s = len(str(e))\n"
    isolated.browser_json(source, watch=lambda kind, line: told.append((kind, line)))
    assert [line for kind, line in told if kind == "line"][-3:] == [4, 5, 6], told
