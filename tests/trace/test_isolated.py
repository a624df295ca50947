"""run_isolated: the same timeline as run(), and a hard stop for what the in-process guard cannot see."""
import sys
import time

import pytest

from engine.trace import run
from engine.trace.isolated import run_isolated

pytestmark = pytest.mark.skipif(sys.platform == "emscripten", reason="no processes in Pyodide: run_isolated is run")

PROGRAM = "import torch\nx = torch.tensor(3.0, requires_grad=True)\ny = x ** 2\ny.backward()\nprint(x.grad)\n"
NESTED = "a = [0]\nfor i in range(40):\n    a = [a, a]\ns = str(a)\n"


def test_same_timeline_as_run():
    assert run_isolated(PROGRAM).to_json() == run(PROGRAM).to_json()


def test_a_c_level_runaway_is_killed_at_the_time_limit():
    t0 = time.perf_counter()
    timeline = run_isolated(NESTED, seconds=2.0)
    assert time.perf_counter() - t0 < 6
    error = timeline.events[-1]
    assert error["kind"] == "error"
    assert "ran longer than 2 s" in error["message"]


def test_memory_is_capped():
    # 1.6 GB, 8 MB at a time: far past the cap even where the child inherits a big free heap from its parent
    # (the cap is on address space the child adds; a heap the parent freed is reused without growing it)
    program = "rows = []\nfor i in range(200):\n    rows.append([i] * 10 ** 6)\n"
    timeline = run_isolated(program, memory_mb=200, seconds=20, max_memory_mb=None, max_total_elements=10**9)
    error = timeline.events[-1]
    assert (error["kind"], error["type"], error["line"]) == ("error", "MemoryError", 3)
    assert error["message"].startswith("the program needed more memory than its limit of 200 MB")


def test_errors_come_back_as_events():
    timeline = run_isolated("import torch\ntorch.ones(3).backward()\n")
    assert timeline.events[-1]["kind"] == "error"
    assert timeline.events[-1]["line"] == 2


def test_the_time_limit_names_the_line_the_program_was_at():
    timeline = run_isolated("x = 1\na = [0]\nfor i in range(40):\n    a = [a, a]\ns = str(a)\n", seconds=1.0)
    assert timeline.error == {"kind": "error", "line": 5, "type": "BudgetExceeded",
                              "message": "the program ran longer than 1 s and was stopped"}


def test_a_crash_is_reported_at_its_line_and_the_next_program_runs():
    crash = "t = ()\nfor i in range(300000):\n    t = tuple([t])\nd = {t: 1}\n"
    timeline = run_isolated(crash, max_seconds=10)
    assert (timeline.error["type"], timeline.error["line"]) == ("Crash", 4)
    assert "crashed Python (SIGSEGV" in timeline.error["message"]
    assert run_isolated(PROGRAM).to_json() == run(PROGRAM).to_json()


def test_output_over_the_cap_keeps_the_events_that_fit():
    source = "import torch\nx = torch.rand(8, 8)\nfor i in range(2000):\n    x = x * 1.0001\nprint('done')\n"
    full = run(source)
    assert full.error is None and len(full.to_json().encode()) > 2**20
    timeline = run_isolated(source, output_mb=1)
    error = timeline.error
    assert (error["type"], error["line"]) == ("OutputLimit", 4)
    assert error["message"].startswith("the program's timeline is bigger than the limit of 1 MB")
    assert timeline.events[:-1] == full.events[:len(timeline.events) - 1]
    assert len(timeline.to_json().encode()) <= 2**20


def test_the_parent_reads_no_more_than_the_cap(monkeypatch):
    import engine.trace.isolated as isolated

    monkeypatch.setattr(isolated, "_tail", lambda stream, timeline: b"x" * (stream.cap + 2**20))  # a child gone wrong
    timeline = run_isolated(PROGRAM, output_mb=1)
    assert timeline.error["message"] == "the program's timeline is bigger than the limit of 1 MB and was not sent"


def test_in_pyodide_the_program_runs_in_place_with_the_browser_budget(monkeypatch):
    from engine.trace import isolated

    calls = []
    monkeypatch.setattr(isolated.sys, "platform", "emscripten")
    monkeypatch.setattr(isolated, "run", lambda source, **limits: calls.append(limits) or "timeline")
    assert isolated.run_isolated("x = 1") == "timeline"
    assert isolated.run_isolated("x = 1", max_seconds=3) == "timeline"
    assert calls == [{"max_seconds": isolated.BROWSER_SECONDS}, {"max_seconds": 3}]


def test_the_child_never_walks_the_parents_objects(monkeypatch):
    import gc

    import engine.trace.isolated as isolated

    heap = [[i] for i in range(200_000)]  # a server's heap: a full collection of it would spend the budget
    real_run = isolated.run
    monkeypatch.setattr(isolated, "run", lambda source, **limits: real_run(f"print({len(gc.get_objects())})"))
    walked = int(run_isolated("x = 1").output)
    assert len(gc.get_objects()) > len(heap) > 100 * walked
