"""The ops ATen's CPU kernels refuse for complex tensors, with their errors: each op's forward is wrapped to raise
them when its first input is complex (ops of real inputs only pay for the wrapper where they are listed)."""
import numpy as np

from .. import dtypes
from .table import OPS

_TYPE = {np.dtype(np.complex64): "ComplexFloat", np.dtype(np.complex128): "ComplexDouble"}
_NI, _RT = NotImplementedError, RuntimeError


def _kernel(name):
    return _NI, f"\"{name}\" not implemented for '{{type}}'"


REFUSED = {
    "clamp": (_NI, "clamp is not supported for complex types"),
    "clamp_tensor": (_NI, "clamp is not supported for complex types"),
    "threshold": _kernel("threshold_cpu"),
    "floor": (_NI, "floor is not supported for complex inputs"),
    "ceil": (_NI, "ceil is not supported for complex inputs"),
    "trunc": (_NI, "trunc is not supported for complex inputs"),
    "round": _kernel("round_vml_cpu"),
    "frac": _kernel("frac_cpu"),
    "sign": (_NI, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead."),
    "maximum": (_RT, "maximum not implemented for complex tensors."),
    "minimum": (_RT, "minimum not implemented for complex tensors."),
    "max": _kernel("max_all"),
    "min": _kernel("min_all"),
    "sort": (_RT, " Sort does not support complex dtypes on CPU"),
    "sort_stable": (_RT, " Sort does not support complex dtypes on CPU"),
    "topk": (_RT, " topk does not support complex dtypes on CPU"),
    "leaky_relu": _kernel("leaky_relu_cpu"),
    "softplus": _kernel("softplus_cpu"),
    "gelu": _kernel("GeluKernelImpl"),
    "elu": _kernel("elu_cpu"),
    "remainder": _kernel("remainder_cpu"),
    "remainder_scalar": _kernel("remainder_cpu"),
    "fmod": _kernel("fmod_cpu"),
    "fmod_scalar": _kernel("fmod_cpu"),
    "floor_divide": _kernel("div_floor_cpu"),
    "heaviside": (_RT, "heaviside is not yet implemented for complex tensors."),
    "erf": _kernel("erf_vml_cpu"),
    "erfinv": _kernel("erfinv_vml_cpu"),
    "lgamma": _kernel("lgamma_vml_cpu"),
    "digamma": _kernel("digamma"),
    "i0": _kernel("i0_vml_cpu"),
    "atan2": _kernel("atan2_cpu"),
    "logit": _kernel("logit_cpu"),
    "copysign": _kernel("copysign_cpu"),
    "nextafter": _kernel("nextafter_cpu"),
    "xlogy": _kernel("xlogy_cpu"),
    "logaddexp2": _kernel("logaddexp2_cpu"),
    "rad2deg": (_RT, "rad2deg is not supported for complex tensors."),
    "deg2rad": (_RT, "deg2rad is not supported for complex tensors."),
    "aminmax": _kernel("aminmax_cpu"),
}


# and those ATen has no complex32 (ComplexHalf) kernel for, which the complex64 ones compute
HALF_REFUSED = {
    "div": "div_cpu", "div_scalar": "div_cpu", "exp": "exp_vml_cpu", "sqrt": "sqrt_vml_cpu", "sin": "sin_vml_cpu",
    "log": "log_vml_cpu", "reciprocal": "reciprocal_cpu", "pow": "pow", "pow_tensor": "pow", "angle": "angle_cpu",
    "sum": "sum_cpu", "sum_dim": "sum_cpu", "mean": "sum_cpu", "mean_dim": "sum_cpu", "prod": "prod_out_cpu",
    "cumsum": "cumsum_out_cpu", "dot": "dot", "flip": "flip_cpu",
}


def _of_half(kind):
    """Whether a complex64 array is a complex32 tensor's: the running op's result is complex32 (or its float16
    part)."""
    return kind == np.complex64 and dtypes.COMPUTING[0] in (dtypes.complex32, dtypes.float16)


def ordered(fn, name):
    """A comparison that orders (lt, le, gt, ge): ATen's kernel refuses complex operands."""
    def compare(a, b):
        for x in (a, b):
            kind = getattr(x, "dtype", None)
            if kind is not None and kind.kind == "c" or type(x) is complex:
                raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_TYPE.get(kind, 'ComplexDouble')}'")
        return fn(a, b)

    return compare


def _refusing(forward, error, text):
    def checked(a, *args, **kwargs):
        kind = getattr(a, "dtype", None)
        if kind is not None and kind.kind == "c":
            raise error(text.format(type="ComplexHalf" if _of_half(kind) else _TYPE[kind]))
        return forward(a, *args, **kwargs)

    return checked


def _refusing_half(forward, kernel):
    def checked(a, *args, **kwargs):
        if _of_half(getattr(a, "dtype", None)):
            raise NotImplementedError(f"\"{kernel}\" not implemented for 'ComplexHalf'")
        return forward(a, *args, **kwargs)

    return checked


def refuse():
    for name, (error, text) in REFUSED.items():
        if name in OPS:
            OPS[name].forward = _refusing(OPS[name].forward, error, text)
    for name, kernel in HALF_REFUSED.items():
        OPS[name].forward = _refusing_half(OPS[name].forward, kernel)
