"""`%load_ext autograd_explorer` and `%%explore` in IPython's own shell (no browser, no kernel): the cell runs
through the runner's child process, its lines are the cell's, its options apply; `import engine as torch` in a
notebook's shell displays tensors as torch prints them."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell

from app import timeline as tl
from autograd_explorer.magic import Explored

PROGRAM = """import torch
x = torch.tensor(3.0, requires_grad=True)
y = x * x + 2 * x
y.backward()
print(x.grad)
"""


@pytest.fixture(scope="module")
def shell():
    sh = InteractiveShell.instance()
    sh.run_line_magic("load_ext", "autograd_explorer")
    yield sh
    InteractiveShell.clear_instance()


def explore(shell, line: str, cell: str) -> Explored:
    result = shell.run_cell(f"%%explore {line}\n{cell}")
    assert result.success, result.error_in_exec or result.error_before_exec
    return result.result


def test_the_cell_runs_in_the_walled_child_and_opens_where_asked(shell, monkeypatch):
    calls = []
    real = tl.run_isolated

    def spy(source, **limits):
        calls.append(limits)
        return real(source, **limits)

    monkeypatch.setattr(tl, "run_isolated", spy)
    shown = explore(shell, "--step end", PROGRAM)
    store = shown.store
    assert store.source == "# %%explore --step end\n" + PROGRAM  # line n of the program is line n of the cell
    assert calls == [{}]  # the served default budget
    assert store.timeline.output == "tensor(8.)\n"
    assert store.k == store.last and store.timeline.events[store.k]["kind"] == "print"
    kinds = {e["kind"] for e in store.timeline.events}
    assert {"leaf", "op", "backward", "node", "grad"} <= kinds
    assert "text/html" in shown._repr_mimebundle_()[0]


def test_a_runaway_stops_at_its_budget_and_a_syntax_error_at_its_cell_line(shell):
    runaway = explore(shell, "--budget 0.5", "n = 0\nwhile True:\n    n += 1\n").store.timeline.events[-1]
    assert runaway["type"] == "BudgetExceeded" and "longer than 0.5 s" in runaway["message"]
    assert runaway["line"] in (3, 4)  # the loop's lines in the cell (its first line is the magic's)
    broken = explore(shell, "", "x = 1\ny = (\n").store.timeline.events
    assert [(e["kind"], e["type"], e["line"]) for e in broken] == [("error", "SyntaxError", 3)]


def test_options_are_checked(shell):
    for line in ("--budget 0", "--budget -1", "--steps 3"):
        result = shell.run_cell(f"%%explore {line}\nx = 1\n")
        assert not result.success


def test_the_engine_as_torch_in_a_notebook_shell_displays_as_torch(shell):
    shell.run_cell("import engine as torch\nx = torch.tensor([1., 2.], requires_grad=True)\ny = x * 2")
    y = shell.user_ns["y"]
    data, _ = shell.display_formatter.format(y)
    assert data == {"text/plain": "tensor([2., 4.], grad_fn=<MulBackward0>)"}
    data, _ = shell.display_formatter.format(shell.user_ns["torch"].nn.Linear(2, 3))
    assert data == {"text/plain": "Linear(in_features=2, out_features=3, bias=True)"}
