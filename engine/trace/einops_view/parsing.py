"""One side of an einops pattern ('b c (h w)', '... d', 'b 1 n'), read as einops 0.8 reads it, with its errors."""
from __future__ import annotations

import keyword
import warnings

ELLIPSIS = "…"  # what '...' becomes: one character, as in einops


class EinopsError(RuntimeError):
    """einops.EinopsError."""


class AnonymousAxis:
    """A number in a pattern ('b 2 n'): each one its own axis (no two are equal)."""

    def __init__(self, value):
        self.value = int(value)
        if self.value <= 1:
            if self.value == 1:
                raise EinopsError("No need to create anonymous axis of length 1. Report this as an issue")
            raise EinopsError(f"Anonymous axis should have positive length, not {self.value}")

    def __repr__(self):
        return f"{self.value}-axis"


def axis_name_problem(name, allow_underscore=False):
    """Why `name` cannot name an axis ('' if it can)."""
    if not name.isidentifier():
        return "not a valid python identifier"
    if name == "_" and allow_underscore:
        return ""
    if name[0] == "_" or name[-1] == "_":
        return "axis name should should not start or end with underscore"
    if keyword.iskeyword(name):
        warnings.warn(f"It is discouraged to use axes names that are keywords: {name}", RuntimeWarning, stacklevel=4)
    if name == "axis":
        warnings.warn("It is discouraged to use 'axis' as an axis name and will raise an error in future",
                      FutureWarning, stacklevel=4)
    return ""


class Side:
    """composition: a list per axis of the tensor (the names grouped in it; ELLIPSIS alone for '...')."""

    def __init__(self, expression, allow_underscore=False):
        self._underscore = allow_underscore
        self.has_ellipsis, self.has_ellipsis_parenthesized = False, None
        self.identifiers, self.has_non_unitary_anonymous_axes, self.composition = set(), False, []
        if "." in expression:
            if "..." not in expression:
                raise EinopsError("Expression may contain dots only inside ellipsis (...)")
            if expression.count("...") != 1 or expression.count(".") != 3:
                raise EinopsError("Expression may contain dots only inside ellipsis (...); only one ellipsis for "
                                  "tensor ")
            expression = expression.replace("...", ELLIPSIS)
            self.has_ellipsis = True
        self._group, name = None, None
        for char in expression:
            if char in "() ":
                if name is not None:
                    self._add(name)
                name = None
                if char == "(":
                    if self._group is not None:
                        raise EinopsError("Axis composition is one-level (brackets inside brackets not allowed)")
                    self._group = []
                elif char == ")":
                    if self._group is None:
                        raise EinopsError("Brackets are not balanced")
                    self.composition.append(self._group)
                    self._group = None
            elif char.isalnum() or char in ("_", ELLIPSIS):
                name = char if name is None else name + char
            else:
                raise EinopsError(f"Unknown character '{char}'")
        if self._group is not None:
            raise EinopsError(f'Imbalanced parentheses in expression: "{expression}"')
        if name is not None:
            self._add(name)

    def _add(self, name):
        if name in self.identifiers and not (self._underscore and name == "_"):
            raise EinopsError(f'Indexing expression contains duplicate dimension "{name}"')
        if name == ELLIPSIS:
            self.identifiers.add(ELLIPSIS)
            self.has_ellipsis_parenthesized = self._group is not None
            (self.composition if self._group is None else self._group).append(ELLIPSIS)
            return
        is_number = name.isdecimal()
        if is_number and int(name) == 1:
            if self._group is None:
                self.composition.append([])
            return
        problem = "" if is_number else axis_name_problem(name, self._underscore)
        if problem:
            raise EinopsError(f"Invalid axis identifier: {name}\n{problem}")
        if is_number:
            name = AnonymousAxis(name)
            self.has_non_unitary_anonymous_axes = True
        self.identifiers.add(name)
        (self.composition if self._group is None else self._group).append([name] if self._group is None else name)
