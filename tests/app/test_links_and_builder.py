"""Deep links, and the canvas builder driven through its board's actions."""

import random

import pytest

from app import timeline as tl
from app.page import Explorer
from app.program import links
from app.program.examples import BY_SLUG, DEFAULT, EXAMPLES


def test_code_link_round_trips_unicode():
    source = "import torch\n# ∂y/∂x — naïve\nx = torch.tensor(1.0)\n"
    link = links.parse({"code": [links.encode_code(source).encode()], "step": [b"end"]})
    assert link.source == source and link.step == "end" and link.problem is None


def test_example_link_and_step_number_is_the_counters():
    link = links.parse({"example": "vector", "step": "4"})
    assert link.source == BY_SLUG["vector"].source and link.step == 3 and link.example == "vector"
    explorer = Explorer({"example": "vector", "step": "4"})
    assert "step <b>4</b>" in explorer.controls.counter.text
    assert links.query_string(explorer.store.source, explorer.store.k, "vector") == "example=vector&step=4"
    assert links.parse({"step": "0"}).step == -1 and "before the start" in links.parse({"step": "-1"}).problem


@pytest.mark.parametrize("query", [{"code": "%%%not-base64"}, {"code": "_w"}, {"example": "nope"}])
def test_malformed_link_falls_back_to_default_with_a_message(query):
    link = links.parse(query)
    assert link.source == BY_SLUG[DEFAULT].source
    assert "default example" in link.problem


def test_bad_step_is_reported_but_program_kept():
    link = links.parse({"example": "vector", "step": "soon"})
    assert link.source == BY_SLUG["vector"].source and link.step is None and "step" in link.problem


def test_share_query_uses_slug_only_for_unchanged_examples():
    ex = EXAMPLES[2]
    assert links.query_string(ex.source, 3, ex.slug) == f"example={ex.slug}&step=4"
    q = links.query_string(ex.source + "print(1)\n", "end", ex.slug)
    assert q.startswith("code=") and links.parse(dict(p.split("=") for p in q.split("&"))).step == "end"


def _act(builder, **action) -> None:
    """What the canvas board reports when a person clicks or drags on it."""
    builder.board.action = {**action, "n": len(builder.store.source) + random.random()}


def test_the_canvas_builder_writes_the_program_and_reads_it_back():
    explorer = Explorer({})
    builder, store = explorer.builder, explorer.store
    assert builder.graph is None and "line" in builder.board.why  # the default example is not a canvas
    builder.clear.clicks += 1
    for op in ("leaf", "leaf", "×"):
        _act(builder, kind="add", op=op)
    assert "# c = ? * ?" in store.source and tl.error_of(store.timeline) is None
    _act(builder, kind="connect", source="a", target="c", port=0)
    _act(builder, kind="connect", source="b", target="c", port=1)
    _act(builder, kind="select", name="a")
    builder.value.value = "2"
    _act(builder, kind="select", name="c")
    builder.backward.clicks += 1
    assert store.source.endswith("c = a * b\nc.backward()\nprint(a.grad)\nprint(b.grad)\n")
    assert store.k == store.next_call_step(-1) - 1  # just before backward: the player steps through it
    assert [n["formula"] for n in builder.board.view["nodes"]] == ["a = 2.0", "b = 1.0", "c = a * b"]
    explorer.program.editor.value = store.source.replace("c = a * b", "c = a + b.sin()")
    explorer.program.run.clicks += 1
    assert builder.graph is None and "line 5" in builder.board.why  # the palette has no sin
    explorer.program.editor.value = store.source.replace("c = a + b.sin()", "c = a - b.exp()")
    explorer.program.run.clicks += 1
    assert [n["formula"] for n in builder.board.view["nodes"]][2:] == ["b.exp()", "c = a - b.exp()"]
    assert builder.board.why == ""
    _act(builder, kind="delete", name="a")
    assert "# c = ? - b" in store.source and "backward" in store.source
