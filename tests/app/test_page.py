"""The page builds without a server for every example and link, and sessions share no state."""

import pytest

from app.page import Explorer, create
from app.program.examples import EXAMPLES


@pytest.mark.parametrize("slug", [e.slug for e in EXAMPLES if not e.slug.startswith("scalar")])
def test_every_example_builds_and_steps_through(slug):
    explorer = Explorer({"example": slug, "step": "end"})
    store = explorer.store
    assert store.k == store.last
    store.select("t0")
    for k in range(store.last, -2, -max(1, store.last // 25)):
        store.goto(k)
    assert explorer.controls.caption.text
    assert "Click a node" not in explorer.inspector.box.text


def test_create_returns_a_page_and_shows_link_problems():
    page = create({"code": ["%%%"]})
    assert page is not None
    explorer = Explorer({"code": ["%%%"]})
    assert explorer.alert.visible and "broken" in explorer.alert.object


def test_sessions_are_isolated():
    one, two = Explorer({"example": "accumulate"}), Explorer({"example": "accumulate"})
    one.store.load("import torch\nx = torch.tensor(1.0)\nprint(x)\n")
    one.store.goto(0)
    one.store.select("t0")
    assert two.store.source != one.store.source and two.store.selected is None
    assert two.program.editor.value == two.store.source
    assert "tensor(1.)" not in two.console.box.text


def test_failed_rerun_keeps_the_last_good_graph():
    explorer = Explorer({"example": "accumulate"})
    graph = explorer.store.graph
    explorer.store.load("import torch\nx = (\n")
    assert explorer.store.graph is graph
    assert "SyntaxError" in explorer.console.box.text
    assert explorer.program.editor.annotations and explorer.program.editor.annotations[0]["type"] == "error"


def test_a_program_the_wall_stops_shows_why_at_its_line_and_the_next_one_runs(monkeypatch):
    import functools

    from app import timeline
    from engine.trace.isolated import run_isolated

    monkeypatch.setattr(timeline, "run_isolated", functools.partial(run_isolated, seconds=1.0))
    explorer = Explorer({"example": "accumulate"})
    graph = explorer.store.graph
    explorer.store.load("a = [0]\nfor i in range(40):\n    a = [a, a]\ns = str(a)\n")
    assert explorer.store.graph is graph
    assert "line 4: BudgetExceeded: the program ran longer than 1 s and was stopped" in explorer.console.box.text
    assert explorer.program.editor.annotations[0]["row"] == 3
    explorer.store.load("import torch\nx = torch.tensor(2.0)\nprint(x * 3)\n")
    assert "tensor(6.)" in explorer.console.box.text and explorer.store.run_error is None


def test_a_failed_run_is_what_the_controls_and_console_tell_of():
    explorer = Explorer({"example": "accumulate", "step": "end"})
    store, controls = explorer.store, explorer.controls
    graph, k = store.graph, store.k
    store.load('import torch\nprint("before")\nundefined_name\n')
    assert store.graph is graph and store.failed is not None
    events = len(store.failed.events)
    assert "Line 3: NameError" in controls.caption.text and "last program that ran" in controls.caption.text
    assert f"step <b>{events}</b> / {events}" in controls.counter.text
    assert controls.player.disabled and (controls.player.end, controls.player.value) == (events - 1, events - 1)
    assert "before\n" in explorer.console.box.text and "NameError" in explorer.console.box.text
    store.step(-1)
    assert store.k == k, "the graph kept is not stepped while the controls tell of the failed run"
    store.load("import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * 3).backward()\n", step="end")
    assert store.failed is None and not controls.player.disabled and "failed" not in controls.caption.text
