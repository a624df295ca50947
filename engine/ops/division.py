"""Division that rounds: `//` and torch.floor_divide (no derivative in torch: its node is NotImplemented),
torch.div(…, rounding_mode=None|'trunc'|'floor') (DivBackward2: zero grads when it rounds), `%` and remainder
(Python's sign: the divisor's), fmod (C's sign: the dividend's). Integers divided by zero raise, as ATen's
kernels do; floats give inf and nan."""
import numpy as np

from .. import dtypes
from .table import OPS, Spelling, binary_signatures, composite, is_number, op, result_dtype


class UNSET:
    """rounding_mode not given: div.Tensor, not div.Tensor_mode."""


def _integers(a, b):
    """Whether the op computes in integers (bool counts: its kernels refuse it, below); raises ATen's error for
    a zero divisor then."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "f" or b.dtype.kind in "f":
        return False
    if (b == 0).any():
        raise RuntimeError("ZeroDivisionError")
    return True


def _floor(a, b):
    _integers(a, b)
    return np.floor_divide(a, b)


def _trunc(a, b):
    if _integers(a, b):
        q = np.floor_divide(a, b)
        return q + ((q < 0) & (q * b != a))
    return np.trunc(np.true_divide(a, b))


def _no_bool(kernel, *operands):
    """ATen's rounding kernels have no bool version."""
    if result_dtype(operands) is dtypes.bool:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def _not_implemented(name):
    def vjp(n, g):
        raise RuntimeError(f"derivative for aten::{name}{'_' * n.attrs.get('inplace', False)} is not implemented")

    return vjp


# --- floor_divide, // ------------------------------------------------------------------------------------
def _bind_floor_divide(self, other):
    _no_bool("div_floor_cpu", self, other)
    return OPS["floor_divide"], (self, other), None, result_dtype((self, other))


op("floor_divide", "NotImplemented", ("self", "other"), _floor,
   ("not implemented", _not_implemented("floor_divide")), ("not implemented", _not_implemented("floor_divide")),
   spell=Spelling(method="floor_divide", function="floor_divide", inplace="floor_divide_", infix="//",
                  number_first=True),
   bind=_bind_floor_divide)


@composite(Spelling(rinfix="//"))
def rfloordiv(self, other):
    _no_bool("div_floor_cpu", other, self)
    return self._apply(OPS["floor_divide"], (other, self), None, result_dtype((other, self)))


# --- div(…, rounding_mode=) ---------------------------------------------------------------------------------
_ROUND = {None: np.true_divide, "trunc": _trunc, "floor": _floor}


def bind_div_mode(self, other, rounding_mode):
    if rounding_mode not in _ROUND:
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}'")
    if rounding_mode is not None:
        _no_bool(f"div_{rounding_mode}_cpu", self, other)
    dtype = result_dtype((self, other), "float" if rounding_mode is None else None)
    return OPS["div_mode"], (self, other), {"rounding_mode": rounding_mode}, dtype


def _zeros(g):
    return g._new(np.zeros(g.shape, g.dtype.np), g.dtype)


def _div_mode_self(n, g):
    return _zeros(g) if n.attrs["rounding_mode"] is not None else g / n["other"]


def _div_mode_other(n, g):
    if n.attrs["rounding_mode"] is not None:
        return _zeros(g)
    return -g * (n["self"] / n["other"] / n["other"])


def _div_mode_label(s, a):
    return f"{s[0]}.div({s[1]}, rounding_mode={a['rounding_mode']!r})"


op("div_mode", "DivBackward2", ("self", "other"), lambda a, b, rounding_mode: _ROUND[rounding_mode](a, b),
   ("grad / other (0 when it rounds)", _div_mode_self), ("−grad · self / other² (0 when it rounds)", _div_mode_other),
   saves={0: ("other", "rounding_mode"), 1: ("self", "other", "rounding_mode")},
   spell=Spelling(name=_div_mode_label), bind=False)


# --- remainder, % ------------------------------------------------------------------------------------------
def _remainder(a, b):
    if _integers(a, b):
        return np.remainder(a, b)
    mod = np.fmod(a, b)  # ATen: C's fmod, moved into the divisor's sign (a zero keeps the dividend's)
    return np.where((mod != 0) & ((np.asarray(b) < 0) != (mod < 0)), mod + b, mod)


def _bind_remainder(self, other):
    """x % y: remainder.Tensor (RemainderBackward1); x % 3: remainder.Scalar (RemainderBackward0);
    torch.remainder(3, x): remainder.Scalar_Tensor, which has no derivative."""
    _no_bool("remainder_cpu", self, other)
    if is_number(self):
        return OPS["remainder_number"], (self, other), None, result_dtype((self, other))
    if is_number(other):
        return OPS["remainder_scalar"], (self,), {"other": other}, result_dtype((self, other))
    return OPS["remainder"], (self, other), None, None


_REMAINDER = Spelling(method="remainder", function="remainder", inplace="remainder_", infix="%", number_first="bind",
                      signatures=binary_signatures(number_self="plain"))
op("remainder", "RemainderBackward1", ("self", "other"), _remainder,
   ("grad", lambda n, g: g),
   ("−floor(self / other) · grad", lambda n, g: -g * n["self"].div(n["other"], rounding_mode="floor")),
   saves={1: ("self", "other")}, spell=_REMAINDER, bind=_bind_remainder)
op("remainder_scalar", "RemainderBackward0", ("self",), lambda a, other: _remainder(a, other),
   ("grad", lambda n, g: g), spell=Spelling(infix="%"), bind=False)
op("remainder_number", "NotImplemented", ("self", "other"), _remainder,
   ("not implemented", _not_implemented("remainder")), ("not implemented", _not_implemented("remainder")),
   spell=Spelling(infix="%"), bind=False)


@composite(Spelling(rinfix="%"))
def rmod(self, other):
    if hasattr(other, "_data"):  # x.__rmod__(t) is torch.remainder(t, x)
        return other._apply(*_bind_remainder(other, self))
    _no_bool("remainder_cpu", other, self)
    return self._apply(OPS["remainder_number"], (other, self), None, result_dtype((other, self)))


# --- fmod ------------------------------------------------------------------------------------------------
def _fmod(a, b):
    _integers(a, b)
    return np.fmod(a, b)


def _bind_fmod(self, other):
    _no_bool("fmod_cpu", self, other)
    if is_number(other):
        return OPS["fmod_scalar"], (self,), {"other": other}, result_dtype((self, other))
    return OPS["fmod"], (self, other), None, None


_FMOD = Spelling(method="fmod", function="fmod", inplace="fmod_", signatures=binary_signatures())
op("fmod", "FmodBackward1", ("self", "other"), _fmod,
   ("grad", lambda n, g: g),
   ("−trunc(self / other) · grad", lambda n, g: -g * n["self"].div(n["other"], rounding_mode="trunc")),
   saves={1: ("self", "other")}, spell=_FMOD, bind=_bind_fmod)
op("fmod_scalar", "FmodBackward0", ("self",), lambda a, other: _fmod(a, other), ("grad", lambda n, g: g),
   spell=Spelling(method="fmod", name="{0}.fmod({other})"), bind=False)
