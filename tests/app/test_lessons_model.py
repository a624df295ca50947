"""The lesson model and its run: Markdown and notebooks read into cells, the blocks run as one program through
the runner, each block's output apart, failing blocks told of while the rest runs, stored outputs compared."""

import json

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from app.lessons import model, notebook, program, questions
from app.lessons.run import run_lesson
from app.timeline_check import checked

MD = '''# Accumulating

Prose before.

```python
import torch
x = torch.ones(1, requires_grad=True); x
```

```predict
x.grad after backward 1
why
```

Between, with a shell block that is prose:

```bash
pip install torch
```

```python
y = x**2
z = x**3
y.backward()
x.grad
```

```python
!pip install torch
%matplotlib inline
z.backward()
print(x.grad)
x.grad.zero_();
```

```python
y.backward()
print("not reached")
```

```python
print("still runs", x.grad)
def f(:
```

```python
print("end")
```
'''


@pytest.fixture(scope="module")
def md_run():
    lesson = model.from_markdown(MD, "acc")
    return lesson, run_lesson(lesson)


def test_markdown_cells_and_questions(md_run):
    lesson, _ = md_run
    assert lesson.title == "Accumulating"
    assert [c.kind for c in lesson.cells] == ["prose", "code", "prose", "code", "code", "code", "code", "code"]
    assert "pip install torch" in lesson.cells[2].text and "predict" not in lesson.cells[2].text
    [(block, q)] = lesson.questions()
    assert block == 1 and (q.what, q.name, q.call, q.why) == ("grad", "x", 1, True)


def test_blocks_run_as_one_program(md_run):
    _, r = md_run
    outs = [b.output for b in r.blocks]
    assert outs[:3] == ["tensor([1.], requires_grad=True)\n", "tensor([2.])\n", "tensor([5.])\n"]
    assert outs[-1] == "end\n"
    events = r.timeline.events
    assert [events[b.start]["block"] for b in r.blocks] == list(range(6))
    assert all(events[i]["kind"] != "block" for b in r.blocks for i in range(b.start + 1, b.end))
    assert r.block_at(r.blocks[2].start + 1) == 2 and r.block_at(0) == 0
    assert "\x1e" not in r.timeline.output and r.timeline.output == "".join(outs)
    assert r.timeline.source.startswith("# ── block 1 ──\nimport torch\n")
    assert checked(r.timeline.to_json(), r.timeline.source).events == events


def test_what_does_not_run_is_told_and_the_rest_runs(md_run):
    _, r = md_run
    ipy, failing, broken = r.blocks[2], r.blocks[3], r.blocks[4]
    assert ipy.notes == ["line 1: `!pip install torch` is a shell command for IPython: not run",
                         "line 2: `%matplotlib inline` is an IPython magic: not run"]
    assert failing.error.startswith("RuntimeError: Trying to backward through the graph a second time")
    assert failing.error.endswith("(line 1)") and failing.output == ""
    assert broken.notes == ["SyntaxError: invalid syntax (line 2 of the block): the block is not run"]
    assert r.timeline.error is None


def test_shown_values_as_a_notebook_shows_them():
    p = program.compose(model.from_markdown("```python\nx = 1; x\n```\n```python\nprint(2)\n```\n"
                                            "```python\n(1,\n 2)\n```\n```python\n3;\n```", "s"))
    lines = p.source().splitlines()
    assert lines[1] == "x = 1; (_ := (x)) is None or print(repr(_))"
    assert lines[3] == "(_ := (print(2))) is None or print(repr(_))"  # None is not shown
    assert lines[5:7] == ["(_ := ((1,", " 2))) is None or print(repr(_))"]
    assert lines[8] == "3;"
    assert p.display().splitlines()[1] == "x = 1; x"


def _notebook():
    nb = new_notebook(metadata={"title": "A notebook"})
    nb.cells = [
        new_markdown_cell("# Grad of a square\n\n```predict\nx.grad\n```"),
        new_code_cell("import torch\nx = torch.ones(1, requires_grad=True)\nx",
                      outputs=[new_output("execute_result", data={"text/plain": "tensor([ 1.])"},
                                          execution_count=1)]),
        new_code_cell("(x * x).backward()\nprint(x.grad)",
                      outputs=[new_output("stream", name="stdout", text="tensor([2.])\n")]),
        new_code_cell("%timeit x + 1\nprint('ok')", outputs=[new_output("display_data", data={"image/png": "AA=="})]),
    ]
    return nbformat.writes(nb)


def test_notebook_read_with_nbformat_and_as_plain_json(monkeypatch):
    text = _notebook()
    with_nbformat = notebook.from_notebook(text, "nb")
    monkeypatch.setattr(notebook, "_nbformat", lambda: None)  # as in Pyodide
    assert notebook.from_notebook(text, "nb") == with_nbformat
    assert notebook.from_notebook(json.dumps(json.loads(text), indent=None), "nb") == with_nbformat
    assert with_nbformat.title == "A notebook" and with_nbformat.kind == "notebook"
    assert [c.number for c in with_nbformat.code] == [2, 3, 4]
    assert with_nbformat.code[0].stored == "tensor([ 1.])\n"
    assert with_nbformat.code[2].stored is None and with_nbformat.code[2].stored_note == "it also stored a picture"
    assert with_nbformat.cells[0].questions == (questions.Question("grad", name="x"),)
    with pytest.raises(notebook.NotebookError):
        notebook.from_notebook('{"nbformat": 4, "cells": [{"cell_type": "code"}]}', "bad")


def test_notebook_outputs_compared_per_cell():
    r = run_lesson(notebook.from_notebook(_notebook(), "nb"))
    first, second, third = r.blocks
    assert first.output == "tensor([1.], requires_grad=True)\n" and first.differs  # stored by an old PyTorch
    assert second.output == "tensor([2.])\n" and not second.differs
    assert third.notes == ["line 1: `%timeit x + 1` is an IPython magic: not run"] and third.output == "ok\n"
    assert r.timeline.source.startswith("# ── cell 2 ──\n")


def test_questions_syntax():
    assert questions.parse("steps") == questions.Question("steps")
    assert questions.parse("w.grad after backward 3\nprompt: What now?").prompt == "What now?"
    for bad in ("", "x.grad after backward 0", "x after", "x.grad\nmaybe"):
        with pytest.raises(questions.QuestionError):
            questions.parse(bad, line=4)


def test_questions_ask_at_their_steps():
    from app.lessons import asking, library

    lesson = library.builtin("grad-accumulates")
    r = run_lesson(lesson)
    asks, why, steps_of = asking.lesson_asks(lesson, r)
    events = r.timeline.events
    asked = [(r.block_at(at), events[spec[1]]["after"]) for at, specs in asks.items() for spec in specs]
    assert asked == [(2, [2.0]), (3, [5.0]), (4, [3.0]), (7, [3.0])]
    assert {r.block_at(at) for at in why} == {3, 7}
    assert steps_of[(3, "x.grad after backward 1")] == [at for at in asks if r.block_at(at) == 3]
    first = next(iter(asks))
    right, wrong = asking.pm.Verdict("2", True), asking.pm.Verdict("3", False)
    assert asking.marks(steps_of, {first: (right,)}) == {(2, "x.grad after backward 1"): "right"}
    assert asking.marks(steps_of, {first: (wrong,)}) == {(2, "x.grad after backward 1"): "wrong"}
    steps = asking._asked(events, asking.pm.asks(events), r.blocks[2].start, r.blocks[2].end,
                          questions.Question("steps"))
    assert sorted(s[0] for specs in steps.values() for s in specs) == ["grad", "send"]  # to x; x.grad written
