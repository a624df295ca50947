"""Standard modules that compute and hold nothing of the process, as views made for each run: `re` (a regular
expression that runs long inside one C call is the wall's to stop: docs/security.md), `cmath`, `contextlib`
(`contextmanager` on the program's own generator functions, `nullcontext`, `suppress`), `queue` (the run's own
queues: a `get` that would wait for ever says so), `csv` over the program's files and buffers, `struct` (what it
packs sized first), `traceback` (the program's own exception, in its own lines), `platform` (the Python it runs
on), `typing_extensions` (typing's names), `gc.collect` and `timeit` (a callable's time, ticking), `uuid` (uuid4
from the run's own generator, seeded 0: the same ids every run; not uuid1, which reads the machine's address) and
`hashlib`'s digests (not its key derivations, which run for as many rounds as they are told in one C call).
`fractions` and `decimal` are in exact_numbers.py."""
from __future__ import annotations

import cmath
import collections
import contextlib
import csv
import gc
import heapq
import platform
import random
import re
import struct
import sys
import time
import traceback
import typing
from types import FunctionType

from .budget import budget_now
from .errors import FILENAME, GuardError, program_line
from .importable import STDLIB_NAMES
from .module_views import SafeModule

_RE = """compile search match fullmatch findall finditer sub subn split escape error Pattern Match A ASCII I
    IGNORECASE M MULTILINE S DOTALL X VERBOSE NOFLAG""".split()
_CMATH = """acos acosh asin asinh atan atanh cos cosh exp isclose isfinite isinf isnan log log10 phase polar
    rect sin sinh sqrt tan tanh e pi tau inf infj nan nanj""".split()
_CSV = "reader writer DictReader DictWriter Error QUOTE_ALL QUOTE_MINIMAL QUOTE_NONE QUOTE_NONNUMERIC excel".split()


def _re(runtime):
    """re's functions that build text charge it, as a program's own `+` would."""
    charge = runtime.budget.charge_elements

    def sub(pattern, repl, string, count=0, flags=0):
        out = re.sub(pattern, repl, string, count=count, flags=flags)
        charge(len(out))
        return out

    def subn(pattern, repl, string, count=0, flags=0):
        out = re.subn(pattern, repl, string, count=count, flags=flags)
        charge(len(out[0]))
        return out

    def findall(pattern, string, flags=0):
        out = re.findall(pattern, string, flags)
        charge(len(out))
        return out

    def split(pattern, string, maxsplit=0, flags=0):
        out = re.split(pattern, string, maxsplit=maxsplit, flags=flags)
        charge(len(out))
        return out

    return {**{name: getattr(re, name) for name in _RE if hasattr(re, name)},
            "sub": sub, "subn": subn, "findall": findall, "split": split}


class _Suppress(contextlib.suppress):
    """contextlib.suppress, which never swallows the guard's own errors."""

    def __exit__(self, kind, value, traceback):
        return not isinstance(value, GuardError) and super().__exit__(kind, value, traceback)


class _Null(contextlib.nullcontext):
    pass


class _GeneratorManager(contextlib._GeneratorContextManager):
    pass


for _cls in (_Suppress, _Null, _GeneratorManager):
    _cls.__module__ = __name__
_Suppress.__name__ = _Suppress.__qualname__ = "suppress"
_Null.__name__ = _Null.__qualname__ = "nullcontext"


def _contextlib(runtime):
    def contextmanager(function):
        if not (type(function) is FunctionType and function.__module__ == "__main__"):
            runtime.refuse("contextlib.contextmanager may only decorate the program's own generator functions")

        def helper(*args, **kwds):
            return _GeneratorManager(function, args, kwds)

        helper.__name__, helper.__qualname__ = function.__name__, function.__qualname__
        return helper

    return {"contextmanager": contextmanager, "nullcontext": _Null, "suppress": _Suppress}


class Empty(Exception):
    pass


class Full(Exception):
    pass


Empty.__module__ = Full.__module__ = "queue"


def _queue(runtime):
    class Queue:
        """The run's own queue: no thread can fill it while a `get` waits, so one that would wait for ever ends the
        program saying so (Python's would hang)."""

        def __init__(self, maxsize=0):
            self.maxsize, self.queue, self.unfinished_tasks = maxsize, collections.deque(), 0

        def qsize(self):
            return len(self.queue)

        def empty(self):
            return not self.queue

        def full(self):
            return 0 < self.maxsize <= len(self.queue)

        def put(self, item, block=True, timeout=None):
            if self.full():
                if not block or timeout is not None:
                    raise Full
                runtime.refuse("put() on a full queue would wait for ever: no other thread takes from it")
            self._put(item)
            self.unfinished_tasks += 1

        def get(self, block=True, timeout=None):
            if not self.queue:
                if not block or timeout is not None:
                    raise Empty
                runtime.refuse("get() on an empty queue would wait for ever: no other thread puts into it")
            return self._get()

        def put_nowait(self, item):
            return self.put(item, block=False)

        def get_nowait(self):
            return self.get(block=False)

        def task_done(self):
            if self.unfinished_tasks <= 0:
                raise ValueError("task_done() called too many times")
            self.unfinished_tasks -= 1

        def join(self):
            if self.unfinished_tasks:
                runtime.refuse("join() would wait for ever: no other thread marks the tasks done")

        def _put(self, item):
            self.queue.append(item)

        def _get(self):
            return self.queue.popleft()

    class LifoQueue(Queue):
        def _get(self):
            return self.queue.pop()

    class PriorityQueue(Queue):
        def __init__(self, maxsize=0):
            super().__init__(maxsize)
            self.queue = []

        def _put(self, item):
            heapq.heappush(self.queue, item)

        def _get(self):
            return heapq.heappop(self.queue)

    for cls in (Queue, LifoQueue, PriorityQueue):
        cls.__module__ = "queue"
        cls.__qualname__ = cls.__name__
    return {"Queue": Queue, "LifoQueue": LifoQueue, "PriorityQueue": PriorityQueue, "SimpleQueue": Queue,
            "Empty": Empty, "Full": Full}


def _struct(runtime):
    def pack(format, *values):
        runtime.budget.charge_elements(struct.calcsize(format))
        return struct.pack(format, *values)

    return {"pack": pack, "unpack": struct.unpack, "calcsize": struct.calcsize, "iter_unpack": struct.iter_unpack,
            "error": struct.error}


def _format_exception(error, lines):
    """Python's traceback of `error` (its carets too), through the program's own frames only, with its own lines."""
    frames = [(frame, position) for frame, position in traceback._walk_tb_with_full_positions(error.__traceback__)
              if frame.f_code.co_filename == FILENAME]
    stack = traceback.StackSummary._extract_from_extended_frame_gen(iter(frames), lookup_lines=False)
    for summary in stack:
        summary._line = lines[summary.lineno - 1] + "\n" if 0 < summary.lineno <= len(lines) else ""
    head = ["Traceback (most recent call last):\n", *stack.format()] if len(stack) else []
    return head + traceback.format_exception_only(type(error), error)


def traceback_of(error):
    """The traceback text of an exception the program holds (logging's exc_info=e)."""
    if not isinstance(error, BaseException):
        return "NoneType: None\n"
    return "".join(_format_exception(error, getattr(budget_now(), "source_lines", ())))


def traceback_text(runtime):
    """traceback.format_exc() of the exception the program is handling now."""
    error = sys.exc_info()[1]
    if error is None:
        return "NoneType: None\n"
    return "".join(_format_exception(error, getattr(runtime.budget, "source_lines", ())))


def _traceback(runtime):
    """print_exc / format_exc of the exception the program is handling, with its own frames and lines only."""
    def format_exception(exc, /, value=None, tb=None, limit=None, chain=True):
        return _format_exception(exc if value is None else value, getattr(runtime.budget, "source_lines", ()))

    def format_exc(limit=None, chain=True):
        return traceback_text(runtime)

    def print_exc(limit=None, file=None, chain=True):
        runtime.print(traceback_text(runtime), end="", file=file)

    def print_exception(exc, /, value=None, tb=None, limit=None, file=None, chain=True):
        runtime.print("".join(format_exception(exc, value)), end="", file=file)

    return {"format_exception": format_exception, "format_exc": format_exc, "print_exc": print_exc,
            "print_exception": print_exception}


def _platform(runtime):
    return {name: (lambda value: lambda: value)(getattr(platform, name)())
            for name in ("python_version", "python_version_tuple", "python_implementation", "system", "machine")}


def _gc(runtime):
    def collect(generation=2):
        """The young objects only: a full collection of a big process costs a third of a second (runner.py)."""
        if generation not in (0, 1, 2):
            raise ValueError("invalid generation")
        return gc.collect(min(generation, 1))

    return {"collect": collect}


def _timeit(runtime):
    def timeit(stmt="pass", setup="pass", timer=time.perf_counter, number=1_000_000, globals=None):
        if not callable(stmt) or setup != "pass" or timer is not time.perf_counter:
            runtime.refuse("timeit.timeit times a function (timeit.timeit(f, number=...)): text to evaluate, a "
                           "setup or a timer of its own are not allowed")
        line = program_line()
        start = time.perf_counter()
        for _ in runtime.ticking(range(number), line):
            stmt()
        return time.perf_counter() - start

    return {"default_timer": time.perf_counter, "timeit": timeit}


def _uuid(runtime):
    import uuid  # (when a program first imports it, as stdlib_views.py imports its modules)

    rng = random.Random(0)

    def uuid4():
        return uuid.UUID(int=rng.getrandbits(128), version=4)

    return {**{name: getattr(uuid, name) for name in _UUID}, "uuid4": uuid4}


_UUID = "UUID uuid3 uuid5 NAMESPACE_DNS NAMESPACE_URL NAMESPACE_OID NAMESPACE_X500 RESERVED_NCS RFC_4122".split()
_HASHES = """md5 sha1 sha224 sha256 sha384 sha512 blake2b blake2s sha3_224 sha3_256 sha3_384 sha3_512""".split()


def _hashlib(runtime):
    import hashlib

    def new(name, data=b"", **kwargs):
        if name not in _HASHES:
            raise ValueError(f"unsupported hash type {name}")
        return getattr(hashlib, name)(data, **kwargs)

    return {**{name: getattr(hashlib, name) for name in _HASHES}, "new": new,
            "algorithms_guaranteed": frozenset(_HASHES), "algorithms_available": frozenset(_HASHES)}


_VIEWS = {"re": _re, "cmath": lambda run: {name: getattr(cmath, name) for name in _CMATH},
          "contextlib": _contextlib, "queue": _queue, "csv": lambda run: {name: getattr(csv, name) for name in _CSV},
          "typing_extensions": lambda run: {name: getattr(typing, name) for name in STDLIB_NAMES["typing"].split()},
          "struct": _struct, "traceback": _traceback, "platform": _platform, "gc": _gc, "timeit": _timeit,
          "uuid": _uuid, "hashlib": _hashlib}
PURE_MODULES = tuple(_VIEWS)


def pure_views(runtime, package):
    return {package: SafeModule(package, _VIEWS[package](runtime))}
