"""What the explorer teaches from the timeline, against real PyTorch: the node a failing backward stopped at
(an in-place change or freed buffers), and a broadcast input's grad before the engine sums it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from app.program.examples import EXAMPLES
from engine.trace import run
from tests.programs import PROGRAMS
from tests.trace.corpus import TRACE_PROGRAMS
from tests.trace.torch_side import failing_node

ALL = {**PROGRAMS, **TRACE_PROGRAMS, **{e.slug: e.source for e in EXAMPLES}}


def _failing(timeline):
    error = timeline.error
    if error is None or error.get("node") is None:
        return None
    made = next(e for e in timeline.events if e["kind"] in ("leaf", "op", "inplace") and e["id"] == error["node"])
    return made["grad_fn"]


@pytest.mark.parametrize("slug", sorted(ALL))
def test_the_node_a_backward_failed_at_is_torchs(slug):
    assert _failing(run(ALL[slug])) == failing_node(ALL[slug])


def test_some_programs_fail_inside_a_node():
    failing = [slug for slug in ("pitfall-inplace-saved", "pitfall-backward-twice") if _failing(run(ALL[slug]))]
    assert failing == ["pitfall-inplace-saved", "pitfall-backward-twice"]


BROADCAST = """
import torch
w = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
b = torch.tensor([[0.5], [-0.5]], requires_grad=True)
c = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
y = ((w + b) * c).sum()
y.backward()
"""


def test_unreduced_grads_are_torchs_before_the_broadcast_sum():
    """The grad an input gets at the output's shape is torch's grad of that input expanded to the output's
    shape (made a leaf), and summed over the broadcast dims it is the input's grad."""
    timeline = run(BROADCAST)
    ns: dict = {}
    exec(BROADCAST, ns)
    w, b, c = (ns[n].detach() for n in "wbc")
    full = [t.expand(2, 3).clone().requires_grad_() for t in (b, c)]
    ((w + full[0]) * full[1]).sum().backward()
    want = {"b": full[0].grad.tolist(), "c": full[1].grad.tolist()}
    names = {e["id"]: e.get("name") for e in timeline.events if e["kind"] in ("leaf", "op", "inplace")}
    seen = {}
    for ev in timeline.events:
        for sent in ev.get("grads_out") or ():
            if "unreduced" in sent:
                seen[names[sent["to"]]] = sent["unreduced"]
                assert torch.tensor(sent["unreduced"]).sum_to_size(np.shape(sent["value"])).tolist() == sent["value"]
    assert seen == want
