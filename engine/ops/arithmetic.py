"""Arithmetic: + − × ÷ ** and their scalar forms, negation, reciprocal, addcmul/addcdiv/lerp."""
import numpy as np

from .. import dtypes, grad_mode, kernels, messages
from .complex_numbers import conj_of as cj
from .division import UNSET, bind_div_mode
from .rounding import exact
from .table import OPS, Spelling, binary_signatures, composite, is_number, op, result_dtype, unary

_MODE = grad_mode._state  # "formula": computing a derivative with create_graph, where numbers are C++ Scalars


def _scalar_overload(name, other):
    """Inside a derivative computed with create_graph, `grad * 2` is PyTorch's Scalar overload (MulBackward1):
    the op to use for (tensor, number), or None."""
    return OPS[name] if _MODE["formula"] and is_number(other) else None


def _no_bool_subtraction(*operands):
    bools = [x for x in operands if getattr(x, "dtype", None) is dtypes.bool]
    if len(bools) == 2:
        raise RuntimeError(messages.SUB_BOOLS)
    if bools:
        raise RuntimeError(messages.SUB_BOOL)


def _alpha(name, scalar):
    """x.add(y, alpha=…), x + y."""
    def bind(self, other, alpha=1):
        if name == "sub":
            _no_bool_subtraction(self, other)
        if alpha == 1:
            if _MODE["formula"] and is_number(other):  # _scalar_overload, inlined: every `a + b` comes here
                return OPS[scalar], (self,), {"other": other}, None
            return OPS[name], (self, other), None, None
        return OPS[name], (self, other), {"alpha": alpha}, None

    return bind


op("add", "AddBackward0", ("self", "other"), lambda a, b, alpha=1: a + b if alpha == 1 else kernels.add(a, b, alpha),
   ("grad", lambda n, g: g),
   ("alpha · grad", lambda n, g: g if n.attrs.get("alpha", 1) == 1 else g * n.attrs["alpha"]),
   saves={1: ("alpha",)},
   spell=Spelling(method="add", function="add", inplace="add_", infix="+", rinfix="+", number_first=True),
   bind=_alpha("add", "add_scalar"))
op("sub", "SubBackward0", ("self", "other"), lambda a, b, alpha=1: a - b if alpha == 1 else kernels.sub(a, b, alpha),
   ("grad", lambda n, g: g),
   ("−alpha · grad", lambda n, g: -g if n.attrs.get("alpha", 1) == 1 else g * -n.attrs["alpha"]),
   saves={1: ("alpha",)},
   spell=Spelling(method=("sub", "subtract"), function=("sub", "subtract"), inplace=("sub_", "subtract_"), infix="-",
                  number_first=True),
   bind=_alpha("sub", "sub_scalar"))
def _bind_rsub(self, other):
    _no_bool_subtraction(self)
    if hasattr(other, "_data"):  # x.__rsub__(t): torch.rsub(x, t)
        return OPS["rsub_tensor"], (self, other), None, result_dtype((self, other))
    return OPS["rsub"], (self,), {"other": other}, result_dtype((self, other))


op("rsub", "RsubBackward1", ("self",), lambda a, other, alpha=1: other - a if alpha == 1 else other - alpha * a,
   ("−alpha · grad", lambda n, g: -g if n.attrs.get("alpha", 1) == 1 else -g * n.attrs["alpha"]),
   saves={0: ("alpha",)}, spell=Spelling(rinfix="-", name="{other} - {0}"), bind=_bind_rsub)


def _bind_mul(self, other):
    if _MODE["formula"] and is_number(other):  # _scalar_overload, inlined: every `a * b` comes here
        return OPS["mul_scalar"], (self,), {"other": other}, None
    return OPS["mul"], (self, other), None, None


def _bind_div(self, other, *, rounding_mode=UNSET):
    if rounding_mode is not UNSET:  # given, even as None: div.Tensor_mode (DivBackward2)
        return bind_div_mode(self, other, rounding_mode)
    dtype = result_dtype((self, other), "float")
    overload = _scalar_overload("div_scalar", other)
    if overload is not None:
        return overload, (self,), {"other": other}, dtype
    return OPS["div"], (self, other), None, dtype


op("mul", "MulBackward0", ("self", "other"), lambda a, b: a * b,
   ("other · grad", lambda n, g: g * cj(n["other"])),
   ("self · grad", lambda n, g: g * cj(n["self"])),
   saves={0: ("other",), 1: ("self",)},
   spell=Spelling(method=("mul", "multiply"), function=("mul", "multiply"), inplace=("mul_", "multiply_"), infix="*",
                  rinfix="*", number_first=True),
   bind=_bind_mul)
op("div", "DivBackward0", ("self", "other"), lambda a, b: a / b,
   ("grad / other", lambda n, g: g / cj(n["other"])),
   ("−grad · self / other²", lambda n, g: -g * cj(n["self"] / n["other"] / n["other"])),
   saves={0: ("other",), 1: ("self", "other")},
   spell=Spelling(method=("div", "divide", "true_divide"), function=("div", "divide", "true_divide"),
                  inplace=("div_", "divide_", "true_divide_"), infix="/", number_first=True),
   bind=_bind_div)
# Inside derivative formulas PyTorch multiplies by C++ Scalars: mul.Scalar is MulBackward1, and so on.
op("mul_scalar", "MulBackward1", ("self",), lambda a, other: a * other,
   ("other · grad", lambda n, g: g * _conj_number(n.attrs["other"])), saves={0: ("other",)}, spell=Spelling(infix="*"),
   bind=False)
op("div_scalar", "DivBackward1", ("self",), lambda a, other: a / other,
   ("grad / other", lambda n, g: g / _conj_number(n.attrs["other"])), saves={0: ("other",)}, spell=Spelling(infix="/"),
   bind=False)
op("add_scalar", "AddBackward1", ("self",), lambda a, other: a + other,
   ("grad", lambda n, g: g), spell=Spelling(infix="+"), bind=False)
op("sub_scalar", "SubBackward1", ("self",), lambda a, other: a - other,
   ("grad", lambda n, g: g), spell=Spelling(infix="-"), bind=False)
op("neg", "NegBackward0", ("self",), np.negative,
   ("−grad", lambda n, g: -g),
   spell=Spelling(method=("neg", "negative"), function=("neg", "negative"), inplace=("neg_", "negative_"),
                  inplace_function=("neg_", "negative_"), prefix="-", name="-{0}"),
   bind=lambda self: (OPS["neg"], (self,), None, None) if self.dtype is not dtypes.bool else _raise(messages.NEG_BOOL))
op("reciprocal", "ReciprocalBackward0", ("self",), lambda a: 1 / a,
   ("−grad · result²", lambda n, g: -g * cj(n["result"] * n["result"])),
   saves={0: ("result",)}, spell=unary("reciprocal"), dtype="float")


def _conj_number(x):
    return x.conjugate() if type(x) is complex else x


def _raise(message):
    raise RuntimeError(message)


@composite(Spelling(rinfix="/"))
def rtruediv(self, other):
    return self.reciprocal() * other


def _pow_grad(n, g):
    e = n.attrs["exponent"]
    if e == 0:
        return g * 0
    return g * cj(n["self"] ** (e - 1) * e)


def _bind_pow(self, exponent):
    if is_number(self):  # torch.pow(2, x)
        return OPS["rpow"], (exponent,), {"self": self}, result_dtype((exponent, self))
    if hasattr(exponent, "_data"):
        return OPS["pow_tensor"], (self, exponent), None, None
    return OPS["pow"], (self,), {"exponent": exponent}, result_dtype((self, exponent))


_POW_SIGNATURES = binary_signatures("exponent", "out")
_POW = Spelling(method="pow", function="pow", inplace="pow_", infix="**", name="{0}**{exponent}", number_first="bind",
                signatures=_POW_SIGNATURES)
op("pow", "PowBackward0", ("self",), exact(lambda a, exponent: a ** exponent),
   ("exponent · self^(exponent−1) · grad", _pow_grad),
   saves={0: ("self", "exponent")}, spell=_POW, bind=_bind_pow)


def _where_zero(base, exponent, value):
    """PyTorch's pow derivative w.r.t. the exponent is 0 where base == 0 and exponent >= 0."""
    mask = (base == 0) & ((exponent.real if exponent.dtype.is_complex else exponent) >= 0)
    if not mask._data.any():
        return value
    return (value * 0).where(mask, value)


def _power(a, b):
    """a ** b; integers to negative powers as ATen's powi: 1 for 1, ±1 for −1, else 0."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "iub" and b.dtype.kind in "iu" and (b < 0).any():
        dt = np.result_type(a, b)
        a, b = a.astype(dt), b.astype(dt)
        out = a ** np.where(b < 0, 0, b)
        negative = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 1, -1, 1), 0)).astype(dt)
        return np.where(b < 0, negative, out)
    return a ** b


def _pow_self_grad(n, g):
    """ATen's pow_backward_self: where(exponent == 0, 0, grad · exponent · self^(exponent − 1))."""
    e = n["exponent"]
    zero = g._new(np.zeros((), g.dtype.np), g.dtype)
    return zero.where(e == 0.0, g * cj(e * n["self"] ** (e - 1)))


op("pow_tensor", "PowBackward1", ("self", "exponent"), exact(_power),
   ("exponent · self^(exponent−1) · grad", lambda n, g: _pow_self_grad(n, g)),
   ("result · ln(self) · grad",
    lambda n, g: g * cj(_where_zero(n["self"], n["exponent"], n["result"] * n["self"].log()))),
   saves={0: ("self", "exponent"), 1: ("self", "exponent", "result")},
   spell=Spelling(method="pow", function="pow", inplace="pow_", infix="**", number_first="bind",
                  signatures=_POW_SIGNATURES), bind=_bind_pow)
# pow(Scalar self, exponent)
op("rpow", "PowBackward2", ("exponent",), exact(lambda exponent, self: _power(np.asarray(self), exponent)),
   ("result · ln(self) · grad", lambda n, g: g * n["result"] * float(np.log(n.attrs["self"]))),
   saves={0: ("self", "exponent", "result")},
   spell=Spelling(rinfix="**", name="{self}**{0}"),
   bind=lambda exponent, self: (OPS["pow_tensor"], (self, exponent), None, None) if hasattr(self, "_data") else
   (OPS["rpow"], (exponent,), {"self": self}, result_dtype((exponent, self))))


@composite(Spelling(method="square", function="square"))
def square(self):
    return self.pow(2)


@composite(Spelling(method="square_"))
def square_(self):
    return self.pow_(2)


def _bind_value(name):
    def bind(self, tensor1, tensor2, value=1):
        return OPS[name], (self, tensor1, tensor2), {"value": value}, None

    return bind


op("addcdiv", "AddcdivBackward0", ("self", "tensor1", "tensor2"),
   kernels.addcdiv,
   ("grad", lambda n, g: g),
   ("value · grad / tensor2", lambda n, g: g * (n.attrs.get("value", 1) / n["tensor2"])),
   ("−value · grad · tensor1 / tensor2²",
    lambda n, g: -g * (n.attrs.get("value", 1) * n["tensor1"] / (n["tensor2"] * n["tensor2"]))),
   saves={0: ("tensor2", "value"), 1: ("tensor2",), 2: ("tensor1", "tensor2")},
   spell=Spelling(method="addcdiv", function="addcdiv", inplace="addcdiv_"), bind=_bind_value("addcdiv"))
op("addcmul", "AddcmulBackward0", ("self", "tensor1", "tensor2"),
   kernels.addcmul,
   ("grad", lambda n, g: g),
   ("value · grad · tensor2", lambda n, g: g * (n["tensor2"] * n.attrs.get("value", 1))),
   ("value · grad · tensor1", lambda n, g: g * (n["tensor1"] * n.attrs.get("value", 1))),
   saves={0: ("value",), 1: ("tensor2",), 2: ("tensor1",)},
   spell=Spelling(method="addcmul", function="addcmul", inplace="addcmul_"), bind=_bind_value("addcmul"))


def _bind_lerp(self, end, weight):
    if end.dtype is not self.dtype:
        raise RuntimeError(f"expected dtype {self.dtype.c_name} for `end` but got dtype {end.dtype.c_name}")
    if hasattr(weight, "_data"):  # lerp.Tensor: LerpBackward1, the weight a differentiable input
        if weight.dtype is not self.dtype:
            raise RuntimeError(f"expected dtype {self.dtype.c_name} for `weight` but got dtype {weight.dtype.c_name}")
        if not self.dtype.is_floating_point:
            raise NotImplementedError(f'"lerp_kernel_tensor" not implemented for \'{self.dtype.type_name}\'')
        return OPS["lerp_tensor"], (self, end, weight), None, None
    if not self.dtype.is_floating_point:
        raise NotImplementedError(f'"lerp_kernel_scalar" not implemented for \'{self.dtype.type_name}\'')
    return OPS["lerp"], (self, end), {"weight": weight}, None


op("lerp", "LerpBackward0", ("self", "end"), kernels.lerp,
   ("(1 − weight) · grad", lambda n, g: g * (1 - n.attrs["weight"])),
   ("weight · grad", lambda n, g: g * n.attrs["weight"]), saves={0: ("weight",)},
   spell=Spelling(method="lerp", function="lerp", inplace="lerp_"), bind=_bind_lerp)
op("lerp_tensor", "LerpBackward1", ("self", "end", "weight"), kernels.lerp,
   ("(1 − weight) · grad", lambda n, g: g * (1 - n["weight"])),
   ("weight · grad", lambda n, g: g * n["weight"]),
   ("(end − self) · grad", lambda n, g: g * (n["end"] - n["self"])),
   saves={0: ("weight",), 1: ("weight",), 2: ("self", "end")},
   spell=Spelling(method="lerp", function="lerp", inplace="lerp_"), bind=_bind_lerp)
