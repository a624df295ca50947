"""Deep links and the builder's generated lines (pure functions)."""

import pytest

from app import builder_code as code
from app import links
from app.examples import BY_SLUG, DEFAULT, EXAMPLES
from app.page import Explorer


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


def test_the_builders_output_is_the_newest_tensor():
    explorer = Explorer({})
    builder = explorer.builder
    builder.clear.clicks += 1
    for name in ("a", "b"):
        builder.leaf_name.value = name
        builder.add_leaf.clicks += 1
    assert builder.output.value == "b"
    builder.op_a.value, builder.op_b.value, builder.op_result.value = "a", "b", "c"
    builder.add_op.clicks += 1
    assert builder.output.options[-1] == "c" and builder.output.value == "c"


def test_builder_lines():
    assert code.leaf_line("a", "2") == "a = torch.tensor(2.0, requires_grad=True)"
    assert code.leaf_line("v", "1, -2.5", False) == "v = torch.tensor([1.0, -2.5])"
    assert code.leaf_line("m", shape="2,3", fill="0.5") == "m = torch.full((2, 3), 0.5, requires_grad=True)"
    assert code.op_line("c", "×", "a", "b") == "c = a * b"
    assert code.op_line("c", "pow", "a", "2") == "c = a ** 2.0"
    assert code.op_line("d", "tanh", "c") == "d = c.tanh()"
    assert code.op_line("", code.INDEX_ASSIGN, "y", "a", "0") == "y[0] = a"
    assert code.backward_lines("d", True, ["a"]) == ["d.backward()", "print(a.grad)"]
    assert code.backward_lines("v", False, [])[0] == "v.backward(gradient=torch.ones_like(v))"
    with pytest.raises(ValueError):
        code.leaf_line("__class__", "1")
    with pytest.raises(ValueError):
        code.leaf_line("a", "__import__('os')")
    assert code.append("", ["a = 1"]).startswith("import torch\n")
