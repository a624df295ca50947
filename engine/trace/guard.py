"""The guard: runs a learner's program only after checking it, and then only within budgets.

Its parts, by concern: `allowlist` (what a program may write), `instrument` (the rewriter that puts the
budget's ticks and the runtime's checks into it), `program` (parsed once: checked, instrumented, compiled),
`budget` (what a run may spend), `runtime` (the helpers and builtins a running program calls) and
`module_views` (the read-only modules it imports). This module is their front: check, compile_program,
safe_globals and run, and the names callers use.

The engine's factories emit `on_alloc(numel)` to its observers before allocating; `run` adds the budget as
one (`Budget.on_alloc`), and `charge_elements(n)` charges the budget of the program running now, if any.
"""
from __future__ import annotations

import sys
from types import CodeType

from .allowlist import ALLOWED_IMPORTS, ENGINE_MODULES, FORBIDDEN_ATTRS, FORBIDDEN_NAMES  # noqa: F401
from .budget import Budget, Limits, active_budget, charge_elements, memory_mb  # noqa: F401
from .errors import FILENAME, BudgetExceeded, GuardError, GuardSyntaxError  # noqa: F401
from .module_views import SafeModule, default_modules  # noqa: F401
from .program import Program, check, load  # noqa: F401
from .runtime import SAFE_BUILTINS, safe_globals  # noqa: F401


def compile_program(source: str, budget: Budget | None = None) -> CodeType:
    """Checks, instruments and compiles a program. (The budget is bound at run time, by safe_globals.)

    Code objects are immutable and hold nothing of a run, so the last few programs' are kept (a refused
    program raises, and is not kept)."""
    return load(source).code


def run(source: str | Program, *, print_fn=print, limits: Limits | None = None, modules=None,
        budget: Budget | None = None) -> dict:
    """Checks, compiles and runs a program; returns its globals. Raises GuardError or the program's own
    errors (NameError, ZeroDivisionError, ...), which a recorder reports as error events."""
    budget = budget if budget is not None else Budget(limits or Limits())
    program = source if isinstance(source, Program) else load(source)
    namespace = safe_globals(print_fn, budget, modules)
    observe = sys.modules.get("engine.observe") if modules is None else None
    if observe is not None:
        observe.add(budget)
    try:
        with budget:
            exec(program.code, namespace)
    finally:
        if observe is not None:
            observe.remove(budget)
    return namespace
