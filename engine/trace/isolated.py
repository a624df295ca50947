"""run_isolated(source): run() in a child process that is killed at a hard time limit and cannot grow past
a memory limit.

The guard stops what it can see (loops, calls, allocations it is told about) without threads or signals, so
it also works in Pyodide. One C-level operation on data it cannot size — `str()` of a list nested through
shared references, say — still runs to its end. On a server that must not hang, run_isolated adds a wall
the program cannot climb. In Pyodide, which has no processes, it is run() itself.
"""
import sys

from .runner import LIMITS, run
from .timeline import Timeline


def run_isolated(source, *, seconds=None, memory_mb=1024, **limits):
    """run(source, **limits) behind a wall of `seconds` (default: the run's own time budget and 15 s for
    writing and reading its timeline) and `memory_mb`."""
    if seconds is None:
        seconds = limits.get("max_seconds", LIMITS["max_seconds"]) + 15
    if sys.platform == "emscripten":
        return run(source, **limits)
    import multiprocessing
    import warnings

    context = multiprocessing.get_context("fork")  # the engine is loaded already: a fork starts in ms
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(send, source, memory_mb, limits), daemon=True)
    with warnings.catch_warnings():
        # A server has threads; the child touches none of their locks, and if it ever hung it is killed below.
        warnings.simplefilter("ignore", DeprecationWarning)
        child.start()
    send.close()
    try:
        if receive.poll(seconds):
            return Timeline.from_json(receive.recv_bytes().decode())
        return _stopped(source, f"the program ran longer than {seconds:g} s and was stopped")
    except EOFError:
        return _stopped(source, f"the program used more than {memory_mb} MB of memory and was stopped")
    finally:
        receive.close()
        if child.is_alive():
            child.kill()
        child.join()


def _child(send, source, memory_mb, limits):
    _limit_memory(memory_mb)
    try:
        text = run(source, **limits).to_json()
    except MemoryError:
        return
    send.send_bytes(text.encode())
    send.close()


def _limit_memory(memory_mb):
    try:
        import resource

        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        now = pages * resource.getpagesize()
        limit = now + memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, OSError, ValueError):
        pass


def _stopped(source, message):
    event = {"kind": "error", "line": None, "type": "BudgetExceeded", "message": message}
    return Timeline(source=source, events=[event], output="")
