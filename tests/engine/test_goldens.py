"""The engine prints what real PyTorch printed for every learner program (recorded in golden_programs.json).
This is the engine suite's check that also runs inside Pyodide, where PyTorch does not exist. Numbers printed
at full precision may differ in their last bits (difftest.printed_alike): the recording was made on one CPU,
and torch's float32 bits depend on the CPU."""
from __future__ import annotations

import sys

import goldens
import pytest
from difftest import ENGINE_NAME, printed_alike, run_source

from tests.programs import PROGRAMS

GOLDEN = goldens.load()


@pytest.mark.parametrize("slug", sorted(PROGRAMS))
def test_engine_prints_what_pytorch_printed(slug):
    want = GOLDEN[slug]
    got = run_source(PROGRAMS[slug], ENGINE_NAME).masked()
    assert printed_alike(got.stdout, want["stdout"]), f"engine:\n{got.stdout}\nrecorded:\n{want['stdout']}"
    assert [list(w) for w in got.warnings] == want["warnings"]
    assert (list(got.exc) if got.exc else None) == want["exc"]


@pytest.mark.skipif(sys.platform == "emscripten", reason="needs real PyTorch")
def test_goldens_are_what_pytorch_prints_now():
    now = goldens.record()
    assert sorted(now) == sorted(GOLDEN), "rerun: .venv-torch/bin/python tests/engine/goldens.py"
    for slug, want in GOLDEN.items():
        got = now[slug]
        stale = "stale: rerun .venv-torch/bin/python tests/engine/goldens.py"
        assert printed_alike(got["stdout"], want["stdout"]), f"{slug} {stale}"
        assert (got["warnings"], got["exc"]) == (want["warnings"], want["exc"]), f"{slug} {stale}"
