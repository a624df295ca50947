"""Integer element-wise ops (bitwise and/or/xor, shifts, gcd, lcm: no derivative, as integers have none), and the
real-valued ops torch has no derivative for (heaviside, nextafter), ldexp, float_power, rsub with a tensor, angle."""
import collections
import math

import numpy as np

from .. import dtypes
from .table import (
    OPS,
    Spelling,
    binary_signatures,
    can_cast,
    composite,
    is_number,
    is_tensor,
    op,
    result_dtype,
    tensor_argument,
)


def _kernel_error(kernel, *operands):
    """ATen's integer kernels refuse floats: NotImplementedError naming the kernel and the dtype."""
    d = result_dtype(operands)
    if d.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{d.type_name}'")
    return d


def _no_derivative(name):
    def vjp(n, g):
        raise RuntimeError(f"derivative for aten::{name}{'_' * n.attrs.get('inplace', False)} is not implemented")

    return vjp


def _integer_op(name, kernel, forward, infix=None, rinfix=None, inplace=True):
    def bind(self, other):
        if name in ("gcd", "lcm"):  # no Scalar overloads
            tensor_argument(name, "other", other)
        return OPS[name], (self, other), None, _kernel_error(kernel, self, other)

    op(name, "NotImplemented", ("self", "other"), forward,
       ("not differentiable", _no_derivative(name)), ("not differentiable", _no_derivative(name)),
       spell=Spelling(method=name, function=name, inplace=name + "_" if inplace else (), infix=infix, rinfix=rinfix,
                      number_first=name not in ("gcd", "lcm"),
                      signatures=() if name in ("gcd", "lcm") else binary_signatures(number_self="plain"),
                      inplace_function=name + "_" if name in ("gcd", "lcm") else ()),
       bind=bind)


_integer_op("bitwise_and", "bitwise_and_cpu", np.bitwise_and, infix="&", rinfix="&")
_integer_op("bitwise_or", "bitwise_or_cpu", np.bitwise_or, infix="|", rinfix="|")
_integer_op("bitwise_xor", "bitwise_xor_cpu", np.bitwise_xor, infix="^", rinfix="^")


def _bits(a):
    return np.asarray(a).dtype.itemsize * 8


def _lshift(a, b):
    a, b = np.asarray(a), np.asarray(b)
    out_dtype = np.result_type(a, b)
    a, b = a.astype(out_dtype), b.astype(out_dtype)
    bits = _bits(a)
    unsigned = a.view(np.dtype(f"u{a.itemsize}")) if a.dtype.kind == "i" else a
    inside = (b >= 0) & (b < bits)
    shifted = np.left_shift(unsigned, np.where(inside, b, 0).astype(unsigned.dtype)).view(out_dtype)
    return np.where(inside, shifted, np.zeros((), out_dtype))


def _rshift(a, b):
    a, b = np.asarray(a), np.asarray(b)
    out_dtype = np.result_type(a, b)
    a, b = a.astype(out_dtype), b.astype(out_dtype)
    top = _bits(a) - (1 if a.dtype.kind == "i" else 0)
    inside = (b >= 0) & (b < _bits(a))
    return np.right_shift(a, np.where(inside, b, top).astype(a.dtype)) if a.dtype.kind == "i" else \
        np.where(inside, np.right_shift(a, np.where(inside, b, 0).astype(a.dtype)), np.zeros((), a.dtype))


def _shift(name, kernel, forward, infix):
    def bind(self, other):
        return OPS[name], (self, other), None, _kernel_error(kernel, self, other)

    op(name, "NotImplemented", ("self", "other"), forward,
       ("not differentiable", _no_derivative(name)), ("not differentiable", _no_derivative(name)),
       spell=Spelling(method=name, function=name, inplace=name + "_", infix=infix, number_first=True,
                      signatures=binary_signatures(number_self="plain")), bind=bind)


_shift("bitwise_left_shift", "lshift_cpu", _lshift, "<<")
_shift("bitwise_right_shift", "rshift_cpu", _rshift, ">>")


def _lcm(a, b):
    g = np.gcd(a, b)
    with np.errstate(all="ignore"):
        return np.where(g == 0, np.zeros((), np.result_type(a, b)), np.abs(a // np.where(g == 0, 1, g) * b))


_integer_op("gcd", "gcd_cpu", np.gcd)
_integer_op("lcm", "lcm_cpu", _lcm)


def _zeros(n, g):
    """zeros_like(self): a constant, so a second derivative finds no path through it (None, as torch)."""
    return g._new(np.zeros(g.shape, g.dtype.np), g.dtype)


# --- heaviside, nextafter ---------------------------------------------------------------------------------------
def _bind_heaviside(self, values):
    tensor_argument("heaviside", "values", values)
    if self.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return OPS["heaviside"], (self, values), None, self.dtype


op("heaviside", "NotImplemented", ("self", "values"),
   lambda a, v: np.where(a == 0, v, (a > 0).astype(np.result_type(a, v))),
   ("not implemented", _no_derivative("heaviside")), ("not implemented", _no_derivative("heaviside")),
   spell=Spelling(method="heaviside", function="heaviside", inplace="heaviside_"), bind=_bind_heaviside)


def _bind_nextafter(self, other):
    tensor_argument("nextafter", "other", other)
    d = result_dtype((self, other))
    if not d.is_floating_point:
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for '{d.type_name}'")
    return OPS["nextafter"], (self, other), None, d


op("nextafter", "NextafterBackward0", ("self", "other"), np.nextafter,
   ("grad where self ≠ other", lambda n, g: g.masked_fill(n["self"] == n["other"], 0.0)), ("0", _zeros),
   saves={0: ("self", "other")},
   spell=Spelling(method="nextafter", function="nextafter", inplace="nextafter_"), bind=_bind_nextafter)


# --- ldexp, float_power, rsub, angle ---------------------------------------------------------------------------
def _ldexp_out(source, result, out):
    """ATen's ldexp_out checks the cast itself, in its own words, before mul_out sizes the output."""
    return None if can_cast(result, out) else f"ldexp can't be cast to the desired output type {out.type_name}"


def _ldexp(a, b):
    return a * np.exp2(np.asarray(b, np.float64)).astype(np.result_type(a, np.float32))


op("ldexp", "LdexpBackward0", ("self", "other"), _ldexp,
   ("2^other · grad", lambda n, g: g * (2 ** n["other"])),  # pow(2, other): in integers for an integer other
   ("result · ln 2 · grad", lambda n, g: g * n["result"] * math.log(2)),
   saves={0: ("other",), 1: ("result",)},
   spell=Spelling(method="ldexp", function="ldexp", inplace="ldexp_", inplace_function="ldexp_",
                  out_dtype=_ldexp_out),
   bind=lambda self, other: (tensor_argument("ldexp", "other", other),
                             (OPS["ldexp"], (self, other), None, result_dtype((self, other), "float")))[1])


@composite(Spelling(method="float_power", function="float_power", signatures=binary_signatures("exponent", "out")))
def float_power(self, exponent):
    """pow computed in float64: both operands converted first (ToCopyBackward0 where they were not)."""
    if is_number(self):
        return exponent.double().__rpow__(float(self))
    base = self.double()
    return base.pow(exponent.double() if is_tensor(exponent) else float(exponent))


@composite(Spelling(method="float_power_"))
def float_power_(self, exponent):
    if self.dtype is not dtypes.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {self.dtype.type_name} but the operation's "
                           "result requires dtype Double")
    return self.pow_(exponent.double() if is_tensor(exponent) else float(exponent))


def _bind_rsub(self, other, alpha=1):
    dtype = result_dtype((self, other))
    if is_number(other):
        return OPS["rsub"], (self,), {"other": other, "alpha": alpha}, dtype
    return OPS["rsub_tensor"], (self, other), {"alpha": alpha}, dtype


op("rsub_tensor", "RsubBackward0", ("self", "other"), lambda a, b, alpha=1: b - alpha * a,
   ("−alpha · grad", lambda n, g: -g * n.attrs.get("alpha", 1)), ("grad", lambda n, g: g),
   saves={0: ("alpha",)}, spell=Spelling(function="rsub", signatures=(
       "(Tensor input, Tensor other, *, Number alpha = 1)", "(Tensor input, Number other, Number alpha = 1)")),
   bind=_bind_rsub)


def _angle(a):
    if a.dtype.kind == "c":
        return np.angle(a)
    x = np.asarray(a, np.float64) if a.dtype.kind != "f" else a
    return np.where(np.isnan(x), x, np.where(x < 0, np.asarray(math.pi, x.dtype), np.zeros((), x.dtype)))


def _angle_grad(n, g):
    """0 for a real input; for a complex one ATen's angle_backward: where(self == 0, 0, grad · self / |self|² · i)."""
    x = n["self"]
    if not x.dtype.is_complex:
        return _zeros(n, g)
    return (g * x / x.abs().pow(2) * 1j).where(x != 0.0, 0.0)


op("angle", "AngleBackward0", ("self",), _angle, ("0", _angle_grad), saves={0: ("self",)},
   spell=Spelling(method="angle", function="angle"),
   bind=lambda self: (OPS["angle"], (self,), None, dtypes.to_real(result_dtype((self,), "float"))))


@composite(Spelling(method="positive", function="positive"))
def positive(self):
    if self.dtype is dtypes.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self


# a real tensor is its own resolved negation
@composite(Spelling(method="resolve_neg", function="resolve_neg", out=False))
def resolve_neg(self):
    return self


# --- frexp -----------------------------------------------------------------------------------------------------
def _frexp_type():
    cls = collections.namedtuple("frexp", ["mantissa", "exponent"])
    cls.__repr__ = lambda self: f"torch.return_types.frexp(\nmantissa={self.mantissa!r},\nexponent={self.exponent!r})"
    return cls


_FREXP = _frexp_type()
op("frexp", "FrexpBackward0", ("self",), lambda a, exponent: np.frexp(a)[0],
   ("grad / 2^exponent", lambda n, g: g / n.attrs["exponent"].exp2()), saves={0: ("exponent",)}, bind=False,
   spell=Spelling(name="{0}.frexp().mantissa"))


@composite(Spelling(method="frexp", function="frexp", out=False))
def frexp(self):
    """(mantissa, exponent) with self = mantissa · 2^exponent, |mantissa| in [0.5, 1); the exponent int32."""
    if not self.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    exponent = self._new(np.frexp(self._data)[1].astype(np.int32), dtypes.int32)
    return _FREXP(self._apply(OPS["frexp"], (self,), {"exponent": exponent}, None), exponent)
