"""How deeply a program nests tuples and iterators. C recurses through them without Python's recursion check:
hashing a tuple nested 10⁶ deep, or pulling from (or freeing) 200,000 maps of maps or generator expressions
of generator expressions, overflows the C stack and kills the interpreter (Pyodide, and the page with it).
The program's `map`, `filter`, `zip` and `enumerate` (the classes here) carry their depth; generator
expressions and the generators of its generator functions have theirs noted when made (as deep as the
deepest iterator they are given, plus one); tuple displays (`(t,)`), `hash()` and these iterators refuse a
depth over MAX_DEPTH, at the program's line.

Not seen here: tuples nested through `tuple()`, `zip` or `enumerate` items and then hashed by a dict or set,
and iterators nested through a container (`g(x=[inner])`); the wall stops those.
"""
from __future__ import annotations

import builtins
import contextvars
import functools
import weakref

from .budget import budget_now
from .errors import GuardError, program_line

MAX_DEPTH = 1_000

_GENERATORS = weakref.WeakKeyDictionary()  # generator expression -> how deeply it nests
_PENDING = contextvars.ContextVar("nesting_pending", default=0)  # of the generator expression being made
_DEEP = {}  # id(tuple) -> (the tuple, its depth) for the last deep tuple displays: `t = (t,)` costs O(1)


def refuse(reason):
    budget_now().stop(GuardError(reason, program_line()))


def tuple_depth(value, limit=MAX_DEPTH):
    """How deeply tuples nest in value (0 for anything else), counted up to limit + 1."""
    if type(value) is not tuple:
        return 0
    known = _DEEP.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    deepest, reached, todo = 1, {id(value): 1}, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        for x in item:
            if type(x) is not tuple or reached.get(id(x), 0) >= depth + 1:
                continue
            reached[id(x)] = depth + 1
            known = _DEEP.get(id(x))
            below = depth + known[1] if known is not None and known[0] is x else None
            if (below or depth + 1) > deepest:
                deepest = below or depth + 1
                if deepest > limit:
                    return deepest
            if below is None:
                todo.append((x, depth + 1))
    return deepest


def depth(iterator):
    if isinstance(iterator, ITERATORS):
        return iterator.depth
    try:
        return _GENERATORS.get(iterator, 0)
    except TypeError:  # not weakly referable: not a generator
        return 0


def deeper(iterables):
    found = 1 + max(builtins.map(depth, iterables), default=0)
    if found > MAX_DEPTH:
        refuse(f"iterators nested more than {MAX_DEPTH:,} deep (a map of a map of ...) would overflow Python's "
               "C stack")
    return found


class map(builtins.map):  # noqa: A001 - the program's map
    __slots__ = ("depth",)

    def __new__(cls, function, *iterables):
        self = super().__new__(cls, function, *iterables)
        self.depth = deeper(iterables)
        return self


class filter(builtins.filter):  # noqa: A001
    __slots__ = ("depth",)

    def __new__(cls, function, iterable):
        self = super().__new__(cls, function, iterable)
        self.depth = deeper((iterable,))
        return self


class zip(builtins.zip):  # noqa: A001
    __slots__ = ("depth",)

    def __new__(cls, *iterables, **kwargs):
        self = super().__new__(cls, *iterables, **kwargs)
        self.depth = deeper(iterables)
        return self


class enumerate(builtins.enumerate):  # noqa: A001
    __slots__ = ("depth",)

    def __new__(cls, iterable, start=0):
        self = super().__new__(cls, iterable, start)
        self.depth = deeper((iterable,))
        return self


ITERATORS = (map, filter, zip, enumerate)


def source(iterable):
    """The first iterable of a generator expression being made (`_g_source`)."""
    _PENDING.set(deeper((iterable,)))
    return iterable


def generator(made):
    """The generator expression just made, after `source` (`_g_generator`)."""
    _GENERATORS[made] = _PENDING.get()
    return made


def generator_function(function):
    """A generator function of the program (`_g_generator_function`, its innermost decorator): the generators
    it makes are as deep as the deepest iterator among their arguments, plus one."""
    @functools.wraps(function)
    def make(*args, **kwargs):
        depth = deeper((*args, *kwargs.values()))
        made = function(*args, **kwargs)
        _GENERATORS[made] = depth
        return made

    return make


def checked_tuple(made):
    """A tuple display just made (`_g_tuple`): refused if it nests tuples too deeply."""
    for x in made:
        if type(x) is tuple:
            break
    else:
        return made  # no tuple in it: the common case, decided fast
    inner = max(tuple_depth(x) for x in made if type(x) is tuple)
    if inner >= MAX_DEPTH:
        refuse(f"tuples nested more than {MAX_DEPTH:,} deep would overflow Python's C stack when hashed or compared")
    if inner >= 8:
        if len(_DEEP) > 64:
            _DEEP.clear()
        _DEEP[id(made)] = (made, inner + 1)
    return made


def tuple_size(value, limit):
    """How many items hashing value visits (a tuple that holds one tuple twice visits it twice), counted in
    time proportional to the distinct tuples, up to limit + 1."""
    counts, todo = {}, [(value, False)]
    while todo:
        item, ready = todo.pop()
        if ready:
            counts[id(item)] = min(limit + 1, sum(counts.get(id(x)) or 1 if type(x) is tuple else 1 for x in item))
        elif id(item) not in counts:
            counts[id(item)] = None
            todo.append((item, True))
            todo.extend((x, False) for x in item if type(x) is tuple and id(x) not in counts)
    return counts[id(value)]


def hash(value, /):  # noqa: A001 - the program's hash
    if type(value) is tuple:
        if tuple_depth(value) > MAX_DEPTH:
            refuse(f"a tuple nested more than {MAX_DEPTH:,} deep cannot be hashed here (it would overflow Python's "
                   "C stack)")
        limit = budget_now().limits.max_elements
        if tuple_size(value, limit) > limit:
            refuse(f"this tuple holds more than {limit:,} items through shared references: too much to hash")
    return builtins.hash(value)


BUILTINS = {"map": map, "filter": filter, "zip": zip, "enumerate": enumerate, "hash": hash}
HOOKS = {"_g_tuple": checked_tuple, "_g_source": source, "_g_generator": generator,
         "_g_generator_function": generator_function}
