"""The operators a program's arithmetic goes through, sized before the C call that could blow up: `+` and `*` of
sequences charge their elements, `*`, `**` and `<<` of ints stop past the budget's bits, `%`, `//` and divmod of big
ints are checked for their work (those of Fractions: exact_numbers.py too), and `int(text, base)` for its size."""
from __future__ import annotations

import operator

from .exact_numbers import FRACTIONS, fraction_power_bits, fraction_product_bits
from .sizing import SEQUENCES, result_len

_INPLACE = {"+": operator.iadd, "*": operator.imul, "**": operator.ipow, "<<": operator.ilshift, "%": operator.imod,
            "//": operator.ifloordiv}


class SizedOperators:
    """Taken in by runtime.Runtime, which gives it budget, max_int_bits, checked (these operators by symbol), and
    check_printf and shown (what `text % values` checks). `fractions`: whether the program imported fractions (no
    Fraction exists before): until then a loop's `+` and `*` do not pay for looking for one."""

    fractions = False

    # `a op b` for the operators that can make huge sequences or ints; `apply` is the in-place op for `op=`.
    def add(self, a, b, apply=operator.add):
        if isinstance(a, SEQUENCES):
            self.grow("+", a, b)
        elif self.fractions and (type(a) in FRACTIONS or type(b) in FRACTIONS):
            self.fraction_bits(fraction_product_bits(a, b))
        return apply(a, b)

    def mul(self, a, b, apply=operator.mul):
        if type(a) is int and type(b) is int:
            if a.bit_length() + b.bit_length() > self.max_int_bits:
                self.int_too_big()
        elif isinstance(a, SEQUENCES) or isinstance(b, SEQUENCES):
            self.grow("*", a, b)
        elif self.fractions and (type(a) in FRACTIONS or type(b) in FRACTIONS):
            self.fraction_bits(fraction_product_bits(a, b))
        return apply(a, b)

    def power(self, a, b, apply=operator.pow):
        if type(a) is int and type(b) is int and b > 0 and a.bit_length() > 1:
            if a.bit_length() * b > self.max_int_bits:
                self.int_too_big()
        elif self.fractions and (type(a) in FRACTIONS or type(b) in FRACTIONS):
            self.fraction_bits(fraction_power_bits(a, b))
        return apply(a, b)

    def lshift(self, a, b, apply=operator.lshift):
        if type(a) is int and type(b) is int and a and a.bit_length() + b > self.max_int_bits:
            self.int_too_big()
        return apply(a, b)

    def mod(self, a, b, apply=operator.mod):
        if isinstance(a, (str, bytes)):
            self.check_printf(a if isinstance(a, str) else a.decode("latin-1"))
            self.shown(b)
        elif type(a) is int and type(b) is int:
            self.check_division(a, b)
        return apply(a, b)

    def floordiv(self, a, b, apply=operator.floordiv):
        if type(a) is int and type(b) is int:
            self.check_division(a, b)
        return apply(a, b)

    def divmod(self, a, b):
        if type(a) is int and type(b) is int:
            self.check_division(a, b)
        return divmod(a, b)

    def check_division(self, a, b):
        """Dividing big ints costs about the product of their sizes."""
        if a.bit_length() * b.bit_length() > self.max_int_bits ** 2:
            self.budget.exceed(f"dividing a {a.bit_length():,}-bit integer by a {b.bit_length():,}-bit one is "
                               "too much work")

    def int_(self, function, *args, **kwargs):
        """`int(...)` as the program wrote it: `int(text, base)` sized first (base 10 Python limits itself)."""
        if function is int and (len(args) == 2 or "base" in kwargs) and isinstance(args[0], (str, bytes)):
            base = operator.index(args[1] if len(args) == 2 else kwargs["base"]) or 16
            if len(args[0]) * max(base - 1, 1).bit_length() > self.max_int_bits:
                self.int_too_big()
        return function(*args, **kwargs)

    def inplace(self, symbol, a, b):
        return self.checked[symbol](a, b, _INPLACE[symbol])

    def grow(self, op, a, b):
        n = result_len(op, a, b)
        if n:
            self.budget.charge_elements(n)

    def fraction_bits(self, bits):
        if bits > self.max_int_bits:
            self.int_too_big()

    def int_too_big(self):
        self.budget.exceed(f"integers over {self.max_int_bits:,} bits are too big")
