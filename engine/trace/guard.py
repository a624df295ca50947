"""The guard: runs a learner's program only after checking it, and then only within budgets.

Its parts, by concern: `allowlist` (what a program may write), `instrument` (the rewriter that puts the
budget's ticks and the runtime's checks into it), `program` (parsed once: checked, instrumented, compiled),
`budget` (what a run may spend), `runtime` (the helpers and builtins a running program calls) and
`classes` (what its classes may be) and `module_views` (the read-only modules it imports). The threat model
they answer is docs/security.md. This module is their front: check, compile_program,
safe_globals and run, and the names callers use.

The engine emits `on_alloc(numel)` to its observers before every op and allocation (and `on_size`, `on_work`
where it knows a size or a cost early); `run` adds the budget as one (`Budget.on_alloc` also checks the time
and memory there), and `charge_elements(n)` charges the budget of the program running now, if any.
"""
from __future__ import annotations

import sys
from types import CodeType

from .allowlist import FORBIDDEN_ATTRS, FORBIDDEN_NAMES  # noqa: F401
from .budget import Budget, Limits, active_budget, charge_elements, memory_mb  # noqa: F401
from .errors import FILENAME, BudgetExceeded, GuardError, GuardSyntaxError  # noqa: F401
from .module_views import SafeModule, default_modules  # noqa: F401
from .program import Program, check, load  # noqa: F401
from .runtime import SAFE_BUILTINS, safe_globals  # noqa: F401


def compile_program(source: str, budget: Budget | None = None) -> CodeType:
    """Checks, instruments and compiles a program, each refused statement a raise of its GuardError. (The
    budget is bound at run time, by safe_globals.)

    Code objects are immutable and hold nothing of a run, so the last few programs' are kept (a program
    with bad syntax raises, and is not kept)."""
    return load(source).code


def run(source: str | Program, *, print_fn=print, limits: Limits | None = None, modules=None,
        budget: Budget | None = None, on_error=None, plot_fn=None) -> dict:
    """Checks, compiles and runs a program; returns its globals. Raises GuardError or the program's own
    errors (NameError, ZeroDivisionError, ...), which a recorder reports as error events; with `on_error`,
    calls it with the error instead, before the budget closes (describing an error may run the program's
    own __str__). Once run returns, the budget is closed: no code of the program runs any more."""
    budget = budget if budget is not None else Budget(limits or Limits())
    program = source if isinstance(source, Program) else load(source)
    budget.source_lines = program.source.splitlines()  # (traceback's view shows them)
    namespace = safe_globals(print_fn, budget, modules, plot_fn)
    observe = sys.modules.get("engine.observe") if modules is None else None
    if observe is not None:
        observe.add(budget)
    try:
        with budget:
            exec(program.code, namespace)
    except Exception as e:
        if on_error is None:
            raise
        on_error(e)
    finally:
        if observe is not None:
            observe.remove(budget)
        budget.close()
    return namespace
