"""nn.functional's losses that ATen (or torch.nn.functional) builds from other ops, written as they are there, so
that their graphs are torch's node for node."""
import math

import numpy as np

from .. import dispatch, dtypes, factories, grad_mode
from ..methods import FUNCTIONAL
from ..ops import OPS
from ..ops.nn import legacy_reduction, valid_reduction

logsigmoid = FUNCTIONAL["logsigmoid"]


def _reduction(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return legacy_reduction(size_average, reduce)
    return valid_reduction(reduction)


def _apply_reduction(loss, reduction):
    """ATen's apply_loss_reduction."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _plus(t, number, name="add_scalar"):
    """ATen's `t + number` for a double (a margin, an eps): an integer tensor gives the default float dtype."""
    dtype = dtypes.promote([(t.dtype, 2), (dtypes.float64, 0)])
    return dispatch.apply(OPS[name], (t,), {"other": float(number)}, dtype)


def _rsub(number, t):
    """ATen's `number - t` in C++: a tensor filled with the number, t subtracted in place (SubBackward0)."""
    return factories.full_like(t, number).sub_(t)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    return _apply_reduction(_plus(-target * (input1 - input2), margin).clamp_min(0),
                            reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    zeros = factories.zeros_like(input)
    margin_clamp = _rsub(margin, input).clamp_min_(0)
    output_margin = margin_clamp.where(target != 1, zeros)
    output_self = input.where(target != -1, zeros)
    return _apply_reduction(output_margin + output_self, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if input1.dim() != input2.dim():
        raise RuntimeError(f"cosine_embedding_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    eps = 1e-12
    dim = input1.dim() - 1
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = _plus((input1 * input1).sum(dim), eps)
    mag_square2 = _plus((input2 * input2).sum(dim), eps)
    denom = (mag_square1 * mag_square2).sqrt_()
    cos = prod_sum / denom
    zeros = factories.zeros_like(cos)
    pos = _rsub(1, cos)
    neg = cos._op("sub_scalar", other=margin).clamp_min_(0)
    output_pos = pos.where(target == 1, zeros)
    output_neg = neg.where(target == -1, zeros)
    return _apply_reduction(output_pos + output_neg, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,  # noqa: A002
                     reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * _plus(input, eps).log()
    if full:
        stirling = target * target.log() - target + (target * (2 * math.pi)).log() * 0.5
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _apply_reduction(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):  # noqa: A002
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * factories.ones_like(input)
    elif (var < 0).any():
        raise ValueError("var has negative entry/entries")
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif input.dim() == var.dim() and sum(y for x, y in zip(input.shape, var.shape) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with grad_mode.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,  # noqa: A002
                                reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.shape[class_dim]
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """ATen's pairwise_distance: ‖x1 − x2 + eps‖_p over the last dim."""
    dim = max(x1.dim(), x2.dim()) - 1
    diff = _plus(x1 - x2, eps)
    return diff._op("norm_p", p=float(p), dim=(dim,), keepdim=keepdim)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = dist_neg.minimum(pairwise_distance(positive, negative, p, eps))
    return _apply_reduction((_plus(dist_pos, margin) - dist_neg).clamp_min(0), reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    distance = distance_function or pairwise_distance
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = dist_neg.minimum(distance(positive, negative))
    loss = (margin + dist_pos - dist_neg).clamp_min(0)
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    return loss


# --- ctc_loss ----------------------------------------------------------------------------------------------------
def _lengths(lengths, name):
    """input_lengths / target_lengths as ATen reads them: a tensor of an integer type, or ints."""
    if hasattr(lengths, "_data"):
        if lengths.dtype.is_floating_point or lengths.dtype is dtypes.bool:
            raise RuntimeError(f"{name} must be integral")
        return tuple(int(v) for v in np.asarray(lengths._data).reshape(-1))
    return tuple(int(v) for v in lengths)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """ATen's ctc_loss: _ctc_loss's negative log-likelihoods (inf → 0 with zero_infinity), then divided by the target
    lengths (at least 1) and averaged, summed, or kept."""
    reduction = valid_reduction(reduction)
    input_lengths = _lengths(input_lengths, "input_lengths")
    target_lengths = _lengths(target_lengths, "target_lengths")
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    if not lp.dtype.is_floating_point:
        raise NotImplementedError(f"\"ctc_loss_cpu\" not implemented for '{lp.dtype.type_name}'")
    where = " (while checking arguments for ctc_loss_allocate_outputs)"
    if lp.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {lp.dim()}-dimensional tensor for argument #1 "
                           f"'log_probs'{where}")
    if targets.dim() not in (1, 2):
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional tensor for argument #2 "
                           f"'targets'{where}")
    steps, batch, labels = lp.shape
    if not 0 <= blank < labels:
        raise RuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    for length in target_lengths:
        if length < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value {length}{where}")
    flat = np.asarray(targets._data).astype(np.int64)
    if targets.dim() == 1:
        ends = np.cumsum((0,) + target_lengths)
        if flat.shape[0] != ends[-1]:
            raise RuntimeError(f"Expected tensor to have size {ends[-1]} at dimension 0, but got size {flat.shape[0]} "
                               f"for argument #2 'targets'{where}")
        rows = [flat[ends[b]:ends[b + 1]] for b in range(batch)]
    else:
        if flat.shape[0] != batch:
            raise RuntimeError(f"Expected tensor to have size {batch} at dimension 0, but got size {flat.shape[0]} "
                               f"for argument #2 'targets'{where}")
        longest = max(target_lengths, default=0)
        if flat.shape[1] < longest:
            raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, but got size "
                               f"{flat.shape[1]} for argument #2 'targets'{where}")
        rows = [flat[b, :target_lengths[b]] for b in range(batch)]
    for length in input_lengths:
        if length < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value {length}{where}")
        if length > steps:
            raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got value {length}{where}")
    attrs = {"targets": targets._new(flat, dtypes.int64), "labels": tuple(rows), "input_lengths": input_lengths,
             "target_lengths": target_lengths, "blank": int(blank), "zero_infinity": bool(zero_infinity)}
    res = dispatch.apply(OPS["ctc_loss"], (lp,), attrs)
    if zero_infinity:
        res = dispatch.apply(*OPS["where"].bind(res == math.inf, res._new(np.zeros((), res.dtype.np), res.dtype), res))
    if reduction == "mean":
        lengths = res._new(np.maximum(np.array(target_lengths, res.dtype.np), 1), res.dtype)
        return (res / lengths).mean()
    if reduction == "sum":
        return res.sum()
    return res if batched else res.squeeze(0)
