"""The built-in lessons against real PyTorch 2.13: every block prints what torch prints (run as one program, a
block's last value shown as a notebook shows it), and nothing fails that should not."""

from __future__ import annotations

import pytest
import torch  # noqa: F401 - the oracle must be there (tests/requirements-oracle.txt)

from app.lessons import library
from app.lessons.run import run_lesson
from tests.engine.difftest import ADDRESS, run_source


def torch_blocks(program) -> list[str]:
    """What each block prints under real torch (the markers split the output; addresses masked)."""
    outcome = run_source(program.source(), "torch")
    assert outcome.exc is None, outcome.exc
    parts = outcome.stdout.split(f"\x1e{program.nonce}:")[1:]
    return [ADDRESS.sub("0x…", part[len(str(i)):]) for i, part in enumerate(parts)]


@pytest.mark.parametrize("slug", library.SLUGS)
def test_builtin_lesson_prints_what_torch_prints(slug):
    lesson = library.builtin(slug)
    engine = run_lesson(lesson)
    expected = torch_blocks(engine.program)
    assert len(expected) == len(engine.blocks)
    for b, want in zip(engine.blocks, expected):
        assert not b.error and not [n for n in b.notes if "IPython" not in n], (b.number, b.error, b.notes)
        assert ADDRESS.sub("0x…", b.output) == want, f"block {b.number + 1} (cell {b.cell})"
        if b.stored is not None:  # the notebook's stored outputs are torch 2.13's, but for addresses
            assert b.differs == (ADDRESS.search(b.stored) is not None)
