"""The margin losses with nodes of their own: soft_margin_loss, multi_margin_loss, multilabel_margin_loss (the
others are composites in engine/nn/loss_functions.py, as in ATen)."""
import numpy as np

from .. import kernels, messages
from .nn import legacy_reduction, valid_reduction
from .rounding import EXP
from .table import OPS, Spelling, op


def _reduce(loss, reduction):
    if reduction == "none":
        return loss
    return kernels.sum(loss) if reduction == "sum" else kernels.mean(loss)


def _scale(n, g, count):
    """grad over the elements a reduction took: divided by their number for 'mean', one per element for 'none'."""
    if n.attrs["reduction"] == "mean":
        return g / count
    return g


# --- soft_margin_loss -----------------------------------------------------------------------------------
def _soft_margin(x, target, reduction):
    return _reduce(kernels.log1p(EXP(-target._data * x)), reduction)


def _soft_margin_grad(n, g):
    return g._op("soft_margin_loss_backward", n["self"], target=n.attrs["target"], reduction=n.attrs["reduction"])


def _soft_margin_backward(g, x, target, reduction):
    """ATen's soft_margin_loss_backward_out: (target · z) · (−norm) / (1 + z) · grad, z = exp(−target · self)."""
    t = target._data
    z = EXP(-t * x)
    norm = x.dtype.type(-1 / x.size if reduction == "mean" else -1)
    return t * z * norm / (z + 1) * g


def _soft_margin_double(n, v):
    """ATen's soft_margin_loss_double_backward of grad · grad_output."""
    x, t = n["self"], n.attrs["target"]
    z = (x * -t).exp()
    return _scale(n, v * n["grad_output"] * (t * t) * z / ((z + 1) * (z + 1)), x.numel())


op("soft_margin_loss_backward", "SoftMarginLossBackwardBackward0", ("grad_output", "self"), _soft_margin_backward,
   ("−target · e^(−target·self) / (1 + e^(−target·self)) · grad / N",
    lambda n, v: v._op("soft_margin_loss_backward", n["self"], target=n.attrs["target"],
                       reduction=n.attrs["reduction"])),
   ("target² · z / (1 + z)² · grad · grad_output / N, z = e^(−target·self)", _soft_margin_double),
   saves={0: ("self", "target", "reduction"), 1: ("grad_output", "self", "target", "reduction")})


def _bind_soft_margin(input, target, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    valid_reduction(reduction)
    error = messages.broadcast_error(tuple(input.shape), tuple(target.shape))
    if error is not None:
        raise error
    return OPS["soft_margin_loss"], (input,), {"target": target, "reduction": reduction}, None


op("soft_margin_loss", "SoftMarginLossBackward0", ("self",), _soft_margin,
   ("−target · e^(−target·self) / (1 + e^(−target·self)) · grad / N", _soft_margin_grad),
   saves={0: ("self", "target", "reduction")}, spell=Spelling(functional="soft_margin_loss"), bind=_bind_soft_margin)


# --- multi_margin_loss ----------------------------------------------------------------------------------
def _rows(x):
    return x.reshape(1, -1) if x.ndim <= 1 else x


def _check_margin_input(input, reduction):  # noqa: A002
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    shape = tuple(input.shape)
    if input.dim() > 2 or (input.dim() >= 1 and shape[-1] == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"[{', '.join(map(str, shape))}]")


def _multi_margin_terms(x, target, p, margin, weight):
    """Per sample and class: max(0, margin − x[y] + x[c])^p (· weight[y]), 0 at c = y."""
    rows = _rows(x)
    y = target.reshape(-1)
    picked = rows[np.arange(rows.shape[0]), y][:, None]
    z = x.dtype.type(margin) - picked + rows
    h = np.where(z > 0, z if p == 1 else z * z, x.dtype.type(0))
    if weight is not None:
        h = h * weight[y][:, None].astype(x.dtype)
    h[np.arange(rows.shape[0]), y] = 0
    return h


def _multi_margin(x, target, p, margin, weight, reduction):
    h = _multi_margin_terms(x, target._data, p, margin, None if weight is None else weight._data)
    per_sample = np.sum(h, axis=1) / x.dtype.type(_rows(x).shape[1])
    if x.ndim <= 1 and reduction == "none":
        return per_sample.reshape(())
    return _reduce(per_sample, reduction)


def _multi_margin_backward(g, x, target, p, margin, weight, reduction):
    """ATen's multi_margin_loss backward: each class c ≠ y with a positive margin term gets its slope (1, or 2·z for
    p = 2, times weight[y]), y minus their sum; all over C (and N for 'mean'), times the grad."""
    rows = _rows(x)
    y = target._data.reshape(-1)
    count, classes = rows.shape
    at_target = (np.arange(count), y)
    z = x.dtype.type(margin) - rows[at_target][:, None] + rows
    active = z > 0
    active[at_target] = False
    slope = active.astype(x.dtype) if p == 1 else np.where(active, 2 * z, x.dtype.type(0))
    if weight is not None:
        slope = slope * weight._data[y][:, None].astype(x.dtype)
    slope[at_target] = 0 - np.sum(slope, axis=1)  # +0 where no class counts, as ATen subtracts from 0
    scale = np.reshape(g, (-1, 1)) if reduction == "none" else g
    if reduction == "mean":
        scale = scale / x.dtype.type(count)
    return (slope * (scale / x.dtype.type(classes))).reshape(x.shape)


def _not_differentiable(name):
    def vjp(n, g):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")

    return vjp


_MULTI_ATTRS = ("target", "p", "margin", "weight", "reduction")
op("multi_margin_loss_backward", "NotImplemented", ("grad_output", "self"), _multi_margin_backward,
   ("not implemented", _not_differentiable("multi_margin_loss_backward")),
   ("not implemented", _not_differentiable("multi_margin_loss_backward")))


def _bind_multi_margin(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,  # noqa: A002
                       reduction="mean"):
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_margin_input(input, reduction)
    classes = input.shape[-1] if input.dim() else 1
    frames = input.shape[0] if input.dim() == 2 else 1
    if target.dim() > 1 or target.numel() != frames:
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{frames}], but got {list(target.shape)}. "
                           f"Input has shape {list(input.shape)}.")
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got {list(weight.shape)}")
    if target.dtype.name != "int64":
        raise RuntimeError(f"expected scalar type Long but found {target.dtype.type_name}")
    t = target._data
    if t.size and (t.min() < 0 or t.max() >= classes):
        raise RuntimeError("target out of range")
    return OPS["multi_margin_loss"], (input,), {"target": target, "p": p, "margin": margin, "weight": weight,
                                                 "reduction": reduction}, None


op("multi_margin_loss", "MultiMarginLossBackward0", ("self",), _multi_margin,
   ("Σ over classes c ≠ y with margin − self[y] + self[c] > 0 of its slope (at c, minus at y) · grad / C",
    lambda n, g: g._op("multi_margin_loss_backward", n["self"], **{k: n.attrs[k] for k in _MULTI_ATTRS})),
   saves={0: ("self", "target", "p", "margin", "weight", "reduction")},
   spell=Spelling(functional="multi_margin_loss"), bind=_bind_multi_margin)


# --- multilabel_margin_loss -----------------------------------------------------------------------------
def _target_counts(target):
    """Each row's targets are its indices up to the first −1: how often each class is among them."""
    rows = _rows(target)
    counts = np.zeros(rows.shape, np.int64)
    for i, row in enumerate(rows):
        for t in row:
            if t < 0:
                break
            counts[i, t] += 1
    return counts


def _pair_hinges(x, counts):
    """hinge[n, j, k] = max(0, 1 − x[n, j] + x[n, k]) for each target j (as often as it is listed) and non-target k
    of row n."""
    rows = _rows(x)
    z = x.dtype.type(1) - rows[:, :, None] + rows[:, None, :]
    keep = (counts[:, :, None] > 0) & (counts[:, None, :] == 0)
    return np.where(keep & (z > 0), z, x.dtype.type(0)) * counts[:, :, None].astype(x.dtype)


def _multilabel_margin(x, target, is_target, reduction):
    hinge = _pair_hinges(x, _target_counts(target._data))
    per_sample = np.sum(hinge, axis=(1, 2)) / x.dtype.type(_rows(x).shape[1])
    if x.ndim <= 1 and reduction == "none":
        return per_sample.reshape(())
    return _reduce(per_sample, reduction)


def _multilabel_margin_backward(g, x, target, reduction):
    rows = _rows(x)
    count, classes = rows.shape
    counts = _target_counts(target._data)
    active = (_pair_hinges(rows, counts) > 0) * counts[:, :, None].astype(x.dtype)
    local = np.sum(active, axis=1) - np.sum(active, axis=2)
    scale = np.reshape(g, (-1, 1)) if reduction == "none" else g
    if reduction == "mean":
        scale = scale / x.dtype.type(count)
    return (local * (scale / x.dtype.type(classes))).reshape(x.shape)


op("multilabel_margin_loss_backward", "NotImplemented", ("grad_output", "self"), _multilabel_margin_backward,
   ("not implemented", _not_differentiable("multilabel_margin_loss_backward")),
   ("not implemented", _not_differentiable("multilabel_margin_loss_backward")))


def _bind_multilabel_margin(input, target, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    _check_margin_input(input, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    is_target = input._new((_target_counts(target._data) > 0).reshape(input.shape).astype(input.dtype.np), input.dtype)
    return OPS["multilabel_margin_loss"], (input,), {"target": target, "is_target": is_target,
                                                      "reduction": reduction}, None


op("multilabel_margin_loss", "MultilabelMarginLossBackward0", ("self",), _multilabel_margin,
   ("Σ over target j, non-target k with 1 − self[j] + self[k] > 0: +1 at k, −1 at j, · grad / C",
    lambda n, g: g._op("multilabel_margin_loss_backward", n["self"], target=n.attrs["target"],
                       reduction=n.attrs["reduction"])),
   saves={0: ("self", "target", "is_target", "reduction")},
   spell=Spelling(functional="multilabel_margin_loss"), bind=_bind_multilabel_margin)
