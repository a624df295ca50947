"""A program parsed once: its size checked before parsing, its tree held to the allow-list, read for the
recorder's statements, then instrumented and compiled."""
from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from dataclasses import dataclass
from types import CodeType

from . import allowlist
from .errors import FILENAME, GuardError, GuardSyntaxError
from .instrument import instrument, mark_lines
from .names import Statements


@dataclass(frozen=True)
class Program:
    """A checked program: the code to run (each refused statement a raise of its GuardError), the statements
    the recorder names bindings after, and the refusals. Holds nothing of a run, so the last few programs'
    are kept and shared by runs."""

    source: str
    code: CodeType
    statements: Statements
    refusals: tuple[GuardError, ...]


def parse(source: str) -> ast.Module:
    """The program's tree; raises GuardError if it is too long, GuardSyntaxError if it is not Python."""
    if len(source) > allowlist.MAX_SOURCE_CHARS:
        raise GuardError(f"the program is longer than {allowlist.MAX_SOURCE_CHARS:,} characters")
    try:
        return ast.parse(source, FILENAME)
    except SyntaxError as e:  # the column too: a learner looks for the place in the line
        raise GuardSyntaxError(f"{e.msg} (column {e.offset})" if e.offset else e.msg, e.lineno) from None
    except UnicodeEncodeError as e:  # a lone surrogate ('\udc80'), which is not text: at its line
        raise GuardSyntaxError(str(e), source.count("\n", 0, e.start) + 1) from None
    except (ValueError, RecursionError, MemoryError) as e:
        raise GuardSyntaxError(str(e) or "the program is too complex to parse", _deepest_line(source)) from None


def _deepest_line(source: str) -> int | None:
    """The line where the program's brackets nest deepest, else (no brackets nested) the line of most tokens (a
    chain of `lambda:` or of unary minuses): read by the tokenizer, which does not recurse."""
    depth, deepest, line, tokens = 0, 0, None, {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            tokens[token.start[0]] = tokens.get(token.start[0], 0) + 1
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
                if depth > deepest:
                    deepest, line = depth, token.start[0]
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
    except (tokenize.TokenError, SyntaxError):
        pass
    if deepest > 1:
        return line
    return max(tokens, key=tokens.get) if tokens else None


# A line of IPython's own commands, which notebooks (and tutorials copied from them) hold: `%matplotlib inline`,
# `%timeit f(x)`, `!pip install torch`.
_NOTEBOOK_LINE = re.compile(r"([ \t]*)([%!].*)")
_INSTALL = re.compile(r"[%!](pip3?|conda|mamba) +install\b")


def parse_notebook(source: str) -> tuple[ast.Module, dict[int, str]]:
    """The program's tree, where each of IPython's lines (if it is not Python without them) is a `pass`; and
    those lines that are to be refused when they run, by number: all but `%matplotlib`, which only picks how a
    notebook shows its figures (the explorer shows them under Plots anyway), and the package installs a notebook
    starts with (`!pip install torch`): what the explorer runs is already there, and an import of anything else
    is refused at its own line, saying what is."""
    try:
        return parse(source), {}
    except GuardSyntaxError as error:
        lines, commands = source.split("\n"), {}
        for n, line in enumerate(lines, 1):
            found = _NOTEBOOK_LINE.fullmatch(line)
            if found:
                lines[n - 1] = found.group(1) + "pass"
                if not (found.group(2).startswith("%matplotlib") or _INSTALL.match(found.group(2))):
                    commands[n] = found.group(2).split()[0]
        if lines == source.split("\n"):
            raise error
        return parse("\n".join(lines)), commands  # (a syntax error now is the program's own, past IPython's)


def _notebook_refusals(tree, commands):
    return {node: GuardError(f"{commands[node.lineno]} is a command of IPython (a notebook's), not Python: the "
                             "explorer runs Python", node.lineno)
            for node in ast.walk(tree) if isinstance(node, ast.Pass) and node.lineno in commands}


def check(source: str) -> ast.Module:
    """Parses and validates a whole program: raises GuardSyntaxError for bad syntax, or the GuardError of its
    first refused statement (load, which runs programs, refuses statements one by one instead)."""
    tree, commands = parse_notebook(source)
    refused = {**allowlist.check(tree), **_notebook_refusals(tree, commands)}
    if refused:
        raise min(refused.values(), key=lambda e: e.line or 0)
    return tree


@functools.lru_cache(maxsize=32)
def load(source: str) -> Program:
    """Checks, reads, instruments and compiles a program. Raises only for what leaves nothing to run (bad
    syntax, too long, nested too deeply), and then keeps nothing."""
    tree, commands = parse_notebook(source)
    refused = {**allowlist.check(tree), **_notebook_refusals(tree, commands)}
    statements = Statements(tree)  # before the instrumenter rewrites the tree
    if refused:  # a refused statement is replaced: Python's own compile errors in it must still show
        _compile(tree)
    code = _compile(mark_lines(instrument(tree, refused)))
    return Program(source, code, statements, tuple(sorted(refused.values(), key=lambda e: e.line or 0)))


def _compile(tree):
    try:
        return compile(tree, FILENAME, "exec", dont_inherit=True)
    except SyntaxError as e:  # e.g. 'return' outside a function
        raise GuardSyntaxError(e.msg, e.lineno) from None
    except (RecursionError, MemoryError):
        raise GuardError("the program is too complex to compile") from None
