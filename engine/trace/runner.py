"""run(source) -> Timeline: the guard checks and budgets the program, the recorder watches the engine.

run() always returns a Timeline: a program refused whole, one that fails, one that exceeds a budget (the
recorder's too: events and the timeline's size) and even a failure of the recorder end as an error event,
and what was recorded before stays. Once its budget ends no code of the program runs (the guard closes the
budget), and the engine's global state is as it was before (ENGINE_STATE).
"""
import copy
import gc
import itertools
import sys
import types
import warnings

import numpy as np

from .. import (
    backward,
    devices,
    dispatch,
    dtypes,
    generator,
    grad_mode,
    graph,
    memory,
    messages,
    observe,
    printing,
    settings,
)
from ..autograd import forward_ad
from ..backends import flags
from ..distributions import constraint_registry, distribution, kl
from ..func import batching, transforms
from ..nn import attention_backends
from ..nn.modules import module as nn_module
from ..nn.utils import parametrize
from ..optim import optimizer
from ..utils.data import collate
from . import guard, loops
from .errors import FILENAME
from .names import Statements
from .recorder import Recorder
from .sys_view import ProgramExit
from .timeline import Timeline

# Everything of the engine's that a program can change for the runs after it, as (module, attribute): each
# is copied before a run and put back after it (the random generator starts every run from a new Generator's
# state). tests/trace/test_run_contract.py fails on engine state that is neither here nor in its list of tables.
ENGINE_STATE = ((grad_mode, "_state"), (printing, "PRINT_OPTS"), (generator, "default_generator"),
                (graph, "_hooks_stack"), (graph, "_hooks_disabled"), (backward, "_tasks"),
                (optimizer, "CAPTURABLE_DEVICES"), (collate, "default_collate_fn_map"), (devices, "DEFAULT"),
                (messages, "WARNED_ONCE"), (messages, "WARN_ALWAYS"), (kl, "_KL_REGISTRY"), (kl, "_KL_MEMOIZE"),
                (distribution.Distribution, "_validate_args"), (constraint_registry.biject_to, "_registry"),
                (constraint_registry.transform_to, "_registry"), (parametrize, "_cache"),
                (parametrize, "_cache_enabled"), (dtypes, "DEFAULT"), (flags, "FLAGS"), (settings, "STATE"),
                (generator, "REFUSING"), (messages, "ITEM_REFUSED"), (transforms, "DEPTH"),
                (nn_module, "GLOBAL_HOOKS"), (nn_module, "GLOBAL_BACKWARD_HOOKS"), (grad_mode, "TANGENTS"),
                (forward_ad, "LEVELS"), (dispatch, "HOOKS"), (batching, "LEVELS"), (memory, "FLUSH_DENORMAL"),
                (observe, "_backward_unheard"), (attention_backends, "ENABLED"))


# What a traced program may spend unless told otherwise: enough for a learner's training script to finish (the
# polynomial tutorial, 2,000 iterations over 2,000 elements, makes 98,000 events and 52 million elements in 4 s
# of CPU here; in a browser it runs 2-3 times slower), while an endless loop still stops within half a minute
# (docs/timeline.md, "Budgets"); and one tensor as big as the weight of pytorch/examples' MNIST net (9216 x 128,
# 1.2 million elements). The other limits are the guard's own defaults.
LIMITS = {"max_seconds": 30.0, "max_events": 300_000, "max_total_elements": 2_000_000_000,
          "max_elements": 4_000_000}

# While a program runs, the collector's youngest generation is collected after this many new objects rather than
# 700: the recorder's events are many young objects that stay, and passing over them again and again cost a
# tenth of a traced training loop's time (benchmarks/trace.py --loops).
YOUNG_OBJECTS = 10_000


def run(source, watch=None, stream=None, **limits):
    """Runs a learner's program on the engine and returns its timeline (limits: fields of guard.Limits, over
    LIMITS; watch: told of the program's line and of its budget's end, guard.Budget.watch; stream: a
    so_far.Stream, which sends what the program records in pieces while it runs)."""
    try:
        budget = loops.Budget(guard.Limits(**{**LIMITS, **limits}))
        budget.watch = watch
        return _run(source, budget, stream)
    except Exception as e:  # noqa: BLE001 - the last resort: the caller always gets a timeline
        event = {"kind": "error", "line": None, "type": type(e).__name__, "message": _message(e)}
        return Timeline(source=source if isinstance(source, str) else "", events=[event], output="")


def _run(source, budget, stream=None):
    try:
        program = guard.load(source)  # parsed once: the recorder reads its statements, the guard runs it
    except guard.GuardError as e:
        rec = Recorder(Statements(), budget)
        rec.finish()
        rec.on_error(*_describe(e))
        return Timeline(source=source, events=rec.events, output="")
    rec = Recorder(program.statements, budget, source)
    budget.loops = rec.loops
    if stream is not None:
        stream.attach(rec, source)
        budget.stream = stream
    errors = []
    namespace = None
    saved = save_engine_state()
    observe.add(rec)
    threshold, printing = gc.get_threshold(), np.get_printoptions()
    gc.set_threshold(max(threshold[0], YOUNG_OBJECTS), *threshold[1:])
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):  # inf and nan made silently, as in PyTorch
            warnings.simplefilter("always")
            warnings.showwarning = rec.on_warning
            namespace = guard.run(program, print_fn=rec.on_print, plot_fn=rec.on_plot, budget=budget,
                                  on_error=lambda e: _ended(e) or errors.append(_describe(e, budget)))
    except Exception as e:  # noqa: BLE001 - the guard's own failure still ends the timeline cleanly
        errors.append(_describe(e))
    finally:
        gc.set_threshold(*threshold)
        np.set_printoptions(**printing)
        observe.remove(rec)
        observe.remove(forward_ad.OBSERVER)  # a dual level the program left open
        restore_engine_state(saved)
    if budget.watch is not None:
        budget.watch("lines run", None)  # what follows is the recorder's, and freeing what the program left
    rec.running = False  # the budget is closed: what the recorder adds now is not the program's
    try:
        rec.finish()
    except Exception as e:  # noqa: BLE001 - naming the last bindings failed: the events so far stand
        kind, message, _ = _describe(e)
        after = "after its last line had run, while what it left was named"
        errors.append((kind, f"{message} ({after})" if message else after, len(source.splitlines()) or None))
    _let_go(namespace)
    if errors:
        rec.on_error(*errors[0])
    return Timeline(source=source, events=rec.events, output="".join(rec.texts), loops=rec.loops.table(),
                    modules=rec.modules.calls)


def _let_go(namespace):
    """Free what the program left (its globals, and cycles among its young objects) now, while the budget is
    closed, rather than whenever the collector next runs: a generator's `finally` or a `__del__` left behind
    would otherwise run inside whatever Python does then (another program's compile), and stop there. Their
    budget errors are dropped: the program had its run. Only the young generations are collected: a full
    collection of a big process costs a third of a second, more than most runs."""
    hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: None
    try:
        if namespace is not None:
            namespace.clear()
        gc.collect(1)
    finally:
        sys.unraisablehook = hook


def _ended(e):
    """Whether the program ended itself without an error: sys.exit() or sys.exit(0)."""
    return isinstance(e, ProgramExit) and e.clean


def _describe(e, budget=None):
    """(type, message, line) of the error that ended a program. Called while its budget still runs: str(e)
    may be the program's own __str__, and fails as Python's traceback says it does."""
    if isinstance(e, guard.GuardError):
        return e.kind, e.reason, e.line
    if isinstance(e, SyntaxError):
        return type(e).__name__, e.msg, e.lineno
    line = None
    tb = e.__traceback__
    while tb is not None:  # the innermost line of the program's (traceback.extract_tb would read files)
        if tb.tb_frame.f_code.co_filename == FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    if budget is not None and budget.watch is not None and line is not None:
        budget.watch("line", line)  # describing it is one call that may not end (a message nested very deeply)
    return type(e).__name__, _message(e), line


def _message(e):
    try:
        return "".join([str(e)])  # an exact str
    except Exception:  # noqa: BLE001
        return "<exception str() failed>"


def save_engine_state():
    """A copy of ENGINE_STATE. Every program starts from the same generator state, that of a new
    torch.Generator() (a fresh torch process seeds its own from the OS, so an unseeded program's draws differ
    from run to run there; here its runs and share links agree)."""
    global _FRESH
    saved = [(module, name, _copy(getattr(module, name))) for module, name in ENGINE_STATE]
    if _FRESH is None:
        generator.default_generator.manual_seed(generator.DEFAULT_SEED)
        _FRESH = generator.default_generator.clone_state()
    else:
        generator.default_generator.restore(_FRESH)  # (the same state, without seeding the twister again)
    messages.WARNED_ONCE.clear()  # as in a new process: torch's once-per-process warnings are given again
    graph._handle_ids = itertools.count()  # and hook handles numbered from 0 (module._forward_pre_hooks' keys)
    return saved


_FRESH = None  # the default generator's state once seeded with DEFAULT_SEED


def _copy(value):
    if isinstance(value, list):  # stacks (hooks, running backward passes): their items are kept, not copied
        return list(value)
    if type(value) is dict and len(value) > 32 and set(map(type, value.values())) <= _FUNCTIONS and _classes(value):
        return dict(value)  # (what deepcopy makes of it, without walking it: a sixth of a short program's run)
    if hasattr(value, "clone_state"):
        return value.clone_state()
    if type(value) is dict and _atoms(value) and _atoms(value.values()):  # flags, modes, options
        return dict(value)
    kind = type(value)
    if (kind.__reduce_ex__ is object.__reduce_ex__ and kind.__reduce__ is object.__reduce__
            and not hasattr(kind, "__deepcopy__") and type(getattr(value, "__dict__", None)) is dict
            and _atoms(vars(value).values())):  # an object of options (printing's)
        return copy.copy(value)
    return copy.deepcopy(value)


def _atoms(values):
    """Whether deepcopy returns each of values as it is (numbers, texts, None, functions, classes: their types
    metaclasses)."""
    return all(t in _ATOMS or issubclass(t, type) for t in set(map(type, values)))


_ATOMS = frozenset((int, float, str, bool, type(None), types.FunctionType, types.BuiltinFunctionType))


_FUNCTIONS = {types.FunctionType, types.BuiltinFunctionType}


def _classes(registry):
    """Whether every key of registry is a tuple of classes (their types all metaclasses), looked at in C's loops."""
    return set(map(type, registry)) == {tuple} and all(
        issubclass(meta, type) for meta in set(map(type, itertools.chain.from_iterable(registry))))


def restore_engine_state(saved):
    """Puts ENGINE_STATE back in place (the engine's modules hold on to these objects themselves)."""
    for module, name, value in saved:
        current = getattr(module, name)
        if hasattr(current, "restore"):
            current.restore(value)
        elif isinstance(current, dict):
            current.clear()
            current.update(value)
        elif isinstance(current, list):
            current[:] = value
        elif isinstance(current, (bool, int)):  # Distribution._validate_args, parametrize._cache_enabled
            setattr(module, name, value)
        else:
            vars(current).clear()
            vars(current).update(vars(value))
