"""A program parsed once: its size checked before parsing, its tree held to the allow-list, read for the
recorder's statements, then instrumented and compiled."""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from types import CodeType

from . import allowlist
from .errors import FILENAME, GuardError, GuardSyntaxError
from .instrument import instrument
from .names import Statements


@dataclass(frozen=True)
class Program:
    """A checked program: the code to run and the statements the recorder names bindings after. Holds
    nothing of a run, so the last few programs' are kept and shared by runs."""

    source: str
    code: CodeType
    statements: Statements


def parse(source: str) -> ast.Module:
    """The program's tree; raises GuardError if it is too long, GuardSyntaxError if it is not Python."""
    if len(source) > allowlist.MAX_SOURCE_CHARS:
        raise GuardError(f"the program is longer than {allowlist.MAX_SOURCE_CHARS:,} characters")
    try:
        return ast.parse(source, FILENAME)
    except SyntaxError as e:
        raise GuardSyntaxError(e.msg, e.lineno) from None
    except (ValueError, RecursionError, MemoryError) as e:
        raise GuardSyntaxError(str(e) or "the program is too complex to parse") from None


def check(source: str) -> ast.Module:
    """Parses and validates a program; raises GuardError (GuardSyntaxError for bad syntax)."""
    tree = parse(source)
    allowlist.check(tree)
    return tree


@functools.lru_cache(maxsize=32)
def load(source: str) -> Program:
    """Checks, reads, instruments and compiles a program (a refused program raises, and is not kept)."""
    tree = check(source)
    statements = Statements(tree)  # before the instrumenter rewrites the tree
    try:
        code = compile(instrument(tree), FILENAME, "exec", dont_inherit=True)
    except SyntaxError as e:  # e.g. 'return' outside a function
        raise GuardSyntaxError(e.msg, e.lineno) from None
    except (RecursionError, MemoryError):
        raise GuardError("the program is too complex to compile") from None
    return Program(source, code, statements)
