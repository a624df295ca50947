"""Comparisons: eq, ne, lt, le, gt, ge and their aliases. Out of place they give bool tensors, which have no grad;
in place (`x.lt_(y)`, the 0/1 written into x) PyTorch records a node whose derivative is zero: LtBackward1 for a
tensor operand, LtBackward0 for a number. The operators (`==`, `<`, …) are engine/logic.py's."""
import numpy as np

from .. import dtypes
from .complex_refusals import ordered
from .table import OPS, Spelling, binary_signatures, is_number, op

_ALIASES = {"ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}


def _zero(n, g):
    return g * 0


def _declare(name, fn):
    alias = _ALIASES.get(name)
    names = (name, alias) if alias else (name,)
    spell = Spelling(method=names, function=names, inplace=tuple(n + "_" for n in names),
                     signatures=binary_signatures())

    def bind(self, other):
        if is_number(other):
            return OPS[name + "_scalar"], (self,), {"other": other}, dtypes.bool
        return OPS[name], (self, other), None, dtypes.bool

    node = name.capitalize() + "Backward"
    op(name, node + "1", ("self", "other"), lambda a, b: fn(a, b), ("0", _zero), ("0", _zero), spell=spell,
       bind=bind)
    op(name + "_scalar", node + "0", ("self",), lambda a, other: fn(a, other), ("0", _zero), spell=spell, bind=bind)


for _name, _fn in (("eq", np.equal), ("ne", np.not_equal), ("lt", np.less), ("le", np.less_equal),
                   ("gt", np.greater), ("ge", np.greater_equal)):
    _declare(_name, _fn if _name in ("eq", "ne") else ordered(_fn, _name))
