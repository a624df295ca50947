"""run(source) -> Timeline: the guard checks and budgets the program, the recorder watches the engine."""
import warnings

from .. import generator, grad_mode, observe, printing
from . import guard
from .guard import FILENAME
from .recorder import Recorder
from .timeline import Timeline


def run(source, **limits):
    """Runs a learner's program on the engine and returns its timeline (limits: fields of guard.Limits)."""
    budget = guard.Budget(guard.Limits(**limits))
    rec = Recorder(source, budget)
    saved = _engine_state()
    observe.add(rec)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = rec.on_warning
            guard.run(source, print_fn=rec.on_print, budget=budget)
    except Exception as e:  # noqa: BLE001 - every error of the program becomes its last event
        error = e
    else:
        error = None
    finally:
        observe.remove(rec)
        _restore(saved)
    rec.finish()
    if error is not None:
        rec.on_error(*_describe(error))
    return Timeline(source=source, events=rec.events, output="".join(rec.texts))


def _describe(e):
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
    return type(e).__name__, str(e), line


def _engine_state():
    """What a program may change globally: grad mode, print options, the random generator. Every program starts
    from the same generator state, that of a new torch.Generator() (a fresh torch process seeds its own from the
    OS, so an unseeded program's draws differ from run to run there; here its runs and share links agree)."""
    state = (grad_mode.is_grad_enabled(), dict(vars(printing.PRINT_OPTS)), generator.default_generator.clone_state())
    generator.default_generator.manual_seed(generator.DEFAULT_SEED)
    return state


def _restore(state):
    enabled, opts, gen = state
    grad_mode._set(enabled)
    vars(printing.PRINT_OPTS).update(opts)
    generator.default_generator.restore(gen)
