"""Element-wise math beyond the basics: inverse trig and hyperbolic functions, exp2, the gamma family (lgamma,
digamma, polygamma, mvlgamma), erfc/erfinv, Bessel i0/i1, the normal distribution's ndtr/ndtri/log_ndtr, erfcx,
entr, logit, sinc, zeta, and the binary atan2, hypot, copysign, logaddexp, fmax/fmin, xlog1py. Derivatives as ATen's
derivatives.yaml states them; the numerics are engine/kernels/special.py and faddeeva.py (ATen's own algorithms).

Over 500 lines: one table of op declarations, a few lines each."""
import math

import numpy as np

from .. import grad_mode
from ..kernels import faddeeva
from ..kernels import special as sp
from ..kernels.bessel import log, sin, work
from .complex_numbers import conj_of, conjugated_vjp
from .rounding import exact
from .table import (
    OPS,
    Spelling,
    binary_signatures,
    can_cast,
    composite,
    is_number,
    op,
    result_dtype,
    tensor_argument,
    unary,
)

_SQRT_PI = 1.7724538509055160273
_LN2 = 0.6931471805599453


def _float(fn):
    """A kernel of float64 math, its result in the input's float dtype (dispatch casts integers' to float32)."""
    def forward(a, *args, **kwargs):
        out = fn(a, *args, **kwargs)
        return out.astype(a.dtype) if a.dtype.kind == "f" else out

    return forward


_HOLOMORPHIC = frozenset(("asin", "acos", "asinh", "acosh", "atanh", "exp2"))


def _unary(name, node, forward, formula, vjp, saves="self", spell=None, dtype="float"):
    if name in _HOLOMORPHIC:
        vjp = conjugated_vjp(vjp)
    op(name, node, ("self",), forward, (formula, vjp), saves={0: (saves,) if isinstance(saves, str) else saves},
       dtype=dtype, spell=spell or unary(name))


def _aliased(name, alias, special=()):
    """x.name(), torch.name, and the NumPy-style alias (arccos) as method, function and in-place twin."""
    return Spelling(method=(name, alias), function=(name, alias), inplace=(name + "_", alias + "_"),
                    inplace_function=(name + "_", alias + "_"), special=special)


# --- inverse trigonometric and hyperbolic -------------------------------------------------------------------------
_unary("asin", "AsinBackward0", exact(np.arcsin), "grad / √(1 − self²)",
       lambda n, g: g * (-n["self"] * n["self"] + 1).rsqrt(), spell=_aliased("asin", "arcsin"))
_unary("acos", "AcosBackward0", exact(np.arccos), "−grad / √(1 − self²)",
       lambda n, g: g * -((-n["self"] * n["self"] + 1).rsqrt()), spell=_aliased("acos", "arccos"))


def _inplace_not_implemented(name):
    def vjp(n, g):
        raise NotImplementedError(f"the derivative for 'inplace version of {name}' is not implemented.")

    return vjp


for _name, _fn, _formula, _vjp in (
        ("asinh", np.arcsinh, "grad / √(self² + 1)", lambda n, g: g * (n["self"].pow(2) + 1).rsqrt()),
        ("acosh", np.arccosh, "grad / √(self² − 1)", lambda n, g: g * (
            (n["self"] + 1).rsqrt() * (n["self"] - 1).rsqrt() if g.dtype.is_complex
            else (n["self"].pow(2) - 1).rsqrt())),
        ("atanh", np.arctanh, "grad / (1 − self²)", lambda n, g: g * 1 / (1 - n["self"].pow(2)))):
    _alias = "arc" + _name[1:]
    _unary(_name, _name.capitalize() + "Backward0", exact(_fn), _formula, _vjp,
           spell=Spelling(method=(_name, _alias), function=(_name, _alias)))
    # in place, PyTorch has no derivative for them (AsinhBackward1 raises)
    op(_name + "_", _name.capitalize() + "Backward1", ("self",), exact(_fn),
       ("not implemented in place", _inplace_not_implemented(_name)),
       spell=Spelling(inplace=(_name + "_", _alias + "_"), inplace_function=(_name + "_", _alias + "_")),
       bind=lambda self, name=_name: (OPS[name + "_"], (self,), None, result_dtype((self,), "float")))

# --- exponentials, angles, fractions ------------------------------------------------------------------------------
_unary("exp2", "Exp2Backward0", exact(np.exp2), "result · ln 2 · grad", lambda n, g: g * n["result"] * _LN2,
       saves="result", spell=unary("exp2", special="exp2"))
_unary("deg2rad", "Deg2RadBackward0", lambda a: a * np.asarray(math.pi / 180, a.dtype if a.dtype.kind == "f" else None),
       "grad · π/180", lambda n, g: g.deg2rad(), saves=())
_unary("rad2deg", "Rad2DegBackward0", lambda a: a * np.asarray(180 / math.pi, a.dtype if a.dtype.kind == "f" else None),
       "grad · 180/π", lambda n, g: g.rad2deg(), saves=())


def _bind_frac(self):
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f"\"frac_cpu\" not implemented for '{self.dtype.type_name}'")
    return OPS["frac"], (self,), None, None


op("frac", "FracBackward0", ("self",), lambda a: a - np.trunc(a), ("grad", lambda n, g: g), spell=unary("frac"),
   bind=_bind_frac)


def _sinc(a):
    if a.dtype.kind == "c":
        with np.errstate(all="ignore"):
            px = a * a.real.dtype.type(math.pi)
            return np.where(a == 0, a.dtype.type(1), np.sin(px) / px)
    x = work(a)
    with np.errstate(all="ignore"):
        px = x.dtype.type(math.pi) * x
        return np.where(x == 0, x.dtype.type(1), sin(px) / px)


def _sinc_grad(n, g):
    s = n["self"]
    self_pi = s * math.pi
    self_squared_pi = s * s * math.pi
    out = g * conj_of(((self_pi * self_pi.cos()) - self_pi.sin()) / self_squared_pi)
    return out.where(self_squared_pi != 0.0, 0.0)


_unary("sinc", "SincBackward0", _float(_sinc), "(π·self·cos(π·self) − sin(π·self)) / (π·self²) · grad", _sinc_grad,
       spell=unary("sinc", special="sinc"))


# --- the gamma family -------------------------------------------------------------------------------------------------
_unary("lgamma", "LgammaBackward0", _float(sp.lgamma), "ψ(self) · grad", lambda n, g: g * n["self"].digamma(),
       spell=Spelling(method="lgamma", function="lgamma", inplace="lgamma_", special="gammaln"))
_unary("digamma", "DigammaBackward0", _float(sp.digamma), "ψ′(self) · grad",
       lambda n, g: g * n["self"].polygamma(1),
       spell=Spelling(method="digamma", function="digamma", inplace="digamma_", special=("digamma", "psi")))


def _bind_polygamma(n, input):  # noqa: A002 - torch.polygamma(n, input)
    if is_number(input) or not isinstance(n, int) or isinstance(n, bool):
        raise TypeError("polygamma(): argument 'n' must be int")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return OPS["polygamma"], (input,), {"n": n}, result_dtype((input,), "float")


def _bind_polygamma_method(self, n):
    _, inputs, attrs, dtype = _bind_polygamma(n, self)
    return OPS["polygamma_method"], inputs, attrs, dtype


op("polygamma", "PolygammaBackward0", ("self",), _float(lambda a, n: sp.polygamma(n, a)),
   ("ψ⁽ⁿ⁺¹⁾(self) · grad", lambda n, g: g * n["self"].polygamma(n.attrs["n"] + 1)), saves={0: ("self", "n")},
   spell=Spelling(function="polygamma", special="polygamma", name="torch.polygamma({n}, {0})",
                  number_first="bind"), bind=_bind_polygamma)
op("polygamma_method", "PolygammaBackward0", ("self",), _float(lambda a, n: sp.polygamma(n, a)),
   ("ψ⁽ⁿ⁺¹⁾(self) · grad", lambda n, g: g * n["self"].polygamma(n.attrs["n"] + 1)), saves={0: ("self", "n")},
   spell=Spelling(method="polygamma", name="{0}.polygamma({n})"), bind=_bind_polygamma_method)


def _bind_polygamma_(self, n):
    _, inputs, attrs, dtype = _bind_polygamma(n, self)
    return OPS["polygamma_"], inputs, attrs, dtype


op("polygamma_", "PolygammaBackward1", ("self",), _float(lambda a, n: sp.polygamma(n, a)),
   ("ψ⁽ⁿ⁺¹⁾(self) · grad", lambda n, g: g * n["self"].polygamma(n.attrs["n"] + 1)), saves={0: ("self", "n")},
   spell=Spelling(inplace="polygamma_"), bind=_bind_polygamma_)


def _mvlgamma(a, p):
    """ATen's mvlgamma: lgamma(self + arange(−(p−1)/2, 0.5, 0.5)) summed, plus p(p−1)/4 · ln π."""
    x = work(a)
    t = x.dtype.type
    out = None
    for j in range(p - 1, -1, -1):
        term = sp.lgamma(x + t(-j / 2))
        out = term if out is None else out + term
    return out + t(p * (p - 1) * math.log(math.pi) / 4)


def _bind_mvlgamma(self, p):
    if self.dtype.name == "bool":
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return OPS["mvlgamma"], (self,), {"p": p}, result_dtype((self,), "float")


def _mvlgamma_out(source, result, out):
    """ATen's mvlgamma_out (mvlgamma_ too): its text names the input's dtype and the result's, not out's."""
    if can_cast(result, out):
        return None
    return f"mvlgamma: result type {source.type_name} can't be cast to the desired output type {result.type_name}"


def _mvlgamma_grad(n, g):
    s, p = n["self"], n.attrs["p"]
    total = None
    for j in range(p):
        term = (s - j / 2).digamma()
        total = term if total is None else total + term
    return g * total


op("mvlgamma", "MvlgammaBackward0", ("self",), _float(_mvlgamma), ("Σⱼ ψ(self − j/2) · grad", _mvlgamma_grad),
   saves={0: ("self", "p")}, spell=Spelling(method="mvlgamma", function="mvlgamma", inplace="mvlgamma_",
                                            special="multigammaln", out_dtype=_mvlgamma_out), bind=_bind_mvlgamma)


# --- erf's relatives and the normal distribution ----------------------------------------------------------------------
_unary("erfc", "ErfcBackward0", _float(sp.erfc), "−2/√π · exp(−self²) · grad",
       lambda n, g: g * ((n["self"] * n["self"]).neg().exp() * (-2.0 / _SQRT_PI)), spell=unary("erfc", special="erfc"))
_unary("erfinv", "ErfinvBackward0", _float(sp.erfinv), "√π/2 · exp(erfinv(self)²) · grad",
       lambda n, g: g * (n["self"].erfinv().pow(2).exp() * (0.5 * _SQRT_PI)),
       spell=Spelling(method="erfinv", function="erfinv", inplace="erfinv_", special="erfinv"))
_unary("special_erfcx", "SpecialErfcxBackward0", _float(faddeeva.erfcx), "(2 · self · result − 2/√π) · grad",
       lambda n, g: g * (n["self"] * n["result"] * 2.0 - 2.0 / _SQRT_PI), saves=("self", "result"),
       spell=Spelling(special="erfcx"))
_unary("special_ndtri", "SpecialNdtriBackward0", _float(sp.ndtri), "√(2π) · exp(result²/2) · grad",
       lambda n, g: g * math.sqrt(2 * math.pi) * (n["result"].square() / 2).exp(), saves="result",
       spell=Spelling(special="ndtri"))
_unary("special_log_ndtr", "SpecialLogNdtrBackward0", _float(faddeeva.log_ndtr),
       "exp(−(result + self²/2)) / √(2π) · grad",
       lambda n, g: g / math.sqrt(2 * math.pi) * (n["result"] + n["self"].pow(2) / 2).neg().exp(),
       saves=("self", "result"), spell=Spelling(special="log_ndtr"))


@composite(Spelling(special="ndtr"))
def special_ndtr(self):
    """ATen's special_ndtr: (1 + erf(x / √2)) / 2, written with Scalar overloads."""
    if not self.dtype.is_floating_point:
        self = self.float()
    return (self._op("mul_scalar", other=0.7071067811865476).erf()._op("add_scalar", other=1))._op(
        "mul_scalar", other=0.5)


def _entr(a):
    x = work(a)
    with np.errstate(all="ignore"):
        out = np.where(x > 0, -x * log(x), np.where(x == 0, x.dtype.type(0), x.dtype.type(-np.inf)))
    return np.where(np.isnan(x), x, out)


_unary("special_entr", "SpecialEntrBackward0", _float(_entr), "−(1 + ln self) · grad",
       lambda n, g: g * (-(1 + n["self"].log())), spell=Spelling(special="entr"))


# --- Bessel i0, i1 --------------------------------------------------------------------------------------------------
_unary("i0", "I0Backward0", _float(sp.i0), "i1(self) · grad", lambda n, g: g * n["self"]._op("special_i1"),
       spell=unary("i0", special="i0"))
_unary("special_i0e", "SpecialI0EBackward0", _float(sp.i0e), "(i1e(self) − sgn(self) · result) · grad",
       lambda n, g: g * (n["self"]._op("special_i1e") - n["self"].sgn() * n["result"]), saves=("self", "result"),
       spell=Spelling(special="i0e"))


def _tiny_safe(n, fn):
    """ATen's i1/i1e backward: the derivative at |self| > eps, 0.5 at the tiny inputs."""
    s = n["self"]
    eps = float(np.finfo(s.dtype.np).eps)
    not_tiny = s.abs() > eps
    safe = s.where(not_tiny, s * 0 + eps)
    return fn(safe).where(not_tiny, s * 0 + 0.5)


_unary("special_i1", "SpecialI1Backward0", _float(sp.i1), "(i0(self) − result / self) · grad",
       lambda n, g: g * _tiny_safe(n, lambda x: x.i0() - n["result"] * x.reciprocal()), saves=("self", "result"),
       spell=Spelling(special="i1"))
_unary("special_i1e", "SpecialI1EBackward0", _float(sp.i1e), "(i0e(self) − result · (sgn(self) + 1/self)) · grad",
       lambda n, g: g * _tiny_safe(n, lambda x: x._op("special_i0e") - n["result"] * (x.sgn() + x.reciprocal())),
       saves=("self", "result"), spell=Spelling(special="i1e"))


# --- logit ------------------------------------------------------------------------------------------------------------
def _logit(a, eps=None):
    x = work(a)
    t = x.dtype.type
    if eps is not None:
        lo, hi = t(eps), t(1) - t(eps)
        x = np.where(x < lo, lo, np.where(x > hi, hi, x))
    with np.errstate(all="ignore"):
        return log(x / (t(1) - x))


def _logit_grad(n, g):
    s, eps = n["self"], n.attrs.get("eps")
    out = g / (s * (1.0 - s))
    if eps is None:
        inside = (s >= 0.0) & (s <= 1.0)
        return out.where(inside, s * 0 + math.nan)
    return out.where((s >= eps) & (s <= 1 - eps), g._new(np.zeros((), g.dtype.np), g.dtype))


def _bind_logit(self, eps=None):
    return OPS["logit"], (self,), {"eps": eps}, result_dtype((self,), "float")


op("logit", "LogitBackward0", ("self",), _float(_logit),
   ("grad / (self · (1 − self)) inside [eps, 1 − eps]", _logit_grad),
   saves={0: ("self", "eps")}, spell=unary("logit", special="logit"), bind=_bind_logit)


# --- nan_to_num -------------------------------------------------------------------------------------------------------
def _nan_to_num(a, nan=0.0, posinf=None, neginf=None):
    if a.dtype.kind == "c":  # each part on its own
        parts = [_nan_to_num(np.ascontiguousarray(p), nan, posinf, neginf) for p in (a.real, a.imag)]
        return (parts[0] + 1j * parts[1]).astype(a.dtype) if a.size else a.copy()
    if a.dtype.kind != "f":
        return a.copy()
    info = np.finfo(a.dtype)
    return np.nan_to_num(a, nan=0.0 if nan is None else nan, posinf=info.max if posinf is None else posinf,
                         neginf=info.min if neginf is None else neginf)


def _bind_nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    if self.dtype.is_complex and self.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError("nan_to_num does not support automatic differentiation for outputs with complex dtype.")
    return OPS["nan_to_num"], (self,), {"nan": nan, "posinf": posinf, "neginf": neginf}, self.dtype


op("nan_to_num", "NanToNumBackward0", ("self",), _nan_to_num,
   ("grad where self is finite", lambda n, g: g * n["self"].isfinite()),
   saves={0: ("self",)}, spell=unary("nan_to_num"), bind=_bind_nan_to_num)


# --- binary ---------------------------------------------------------------------------------------------------------
def _bind_binary(name, dtype="float"):
    """The bind of a binary function that takes only tensors (torch.atan2(x, 2) is a TypeError)."""
    def bind(self, other):
        tensor_argument(name, "other", other)
        return OPS[name], (self, other), None, result_dtype((self, other), dtype)

    return bind


def _binary(name, node, forward, self_grad, other_grad, saves, spell=None, inplace=True):
    op(name, node, ("self", "other"), forward, self_grad, other_grad, saves=saves,
       spell=spell or Spelling(method=name, function=name, inplace=name + "_" if inplace else ()),
       bind=_bind_binary(name))


def _atan2_parts(n):
    s, o = n["self"], n["other"]
    return s, o, (s * s + o * o).reciprocal()


def _atan2_self(n, g):
    s, o, recip = _atan2_parts(n)
    return g * o * recip


def _atan2_other(n, g):
    s, o, recip = _atan2_parts(n)
    return g * -s * recip


op("atan2", "Atan2Backward0", ("self", "other"), exact(np.arctan2),
   ("other / (self² + other²) · grad", _atan2_self), ("−self / (self² + other²) · grad", _atan2_other),
   saves={0: ("self", "other"), 1: ("self", "other")},
   spell=Spelling(method=("atan2", "arctan2"), function=("atan2", "arctan2"), inplace=("atan2_", "arctan2_")),
   bind=_bind_binary("atan2"))
_binary("hypot", "HypotBackward0", exact(np.hypot), ("self / result · grad", lambda n, g: g * n["self"] / n["result"]),
        ("other / result · grad", lambda n, g: g * n["other"] / n["result"]),
        saves={0: ("self", "result"), 1: ("other", "result")})


def _logaddexp(a, b):
    if a.dtype.kind == "c" or b.dtype.kind == "c":  # ATen's: the larger real part plus log1p(exp(smaller − larger))
        a, b = np.broadcast_arrays(*np.asarray(np.broadcast_arrays(a, b)).astype(np.result_type(a, b)))
        big = np.where(a.real >= b.real, a, b)
        small = np.where(a.real >= b.real, b, a)
        with np.errstate(all="ignore"):
            out = big + np.log1p(np.exp(small - big))
            same_inf = np.isinf(small.real) & (small.real == big.real)
            out = np.where(same_inf, big, out)
            return np.where(np.isnan(small) | np.isnan(big), complex(np.nan, np.nan), out).astype(a.dtype)
    return np.logaddexp(a, b)


def _logaddexp2(a, b):
    return np.logaddexp2(a, b)


_binary("logaddexp", "LogaddexpBackward0", exact(_logaddexp),
        ("grad / conj(1 + exp(other − self))", lambda n, g: g / conj_of(1 + (n["other"] - n["self"]).exp())),
        ("grad / conj(1 + exp(self − other))", lambda n, g: g / conj_of(1 + (n["self"] - n["other"]).exp())),
        saves={0: ("self", "other"), 1: ("self", "other")}, inplace=False)
_binary("logaddexp2", "Logaddexp2Backward0", exact(_logaddexp2),
        ("grad / (1 + 2^(other − self))", lambda n, g: g / (1 + 2 ** (n["other"] - n["self"]))),
        ("grad / (1 + 2^(self − other))", lambda n, g: g / (1 + 2 ** (n["self"] - n["other"]))),
        saves={0: ("self", "other"), 1: ("self", "other")}, inplace=False)


def _copysign_self(n, g):
    s = n["self"]
    ratio = n["result"] / s
    return g * ratio.masked_fill(s == 0, 0)


def _bind_copysign(self, other):
    if is_number(other):
        return OPS["copysign_scalar"], (self,), {"other": other}, result_dtype((self, other), "float")
    return OPS["copysign"], (self, other), None, result_dtype((self, other), "float")


def _copysign(a, b):
    return np.copysign(a, b) if np.asarray(a).dtype.kind == "f" else np.copysign(np.asarray(a, np.float64), b)


_COPYSIGN = Spelling(method="copysign", function="copysign", inplace="copysign_", signatures=binary_signatures())
op("copysign", "CopysignBackward0", ("self", "other"), _copysign,
   ("sign(self) · sign(other) · grad (0 where self = 0)", _copysign_self), ("0", lambda n, g: g * 0),
   saves={0: ("self", "result")}, spell=_COPYSIGN, bind=_bind_copysign)
op("copysign_scalar", "CopysignBackward1", ("self",), lambda a, other: _copysign(a, other),
   ("sign(self) · sign(other) · grad (0 where self = 0)", _copysign_self), saves={0: ("self", "result")},
   spell=_COPYSIGN, bind=_bind_copysign)


def _fmax_fmin(kind):
    def mask(n):
        s, o = n["self"], n["other"]
        return ((s >= o) if kind == "max" else (s <= o)) | o.isnan()

    return (lambda n, g: g.masked_fill(~mask(n), 0)), (lambda n, g: g.masked_fill(mask(n), 0))


for _kind, _fn in (("max", np.fmax), ("min", np.fmin)):
    _self_grad, _other_grad = _fmax_fmin(_kind)
    op("f" + _kind, f"F{_kind}Backward0", ("self", "other"), _fn,
       ("grad where self wins (or other is nan)", _self_grad), ("grad where other wins", _other_grad),
       saves={0: ("self", "other"), 1: ("self", "other")}, spell=Spelling(method="f" + _kind, function="f" + _kind),
       bind=_bind_binary("f" + _kind, None))


# --- xlog1py, zeta --------------------------------------------------------------------------------------------------
def _xlog1py(x, y):
    x, y = (np.asarray(v, np.float32) if np.asarray(v).dtype == bool else np.asarray(v) for v in (x, y))
    with np.errstate(all="ignore"):
        out = x * np.log1p(y)
    return np.where((x == 0) & ~np.isnan(y), np.zeros_like(out), out)


def _xlog1py_self(n, g):
    x, y = n["self"], n["other"]
    return g._op("special_xlog1py", y).masked_fill((x == 0.0) & (y <= -1.0), 0.0)


def _bind_xlog1py(self, other):
    dtype = result_dtype((self, other), "float")
    if is_number(self):
        return OPS["special_xlog1py_self_scalar"], (other,), {"self": self}, dtype
    if is_number(other):
        return OPS["special_xlog1py_other_scalar"], (self,), {"other": other}, dtype
    return OPS["special_xlog1py"], (self, other), None, dtype


_XLOG1PY = Spelling(special="xlog1py", number_first="bind", signatures=binary_signatures(number_self="out"))
op("special_xlog1py", "SpecialXlog1PyBackward0", ("self", "other"), _xlog1py,
   ("log1p(other) · grad (0 where self = 0 and other ≤ −1)", _xlog1py_self),
   ("self / (other + 1) · grad", lambda n, g: g * n["self"] / (n["other"] + 1)),
   saves={0: ("self", "other"), 1: ("self", "other")}, spell=_XLOG1PY, bind=_bind_xlog1py)
op("special_xlog1py_self_scalar", "SpecialXlog1PyBackward1", ("other",),
   lambda b, self: _xlog1py(np.asarray(self, b.dtype if b.dtype.kind == "f" else np.float32), b),
   ("self / (other + 1) · grad", lambda n, g: g * n.attrs["self"] / (n["other"] + 1)),
   saves={0: ("self", "other")}, spell=Spelling(name="torch.special.xlog1py({self}, {0})"), bind=False)
op("special_xlog1py_other_scalar", "SpecialXlog1PyBackward2", ("self",),
   lambda a, other: _xlog1py(a, np.asarray(other, a.dtype if a.dtype.kind == "f" else np.float32)),
   ("log1p(other) · grad (0 where self = 0 and other ≤ −1)",
    lambda n, g: (g * math.log1p(n.attrs["other"])).masked_fill((n["self"] == 0.0) & (n.attrs["other"] <= -1.0), 0.0)),
   saves={0: ("self", "other")}, spell=Spelling(name="torch.special.xlog1py({0}, {other})"), bind=False)


def _not_implemented(name):
    def vjp(n, g):
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")

    return vjp


def _zeta_other(n, g):
    s = n["self"]
    return g * -s * s.add(1.0)._op("special_zeta", n["other"])


def _bind_zeta(self, other):
    dtype = result_dtype((self, other), "float")
    if is_number(self):
        return OPS["special_zeta_self_scalar"], (other,), {"self": self}, dtype
    if is_number(other):
        return OPS["special_zeta_other_scalar"], (self,), {"other": other}, dtype
    return OPS["special_zeta"], (self, other), None, dtype


op("special_zeta", "SpecialZetaBackward0", ("self", "other"), _float(sp.zeta),
   ("not implemented", _not_implemented("zeta")), ("−self · ζ(self + 1, other) · grad", _zeta_other),
   saves={1: ("self", "other")}, spell=Spelling(special="zeta", number_first="bind",
                                                     signatures=binary_signatures(number_self="out")), bind=_bind_zeta)
op("special_zeta_self_scalar", "SpecialZetaBackward1", ("other",),
   lambda b, self: _float(sp.zeta)(np.asarray(self, b.dtype), b),
   ("−self · ζ(self + 1, other) · grad",
    lambda n, g: g * -n.attrs["self"] * n["other"]._apply(OPS["special_zeta_self_scalar"], (n["other"],),
                                                           {"self": n.attrs["self"] + 1.0})),
   saves={0: ("self", "other")}, spell=Spelling(name="torch.special.zeta({self}, {0})"), bind=False)
op("special_zeta_other_scalar", "SpecialZetaBackward2", ("self",), lambda a, other: _float(sp.zeta)(a, other),
   ("not implemented", _not_implemented("zeta")), spell=Spelling(name="torch.special.zeta({0}, {other})"), bind=False)


# --- igamma, igammac ----------------------------------------------------------------------------------------------
def _bind_igamma(name):
    def bind(self, other):
        tensor_argument(name, "other", other)
        dtype = result_dtype((self, other))
        if not dtype.is_floating_point:
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{dtype.c_name}'")
        return OPS[name], (self, other), None, dtype

    return bind


def _igamma_density(n, g):
    """∂P(a, x)/∂x = x^(a−1) e^(−x) / Γ(a)."""
    a, x = n["self"], n["other"]
    return g * ((a - 1) * x.log() - x - a.lgamma()).exp()


op("igamma", "IgammaBackward0", ("self", "other"), sp.igamma,
   ("not implemented", _not_implemented("igamma: input")),
   ("x^(a−1) e^(−x) / Γ(a) · grad", _igamma_density),
   saves={1: ("self", "other")}, bind=_bind_igamma("igamma"),
   spell=Spelling(method="igamma", function="igamma", inplace="igamma_", special="gammainc"))
op("igammac", "IgammacBackward0", ("self", "other"), sp.igammac,
   ("not implemented", _not_implemented("igammac: input")),
   ("−x^(a−1) e^(−x) / Γ(a) · grad", lambda n, g: -_igamma_density(n, g)),
   saves={1: ("self", "other")}, bind=_bind_igamma("igammac"),
   spell=Spelling(method="igammac", function="igammac", inplace="igammac_", special="gammaincc"))
