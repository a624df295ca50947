"""Element-wise functions: exp/log/trig, activations, rounding, clamp, where, maximum/minimum, fills."""
import numpy as np

from .. import dtypes, kernels, messages
from .complex_numbers import conj_of as cj
from .complex_numbers import conjugated_vjp
from .rounding import LOG, exact
from .table import OPS, Spelling, binary_signatures, composite, method, op, result_dtype, tensor_argument, unary

# unary ops whose vjp conjugates for complex inputs itself (as torch's formulas write it); any other's is conjugated
# around: a holomorphic f's grad is grad · conj(f'(self)), its vjp (linear in grad) on conj(grad), conjugated
_CONJUGATING = frozenset(("exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "sqrt", "rsqrt", "sinh", "cosh", "sgn"))


def _unary(name, node, forward, formula, vjp, saves=None, dtype="float", functional=(), spell=None, bind=None):
    spell = spell or unary(name, functional=functional)
    if name not in _CONJUGATING:
        vjp = conjugated_vjp(vjp)
    saves = (saves,) if isinstance(saves, str) else saves
    op(name, node, ("self",), forward, (formula, vjp), saves={0: saves} if saves else None, dtype=dtype,
       spell=spell, bind=bind)


def _refusing_bool(name, error, text, complex_too=False):
    """A unary op's bind that refuses a bool tensor with ATen's error (and a complex one with clamp's, as relu)."""
    def bind(self):
        if self.dtype.name == "bool":
            raise error(text)
        if complex_too and self.dtype.is_complex:
            raise NotImplementedError("clamp is not supported for complex types")
        return OPS[name], (self,), None, None

    return bind


def _relu(a):
    out = np.maximum(a, np.zeros((), a.dtype))
    negative_zero = np.signbit(a) & (a == 0)  # PyTorch keeps relu(-0.) = -0.
    if np.count_nonzero(negative_zero):
        out[negative_zero] = a[negative_zero]
    return out


_unary("exp", "ExpBackward0", exact(np.exp), "result · grad", lambda n, g: g * cj(n["result"]), "result")
_unary("log", "LogBackward0", exact(np.log), "grad / self", lambda n, g: g / cj(n["self"]), "self")
_unary("sin", "SinBackward0", exact(np.sin), "cos(self) · grad", lambda n, g: g * cj(n["self"].cos()), "self")
_unary("cos", "CosBackward0", exact(np.cos), "−sin(self) · grad", lambda n, g: g * cj(-n["self"].sin()), "self")
_unary("tan", "TanBackward0", exact(np.tan), "(1 + result²) · grad",
       lambda n, g: g * cj(1 + n["result"] * n["result"]), "result")
_unary("tanh", "TanhBackward0", exact(np.tanh), "(1 − result²) · grad",
       lambda n, g: g._op("tanh_backward", n["result"]), "result", functional="tanh")
_unary("sigmoid", "SigmoidBackward0", kernels.sigmoid, "result · (1 − result) · grad",
       lambda n, g: g._op("sigmoid_backward", n["result"]), "result", functional="sigmoid")


def _tanh_backward(g, y):
    """ATen's tanh_backward kernel: grad · (1 − y²) with 1 − y² fused (one rounding), as its FMA code gives it."""
    if y.dtype.kind == "c":
        return g * np.conjugate(1 - y * y)
    dtype = g.dtype if g.dtype is y.dtype else np.result_type(g, y)
    return g * kernels.fma(-y, y, 1.0, dtype)  # 1 in dtype: fma rounds each operand to it


op("tanh_backward", "TanhBackwardBackward0", ("grad_output", "output"), _tanh_backward,
   ("(1 − output²) · grad", lambda n, g: g._op("tanh_backward", cj(n["output"]))),
   ("−2 · output · grad_output · grad", lambda n, g: g * (-2 * n["output"] * n["grad_output"]) if not g.dtype.is_complex
    else g.conj() * (-2 * n["output"].conj() * n["grad_output"])),
   saves={0: ("output",), 1: ("output", "grad_output")})
op("sigmoid_backward", "SigmoidBackwardBackward0", ("grad_output", "output"),
   # ATen's sigmoid_backward kernel: (grad · (1 − y)) · y, in this order; conj((1 − y) · y) · grad for complex y
   lambda g, s: g * np.conjugate((1 - s) * s) if s.dtype.kind == "c" else g * (1 - s) * s,
   ("(1 − output) · output · grad", lambda n, g: g._op("sigmoid_backward", cj(n["output"]))),
   ("(1 − 2 · output) · grad_output · grad", lambda n, g: g * n["grad_output"] * (-2 * n["output"] + 1)
    if not g.dtype.is_complex else g.conj() * n["grad_output"] * (-2 * n["output"].conj() + 1)),
   saves={0: ("output",), 1: ("output", "grad_output")})
_unary("erf", "ErfBackward0", kernels.erf, "2/√π · exp(−self²) · grad",
       lambda n, g: g * ((n["self"] * n["self"]).neg().exp() * 1.1283791670955126), "self",
       spell=unary("erf", special="erf"))
_unary("sqrt", "SqrtBackward0", np.sqrt, "grad / (2 · result)", lambda n, g: g / (cj(n["result"]) * 2), "result")
_unary("rsqrt", "RsqrtBackward0", kernels.rsqrt, "−½ · result³ · grad",
       lambda n, g: g * cj(n["result"] ** 3 * -0.5), "result")
_unary("sinh", "SinhBackward0", kernels.sinh, "cosh(self) · grad", lambda n, g: g * cj(n["self"].cosh()), "self")
_unary("cosh", "CoshBackward0", kernels.cosh, "sinh(self) · grad", lambda n, g: g * cj(n["self"].sinh()), "self")
_unary("atan", "AtanBackward0", exact(np.arctan), "grad / (1 + self²)",
       lambda n, g: g / (n["self"] * n["self"] + 1), "self",
       spell=Spelling(method=("atan", "arctan"), function=("atan", "arctan"), inplace=("atan_", "arctan_"),
                      inplace_function=("atan_", "arctan_")))
_unary("log1p", "Log1PBackward0", kernels.log1p, "grad / (1 + self)", lambda n, g: g / (n["self"] + 1), "self",
       spell=unary("log1p", special="log1p"))
_unary("expm1", "Expm1Backward0", kernels.expm1, "(result + 1) · grad", lambda n, g: g * (n["result"] + 1),
       "result", spell=unary("expm1", special="expm1"))
_unary("log2", "Log2Backward0", exact(np.log2), "grad / (self · ln 2)",
       lambda n, g: g / (n["self"] * 0.6931471805599453), "self")
_unary("log10", "Log10Backward0", exact(np.log10), "grad / (self · ln 10)",
       lambda n, g: g / (n["self"] * 2.302585092994046), "self")
_unary("relu", "ReluBackward0", _relu, "grad · (result > 0)",
       lambda n, g: g._op("threshold_backward", n["result"]), "result", dtype=None, spell=unary("relu", out=False),
       bind=_refusing_bool("relu", RuntimeError, "Boolean inputs not supported for relu", complex_too=True))
def _bind_abs(self):
    if self.dtype.name == "bool":
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    return OPS["abs"], (self,), None, dtypes.to_real(self.dtype)


def _sgn(a):
    if a.dtype.kind == "c":
        size = np.abs(a)
        return np.where(size == 0, np.zeros((), a.dtype), a / np.where(size == 0, 1, size).astype(a.dtype))
    return a.copy() if a.dtype == bool else np.sign(a)


def _sgn_grad(n, g):
    """ATen's sgn_backward: 0 for a real input; for a complex one (grad − sgn · Re(grad · conj(sgn))) / |self|."""
    if not g.dtype.is_complex:
        return g * 0
    x, s = n["self"], n["result"]
    size = x.abs()
    grad = (g - s * (g * s.conj()).real) / size
    return grad.where(size != 0.0, 0.0)


op("abs", "AbsBackward0", ("self",), np.abs, ("sign(self) · grad", lambda n, g: g * n["self"].sgn()),
   saves={0: ("self",)}, spell=Spelling(method=("abs", "absolute"), function=("abs", "absolute"),
                                         inplace=("abs_", "absolute_"), inplace_function="abs_", prefix="abs"),
   bind=_bind_abs)
_unary("sgn", "SgnBackward0", _sgn, "0", _sgn_grad,
       saves=("self", "result"), dtype=None, spell=method("sgn", inplace=True))
_unary("sign", "SignBackward0", lambda a: a.copy() if a.dtype == bool else np.nan_to_num(np.sign(a), nan=0.0),
       "0", lambda n, g: g * 0, dtype=None, spell=method("sign", inplace=True))
_TRUNC = Spelling(method=("trunc", "fix"), function=("trunc", "fix"), inplace=("trunc_", "fix_"),
                  inplace_function=("trunc_", "fix_"))
for _name, _fn in (("floor", np.floor), ("ceil", np.ceil), ("trunc", np.trunc)):
    _unary(_name, _name.capitalize() + "Backward0", _fn, "0", lambda n, g: g * 0, dtype=None,
           spell=_TRUNC if _name == "trunc" else None,
           bind=_refusing_bool(_name, NotImplementedError, f"\"{_name}_vml_cpu\" not implemented for 'Bool'"))


def _round_decimals(a, decimals):
    """ATen's round.decimals: nearbyint(x · 10^d) / 10^d, or nearbyint(x / 10^−d) · 10^−d, in the input's type."""
    if a.dtype.kind != "f":
        return a.copy()
    ten = a.dtype.type(10.0 ** abs(decimals))
    return np.rint(a / ten) * ten if decimals < 0 else np.rint(a * ten) / ten


def _bind_round(self, *, decimals=None):
    if decimals is None:
        if self.dtype.name == "bool":
            raise NotImplementedError("\"round_vml_cpu\" not implemented for 'Bool'")
        return OPS["round"], (self,), None, None
    if not self.dtype.is_floating_point:
        kernel = "round_cpu" if decimals and self.dtype.name != "bool" else "round_vml_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{self.dtype.type_name}'")
    return OPS["round_decimals"], (self,), {"decimals": decimals}, None


_ROUND = Spelling(method="round", function="round", inplace="round_", inplace_function="round_", special="round")
op("round", "RoundBackward0", ("self",), np.round, ("0", lambda n, g: g * 0), spell=_ROUND, bind=_bind_round)
op("round_decimals", "RoundBackward1", ("self",), _round_decimals, ("0", lambda n, g: g * 0), spell=_ROUND,
   bind=_bind_round)

op("threshold_backward", "ThresholdBackwardBackward0", ("grad_output", "self"),
   lambda g, s, threshold=0: g * (s > threshold) + np.zeros((), g.dtype),  # + 0: a masked negative grad is 0, not -0
   ("grad where self > threshold",
    lambda n, g: g._op("threshold_backward", n["self"], threshold=n.attrs.get("threshold", 0))),
   ("0", lambda n, g: g * 0),
   saves={0: ("self", "threshold")})


# --- clamp --------------------------------------------------------------------------------------------
def _clamp(a, min=None, max=None):  # the result is cast to the promoted dtype afterwards
    if min is not None:
        lo = np.asarray(min, dtype=a.dtype if isinstance(min, float) and a.dtype.kind == "f" else None)
        a = np.where(a < lo, lo, a)
    if max is not None:
        hi = np.asarray(max, dtype=a.dtype if isinstance(max, float) and a.dtype.kind == "f" else None)
        a = np.where(a > hi, hi, a)
    return a


def _bound(n, name):
    """A tensor bound of clamp, None where the call gave none (ATen's optional tensor: nothing saved)."""
    return n[name] if n._freed or name in n._saved else None


def _clamp_t(n, g, which):
    s, lo, hi = n["self"], _bound(n, "min"), _bound(n, "max")
    if which == 0:
        if lo is None:
            return g * (s <= hi)
        return g * ((s >= lo) if hi is None else (s >= lo) & (s <= hi))
    if lo is None or hi is None:
        return g * ((s < lo) if which == 1 else (s > hi))
    # both bounds (ATen's clamp_backward_min_max): where min > max, max wins and its grad takes it all
    return g * (((s < lo) & (lo < hi)) if which == 1 else ((s > hi) | (hi < lo)))


def _clamp_mask(n):
    s = n["self"]
    lo, hi = n.attrs.get("min"), n.attrs.get("max")
    mask = None
    if lo is not None:
        mask = s >= lo
    if hi is not None:
        mask = (s <= hi) if mask is None else mask & (s <= hi)
    return mask


def _bind_clamp(self, min=None, max=None):  # noqa: A002 - PyTorch's argument names
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if hasattr(min, "_data") or hasattr(max, "_data"):  # clamp.Tensor(self, Tensor? min, Tensor? max)
        if any(b is not None and not hasattr(b, "_data") for b in (min, max)):
            if all(not hasattr(b, "_data") or b.dim() == 0 for b in (min, max)):  # the parser takes 0-d as Number
                return _bind_clamp(self, *(b.item() if hasattr(b, "_data") else b for b in (min, max)))
            raise TypeError("clamp() received an invalid combination of arguments - got a Tensor and a number")
        given = [b for b in (min, max) if b is not None]
        return OPS["clamp_tensor"], (self, min, max), None, result_dtype((self, *given))
    bounds = [b for b in (min, max) if b is not None]
    return OPS["clamp"], (self,), {"min": min, "max": max}, result_dtype((self, *bounds))


_CLAMP = Spelling(method=("clamp", "clip"), function=("clamp", "clip"), inplace=("clamp_", "clip_"),
                  inplace_function=("clamp_", "clip_"))
op("clamp", "ClampBackward1", ("self",), _clamp,
   ("grad · (min ≤ self ≤ max)", lambda n, g: g * _clamp_mask(n)), saves={0: ("self", "min", "max")},
   spell=_CLAMP, bind=_bind_clamp)
op("clamp_tensor", "ClampBackward0", ("self", "min", "max"), _clamp,
   ("grad · (min ≤ self ≤ max)", lambda n, g: _clamp_t(n, g, 0)),
   ("grad · (self < min)", lambda n, g: _clamp_t(n, g, 1)),
   ("grad · (self > max)", lambda n, g: _clamp_t(n, g, 2)),
   saves={0: ("self", "min", "max"), 1: ("self", "min", "max"), 2: ("self", "min", "max")},
   spell=_CLAMP, bind=_bind_clamp)


def _bind_clamp_min(self, min):  # noqa: A002 - PyTorch's argument names
    if hasattr(min, "_data"):
        return OPS["clamp_min_tensor"], (self, min), None, result_dtype((self, min))
    return OPS["clamp_min"], (self,), {"min": min}, result_dtype((self, min))


def _bind_clamp_max(self, max):  # noqa: A002
    if hasattr(max, "_data"):
        return OPS["clamp_max_tensor"], (self, max), None, result_dtype((self, max))
    return OPS["clamp_max"], (self,), {"max": max}, result_dtype((self, max))


def _bound_mask(n, which, tensor):
    s = n["self"]
    bound = n[which] if tensor else n.attrs[which]
    return (s >= bound) if which == "min" else (s <= bound)


for _which in ("min", "max"):
    _spell = Spelling(method="clamp_" + _which, function="clamp_" + _which, inplace="clamp_" + _which + "_",
                      inplace_function="clamp_" + _which + "_", signatures=binary_signatures(_which))
    _bind = _bind_clamp_min if _which == "min" else _bind_clamp_max
    op("clamp_" + _which, f"Clamp{_which.capitalize()}Backward0", ("self",),
       lambda a, w=_which, **bound: _clamp(a, **{w: bound[w]}),
       (f"grad · (self {'≥' if _which == 'min' else '≤'} {_which})",
        lambda n, g, w=_which: g * _bound_mask(n, w, False)),
       saves={0: ("self", _which)}, spell=_spell, bind=_bind)
    op("clamp_" + _which + "_tensor", f"Clamp{_which.capitalize()}Backward1", ("self", _which),
       lambda a, b, w=_which: _clamp(a, **{w: b}),
       (f"grad where self {'≥' if _which == 'min' else '≤'} {_which}",
        lambda n, g, w=_which: g * _bound_mask(n, w, True)),
       (f"grad where self {'<' if _which == 'min' else '>'} {_which}",
        lambda n, g, w=_which: g * ~_bound_mask(n, w, True)),
       saves={0: ("self", _which), 1: ("self", _which)}, spell=_spell, bind=_bind)
del _spell


# --- selection --------------------------------------------------------------------------------------
def _where(n, g, first):
    c = n.attrs["condition"]
    z = g.new_zeros(())  # a 0, not g * 0: a nan grad stays where the condition does not choose it
    return g.where(c, z) if first else z.where(c, g)


def bind_where(condition, input, other):  # noqa: A002
    if condition.dtype.name != "bool":
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            + condition.dtype.type_name)
    error = messages.broadcast_error(tuple(condition.shape), tuple(getattr(input, "shape", ())))
    if error is not None:
        raise error
    return (OPS["where"], (input, other), {"condition": condition},
            result_dtype((input, other)))


op("where", "WhereBackward0", ("self", "other"), lambda a, b, condition: np.where(condition._data, a, b),
   ("grad where condition, else 0", lambda n, g: _where(n, g, True)),
   ("grad where not condition, else 0", lambda n, g: _where(n, g, False)), saves={0: ("condition",), 1: ("condition",)},
   spell=Spelling(name="where(…, {0}, {1})"), bind=bind_where)  # torch.where: engine/functions.py


@composite(Spelling(method="where"))
def where_method(self, condition, other):
    """x.where(condition, y) is torch.where(condition, x, y)."""
    return self._apply(*bind_where(condition, self, other))


def _pick(n, g, first):
    a, b = n["self"], n["other"]
    if n._op.name == "maximum":
        win = a > b if first else b > a
    else:
        win = a < b if first else b < a
    return (g / 2).where(a == b, g.where(win, g * 0))


for _name, _keep in (("maximum", lambda a, b: (a >= b) | np.isnan(a)),
                     ("minimum", lambda a, b: (a <= b) | np.isnan(a))):
    op(_name, _name.capitalize() + "Backward0", ("self", "other"),
       lambda a, b, keep=_keep: np.where(keep(a, b), a, b),
       ("grad where self wins (half on ties)", lambda n, g: _pick(n, g, True)),
       ("grad where other wins (half on ties)", lambda n, g: _pick(n, g, False)),
       saves={0: ("self", "other"), 1: ("self", "other")}, spell=method(_name),
       bind=lambda self, other, name=_name: (tensor_argument(name, "other", other),
                                            (OPS[name], (self, other), None, None))[1])


op("zero", "ZeroBackward0", ("self",), np.zeros_like, ("0", lambda n, g: g * 0),
   spell=Spelling(inplace="zero_", inplace_function="zero_"))
op("fill", "FillBackward2", ("self",), lambda a, value: np.full_like(a, value), ("0", lambda n, g: g * 0),
   spell=Spelling(inplace="fill_", inplace_function="fill_"),
   bind=lambda self, value: (OPS["fill"], (self,), {"value": value}, None))


def _bind_filled(self, value):
    """torch.fill(x, value): a new tensor (fill.Scalar, FillBackward0; fill.Tensor with a 0-d value, FillBackward1)."""
    if not hasattr(value, "_data"):
        return OPS["filled"], (self,), {"value": value}, self.dtype
    if value.dim():
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} "
                           "dimensions.")
    return OPS["filled_tensor"], (self, value), None, self.dtype


_FILL_SIGNATURES = ("(Tensor input, Tensor value)", "(Tensor input, Number value)")
op("filled", "FillBackward0", ("self",), lambda a, value: np.full_like(a, value), ("0", lambda n, g: g * 0),
   spell=Spelling(function="fill", out=False, signatures=_FILL_SIGNATURES), bind=_bind_filled)
op("filled_tensor", "FillBackward1", ("self", "value"), lambda a, v: np.full_like(a, v),
   ("0", lambda n, g: g * 0), ("grad summed", lambda n, g: g.sum()),
   spell=Spelling(function="fill", out=False, signatures=_FILL_SIGNATURES),
   bind=_bind_filled)


# --- xlogy --------------------------------------------------------------------------------------------------
def _xlogy(x, y):
    """x · log(y), 0 where x is 0 (and y is not nan), as ATen's xlogy kernel."""
    out = x * LOG(y)
    return np.where((x == 0) & ~np.isnan(y), np.zeros_like(out), out)


def _xlogy_self_grad(n, g):
    x, y = n["self"], n["other"]
    return g.xlogy(y).masked_fill((x == 0) & (y <= 0), 0.0)


op("xlogy", "XlogyBackward0", ("self", "other"), _xlogy,
   ("log(other) · grad (0 where self = 0 and other ≤ 0)", _xlogy_self_grad),
   ("self / other · grad", lambda n, g: g * n["self"] / n["other"]),
   saves={0: ("self", "other"), 1: ("self", "other")},
   spell=Spelling(method="xlogy", function="xlogy", inplace="xlogy_", inplace_function="xlogy_", special="xlogy",
                  signatures=binary_signatures(number_self="out")),
   bind=lambda self, other: (OPS["xlogy"], (self, other), None, result_dtype((self, other), "float")))
