"""Stepping costs nothing noticeable: state_at on a timeline of over 1,000 graph nodes, at any step,
forwards or backwards, stays well under 10 ms a call. Measured in CPU time of this process, so that other
processes on a loaded machine do not count."""

from __future__ import annotations

import random
import time

from engine.trace import run, state_at

BIG = """
import torch

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x
for i in range(350):
    y = (y * 0.99 + 0.01).tanh()
loss = y.sum()
loss.backward()
print(x.grad)
"""


def test_state_at_is_fast_on_a_thousand_node_timeline():
    timeline = run(BIG)
    assert timeline.error is None
    n = len(timeline.events)
    nodes = len(state_at(timeline, n - 1)["nodes"])
    assert nodes > 1000
    steps = random.Random(0).sample(range(-1, n), 200) + list(range(n - 1, n - 101, -1))
    t0 = time.process_time()
    for k in steps:
        state_at(timeline, k)
    per_call = (time.process_time() - t0) / len(steps)
    assert per_call < 0.010, f"{per_call * 1000:.1f} ms per state_at call on {nodes} nodes"
