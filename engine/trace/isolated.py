"""run_isolated(source): run() in a forked child process behind a wall the program cannot climb: a hard time
limit, an address-space cap, and a cap on what it sends back.

The guard stops what it can see without threads or signals (so it also works in Pyodide); what it cannot
see — one C-level operation it cannot size, a crash of the interpreter (a C stack overflowed) — the wall
stops. Each program gets a new child (forked from the server: the engine is loaded already, a fork starts in
milliseconds), so a child that was killed or crashed leaves nothing behind and the next program runs normally.

What the parent reports, as the timeline's error event:
- time: the child ran past `seconds` (it is asked for its Python traceback, through faulthandler, then
  killed): "the program ran longer than 40 s and was stopped" (its 30 s budget and 10 s to send its
  timeline), at the program's line;
- memory: an allocation failed against the cap: "the program needed more memory than its limit of 1,024 MB",
  at its line, with what was recorded before; or the child died of it;
- output size: the timeline's JSON is bigger than `output_mb`: the child sends the events that fit and says
  so (the parent reads at most `output_mb` and stops a child that would send more);
- a crash: the child died of a signal (SIGSEGV: a C stack overflow), at the line faulthandler saw.
In Pyodide, which has no processes, run_isolated is run() itself. The browser's wall is its program worker
(static/wall.mjs): a Web Worker that runs `browser_json` and is terminated when it runs past BROWSER_SECONDS
+ BROWSER_MARGIN, or takes more than BROWSER_SEND_MARGIN to send its timeline once its budget ended, or dies
(its wasm memory is capped at BROWSER_MEMORY_MB); `stopped` is the timeline the app then shows.
"""
from __future__ import annotations

import gc
import json
import os
import re
import signal
import struct
import sys
import time
import warnings

try:  # POSIX: Pyodide has no processes (nor `resource`), and there run_isolated is run()
    import faulthandler
    import resource
    import select
except ImportError:
    faulthandler = resource = select = None

from .runner import LIMITS, run
from .timeline import Timeline

BROWSER_SECONDS = 15.0  # in Pyodide: a 2,000-iteration training script still ends (2-3x slower than here)
BROWSER_MARGIN = 1.0  # past its budget, a program still running (one C call the guard cannot stop) is stopped
BROWSER_SEND_MARGIN = 5.0  # once its budget has ended: the program worker's time to fit and send its timeline
BROWSER_MEMORY_MB = 1024  # the program worker's whole wasm memory (Pyodide, numpy and the engine take ~60 MB)
_HEADER = struct.Struct("!Q")  # the length of the JSON that follows
_MEMORY_EXIT = 3  # the child's exit status when it ran out of memory outside the program
_LINE = re.compile(r'File "<program>", line (\d+)')


def run_isolated(source, *, seconds=None, memory_mb=1024, output_mb=32, **limits):
    """The program's timeline, as run(source, **limits) makes it, from a child process that may run `seconds`
    (by default its time budget and 10 s more for sending its timeline), grow by `memory_mb` and send
    `output_mb` of JSON."""
    if sys.platform == "emscripten":  # the page's own thread: an endless loop holds it for the whole budget
        return run(source, **{"max_seconds": BROWSER_SECONDS, **limits})
    if seconds is None:
        seconds = limits.get("max_seconds", LIMITS["max_seconds"]) + 10
    if resource is None or not hasattr(os, "fork"):
        return run(source, **limits)
    cap = int(output_mb * 2**20)
    data_r, data_w = os.pipe()
    dump_r, dump_w = os.pipe()
    with warnings.catch_warnings():
        # A server has threads; the child touches none of their locks, and if it ever hung it is killed below.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(data_r)
        os.close(dump_r)
        _child(data_w, dump_w, source, memory_mb, cap, limits)
    os.close(data_w)
    os.close(dump_w)
    try:
        return _receive(pid, data_r, dump_r, source, time.monotonic() + seconds, seconds, memory_mb, cap)
    finally:
        os.close(data_r)
        os.close(dump_r)
        _reap(pid)


def forked():
    """What a child does first: the parent's objects are not the program's, so its collector never walks
    them (one full collection over a server's heap took 1.25 s of a 0.5 s budget, and copies every page)."""
    gc.freeze()


def _child(data_w, dump_w, source, memory_mb, cap, limits):
    status = 1
    try:
        forked()
        faulthandler.enable(file=dump_w)  # a crash writes the Python traceback (with the program's line)
        faulthandler.register(signal.SIGUSR1, file=dump_w)  # as does the parent before it kills the child
        _limit_memory(memory_mb)
        data = _fitted(_name_the_cap(run(source, **limits), memory_mb), cap)
        os.write(data_w, _HEADER.pack(len(data)))
        view = memoryview(data)
        while view:
            view = view[os.write(data_w, view):]
        status = 0
    except MemoryError:
        status = _MEMORY_EXIT
    except BaseException:  # noqa: BLE001 - whatever it was, the parent reports the child's end
        status = 1
    finally:
        os._exit(status)


def browser_json(source, *, memory_mb=BROWSER_MEMORY_MB, output_mb=32, watch=None, **limits):
    """What the browser's program worker sends the page: run(source, **limits) with the browser's time budget,
    as JSON text of at most `output_mb` (the events that fit, and an error event that says so). `watch` is
    told of the program's line as it goes and of its budget's end (guard.Budget.watch)."""
    timeline = run(source, watch=watch, **{"max_seconds": BROWSER_SECONDS, **limits})
    return _fitted(_name_the_cap(timeline, memory_mb), int(output_mb * 2**20)).decode()


def _name_the_cap(timeline, memory_mb):
    error = timeline.error
    if error is not None and error["type"] == "MemoryError":
        told = f" ({error['message']})" if error["message"] else ""
        error["message"] = f"the program needed more memory than its limit of {memory_mb:,} MB{told}"
    return timeline


def _fitted(timeline, cap):
    """The timeline's JSON as UTF-8, at most cap bytes: if it is bigger, the events that fit and an error
    event that says so."""
    data = timeline.to_json().encode()
    if len(data) <= cap:
        return data
    error = {"kind": "error", "line": None, "type": "OutputLimit",
             "message": f"the program's timeline is bigger than the limit of {cap / 2**20:g} MB: the explorer "
                        "shows what fits (fewer iterations or smaller tensors show all of it)"}
    room = cap - len(Timeline(source=timeline.source, events=[error], output=timeline.output).to_json().encode())
    kept = []
    for event in timeline.events:
        room -= len(json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace")) + 1
        if room < 0:
            break
        kept.append(event)
    if room < 0 and kept and kept[-1]["kind"] != "error":
        error["line"] = kept[-1].get("line")
    output = "".join(e["text"] for e in kept if e["kind"] == "print")
    return Timeline(source=timeline.source, events=[*kept, error], output=output).to_json().encode()


def _limit_memory(memory_mb):
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        limit = pages * resource.getpagesize() + int(memory_mb * 2**20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (OSError, ValueError):
        pass


def _receive(pid, data_r, dump_r, source, deadline, seconds, memory_mb, cap):
    """Reads the child's timeline (at most cap bytes) until the deadline; else says why it ended."""
    received, size = bytearray(), None
    while size is None or len(received) < _HEADER.size + size:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([data_r], [], [], left)[0]:
            line = _traceback_line(pid, dump_r, stop=True)
            return stopped(source, f"the program ran longer than {seconds:g} s and was stopped", line)
        chunk = os.read(data_r, 1 << 16)
        if not chunk:
            break
        received += chunk
        if size is None and len(received) >= _HEADER.size:
            size = _HEADER.unpack_from(received)[0]
            if size > cap:
                os.kill(pid, signal.SIGKILL)
                return stopped(source, f"the program's timeline is bigger than the limit of {cap / 2**20:g} MB "
                                        "and was not sent")
    if size is not None and len(received) == _HEADER.size + size:
        del received[:_HEADER.size]
        return Timeline.from_json(received)
    status = _reap(pid, patience=1.0)
    line = _traceback_line(pid, dump_r, stop=False)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return stopped(source, f"the program crashed Python ({name}; nesting something very deeply can do that) "
                                "and was stopped", line, kind="Crash")
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == _MEMORY_EXIT:
        return stopped(source, f"the program needed more memory than its limit of {memory_mb:,} MB and was "
                                "stopped", line, kind="MemoryError")
    return stopped(source, "the program's process ended without a timeline", line, kind="Crash")


def _traceback_line(pid, dump_r, stop):
    """The program's innermost line in the traceback faulthandler wrote (asked for first if `stop`, then the
    child is killed), or None."""
    if stop:
        try:
            os.kill(pid, signal.SIGUSR1)
        except ProcessLookupError:
            stop = False
    text, end = b"", time.monotonic() + (0.5 if stop else 0.1)
    while len(text) < 1 << 16 and select.select([dump_r], [], [], max(0.0, end - time.monotonic()))[0]:
        chunk = os.read(dump_r, 1 << 14)
        if not chunk:
            break
        text += chunk
        if stop and b"<module>" in text:  # the outermost frame comes last
            break
    if stop:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    found = _LINE.search(text.decode("utf-8", "replace"))  # the most recent call comes first
    return int(found.group(1)) if found else None


def _reap(pid, patience=0.0):
    """The child's exit status, once it has ended: it may take `patience` seconds to (a child whose pipe
    closed is on its way out), then it is killed."""
    end = time.monotonic() + patience
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            if time.monotonic() >= end:
                os.kill(pid, signal.SIGKILL)
                return os.waitpid(pid, 0)[1]
            time.sleep(0.005)
    except ChildProcessError:
        return 0


def stopped(source, message, line=None, kind="BudgetExceeded"):
    """The timeline of a program the wall stopped: one error event that says why."""
    event = {"kind": "error", "line": line, "type": kind, "message": message}
    return Timeline(source=source, events=[event], output="")
