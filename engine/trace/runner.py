"""run(source) -> Timeline: the guard checks and budgets the program, the recorder watches the engine."""
import warnings

import numpy as np

from .. import factories, grad_mode, observe, printing
from . import guard, loops
from .errors import FILENAME
from .names import Statements
from .recorder import Recorder
from .timeline import Timeline

# What a traced program may spend unless told otherwise: enough for a learner's training script to finish (the
# polynomial tutorial, 2,000 iterations over 2,000 elements, makes 98,000 events and 52 million elements in 4 s
# of CPU here; in a browser it runs 2-3 times slower), while an endless loop still stops within half a minute
# (docs/timeline.md, "Budgets"). The other limits are the guard's own defaults.
LIMITS = {"max_seconds": 30.0, "max_events": 300_000, "max_total_elements": 2_000_000_000}


def run(source, **limits):
    """Runs a learner's program on the engine and returns its timeline (limits: fields of guard.Limits, over
    LIMITS)."""
    budget = loops.Budget(guard.Limits(**{**LIMITS, **limits}))
    try:
        program = guard.load(source)  # parsed once: the recorder reads its statements, the guard runs it
    except guard.GuardError as e:
        rec = Recorder(Statements(), budget)
        rec.finish()
        rec.on_error(*_describe(e))
        return Timeline(source=source, events=rec.events, output="")
    rec = Recorder(program.statements, budget)
    budget.loops = rec.loops
    errors = []
    saved = _engine_state()
    observe.add(rec)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = rec.on_warning
            guard.run(program, print_fn=rec.on_print, budget=budget, on_error=lambda e: errors.append(_describe(e)))
    except Exception as e:  # noqa: BLE001 - the guard's own failure still ends the timeline cleanly
        errors.append(_describe(e))
    finally:
        observe.remove(rec)
        _restore(saved)
    rec.finish()
    if errors:
        rec.on_error(*errors[0])
    return Timeline(source=source, events=rec.events, output="".join(rec.texts), loops=rec.loops.table())


def _describe(e):
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
    try:
        message = "".join([str(e)])  # an exact str
    except Exception:  # noqa: BLE001
        message = "<exception str() failed>"
    return type(e).__name__, message, line


def _engine_state():
    """What a program may change globally: grad mode, print options, the random generator."""
    state = (grad_mode.is_grad_enabled(), dict(vars(printing.PRINT_OPTS)), factories._rng["gen"])
    factories._rng["gen"] = np.random.default_rng(0)
    return state


def _restore(state):
    enabled, opts, gen = state
    grad_mode._set(enabled)
    vars(printing.PRINT_OPTS).update(opts)
    factories._rng["gen"] = gen
