"""run_isolated(source): run() in a forked child process behind a wall the program cannot climb: a hard time
limit, an address-space cap, and a cap on what it sends back.

The guard stops what it can see without threads or signals (so it also works in Pyodide); what it cannot
see — one C-level operation it cannot size, a crash of the interpreter (a C stack overflowed) — the wall
stops. Each program gets a new child (forked from the server: the engine is loaded already, a fork starts in
milliseconds), so a child that was killed or crashed leaves nothing behind and the next program runs normally.

What the parent reports, as the timeline's error event:
- time: the program ran 1 s past its time budget (one C call no tick interrupts) without saying that it is over
  (it is asked for its Python traceback, through faulthandler, then killed): "the program ran longer than
  30 s and was stopped", at the program's line (the traceback's, or the last line it reported); once it has said
  that it is over, sending its timeline has SEND_SECONDS of its own;
- stop: the caller set `stop` (a learner pressed Stop, or left): the child is ended at once, "the program was
  stopped", at its line;
- memory: an allocation failed against the cap: "the program needed more memory than its limit of 1,024 MB",
  at its line, with what was recorded before; or the child died of it;
- output size: the timeline's JSON is bigger than `output_mb`: the child sends the events that fit and says
  so (the parent reads at most `output_mb` and stops a child that would send more);
- a crash: the child died of a signal (SIGSEGV: a C stack overflow), at the line faulthandler saw.
What the program records leaves the child in pieces as it runs (so_far.Stream, through the data pipe), and its last
message holds only what it had not sent: a child the wall ends keeps every event up to its last piece.
In Pyodide, which has no processes, run_isolated is run() itself. The browser's wall is its program worker
(static/wall.mjs): a Web Worker that runs `browser_json` and is terminated when it runs past BROWSER_SECONDS
+ BROWSER_MARGIN, or takes more than BROWSER_SEND_MARGIN to send its timeline once its budget ended, or dies
(its wasm memory is capped at BROWSER_MEMORY_MB); `stopped` is the timeline the app then shows.
"""
from __future__ import annotations

import gc
import os
import re
import signal
import struct
import sys
import threading
import time
import warnings

try:  # POSIX: Pyodide has no processes (nor `resource`), and there run_isolated is run()
    import faulthandler
    import fcntl
    import resource
    import select
except ImportError:
    faulthandler = fcntl = resource = select = None

from .budget import active_budget
from .runner import LIMITS, run
from .so_far import Pieces, Stream
from .timeline import Timeline

BROWSER_SECONDS = 15.0  # in Pyodide: a 2,000-iteration training script still ends (2-3x slower than here)
BROWSER_MARGIN = 1.0  # past its budget, a program still running (one C call the guard cannot stop) is stopped
BROWSER_SEND_MARGIN = 5.0  # once its budget has ended: the program worker's time to fit and send its timeline
BROWSER_MEMORY_MB = 1024  # the program worker's whole wasm memory (Pyodide, numpy and the engine take ~60 MB)
MARGIN = 1.0  # on the server too: a program still running 1 s past its budget is stopped
SEND_SECONDS = 10.0  # once the program is over: the child's time to fit and send its timeline
STOP_GRACE = 0.3  # s: a program asked to stop ends at its next tick; one in a C call is then killed
HEAR_EVERY = 0.1  # s: how often the parent reads what the child said (and looks at `stop`)
ASK_AHEAD = 0.5  # before the program's deadline, its traceback is asked for (the line the message names)
_FRAME = struct.Struct("!cQ")  # a piece (b"P") or the last one (b"T"), and the length of its JSON that follows
_MEMORY_EXIT = 3
_PR_SET_PDEATHSIG = 1  # linux/prctl.h  # the child's exit status when it ran out of memory outside the program
_LINE = re.compile(r'File "<program>", line (\d+)')


def run_isolated(source, *, seconds=None, memory_mb=1024, output_mb=32, stop=None, **limits):
    """The program's timeline, as run(source, **limits) makes it, from a child process that may run `seconds`
    (by default its time budget and MARGIN) until it says that the program is over, then SEND_SECONDS to send
    its timeline; it may grow by `memory_mb` and send `output_mb` of JSON. `stop` (a threading.Event, or
    anything with is_set()) ends it at once when set."""
    if sys.platform == "emscripten":  # the page's own thread: an endless loop holds it for the whole budget
        return run(source, **{"max_seconds": BROWSER_SECONDS, **limits})
    budget = limits.get("max_seconds", LIMITS["max_seconds"])
    if seconds is None:
        seconds = budget + MARGIN
    else:
        budget = seconds
    if resource is None or not hasattr(os, "fork"):
        return run(source, **limits)
    cap = int(output_mb * 2**20)
    data_r, data_w = os.pipe()
    _widen(data_w)
    dump_r, dump_w = os.pipe()
    watch_r, watch_w = os.pipe()
    parent = os.getpid()
    with warnings.catch_warnings():
        # A server has threads; the child touches none of their locks, and if it ever hung it is killed below.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: never returns
        for fd in (data_r, dump_r, watch_r):
            os.close(fd)
        _child(data_w, dump_w, watch_w, source, memory_mb, cap, seconds + SEND_SECONDS, parent, limits)
    for fd in (data_w, dump_w, watch_w):
        os.close(fd)
    wall = _Wall(pid, dump_r, watch_r, data_r, source, stop, cap)
    try:
        return _receive(wall, time.monotonic() + seconds, budget, memory_mb, cap)
    finally:
        for fd in (data_r, dump_r, watch_r):
            os.close(fd)
        _reap_later(pid)


def _widen(fd):
    """A pipe that takes a piece at once (Linux: up to its pipe-max-size, 1 MB by default), not 64 KB per write."""
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (AttributeError, OSError):
        pass


def forked():
    """What a child does first: the parent's objects are not the program's, so its collector never walks
    them (one full collection over a server's heap took 1.25 s of a 0.5 s budget, and copies every page)."""
    gc.freeze()


def _child(data_w, dump_w, watch_w, source, memory_mb, cap, cpu_seconds, parent, limits):
    status = 1
    try:
        forked()
        _die_with(parent)
        os.nice(10)  # the server's sessions are served first: a runaway program takes what CPU is left
        faulthandler.enable(file=dump_w)  # a crash writes the Python traceback (with the program's line)
        faulthandler.register(signal.SIGUSR1, file=dump_w)  # as does the parent before it kills the child
        signal.signal(signal.SIGUSR2, _stop_soon)  # Stop: the run ends at its next tick, keeping what it recorded
        _limit_memory(memory_mb)
        _limit_cpu(cpu_seconds)
        os.set_blocking(watch_w, False)
        tell = _teller(watch_w, parent)
        said = {"line": lambda line: tell(b"L%d\n" % line), "lines run": lambda line: tell(b"R\n")}
        out = _Out(data_w)
        stream = Stream(out.piece, cap, flush=out.flush)  # what the program records leaves it in pieces as it runs
        timeline = run(source, watch=lambda kind, line: kind in said and said[kind](line), stream=stream, **limits)
        tell(b"E\n")  # the program is over (its budget closed, its leftovers freed): now the rest is sent
        out.last(_tail(stream, _name_the_cap(timeline, memory_mb)))
        status = 0
    except MemoryError:
        status = _MEMORY_EXIT
    except BaseException:  # noqa: BLE001 - whatever it was, the parent reports the child's end
        status = 1
    finally:
        os._exit(status)


class _Out:
    """The child's end of the data pipe: frames (_FRAME, then the piece's JSON). While the program runs they are
    written without waiting (what the pipe cannot take now goes with the next piece: the parent reads as they come);
    the last one, and all before it, once the program is over."""

    def __init__(self, fd):
        self.fd, self.pending = fd, bytearray()
        os.set_blocking(fd, False)

    def piece(self, data):
        self.pending += _FRAME.pack(b"P", len(data))
        self.pending += data
        self.flush()

    def flush(self):
        """Writes what the pipe takes now of the pieces not yet written."""
        try:
            while self.pending:
                del self.pending[:os.write(self.fd, self.pending)]
        except BlockingIOError:
            pass

    def last(self, data):
        self.pending += _FRAME.pack(b"T", len(data))
        self.pending += data
        os.set_blocking(self.fd, True)
        view = memoryview(self.pending)
        while view:
            view = view[os.write(self.fd, view):]


def _tail(stream, timeline):
    """The stream's last piece: what of the timeline it has not sent."""
    return stream.tail(timeline)


def _stop_soon(signum, frame):
    budget = active_budget()
    if budget is not None:
        budget.stop_soon()


def _teller(fd, parent):
    """Writes a short message to the parent, never waiting (a full pipe drops it: the parent reads as it goes).
    A child whose parent has gone ends itself here (where PR_SET_PDEATHSIG is not)."""
    def tell(message):
        if os.getppid() != parent:
            os._exit(1)
        try:
            os.write(fd, message)
        except (BlockingIOError, BrokenPipeError):
            pass
        return True
    return tell


def _die_with(parent):
    """The child is killed when the thread that forked it ends (its process killed, or the server stopped): Linux's
    PR_SET_PDEATHSIG. If the parent had gone before, the child ends now."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: _teller and RLIMIT_CPU stand in
        pass
    if os.getppid() != parent:
        os._exit(1)


def _limit_cpu(seconds):
    """The child's own CPU-time limit, a backstop to the parent's clock: past it the kernel ends the child
    (SIGXCPU, then SIGKILL a second later)."""
    soft = int(seconds) + 2
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
    except (OSError, ValueError):
        pass


def browser_json(source, *, memory_mb=BROWSER_MEMORY_MB, output_mb=32, watch=None, recorded=None, **limits):
    """What the browser's program worker sends the page: run(source, **limits) with the browser's time budget,
    streamed (so_far.Stream): `recorded` is sent each piece of what the program records (JSON text) as it is made,
    and this returns the last piece, what was not sent (without `recorded`, all of it); at most `output_mb` in all
    (past it the events that fit, and an error event that says so). `watch` is told of the program's line as it
    goes, and ("ended", None) once the program is over."""
    lines = None if watch is None else (lambda kind, line: kind == "line" and watch(kind, line))
    stream = Stream(None if recorded is None else (lambda data: recorded(data.decode())), int(output_mb * 2**20))
    timeline = run(source, watch=lines, stream=stream, **{"max_seconds": BROWSER_SECONDS, **limits})
    if watch is not None:
        watch("ended", None)  # as on the server: the program is over once the recorder has finished and its leftovers
        # are freed (either may not end), not when its budget closed
    return _tail(stream, _name_the_cap(timeline, memory_mb)).decode()


def _name_the_cap(timeline, memory_mb):
    error = timeline.error
    if error is not None and error["type"].endswith("MemoryError"):  # numpy's is an _ArrayMemoryError
        error["type"] = "MemoryError"
        told = f" ({error['message']})" if error["message"] else ""
        error["message"] = f"the program needed more memory than its limit of {memory_mb:,} MB{told}"
    return timeline


def _limit_memory(memory_mb):
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[0])
        limit = pages * resource.getpagesize() + int(memory_mb * 2**20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (OSError, ValueError):
        pass


class _Wall:
    """The parent's side of one child: what it has said (its program's last line, whether it is over) and how it
    is ended."""

    def __init__(self, pid, dump_r, watch_r, data_r, source, stop, cap):
        self.pid, self.dump_r, self.watch_r, self.data_r = pid, dump_r, watch_r, data_r
        self.source, self.stop, self.cap = source, stop, cap
        self.pieces = Pieces(cap)  # what the child has sent of what its program recorded
        self._received = bytearray()
        os.set_blocking(watch_r, False)
        self.line = None
        self.lines_run = False  # its last line has run: the recorder finishes, and what it left is freed
        self.over = False
        self.asked = False  # for its traceback, ahead of its deadline
        self._said = b""

    def hear(self):
        """Reads what the child has said since it was last heard (never waiting)."""
        chunks = []
        while True:
            try:
                chunk = os.read(self.watch_r, 1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        *said, self._said = (self._said + b"".join(chunks)).split(b"\n")
        for message in said:
            if message == b"E":
                self.over = True
            elif message == b"R":
                self.lines_run = True
            elif message.startswith(b"L") and message[1:].isdigit():
                self.line = int(message[1:])

    def read(self):
        """Reads what the child has sent and takes in its whole pieces; False once it has closed the pipe. ValueError
        when it sent what is not a piece, or more than the cap."""
        chunk = os.read(self.data_r, 1 << 20)
        if not chunk:
            return False
        received = self._received
        received += chunk
        while len(received) >= _FRAME.size:
            kind, size = _FRAME.unpack_from(received)
            if size > self.cap or kind not in b"PT":
                raise ValueError(f"bigger than the limit of {self.cap / 2**20:g} MB")
            if len(received) < _FRAME.size + size:
                break
            self.pieces.add(bytes(received[_FRAME.size:_FRAME.size + size]))
            del received[:_FRAME.size + size]
            if kind == b"T" and self.pieces.tail is None:
                raise ValueError("its last piece has no source")
        return True

    def recorded(self):
        """What the program recorded, as far as the child sent it (the whole pieces left in the pipe too)."""
        try:
            while select.select([self.data_r], [], [], 0)[0] and self.read():
                pass
        except (OSError, ValueError):
            pass
        return self.pieces.timeline(self.source) if self.pieces.events else None

    def said(self, message):
        """The message, and that what the program recorded was kept up to the cap if it was."""
        if self.pieces.full:
            return f"{message} (what it recorded is kept up to the timeline's limit of {self.cap / 2**20:g} MB)"
        return message

    def end(self, message, kind="BudgetExceeded"):
        """Kills the child, at once; the timeline that says why, at the line it was running."""
        line = _traceback_line(self.pid, self.dump_r, stop=True, asked=self.asked)
        recorded = self.recorded()
        return stopped(self.source, self.said(message), self.line if self.lines_run or line is None else line, kind,
                       recorded)


def _receive(wall, deadline, budget, memory_mb, cap):
    """Takes in the child's pieces (at most cap bytes); stops the child at the program's deadline (unless it is
    over), at the sending's, or when asked to; else says why it ended."""
    data_r = wall.data_r
    sending, stopping = False, None
    while wall.pieces.tail is None:
        if wall.stop is not None and wall.stop.is_set() and not sending:
            if stopping is None:  # asked to end at its next tick, with what it recorded; else ended at once
                stopping = time.monotonic() + STOP_GRACE
                wall.asked = _ask_traceback(wall.pid)
                os.kill(wall.pid, signal.SIGUSR2)
            elif time.monotonic() > stopping:
                return wall.end("the program was stopped", kind="Stopped")
        left = deadline - time.monotonic()
        if left <= 0:
            if sending:
                return wall.end(f"the program's timeline took longer than {SEND_SECONDS:g} s to send and was "
                                "stopped", kind="OutputLimit")
            if wall.lines_run:  # at the program's end (its last line)
                wall.line = len(wall.source.splitlines()) or None
                return wall.end(f"the program ran longer than {budget:g} s and was stopped: its lines had run, but "
                                "what it left took that long to clear away (something nested very deeply through "
                                "shared references?)")
            return wall.end(f"the program ran longer than {budget:g} s and was stopped")
        if left <= ASK_AHEAD and not sending and not wall.asked:
            # a child at nice 10 on a busy machine may take a while to be scheduled and write its traceback: it is
            # asked for now, and read at the deadline
            wall.asked = _ask_traceback(wall.pid)
        wait = left - ASK_AHEAD if left > ASK_AHEAD and not sending else left
        # What the child says (its line, 100 times a second) is read HEAR_EVERY, not as it comes: each wake-up of
        # this thread takes the GIL from the server's event loop.
        ready = select.select([data_r], [], [], min(wait, HEAR_EVERY))[0]
        wall.hear()
        if wall.over and not sending:  # the program's phase is over: the sending's deadline is its own
            sending = True
            deadline = time.monotonic() + SEND_SECONDS
        if data_r not in ready:
            continue
        try:
            if not wall.read():
                break
        except ValueError as e:  # a child gone wrong
            os.kill(wall.pid, signal.SIGKILL)
            return stopped(wall.source, f"the program's timeline is bigger than the limit of {cap / 2**20:g} MB and "
                                        "was not sent" if "bigger" in str(e) else
                           f"the program's process sent what is not a timeline ({e}) and was stopped", wall.line,
                           kind="OutputLimit")
    if wall.pieces.tail is not None:
        return wall.pieces.timeline(wall.source)
    pid, source, recorded, said = wall.pid, wall.source, wall.recorded(), wall.said
    status = _reap(pid, patience=1.0)
    line = _traceback_line(pid, wall.dump_r, stop=False)
    line = line if line is not None else wall.line
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        if number == signal.SIGXCPU:
            return stopped(source, said("the program used more CPU time than its limit and was stopped"), line,
                           recorded=recorded)
        return stopped(source, said(f"the program crashed Python ({name}; nesting something very deeply can do that) "
                                    "and was stopped"), line, kind="Crash", recorded=recorded)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == _MEMORY_EXIT:
        return stopped(source, said(f"the program needed more memory than its limit of {memory_mb:,} MB and was "
                                    "stopped"), line, kind="MemoryError", recorded=recorded)
    return stopped(source, said("the program's process ended without a timeline"), line, kind="Crash",
                   recorded=recorded)


def _traceback_line(pid, dump_r, stop, asked=False):
    """The program's innermost line in the traceback faulthandler wrote (asked for first if `stop` and not
    `asked` already, then the child is killed), or None."""
    if stop and not asked:
        asked = _ask_traceback(pid)
    text, end = b"", time.monotonic() + (0.25 if asked else 0.1)
    while len(text) < 1 << 16 and select.select([dump_r], [], [], max(0.0, end - time.monotonic()))[0]:
        chunk = os.read(dump_r, 1 << 14)
        if not chunk:
            break
        text += chunk
        if asked and b"<module>" in text:  # the outermost frame comes last
            break
    if stop:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    found = _LINE.search(text.decode("utf-8", "replace"))  # the most recent call comes first
    return int(found.group(1)) if found else None


def _ask_traceback(pid):
    try:
        os.kill(pid, signal.SIGUSR1)
        return True
    except ProcessLookupError:
        return False


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


def _reap_later(pid):
    """Kills the child if it still runs, and reaps it in a thread of its own: a killed child still takes a moment
    of CPU to leave (its memory is torn down at its nice 10, up to a second on a loaded machine), which the
    timeline need not wait for."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return
    if done:
        return
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    threading.Thread(target=_wait, args=(pid,), name=f"reap {pid}", daemon=True).start()


def _wait(pid):
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def stopped(source, message, line=None, kind="BudgetExceeded", recorded=None):
    """The timeline of a program the wall stopped: what it had recorded (a Timeline, so_far.Pieces) if known,
    then one error event that says why."""
    event = {"kind": "error", "line": line, "type": kind, "message": message}
    if recorded is None:
        return Timeline(source=source, events=[event], output="")
    events = [e for e in recorded.events if e["kind"] != "error"]
    return Timeline(source=source, events=[*events, event], output=recorded.output, loops=recorded.loops,
                    modules=recorded.modules)
