"""A child of the server's wall dies with the process that forked it (PR_SET_PDEATHSIG), and carries a CPU-time
limit of its own: killing a server leaves no program running."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.trace.isolated import MARGIN, SEND_SECONDS, run_isolated

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

ROOT = Path(__file__).resolve().parents[2]
PARENT = """
import sys, threading
from engine.trace.isolated import run_isolated
print("ready", flush=True)
# as under `panel serve`: the child is forked, and awaited, in a thread of the parent's; its program sits in one
# C call (no line of it reports to the parent any more)
source = "a = [0]\\nfor i in range(40):\\n    a = [a, a]\\ns = str(a)\\n"
threading.Thread(target=run_isolated, args=(source,), kwargs={"max_seconds": 60}).start()
"""


def children(pid):
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            found += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except FileNotFoundError:  # the thread ended between the listing and the read
            continue
    return found


def alive(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_killing_the_parent_leaves_no_child():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert parent.stdout.readline().strip() == b"ready"
        end = time.monotonic() + 20
        while not children(parent.pid) and time.monotonic() < end:
            time.sleep(0.05)
        (child,) = children(parent.pid)
        time.sleep(0.3)
        assert alive(child)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        end = time.monotonic() + 3
        while alive(child) and time.monotonic() < end:
            time.sleep(0.05)
        assert not alive(child), "the program outlived the process that ran it"
    finally:
        parent.kill()


def test_the_child_has_a_cpu_time_limit_of_its_own():
    stop = threading.Event()
    runs = threading.Thread(target=run_isolated, args=("while True:\n    pass\n",),
                            kwargs={"max_seconds": 5, "stop": stop})
    before = set(children(os.getpid()))
    runs.start()
    try:
        end = time.monotonic() + 10
        while not set(children(os.getpid())) - before and time.monotonic() < end:
            time.sleep(0.02)
        (child,) = set(children(os.getpid())) - before
        time.sleep(0.2)
        limits = Path(f"/proc/{child}/limits").read_text()
    finally:
        stop.set()
        runs.join()
    (line,) = [row for row in limits.splitlines() if row.startswith("Max cpu time")]
    soft, hard = line.split()[3:5]
    assert (int(soft), int(hard)) == (5 + MARGIN + SEND_SECONDS + 2, 5 + MARGIN + SEND_SECONDS + 3)
