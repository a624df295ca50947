"""nn.functional's binary cross entropies: binary_cross_entropy (with its backward op, differentiated again as ATen's
double backwards) and binary_cross_entropy_with_logits."""
import math

import numpy as np

from .. import kernels
from .nn import _mean_of, _reduce, legacy_reduction, valid_reduction
from .rounding import LOG
from .table import OPS, Spelling, op


# --- binary_cross_entropy ---------------------------------------------------------------------------------
def _bce(x, t, reduction, weight=None):
    """ATen's binary_cross_entropy_out_cpu: (t − 1)·max(log1p(−x), −100) − t·max(log(x), −100) in a scalar
    cpu_kernel, i.e. the C library's logf and log1pf for float32 (numpy's float32 log1p is the C library's;
    its log is not), then weighted and reduced (apply_loss_reduction)."""
    one = x.dtype.type(1)
    log = kernels.libm.logf if x.dtype == np.float32 else LOG
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = (t - one) * np.maximum(np.log1p(-x), x.dtype.type(-100)) - t * np.maximum(log(x), x.dtype.type(-100))
    if weight is not None:
        loss = loss * weight._data
    return _reduce(loss, reduction)


def _bce_grad(n, g):
    return g._op("binary_cross_entropy_backward", n["self"], n["target"], weight=n.attrs.get("weight"),
                 reduction=n.attrs["reduction"])


def _bce_target_grad(n, g):
    """ATen's binary_cross_entropy_target_backward: −logit(self) · grad (· weight), / N for 'mean'."""
    grad = -n["self"].logit() * g
    if n.attrs.get("weight") is not None:
        grad = grad * n.attrs["weight"]
    return _mean_of(n, grad)


_EPS = 1e-12


def _bce_backward(g, x, t, weight, reduction):
    """ATen's binary_cross_entropy_backward_out_cpu: grad · (x − t) / max((1 − x) · x, 1e-12), · weight, / N."""
    one = x.dtype.type(1)
    out = g * (x - t) / np.maximum((one - x) * x, x.dtype.type(_EPS))
    if weight is not None:
        out = out * weight._data
    return out / x.dtype.type(x.size) if reduction == "mean" else out


def _weighted(n, v):
    w = n.attrs.get("weight")
    return v if w is None else v * w


def _bce_double_self(n, v):
    """ATen's binary_cross_entropy_double_backward."""
    x, t = n["self"], n["target"]
    g = (x * x - 2 * x * t + t) / ((x + _EPS).pow(2) * (1 - x + _EPS).pow(2)) * (v * n["grad_output"])
    return _mean_of(n, _weighted(n, g))


def _bce_double_target(n, v):
    """ATen's binary_cross_entropy_double_backward_target."""
    x = n["self"]
    return _mean_of(n, _weighted(n, -v * n["grad_output"]) / ((1 - x) * x).clamp(min=_EPS))


def _bce_double_grad_output(n, v):
    """ATen's binary_cross_entropy_double_backward_grad_output (summed to grad_output's shape)."""
    x, t = n["self"], n["target"]
    return _mean_of(n, _weighted(n, (x - t) / ((x + _EPS) * (1 - x + _EPS)) * v))


op("binary_cross_entropy_backward", "BinaryCrossEntropyBackwardBackward0", ("grad_output", "self", "target"),
   _bce_backward,
   ("(self − target) / (self · (1 − self)) · grad / N", _bce_double_grad_output),
   ("(self² − 2 · self · target + target) / (self · (1 − self))² · grad · grad_output / N", _bce_double_self),
   ("−grad · grad_output / (self · (1 − self)) / N", _bce_double_target),
   saves={0: ("self", "target", "weight", "reduction"), 1: ("grad_output", "self", "target", "weight", "reduction"),
          2: ("grad_output", "self", "weight", "reduction")})


def _bind_bce(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    else:
        valid_reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) is "
            "deprecated. Please ensure they have the same size.")
    if weight is not None:
        if weight.requires_grad:
            raise RuntimeError("the derivative for 'weight' is not implemented.")
        weight = weight.expand(*_broadcast(target.shape, weight.shape))
    _check_bce(input, target)
    return OPS["binary_cross_entropy"], (input, target), {"reduction": reduction, "weight": weight}, None


def _check_bce(input, target):  # noqa: A002
    """ATen's binary_cross_entropy_out_cpu: its TensorIterator's one dtype, its kernel's dtypes, and each element's
    range, input before target."""
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {target.dtype.type_name} but expected {input.dtype.type_name}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"binary_cross_entropy\" not implemented for '{input.dtype.type_name}'")
    if input.is_meta:
        return
    x, t = input._data, target._data
    bad_x, bad_t = ~((x >= 0) & (x <= 1)), ~((t >= 0) & (t <= 1))
    bad = np.flatnonzero((bad_x | bad_t).reshape(-1))
    if bad.size:
        which = "input" if bad_x.reshape(-1)[bad[0]] else "target"
        raise RuntimeError(f"all elements of {which} should be between 0 and 1")


def _broadcast(a, b):
    return np.broadcast_shapes(tuple(a), tuple(b))


op("binary_cross_entropy", "BinaryCrossEntropyBackward0", ("self", "target"), _bce,
   ("(self − target) / (self · (1 − self)) · grad / N", _bce_grad),
   ("−log(self / (1 − self)) · grad / N", _bce_target_grad),
   saves={0: ("self", "target", "reduction", "weight"), 1: ("self",)},
   spell=Spelling(functional="binary_cross_entropy"), bind=_bind_bce)


# --- binary_cross_entropy_with_logits ---------------------------------------------------------------------
def _bce_logits(x, t, weight, pos_weight, reduction):
    """LossNLL's binary_cross_entropy_with_logits: (1 − t) · x − log_weight · log_sigmoid(x)."""
    one = x.dtype.type(1)
    log_sigmoid = np.minimum(x, 0) - kernels.log1p(kernels.exp(-np.abs(x)))
    if pos_weight is not None:
        log_sigmoid = log_sigmoid * ((pos_weight._data - one) * t + one)
    loss = (one - t) * x - log_sigmoid
    if weight is not None:
        loss = loss * weight._data
    return _reduce(loss, reduction)


def _bce_logits_grad(n, g):
    x, t, a = n["self"], n["target"], n.attrs
    if a["pos_weight"] is not None:
        pt = a["pos_weight"] * t
        d = (pt + 1 - t) * x.sigmoid() - pt
    else:
        d = x.sigmoid() - t
    return _bce_logits_scaled(n, d, g)


def _bce_logits_target_grad(n, g):
    x, a = n["self"], n.attrs
    if a["pos_weight"] is None:
        d = -x
    else:  # log_sigmoid(−self) − log_sigmoid(self) · pos_weight, each as min(z, 0) − log1p(exp(−|z|))
        tail = (-x.abs()).exp().log1p()
        d = ((-x).clamp(max=0) - tail) - (x.clamp(max=0) - tail) * a["pos_weight"]
    return _bce_logits_scaled(n, d, g)


def _bce_logits_scaled(n, d, g):
    """FunctionsManual's order: d · grad, · weight, / numel for the mean."""
    d = d * g
    if n.attrs["weight"] is not None:
        d = d * n.attrs["weight"]
    return d / math.prod(n._shapes[0]) if n.attrs["reduction"] == "mean" else d


def _bind_bce_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",  # noqa: A002
                     pos_weight=None):
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    for name, w in (("weight", weight), ("pos_weight", pos_weight)):
        if w is not None and w.requires_grad:
            raise RuntimeError(f"the derivative for '{name}' is not implemented.")
    return (OPS["binary_cross_entropy_with_logits"], (input, target),
            {"weight": weight, "pos_weight": pos_weight, "reduction": reduction}, None)


op("binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0", ("self", "target"), _bce_logits,
   ("(σ(self) − target) · grad / N", _bce_logits_grad), ("−self · grad / N", _bce_logits_target_grad),
   saves={0: ("self", "target", "weight", "pos_weight", "reduction"), 1: ("self",)},
   spell=Spelling(functional="binary_cross_entropy_with_logits"), bind=_bind_bce_logits)
