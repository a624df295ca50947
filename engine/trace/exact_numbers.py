"""`fractions` and `decimal` as views, their sizes bounded before the C call that makes a big number.

A Fraction is two ints: its `**`, `*` and `+` are sized as an int's (sized_operators.py; `sum()`: runtime.py),
and text with an exponent (`Fraction('1e999999999')`) is refused past the budget's bits. A Decimal is rounded to
its context's 28 digits in every operation, but text makes it exact at any exponent (`Decimal('1e999999999')`,
whose `int()` or `'{:f}'` would be that long): its construction is refused past ±10^MAX_DECIMAL_EXPONENT. The
context is the process's, so a program gets none (no getcontext, setcontext or localcontext): every Decimal computes
with Python's default context, 28 digits."""
from __future__ import annotations

import abc
import decimal
import fractions
import re

from .budget import budget_now
from .errors import GuardError, program_line
from .module_views import SafeModule

_EXPONENT = re.compile(r"[eE]\s*([-+]?\d+)")
_DECIMAL_NAMES = """InvalidOperation DivisionByZero Overflow Underflow Inexact Rounded DecimalException
    ROUND_UP ROUND_DOWN ROUND_CEILING ROUND_FLOOR ROUND_HALF_UP ROUND_HALF_DOWN ROUND_HALF_EVEN ROUND_05UP""".split()


class _AnyFraction(abc.ABCMeta):
    """isinstance(x, Fraction) for the Fractions arithmetic makes (fractions.Fraction itself) too."""

    def __instancecheck__(cls, obj):
        return fractions.Fraction in type(obj).__mro__

    def __subclasscheck__(cls, sub):
        return fractions.Fraction in getattr(sub, "__mro__", ())


class _AnyDecimal(type):
    def __instancecheck__(cls, obj):
        return decimal.Decimal in type(obj).__mro__

    def __subclasscheck__(cls, sub):
        return decimal.Decimal in getattr(sub, "__mro__", ())


class Fraction(fractions.Fraction, metaclass=_AnyFraction):
    """The view's Fraction: fractions.Fraction, its text's exponent sized first (one class for every run: read-only
    to programs, as every view's class is)."""

    __slots__ = ()

    def __new__(cls, numerator=0, denominator=None):
        if isinstance(numerator, str):
            found = _EXPONENT.search(numerator)
            budget = budget_now()
            if found and abs(int(found.group(1))) > budget.limits.max_int_bits * 3 // 10:  # its decimal digits
                budget.exceed(f"integers over {budget.limits.max_int_bits:,} bits are too big")
        return super().__new__(cls, numerator, denominator)


Fraction.__module__ = "fractions"
FRACTIONS = frozenset([fractions.Fraction, Fraction])  # the types a Fraction has (sized_operators.py)


def fractions_views(runtime, package):
    runtime.fractions = True  # (sized_operators.py: its operators look for Fractions from now on)
    return {package: SafeModule(package, {"Fraction": Fraction})}


MAX_DECIMAL_EXPONENT = 30_000


class Decimal(decimal.Decimal, metaclass=_AnyDecimal):
    __slots__ = ()

    def __new__(cls, value="0"):
        made = super().__new__(cls, value)
        if made.is_finite() and made and abs(made.adjusted()) > MAX_DECIMAL_EXPONENT:
            budget_now().stop(GuardError(f"Decimals beyond 1E±{MAX_DECIMAL_EXPONENT:,} are not allowed: their digits "
                                         "would be made in one step the explorer cannot stop", program_line()))
        return made


Decimal.__module__ = "decimal"


def decimal_views(runtime, package):
    attrs = {name: getattr(decimal, name) for name in _DECIMAL_NAMES}
    return {package: SafeModule(package, {**attrs, "Decimal": Decimal})}


def fraction_power_bits(a, b):
    """The bits of `a ** b` where either is a Fraction and the power is whole (else 0: a float results)."""
    exponent = b if type(b) is int else b.numerator if isinstance(b, fractions.Fraction) and b.denominator == 1 else 0
    if not exponent or not isinstance(a, (int, fractions.Fraction)) or isinstance(a, bool):
        return 0
    return max(a.numerator.bit_length(), a.denominator.bit_length()) * abs(exponent)


def fraction_product_bits(a, b):
    """The bits of `a * b` or `a + b` of Fractions (or a Fraction and an int): their numerators' and denominators'
    added."""
    def bits(x):
        return max(x.numerator.bit_length(), x.denominator.bit_length()) if isinstance(x, (int, fractions.Fraction)) \
            else 0
    return bits(a) + bits(b)
