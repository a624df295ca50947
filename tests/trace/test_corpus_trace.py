"""The conformance corpus (tests/corpus/programs) through the explorer's runner, engine.trace.run: the
timeline's output is what PyTorch prints (difftest.printed_alike), and the timeline ends without an error
event unless PyTorch raised, in which case it ends with PyTorch's error.

Programs that fail today are strict xfails naming what blocks them (tests/corpus/gaps.py RUNNER_GAPS: the
guard's refusals first, then the engine's gaps).
"""
from __future__ import annotations

import pytest
import torch

from engine.trace import run
from tests.corpus.corpus import PROGRAMS, RUNNER_LIMITS, TESTED, reset_globals
from tests.corpus.gaps import CPU_DEPENDENT, DRIFT_ULPS, RUNNER_GAPS
from tests.engine.difftest import printed_alike, run_source
from tests.trace.torch_side import mask

# Always the runner on the engine (ENGINE_UNDER_TEST does not apply), so the known gaps always apply.
CASES = [pytest.param(slug, marks=[pytest.mark.xfail(reason=RUNNER_GAPS[slug], strict=slug not in CPU_DEPENDENT)]
                      if slug in RUNNER_GAPS else []) for slug in sorted(TESTED)]


@pytest.fixture(autouse=True)
def _globals_reset():
    yield
    reset_globals(torch)  # the runner restores the engine's own state


@pytest.mark.parametrize("slug", CASES)
def test_runner_records_what_pytorch_prints(slug):
    want = run_source(PROGRAMS[slug], "torch").masked()
    timeline = run(PROGRAMS[slug], **RUNNER_LIMITS)  # a generous wall-clock budget: see RUNNER_LIMITS
    got = mask(timeline.output)
    assert printed_alike(got, want.stdout, DRIFT_ULPS.get(slug, 4)), f"runner:\n{got}\n\ntorch:\n{want.stdout}"
    error = (timeline.error["type"], timeline.error["message"]) if timeline.error else None
    assert error == want.exc
