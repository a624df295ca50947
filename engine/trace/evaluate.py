"""`eval(text)` and `exec(text)` in a program: the text is held to the program's allow-list and rewritten as a
program is (instrument.py), every line of it made the line of the program that called eval() or exec() (the
budget's messages and the errors name that line), and it runs under the same budget, with the caller's
globals and locals or with dicts the program gives.

Given a globals dict, the text runs in a copy of it that also holds the guard's hooks and the program's
builtins, and what it binds is copied back (the program never holds the hooks: `_g_method` would read any
attribute); so a function it defines sees that copy, not later changes to the dict. Dicts the program gives
may not hold `__` or `_g_` names (`{'__builtins__': ...}` would choose what `import` and `class` call; a
`_g_tick` among the locals would be called instead of the budget's). Code objects are not the program's:
`compile()` is refused.
"""
from __future__ import annotations

import ast
import functools
import sys
from types import CodeType

from .allowlist import FORBIDDEN_NAMES, HOOK_PREFIX, MAX_SOURCE_CHARS, check
from .errors import FILENAME, GuardError, program_line
from .instrument import instrument

EVAL_FILENAME = "<program text>"  # the file name of what eval() and exec() compile
PROGRAM_FILES = (FILENAME, EVAL_FILENAME)


def _at_line(tree, line):
    for node in ast.walk(tree):
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = line
            node.col_offset = node.end_col_offset = 0
    return tree


@functools.lru_cache(maxsize=64)
def load(text: str, mode: str, line: int, bound: frozenset) -> CodeType:
    """The text checked, instrumented and compiled, all of it at `line`. Raises GuardError if the text or a
    construct in it is refused, SyntaxError (the program's to catch, as in Python) if it is not Python."""
    name = "eval" if mode == "eval" else "exec"
    if len(text) > MAX_SOURCE_CHARS:
        raise GuardError(f"the text given to {name}() is longer than {MAX_SOURCE_CHARS:,} characters", line)
    try:
        tree = ast.parse(text.lstrip(" \t") if mode == "eval" else text, EVAL_FILENAME, mode)
    except SyntaxError as e:
        raise SyntaxError(f"{e.msg} (in the text given to {name}())", (EVAL_FILENAME, line, 0, None)) from None
    except (ValueError, RecursionError, MemoryError):
        raise GuardError(f"the text given to {name}() is too complex to parse", line) from None
    module = _at_line(ast.Module([ast.Expr(tree.body)], []) if mode == "eval" else tree, line)
    refused = check(module, bound)
    if refused:
        raise next(iter(refused.values()))
    module = instrument(module, {})
    code = ast.Expression(module.body[0].value) if mode == "eval" else module
    try:
        return compile(code, EVAL_FILENAME, mode, dont_inherit=True)
    except SyntaxError as e:  # e.g. 'return' outside a function
        raise SyntaxError(f"{e.msg} (in the text given to {name}())", (EVAL_FILENAME, line, 0, None)) from None
    except (RecursionError, MemoryError):
        raise GuardError(f"the text given to {name}() is too complex to compile", line) from None


class Evaluator:
    """eval() and exec() as a program gets them, bound to its runtime (its budget, builtins and hooks)."""

    def __init__(self, budget, base):
        self.budget, self.base = budget, base  # base: the hooks and `__builtins__` a program's globals hold

    def eval(self, text, globals=None, locals=None, /):  # noqa: A002 - Python's names
        return self.run("eval", text, globals, locals, sys._getframe(1))

    def exec(self, text, globals=None, locals=None, /):  # noqa: A002
        self.run("exec", text, globals, locals, sys._getframe(1))

    def refuse(self, reason, line):
        self.budget.stop(GuardError(reason, line))

    def run(self, name, text, globals_, locals_, caller):
        self.budget.check()
        if caller.f_code.co_filename not in PROGRAM_FILES:  # e.g. the engine calling `collate_fn=eval`
            self.refuse(f"{name}() may only be called by the program's own code", program_line())
        line = caller.f_lineno
        if isinstance(text, bytes):
            text = text.decode()
        if not isinstance(text, str):
            raise TypeError(f"{name}() here runs program text: a string, not {type(text).__name__}")
        for given, what in ((globals_, "globals"), (locals_, "locals")):
            if given is not None:
                self.check_dict(name, given, what, line)
        if globals_ is None:
            namespace = caller.f_globals
            local = caller.f_locals if locals_ is None else locals_
        else:
            namespace = {**globals_, **self.base}
            local = namespace if locals_ is None else locals_
        bound = frozenset(n for n in FORBIDDEN_NAMES if n in namespace or n in local)
        try:
            code = load(text, "eval" if name == "eval" else "exec", line, bound)
        except GuardError as e:
            self.refuse(e.reason, line)
        self.budget.enter(line)
        try:
            result = eval(code, namespace, local)  # noqa: S307 - checked and instrumented as a program is
        finally:
            self.budget.leave()
            if globals_ is not None:
                self.copy_back(namespace, globals_)
        return result

    def check_dict(self, name, given, what, line):
        if type(given) is not dict:
            raise TypeError(f"{name}() {what} must be a dict, not {type(given).__name__}")
        for key in given:
            if isinstance(key, str) and key.startswith(("__", HOOK_PREFIX)):
                self.refuse(f"the {what} given to {name}() may not hold names starting with '__' or "
                            f"'{HOOK_PREFIX}' ({key!r})", line)

    def copy_back(self, namespace, globals_):
        for key in [key for key in globals_ if key not in namespace]:
            del globals_[key]
        globals_.update((key, value) for key, value in namespace.items() if key not in self.base)
