"""nn.functional's activations with nodes of their own (leaky_relu, elu/selu/celu, softplus, silu, gelu, mish,
hardtanh, hardswish, hardsigmoid, hardshrink, softshrink, logsigmoid, glu, threshold; rrelu and prelu are in
slope_activations.py).

As in ATen, each backward is an op of its own (`elu_backward`, node `EluBackwardBackward0`), computed with the
formula of ATen's CPU kernel, so that a create_graph backward records torch's nodes and differentiates again."""
import numpy as np

from .. import kernels
from .rounding import EXP, exact
from .table import OPS, Spelling, floats_only, op


def _t(a, v):
    return a.dtype.type(v)


def _zeros(n, g):
    return g * 0


# --- leaky_relu ---------------------------------------------------------------------------------------------
def _leaky_backward(g, s, negative_slope, self_is_result=False):
    return np.where(s > 0, g, g * _t(g, negative_slope))


def _leaky_grad(n, g):
    is_result = "result" in n._op.saves[0]
    return g._op("leaky_relu_backward", n["result"] if is_result else n["self"],
                 negative_slope=n.attrs["negative_slope"], self_is_result=is_result)


op("leaky_relu_backward", "LeakyReluBackwardBackward0", ("grad_output", "self"), _leaky_backward,
   ("grad · (1 if self > 0 else negative_slope)",
    lambda n, g: g._op("leaky_relu_backward", n["self"], negative_slope=n.attrs["negative_slope"])),
   ("0", _zeros), saves={0: ("self", "negative_slope")})
_LEAKY = Spelling(functional="leaky_relu", name=lambda s, a: f"leaky_relu({s[0]}, {a['negative_slope']!r})")
op("leaky_relu", "LeakyReluBackward0", ("self",),
   lambda a, negative_slope: np.where(a > 0, a, a * np.asarray(negative_slope, a.dtype)),
   ("grad · (1 if self > 0 else negative_slope)", _leaky_grad),
   saves={0: ("self", "negative_slope")}, bind=False, spell=_LEAKY)  # F.leaky_relu: engine/nn/functional.py
op("leaky_relu_", "LeakyReluBackward1", ("self",),
   lambda a, negative_slope: np.where(a > 0, a, a * np.asarray(negative_slope, a.dtype)),
   ("grad · (1 if result > 0 else negative_slope)", _leaky_grad),
   saves={0: ("result", "negative_slope")}, bind=False, spell=_LEAKY)


# --- softplus -----------------------------------------------------------------------------------------------
def _softplus(a, beta, threshold):
    b = np.asarray(beta, a.dtype)
    return np.where(a * b > threshold, a, exact(np.log1p)(EXP(a * b)) / b)


def _softplus_backward(g, s, beta, threshold):
    """ATen's softplus_backward: z = exp(x·β); grad where x·β > threshold, else grad · z / (z + 1)."""
    xb = s * _t(s, beta)
    z = EXP(xb)
    return np.where(xb > _t(s, threshold), g, g * z / (z + _t(s, 1)))


def _softplus_double(n, g):
    s, beta, threshold = n["self"], n.attrs["beta"], n.attrs["threshold"]
    x = s * beta
    sig = x.sigmoid()
    return g * n["grad_output"] * sig * (1 - sig) * (x < threshold) * beta


def _softplus_args(n):
    return {"beta": n.attrs["beta"], "threshold": n.attrs["threshold"]}


op("softplus_backward", "SoftplusBackwardBackward0", ("grad_output", "self"), _softplus_backward,
   ("σ(beta · self) · grad", lambda n, g: g._op("softplus_backward", n["self"], **_softplus_args(n))),
   ("beta · σ'(beta · self) · grad_output · grad", _softplus_double),
   saves={0: ("self", "beta", "threshold"), 1: ("grad_output", "self", "beta", "threshold")})
op("softplus", "SoftplusBackward0", ("self",), _softplus,
   ("σ(beta · self) · grad", lambda n, g: g._op("softplus_backward", n["self"], **_softplus_args(n))),
   saves={0: ("self", "beta", "threshold")},
   spell=Spelling(functional="softplus", functional_out=True),
   bind=lambda self, beta=1, threshold=20: (floats_only("softplus_cpu", self) or OPS["softplus"], (self,),
                                                {"beta": beta, "threshold": threshold}, None))


# --- silu, mish ---------------------------------------------------------------------------------------------
def _silu_grad(n, g):
    s = n["self"].sigmoid()
    return g * (s * (1 + n["self"] * (1 - s)))


op("silu", "SiluBackward0", ("self",), kernels.silu,
   ("σ(self) · (1 + self · (1 − σ(self))) · grad", _silu_grad), saves={0: ("self",)},
   spell=Spelling(functional="silu"), bind=False)  # F.silu(x, inplace): nn/functional.py


def _mish(a):
    return a * np.tanh(kernels.log1p(EXP(a)))


def _mish_grad(n, g):
    s = n["self"]
    t = s.exp().log1p().tanh()
    return g * (t + s * s.sigmoid() * (1 - t * t))


op("mish", "MishBackward0", ("self",), _mish, ("(tanh(softplus(self)) + self · σ(self) · sech²(softplus(self))) · grad",
                                               _mish_grad),
   saves={0: ("self",)}, bind=False, spell=Spelling(functional="mish"))


# --- gelu ---------------------------------------------------------------------------------------------------
_SQRT_HALF, _SQRT_2_OVER_PI, _KAPPA = 0.7071067811865476, 0.7978845608028654, 0.044715
_PDF = 0.3989422804014327  # 1/√(2π)


def _gelu(a, approximate):
    x = a.astype(np.float64)
    if approximate == "tanh":
        out = 0.5 * x * (1 + np.tanh(_SQRT_2_OVER_PI * (x + _KAPPA * x * x * x)))
    else:
        out = 0.5 * x * (1 + kernels.erf(x * _SQRT_HALF))
    return out.astype(a.dtype)


def _gelu_backward(g, x, approximate):
    """ATen's GeluBackwardKernel, in the input's type: Φ(x) + x·φ(x), or the derivative of the tanh form."""
    t = x.dtype.type
    if approximate == "tanh":
        x_sq = x * x
        inner = t(_SQRT_2_OVER_PI) * (x + t(_KAPPA) * (x_sq * x))
        tanh_inner = np.tanh(inner)
        left_derivative = t(0.5) * (t(1) + tanh_inner)
        inner_derivative = t(_SQRT_2_OVER_PI) * (t(1) + t(3 * _KAPPA) * x_sq)
        right_derivative = t(0.5) * x * (t(1) - tanh_inner * tanh_inner) * inner_derivative
        return g * (left_derivative + right_derivative)
    cdf = t(0.5) * (t(1) + kernels.erf(x * t(_SQRT_HALF)))
    pdf = t(_PDF) * EXP(x * x * t(-0.5))
    return g * (cdf + x * pdf)


def _gelu_double(n, g):
    """gelu''(x) · grad_output · grad."""
    x = n["self"]
    if n.attrs["approximate"] == "tanh":
        u = (x + x * x * x * _KAPPA) * _SQRT_2_OVER_PI
        th = u.tanh()
        sech2 = 1 - th * th
        du = (x * x * (3 * _KAPPA) + 1) * _SQRT_2_OVER_PI
        second = sech2 * du + x * 0.5 * (sech2 * (x * (6 * _KAPPA * _SQRT_2_OVER_PI)) - th * sech2 * du * du * 2)
    else:
        sq = x * x
        pdf = (sq * -0.5).exp() * _PDF
        second = pdf * 2 - sq * pdf
    return g * n["grad_output"] * second


op("gelu_backward", "GeluBackwardBackward0", ("grad_output", "self"), _gelu_backward,
   ("(Φ(self) + self · φ(self)) · grad",
    lambda n, g: g._op("gelu_backward", n["self"], approximate=n.attrs["approximate"])),
   ("gelu''(self) · grad_output · grad", _gelu_double),
   saves={0: ("self", "approximate"), 1: ("grad_output", "self", "approximate")})


def _bind_gelu(input, approximate="none"):  # noqa: A002
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"GeluKernelImpl" not implemented for \'{input.dtype.type_name}\'')
    return OPS["gelu"], (input,), {"approximate": approximate}, None


op("gelu", "GeluBackward0", ("self",), _gelu,
   ("(Φ(self) + self · φ(self)) · grad",
    lambda n, g: g._op("gelu_backward", n["self"], approximate=n.attrs["approximate"])),
   saves={0: ("self", "approximate")}, spell=Spelling(functional="gelu", functional_out=True), bind=_bind_gelu)


# --- elu, selu, celu ----------------------------------------------------------------------------------------
def _elu(a, alpha=1.0, scale=1, input_scale=1):
    t = a.dtype.type
    negative = kernels.expm1(a * t(input_scale)) * t(alpha * scale)
    return np.where(a > 0, a * t(scale), negative)


def _elu_backward(g, x, alpha, scale, input_scale, is_result):
    """ATen's elu_backward kernel: from the input grad·input_scale·α·scale·exp(x·input_scale) where x ≤ 0, from
    the result grad·input_scale·(result + α·scale); grad·scale elsewhere."""
    t = x.dtype.type
    if is_result:
        negative = g * t(input_scale) * (x + t(alpha * scale))
    else:
        negative = g * t(input_scale) * t(alpha * scale) * kernels.vec_exp(x * t(input_scale))
    return np.where(x <= 0, negative, g * t(scale))


def _elu_args(n):
    a = n.attrs
    return {"alpha": a["alpha"], "scale": a.get("scale", 1), "input_scale": a.get("input_scale", 1)}


def _elu_double(n, g):
    """ATen's elu_double_backward."""
    a, x = n.attrs, n["self_or_result"]
    scaled = g * n["grad_output"] * a["input_scale"]
    negative = x < 0
    if a["is_result"]:
        return scaled * negative
    return scaled._op("elu_backward", x, **_elu_args(n), is_result=False) * negative


def _elu_grad(n, g):
    is_result = "result" in n._op.saves[0]
    return g._op("elu_backward", n["result"] if is_result else n["self"], **_elu_args(n), is_result=is_result)


_ELU_ATTRS = ("alpha", "scale", "input_scale", "is_result")
op("elu_backward", "EluBackwardBackward0", ("grad_output", "self_or_result"), _elu_backward,
   ("grad · (scale if self > 0 else input_scale · α · scale · exp(input_scale · self))",
    lambda n, g: g._op("elu_backward", n["self_or_result"], **_elu_args(n), is_result=n.attrs["is_result"])),
   ("elu''(self) · grad_output · grad", _elu_double),
   saves={0: ("self_or_result", *_ELU_ATTRS), 1: ("grad_output", "self_or_result", *_ELU_ATTRS)})
_ELU = Spelling(functional="elu", name=lambda s, a: f"elu({s[0]}, {a['alpha']!r})")
op("elu", "EluBackward0", ("self",), _elu,
   ("grad · (1 if self > 0 else α · exp(self))", _elu_grad), saves={0: ("self", "alpha", "scale", "input_scale")},
   bind=False, spell=_ELU)  # F.elu(x, alpha, inplace): engine/nn/functional.py
op("elu_", "EluBackward1", ("self",), _elu,
   ("grad · (1 if result > 0 else result + α)", _elu_grad),
   saves={0: ("result", "alpha", "scale", "input_scale")}, bind=False, spell=_ELU)
_SELU = Spelling(functional="selu", name="selu({0})")
op("selu", "EluBackward0", ("self",), _elu,
   ("grad · scale · (1 if self > 0 else α · exp(self))", _elu_grad),
   saves={0: ("self", "alpha", "scale", "input_scale")}, bind=False, spell=_SELU)
op("selu_", "EluBackward1", ("self",), _elu,
   ("grad · (scale if result > 0 else result + α · scale)", _elu_grad),
   saves={0: ("result", "alpha", "scale", "input_scale")}, bind=False, spell=_SELU)


def _celu_grad(n, g):
    is_result = "result" in n._op.saves[0]
    alpha = n.attrs["alpha"]
    return g._op("elu_backward", n["result"] if is_result else n["self"], alpha=alpha, scale=1,
                 input_scale=1 / float(np.float32(alpha)), is_result=is_result)  # torch's 1.0 / alpha.toFloat()


def _celu(a, alpha):
    return _elu(a, alpha, 1, 1 / alpha)


_CELU = Spelling(functional="celu", name=lambda s, a: f"celu({s[0]}, {a['alpha']!r})")
op("celu", "CeluBackward0", ("self",), _celu, ("grad · (1 if self > 0 else exp(self / α))", _celu_grad),
   saves={0: ("self", "alpha")}, bind=False, spell=_CELU)
op("celu_", "CeluBackward1", ("self",), _celu, ("grad · (1 if result > 0 else result / α + 1)", _celu_grad),
   saves={0: ("result", "alpha")}, bind=False, spell=_CELU)


# --- hardtanh, hardswish, hardsigmoid, hardshrink, softshrink, threshold ------------------------------------
def _hardtanh(a, min_val=-1.0, max_val=1.0):
    t = a.dtype.type
    return np.minimum(np.maximum(a, t(min_val)), t(max_val))


def _hardtanh_grad(n, g):
    return g._op("hardtanh_backward", n["self"], min_val=n.attrs["min_val"], max_val=n.attrs["max_val"])


op("hardtanh_backward", "HardtanhBackwardBackward0", ("grad_output", "self"),
   lambda g, s, min_val, max_val: np.where((s > min_val) & (s < max_val), g, np.zeros((), g.dtype)),
   ("grad where min_val < self < max_val", _hardtanh_grad), ("0", _zeros),
   saves={0: ("self", "min_val", "max_val")})
op("hardtanh", "HardtanhBackward0", ("self",), _hardtanh, ("grad · (min_val < self < max_val)", _hardtanh_grad),
   saves={0: ("self", "min_val", "max_val")}, bind=False,
   spell=Spelling(functional="hardtanh", name=lambda s, a: f"hardtanh({s[0]}, {a['min_val']!r}, {a['max_val']!r})"))


def _hardswish(a):
    t = a.dtype.type
    return a * np.minimum(np.maximum(a + t(3), t(0)), t(6)) / t(6)


def _hardswish_backward(g, s):
    t = s.dtype.type
    return np.where(s < t(-3), t(0), np.where(s <= t(3), g * (s / t(3) + t(0.5)), g))


def _hardswish_double(n, g):
    s = n["self"]
    inside = (s > -3) & (s < 3)
    return (g * n["grad_output"] / 3).where(inside, g * 0)


op("hardswish_backward", "HardswishBackwardBackward0", ("grad_output", "self"), _hardswish_backward,
   ("grad · (0 if self < −3, self/3 + ½ if self ≤ 3, else 1)",
    lambda n, g: g._op("hardswish_backward", n["self"])),
   ("grad_output · grad / 3 where −3 < self < 3", _hardswish_double),
   saves={0: ("self",), 1: ("grad_output", "self")})
op("hardswish", "HardswishBackward0", ("self",), _hardswish,
   ("grad · (0 if self < −3, self/3 + ½ if self ≤ 3, else 1)", lambda n, g: g._op("hardswish_backward", n["self"])),
   saves={0: ("self",)}, bind=False, spell=Spelling(functional="hardswish"))


def _hardsigmoid(a):
    t = a.dtype.type
    return np.minimum(np.maximum(a + t(3), t(0)), t(6)) / t(6)


def _hardsigmoid_not_differentiable(n, g):
    raise RuntimeError("derivative for aten::hardsigmoid_backward is not implemented")


op("hardsigmoid_backward", "NotImplemented", ("grad_output", "self"),
   lambda g, s: np.where((s > -3) & (s < 3), g * g.dtype.type(np.float32(1) / np.float32(6)), np.zeros((), g.dtype)),
   ("not implemented", _hardsigmoid_not_differentiable), ("not implemented", _hardsigmoid_not_differentiable))
op("hardsigmoid", "HardsigmoidBackward0", ("self",), _hardsigmoid,
   ("grad / 6 where −3 < self < 3", lambda n, g: g._op("hardsigmoid_backward", n["self"])),
   saves={0: ("self",)}, bind=False, spell=Spelling(functional="hardsigmoid"))


def _lambd_checked(name, self, lambd):
    """ATen's softshrink_check: lambd within [0, the dtype's largest value]."""
    if name == "softshrink" and self.dtype.is_floating_point:
        top = float(np.finfo(self.dtype.np).max)
        if not 0 <= lambd <= top:
            raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype {self.dtype.type_name}, but "
                               f"found {float(lambd):g}")
    return lambd


def _shrink_backward(g, s, lambd):
    return np.where((s >= -lambd) & (s <= lambd), np.zeros((), g.dtype), g)


_SHRINK_KERNELS = {"hardshrink": "hardshrink_cpu", "softshrink": "softshrink_check"}
for _name, _node, _fwd in (
        ("hardshrink", "Hardshrink", lambda a, lambd: np.where((a >= -lambd) & (a <= lambd), _t(a, 0), a)),
        ("softshrink", "Softshrink", lambda a, lambd: np.where(
            a > lambd, a - _t(a, lambd), np.where(a < -lambd, a + _t(a, lambd), _t(a, 0))))):
    op(_name + "_backward", _node + "BackwardBackward0", ("grad_output", "self"), _shrink_backward,
       ("grad where |self| > lambd", lambda n, g, w=_name: g._op(w + "_backward", n["self"], lambd=n.attrs["lambd"])),
       ("0", _zeros), saves={0: ("self", "lambd")})
    op(_name, _node + "Backward0", ("self",), _fwd,
       ("grad where |self| > lambd", lambda n, g, w=_name: g._op(w + "_backward", n["self"], lambd=n.attrs["lambd"])),
       saves={0: ("self", "lambd")},
       spell=Spelling(functional=_name, functional_out=True,
                      **({"method": _name, "function": _name} if _name == "hardshrink" else {})),
       bind=lambda self, lambd=0.5, w=_name: (floats_only(_SHRINK_KERNELS[w], self) or OPS[w], (self,),
                                              {"lambd": _lambd_checked(w, self, lambd)}, None))


def _threshold(a, threshold, value):
    return np.where(a > threshold, a, np.asarray(value).astype(a.dtype))


def _threshold_grad(n, g):
    return g._op("threshold_backward", n["self"], threshold=n.attrs["threshold"])


_THRESHOLD = Spelling(functional="threshold",
                      name=lambda s, a: f"threshold({s[0]}, {a['threshold']!r}, {a['value']!r})")
op("threshold", "ThresholdBackward0", ("self",), _threshold, ("grad where self > threshold", _threshold_grad),
   saves={0: ("self", "threshold")}, bind=False, spell=_THRESHOLD)
op("threshold_", "ThresholdBackward1", ("self",), _threshold, ("grad where self > threshold", _threshold_grad),
   saves={0: ("self", "threshold")}, bind=False, spell=_THRESHOLD)


# --- logsigmoid, glu ----------------------------------------------------------------------------------------
def _log_sigmoid(a):
    return np.minimum(a, _t(a, 0)) - kernels.log1p(EXP(-np.abs(a)))


def _log_sigmoid_backward(g, s, buffer):
    """ATen's CPU log_sigmoid_backward: grad · (max_deriv − sign · z / (1 + z)), z = exp(−|x|)."""
    t = s.dtype.type
    negative = s < 0
    z = EXP(-np.abs(s))
    return g * (np.where(negative, t(1), t(0)) - np.where(negative, t(1), t(-1)) * (z / (t(1) + z)))


def _log_sigmoid_double(n, g):
    z = n["self"].sigmoid()
    return g * n["grad_output"] * (z - 1) * z


def _buffer(n):
    return n["buffer"] if "buffer" in n._op.args else n.attrs["buffer"]


op("log_sigmoid_backward", "LogSigmoidBackwardBackward0", ("grad_output", "self"),
   lambda g, s, buffer: _log_sigmoid_backward(g, s, buffer),
   ("(1 − σ(self)) · grad", lambda n, g: g._op("log_sigmoid_backward", n["self"], buffer=n.attrs["buffer"])),
   ("(σ(self) − 1) · σ(self) · grad_output · grad", _log_sigmoid_double),
   saves={0: ("self", "buffer"), 1: ("grad_output", "self", "buffer")})
op("log_sigmoid", "LogSigmoidBackward0", ("self",), lambda a, buffer: _log_sigmoid(a),
   ("(1 − σ(self)) · grad", lambda n, g: g._op("log_sigmoid_backward", n["self"], buffer=n.attrs["buffer"])),
   saves={0: ("self", "buffer")}, spell=Spelling(functional="logsigmoid", name="logsigmoid({0})", functional_out=True),
   bind=lambda self: (floats_only("log_sigmoid_cpu", self) or OPS["log_sigmoid"], (self,),
                      {"buffer": self._new(EXP(-np.abs(self._data)), self.dtype)}, None))


def _halves(a, dim):
    n = a.shape[dim] // 2
    return np.take(a, range(n), axis=dim), np.take(a, range(n, 2 * n), axis=dim)


def _glu(a, dim):
    first, second = _halves(a, dim)
    return first * kernels.sigmoid(second)


def _glu_backward(g, s, dim):
    first, second = _halves(s, dim)
    sig = kernels.sigmoid(second)
    return np.concatenate([sig * g, (_t(s, 1) - sig) * sig * first * g], axis=dim)


def _glu_double(n, g, which):
    """The derivatives of glu_backward(grad_output, self) = [σ(b)·go, σ(b)(1 − σ(b))·a·go] (a, b: self's halves)."""
    s, dim = n["self"], n.attrs["dim"]
    a, b = s.chunk(2, dim)
    ga, gb = g.chunk(2, dim)
    sig = b.sigmoid()
    d = sig * (1 - sig)
    if which == 0:
        return ga * sig + gb * d * a
    go = n["grad_output"]
    return (gb * d * go)._op("cat", (ga * d + gb * d * (1 - 2 * sig) * a) * go, dim=dim)


def _bind_glu(input, dim=-1):  # noqa: A002
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = dim % input.dim()
    if input.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {input.shape[d]}")
    floats_only("glu_cpu", input)
    return OPS["glu"], (input,), {"dim": input._reduce_dims(dim)}, None


op("glu_backward", "GluBackwardBackward0", ("grad_output", "self"), _glu_backward,
   ("[σ(b), σ(b)(1 − σ(b)) · a] · grad", lambda n, g: _glu_double(n, g, 0)),
   ("glu''(self) · grad_output · grad", lambda n, g: _glu_double(n, g, 1)),
   saves={0: ("self", "dim"), 1: ("grad_output", "self", "dim")})
op("glu", "GluBackward0", ("self",), _glu,
   ("[σ(b), σ(b)(1 − σ(b)) · a] · grad (a, b: self's halves)",
    lambda n, g: g._op("glu_backward", n["self"], dim=n.attrs["dim"])),
   saves={0: ("self", "dim")}, spell=Spelling(functional="glu"), bind=_bind_glu)
