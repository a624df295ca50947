"""The conformance corpus (tests/corpus/programs) through the explorer's runner, engine.trace.run: the
timeline's output is what PyTorch prints (difftest.printed_alike), and the timeline ends without an error
event unless PyTorch raised, in which case it ends with PyTorch's error.

Programs that fail today are strict xfails naming what blocks them (tests/corpus/gaps.py RUNNER_GAPS: the
guard's refusals first, then the engine's gaps).
"""
from __future__ import annotations

import pytest
import torch  # noqa: F401 - the oracle must be there (tests/requirements-oracle.txt)

from engine.trace import run
from tests.corpus.corpus import PROGRAMS, RUNNER_LIMITS
from tests.corpus.gaps import RUNNER_GAPS
from tests.engine.difftest import printed_alike, run_source, with_known_gaps
from tests.trace.torch_side import mask


@pytest.mark.parametrize("slug", with_known_gaps(sorted(PROGRAMS), RUNNER_GAPS))
def test_runner_records_what_pytorch_prints(slug):
    want = run_source(PROGRAMS[slug], "torch").masked()
    timeline = run(PROGRAMS[slug], **RUNNER_LIMITS)  # a generous wall-clock budget: see RUNNER_LIMITS
    got = mask(timeline.output)
    assert printed_alike(got, want.stdout), f"runner:\n{got}\n\ntorch:\n{want.stdout}"
    error = (timeline.error["type"], timeline.error["message"]) if timeline.error else None
    assert error == want.exc
