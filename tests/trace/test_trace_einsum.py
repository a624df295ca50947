"""A program using torch.einsum through the runner: it runs as on PyTorch (tests/trace/corpus.py
trace_einsum_attention checks its output, error and node order), and its graph is named as the user reads it:
the einsum's result after its variable, the steps ATen takes to compute it as the PyTorch calls they are."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from engine.trace import run  # noqa: E402
from tests.trace.torch_side import run_torch  # noqa: E402

PROGRAM = """
import torch
a = torch.tensor([[1.0, 2.0, 0.5], [3.0, -1.0, 2.0]], requires_grad=True)
b = torch.tensor([[0.5, 1.0], [2.0, -1.0], [1.0, 1.0]], requires_grad=True)
c = torch.einsum("ij,jk->ik", a, b)
d = torch.einsum("ii->i", c)
d.sum().backward()
print(c, d, a.grad, b.grad)
"""


def test_einsum_program_runs_and_names_its_nodes():
    timeline = run(PROGRAM)
    want_out, want_exc, want_nodes = run_torch(PROGRAM)
    assert timeline.error is None and want_exc is None
    assert timeline.output == want_out
    ops = [ev for ev in timeline.events if ev["kind"] == "op"]
    by_line = {line: [ev for ev in ops if ev["line"] == line] for line in (5, 6)}
    assert [ev["op"] for ev in by_line[5]] == ["unsqueeze", "permute", "unsqueeze", "permute", "permute", "view",
                                              "permute", "view", "bmm", "view", "permute", "view"]
    assert by_line[5][0]["name"] == "a.unsqueeze(2)" and by_line[5][-1]["name"] == "c"
    assert [(ev["op"], ev["name"]) for ev in by_line[6]] == [
        ("diagonal", "c.diagonal()"), ("permute", "c.diagonal().permute(0)"), ("permute", "d")]
    ran = [ev["name"] for ev in timeline.events if ev["kind"] == "node" and ev["ran"]]
    assert ran == [names for names in want_nodes if names][0]
    assert "DiagonalBackward0" in ran and "BmmBackward0" in ran
