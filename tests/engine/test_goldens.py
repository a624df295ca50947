"""The engine prints what real PyTorch printed for every learner program (recorded in golden_programs.json).
This is the engine suite's check that also runs inside Pyodide, where PyTorch does not exist."""
from __future__ import annotations

import sys

import goldens
import pytest
from difftest import ENGINE_NAME, run_source

from tests.programs import PROGRAMS

GOLDEN = goldens.load()


@pytest.mark.parametrize("slug", sorted(PROGRAMS))
def test_engine_prints_what_pytorch_printed(slug):
    want = GOLDEN[slug]
    got = run_source(PROGRAMS[slug], ENGINE_NAME).masked()
    assert got.stdout == want["stdout"]
    assert [list(w) for w in got.warnings] == want["warnings"]
    assert (list(got.exc) if got.exc else None) == want["exc"]


@pytest.mark.skipif(sys.platform == "emscripten", reason="needs real PyTorch")
def test_goldens_are_what_pytorch_prints_now():
    assert goldens.record() == GOLDEN, "rerun: .venv-torch/bin/python tests/engine/goldens.py"
