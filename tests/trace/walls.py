"""Running a program the way test_walls.py measures it: run() in a forked child of the test (so that a crash
or a runaway the guard misses cannot take the test run down), with the child's CPU time and memory growth;
and run_isolated from the test process, with its child's CPU time and the wall-clock time."""

from __future__ import annotations

import json
import os
import resource
import select
import time

from engine.trace import run
from engine.trace.isolated import forked, run_isolated

# The budgets the corpus runs under: short, so that 200 runaways take minutes, not hours.
# (one tensor at most the guard's own 1,000,000 elements, not the runner's 4,000,000: the sizing entries are written
# against it)
LIMITS = {"max_seconds": 0.5, "max_memory_mb": 200, "max_elements": 1_000_000}
ISOLATED = {"seconds": 1.5, "memory_mb": 400}
SAFETY_SECONDS = 30  # a child of run() still running after this is killed (and the test fails)

# The next program: it shows grad mode, print options, the random generators and a backward pass.
PROBE = """
import torch
import random
import numpy as np
x = torch.ones(2, requires_grad=True)
y = (x * torch.tensor([1.0, 2.0])).sum()
y.backward()
print(x.grad, torch.is_grad_enabled(), torch.rand(2), torch.tensor([1 / 3, 1e-5]))
print(random.random(), np.random.rand(1), torch.nn.Linear(1, 1))
"""


def _statm_mb(field):
    with open("/proc/self/statm") as f:
        return int(f.read().split()[field]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def in_child(source, limits=LIMITS, probe=PROBE):
    """run(source, **limits) then run(probe) in a forked child: (outcome dict or None, CPU seconds, memory
    growth in MB, the signal that killed the child or 0). The outcome holds the program's error event and the
    probe's timeline JSON."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        status = 1
        try:
            forked()
            os.close(read)
            start = _statm_mb(1)
            cap = int((_statm_mb(0) + 2048) * 2**20)  # a safety net for the machine, far above the budget's cap
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            timeline = run(source, **limits)
            outcome = {"error": timeline.error, "start_mb": start, "events": len(timeline.events),
                       "probe": run(probe).to_json() if probe else None}
            data = json.dumps(outcome).encode()
            view = memoryview(data)
            while view:
                view = view[os.write(write, view):]
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    chunks, deadline = [], time.monotonic() + SAFETY_SECONDS
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read], [], [], left)[0]:
                os.kill(pid, 9)
                break
            chunk = os.read(read, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read)
    _, status, usage = os.wait4(pid, 0)
    signal = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    outcome = json.loads(b"".join(chunks)) if chunks and not signal else None
    growth = usage.ru_maxrss / 1024 - outcome["start_mb"] if outcome else None
    return outcome, usage.ru_utime + usage.ru_stime, growth, signal


def isolated(source, **kwargs):
    """run_isolated(source): (timeline, wall-clock seconds, CPU seconds of its child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    timeline = run_isolated(source, **{**ISOLATED, **LIMITS, **kwargs})
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return timeline, wall, cpu
