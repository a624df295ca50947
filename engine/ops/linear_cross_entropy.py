"""linear_cross_entropy's chunked path (options=LinearCrossEntropyOptions): torch's two custom ops
(torch/nn/modules/linear_cross_entropy.py). The scalar one (mean, sum) works out the grads of input, linear_weight
and linear_bias in its forward and its backward scales them by the upstream grad (once, unless
allow_retain_graph); the reduction='none' one works out the per-sample grads again in backward. Neither has a
second derivative: their grads are the upstream grad times constants."""
import numpy as np

from .table import op

_SCALAR = "GeneratedBackwardFor_torch_nn__linear_cross_entropy_batch_chunked_defaultBackward"
_NONE = "GeneratedBackwardFor_torch_nn__linear_cross_entropy_batch_chunked_no_reduction_defaultBackward"
_TWICE = "linear_cross_entropy chunked backward called twice; retain_graph=True / double backward are not supported."


def chunked_parts(x, w, b, target, weight, ignore_index, reduction):
    """(per-sample losses, grad of the logits per sample, the mean's denominator) in float64: losses
    w[t]·(logsumexp(logits) − logits[t]), 0 where t is ignore_index; the logits' grad w[t]·(softmax − onehot)."""
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    logits = x64 @ w64.T + (0 if b is None else b.astype(np.float64))
    keep = target != ignore_index
    t = np.where(keep, target, 0)
    scale = np.ones(len(t)) if weight is None else weight.astype(np.float64)[t]
    scale = np.where(keep, scale, 0.0)
    top = logits.max(axis=1, keepdims=True)
    shifted = logits - top
    lse = np.log(np.exp(shifted).sum(axis=1))
    rows = np.arange(len(t))
    losses = (lse - shifted[rows, t]) * scale
    dlogits = np.exp(shifted - lse[:, None])
    dlogits[rows, t] -= 1.0
    dlogits *= scale[:, None]
    total = scale.sum()
    return losses, dlogits, total


def _roles(arrays, has_bias, has_weight):
    """(input, linear_weight, target, linear_bias or None, weight or None): the op's inputs are the tensors torch's
    custom op has edges for, an absent optional one left out."""
    x, w, target, *rest = arrays
    b = rest.pop(0) if has_bias else None
    weight = rest.pop(0) if has_weight else None
    return x, w, target, b, weight


def _role(n, i):
    """Which argument input i of the node is: 0 input, 1 linear_weight, 3 linear_bias, None for the others."""
    if i < 2:
        return i
    return 3 if i == 3 and n.attrs["has_bias"] else None


def _scalar(*arrays, ignore_index, reduction, grads, allow_retain_graph, state, has_bias, has_weight):
    x, w, target, b, weight = _roles(arrays, has_bias, has_weight)
    losses, _, total = chunked_parts(x, w, b, target, weight, ignore_index, reduction)
    loss = losses.sum() / total if reduction == "mean" else losses.sum()
    return np.asarray(loss, x.dtype)


def _scalar_grad(n, g, i):
    role = _role(n, i)
    if role is None:
        return None
    a = n.attrs
    if not a["allow_retain_graph"]:
        if role in a["state"]:
            raise RuntimeError(_TWICE)
        a["state"].add(role)
    return g * type(g)._make(a["grads"][min(role, 2)], g.dtype)


op("linear_cross_entropy_chunked", _SCALAR, ("tensors",), _scalar,
   ("grad · the grad of input, linear_weight or linear_bias its forward worked out ((softmax − onehot) · "
    "weight[target], times linear_weight, input or summed)", _scalar_grad), variadic=True, bind=False,
   numel=lambda arrays, a: 1)


def _none(*arrays, ignore_index, dlogits, operands, has_bias, has_weight):
    x, w, target, b, weight = _roles(arrays, has_bias, has_weight)
    return chunked_parts(x, w, b, target, weight, ignore_index, "none")[0].astype(x.dtype)


def _none_grad(n, g, i):
    role = _role(n, i)
    if role is None:
        return None
    a = n.attrs
    per_sample = g.unsqueeze(1) * type(g)._make(a["dlogits"], g.dtype)
    if role == 3:
        return per_sample.sum(0)
    other = type(g)._make(a["operands"][1 - role], g.dtype)
    return per_sample.matmul(other) if role == 0 else per_sample.t().matmul(other)


op("linear_cross_entropy_chunked_none", _NONE, ("tensors",), _none,
   ("grad · (softmax − onehot) · weight[target], per sample, times linear_weight, input or summed (worked out "
    "again)", _none_grad), variadic=True, bind=False, numel=lambda arrays, a: arrays[0].shape[0])
