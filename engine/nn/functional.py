"""torch.nn.functional. The functions that are one op's spelling (sigmoid, mse_loss, …) are derived from the op
table (engine/methods.py); these are the ones built from several ops, or with options of their own.

Over 500 lines: torch.nn.functional's own functions in one namespace, as torch keeps them; the activations, losses,
pools, norms and ATen-signature functions are already in modules of their own beside it."""
import math
import warnings

import numpy as np

from .. import dispatch, dtypes, generator, grad_mode, messages, sizes
from ..generator import draws
from ..methods import FUNCTIONAL, FUNCTIONS
from ..ops import OPS
from ..ops.linear_cross_entropy import chunked_parts
from ..ops.nn import bind_nll2d, legacy_reduction, valid_reduction

globals().update(FUNCTIONAL)
from .activation_functions import (  # noqa: E402, F401
    celu,
    celu_,
    elu,
    elu_,
    gumbel_softmax,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    mish,
    prelu,
    relu,
    relu6,
    relu_,
    rrelu,
    rrelu_,
    selu,
    selu_,
    silu,
    softmin,
    softsign,
    tanhshrink,
    threshold,
    threshold_,
)
from .activation_functions import threshold as _threshold  # noqa: E402, F401 - torch.nn.functional._threshold
from .basic_functions import _feature_dropout, batch_norm, dropout, linear, log_softmax, softmax  # noqa: E402, F401
from .loss_functions import (  # noqa: E402, F401
    cosine_embedding_loss,
    ctc_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    margin_ranking_loss,
    multilabel_soft_margin_loss,
    pairwise_distance,
    poisson_nll_loss,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):  # noqa: A002
    """input / max(‖input‖_p along dim, eps), as torch.nn.functional.normalize writes it."""
    if out is None:
        denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
        return input / denom
    denom = input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input)
    return FUNCTIONS["div"](input, denom, out=out)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """ATen's cosine_similarity: each input divided by its norm along dim (a clone, clamped to eps without grad),
    multiplied and summed over dim."""
    if x1.shape != x2.shape:
        shape = sizes.broadcast_shape([tuple(x1.shape), tuple(x2.shape)])
        x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = x1.norm(2, dim, keepdim=True).clone()
    n2 = x2.norm(2, dim, keepdim=True).clone()
    with grad_mode.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,  # noqa: A002
             reduction="mean"):
    """ATen's nll_loss_nd: nll_loss for 1-d and 2-d inputs, nll_loss2d for (N, C, H, W), and other shapes viewed
    to (N, C, 1, rest) for nll_loss2d."""
    if input.dim() < 3:
        return dispatch.apply(*OPS["nll_loss"].bind(input, target, weight, size_average, ignore_index, reduce,
                                                    reduction))
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    if input.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0]}).")
    if input.dim() == 4:
        return dispatch.apply(*bind_nll2d(input, target, weight, reduction, ignore_index))
    n, c = input.shape[:2]
    if tuple(target.shape[1:]) != tuple(input.shape[2:]):
        raise RuntimeError(f"Expected target size {[n, *input.shape[2:]]}, got {list(target.shape)}")
    out = dispatch.apply(*bind_nll2d(input.contiguous().view(n, c, 1, -1), target.contiguous().view(n, 1, -1),
                                     weight, reduction, ignore_index))
    return out.view(n, *input.shape[2:]) if reduction == "none" else out


def bilinear(input1, input2, weight, bias=None):
    """ATen's bilinear: both inputs flattened to rows, _trilinear with the weight (TrilinearBackward0), the rows
    viewed back, plus the bias."""
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    if weight.dim() != 3:
        raise RuntimeError(f"bilinear(): weight must be three-dimensional, but got {weight.dim()}")
    if input1.shape[-1] != weight.shape[1] or input2.shape[-1] != weight.shape[2]:
        which, got, want = (("input1", input1.shape[-1], weight.shape[1]) if input1.shape[-1] != weight.shape[1]
                            else ("input2", input2.shape[-1], weight.shape[2]))
        raise RuntimeError(f"bilinear(): {which} size does not match weight size: got {got} but expected {want}")
    out_shape = (*input1.shape[:-1], weight.shape[0])
    x1 = input1.reshape(-1, input1.shape[-1])
    x2 = input2.reshape(-1, input2.shape[-1])
    attrs = {"expand1": (1, 3), "expand2": (0,), "expand3": (1, 2), "sumdim": (2, 3)}
    out = dispatch.apply(OPS["trilinear"], (x1, weight, x2), attrs).reshape(*out_shape)
    return out if bias is None else out + bias


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):  # noqa: A002
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=messages.level(2))
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    d = (input - target).abs()
    if weight is not None:
        if weight.shape != input.shape:
            raise ValueError("Weights and input must have the same size.")
        d = d * weight
        if reduction not in ("none", "mean", "sum"):
            raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")
        return d if reduction == "none" else (d.sum() if reduction == "sum" else d.sum() / weight.sum())
    valid_reduction(reduction)
    return d if reduction == "none" else (d.sum() if reduction == "sum" else d.mean())


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,  # noqa: A002
                  reduction="mean", label_smoothing=0.0):
    """torch's cross_entropy_loss (LossNLL.cpp): nll_loss of log_softmax over the class dim for class indices,
    and its label-smoothing and class-probability forms built from the same ops as there."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    with grad_mode.aten_scalars():
        return _cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction="mean",  # noqa: A002
                         ignore_index=None, label_smoothing=0.0, options=None):
    """torch's linear_cross_entropy without options: linear to the logits (reshaped to (*batch, C, *out)), then
    cross_entropy. The chunked path (options=LinearCrossEntropyOptions) is torch's custom op, not here."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}")
    batches, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions (in_features), got "
                           f"{input.shape[-1]} and {linear_weight.shape[-1]}, respectively")
    classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(classes, *out_features)}, got {tuple(linear_bias.shape)}")
    if out_features and not batches:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires "
                           f"batched input, (N, {in_features}), got unbatched input with shape {tuple(input.shape)}")
    logits_shape = (*batches, classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    if options is not None:
        if (not out_features and reduction in ("mean", "sum", "none") and label_smoothing == 0.0
                and target.dtype is dtypes.int64):
            return _linear_cross_entropy_chunked(input, linear_weight, target, linear_bias, weight, reduction,
                                                 -100 if ignore_index is None else ignore_index, options)
        bias_shape = tuple(linear_bias.shape) if linear_bias is not None else None
        warnings.warn("linear_cross_entropy: ``options`` ignored; chunked path needs reduction in {'mean','sum',"
                      "'none'}, label_smoothing == 0, target.dtype == int64, out_features == (). Got "
                      f"reduction={reduction!r}, label_smoothing={label_smoothing}, target.dtype={target.dtype}, "
                      f"out_features={out_features}, tracing=False, linear_bias.shape={bias_shape}.",
                      stacklevel=messages.level(2))
    if out_features:
        linear_weight = linear_weight.reshape((math.prod(out_features) * classes, in_features))
        if linear_bias is not None:
            linear_bias = linear_bias.reshape(math.prod(out_features) * classes)
    logits = linear(input, linear_weight, linear_bias).reshape(logits_shape)
    return cross_entropy(logits, target, weight=weight, reduction=reduction,
                         ignore_index=-100 if ignore_index is None else ignore_index, label_smoothing=label_smoothing)


def _linear_cross_entropy_chunked(input, linear_weight, target, linear_bias, weight, reduction,  # noqa: A002
                                  ignore_index, options):
    """torch's chunked custom ops (engine/ops/linear_cross_entropy.py), on a batch (an unbatched input gains one)."""
    batched = input.dim() == 2
    if not batched:
        input, target = input.unsqueeze(0), target.unsqueeze(0)
    x, w, t = input._data, linear_weight._data, np.asarray(target._data)
    b = linear_bias._data if linear_bias is not None else None
    wt = weight._data if weight is not None else None
    tensors = tuple(t for t in (input, linear_weight, target, linear_bias, weight) if t is not None)
    _, dlogits, total = chunked_parts(x, w, b, t, wt, ignore_index, reduction)
    attrs = {"ignore_index": ignore_index, "has_bias": linear_bias is not None, "has_weight": weight is not None}
    if reduction == "none":
        attrs.update(dlogits=dlogits, operands=(x.astype(np.float64), w.astype(np.float64)))
        res = dispatch.apply(OPS["linear_cross_entropy_chunked_none"], tensors, attrs)
    else:
        scaled = dlogits / total if reduction == "mean" else dlogits
        grads = tuple(g.astype(input.dtype.np) for g in (scaled @ w.astype(np.float64), scaled.T @ x.astype(np.float64),
                                                          scaled.sum(0)))
        attrs.update(reduction=reduction, grads=grads, allow_retain_graph=bool(options.allow_retain_graph),
                     state=set())
        res = dispatch.apply(OPS["linear_cross_entropy_chunked"], tensors, attrs)
    return res if batched else res.squeeze(0)


def _cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing):  # noqa: A002
    class_dim = 0 if input.dim() == 1 else 1
    n_classes = input.shape[class_dim]
    logp = input.log_softmax(class_dim)
    if target.dtype.is_floating_point and tuple(target.shape) == tuple(input.shape):
        return _cross_entropy_probabilities(logp, target, weight, ignore_index, reduction, label_smoothing)
    loss = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)  # noqa: F821 - derived
    if label_smoothing == 0.0:
        return loss
    keep = target != ignore_index
    smooth = -(logp * _class_view(weight, logp)).sum(class_dim) if weight is not None else -logp.sum(class_dim)
    smooth.masked_fill_(~keep, 0.0)
    if reduction == "mean":
        if weight is not None:
            picked = target._data[keep._data].reshape(-1)
            smooth = smooth.sum() / weight._new(np.asarray(np.sum(weight._data[picked])), weight.dtype)
        else:
            smooth = smooth.sum() / keep.sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * loss + smooth * (label_smoothing / n_classes)


def _class_view(weight, like):
    """weight shaped to broadcast along the class dim (1) of like."""
    return weight if like.dim() == 1 else weight.view(1, -1, *([1] * (like.dim() - 2)))


def _cross_entropy_probabilities(logp, target, weight, ignore_index, reduction, label_smoothing):
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    class_dim = 0 if logp.dim() == 1 else 1
    n_classes = logp.shape[class_dim]
    if label_smoothing > 0.0:
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    terms = logp * target if weight is None else logp * target * _class_view(weight, logp)
    if reduction == "none":
        return -terms.sum(class_dim)
    if reduction == "sum":
        return -terms.sum()
    return -terms.sum() / (logp.numel() // n_classes)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):  # noqa: A002
    """torch.nn.functional.kl_div over ATen's kl_div: target · (log target − input) pointwise (xlogy), then the
    reduction; 'batchmean' is the sum over the batch size."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      UserWarning, stacklevel=messages.level(2))
    if reduction == "batchmean":
        reduced = aten_kl_div(input, target, "sum", log_target)
        return reduced / input.shape[0] if input.dim() != 0 else reduced
    return aten_kl_div(input, target, reduction, log_target)


def aten_kl_div(input, target, reduction, log_target):  # noqa: A002
    """ATen's kl_div (torch.kl_div): the pointwise terms, then the reduction ('none', 'mean' or 'sum')."""
    if log_target:
        pointwise = target.exp() * (target - input)
    else:
        pointwise = target.xlogy(target) - target * input
    if reduction == "sum":
        return pointwise.sum()
    return pointwise.mean() if reduction == "mean" else pointwise


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):  # noqa: A002
    """ATen's native_group_norm: each sample's channels in num_groups groups, each group normalised by its mean
    and 1/√(var + eps) (kept by the node as result1, result2), then scaled and shifted per channel."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    N, C = input.shape[0], input.shape[1]
    if N * C // num_groups * num_groups * math.prod(input.shape[2:]) == 1:  # F.group_norm's _verify_batch_size
        raise ValueError("Expected more than 1 value per channel when training, got input size "
                         f"{[N * C // num_groups, num_groups] + list(input.shape[2:])}")
    if C % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(input.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != C):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {list(t.shape)} and input of shape {list(input.shape)}")
    HxW = input.numel() // (N * C) if N * C else 0
    return _group_norm(input, weight, bias, N, C, HxW, num_groups, eps, "group_norm")


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):  # noqa: A002
    """(output, mean, rstd): torch.native_group_norm; mean and rstd, (N, group), are outputs of the node too."""
    return _group_norm(input, weight, bias, N, C, HxW, group, eps, "native_group_norm")


def _group_norm(input, weight, bias, N, C, HxW, group, eps, name):  # noqa: A002
    dtype = input.dtype
    groups = input._data.reshape(N, group, C // group * HxW).astype(np.float64)
    mean = groups.mean(-1)
    rstd = 1 / np.sqrt(groups.var(-1) + eps)
    weight = weight if weight is not None else input._new(np.ones(C, dtype.np), dtype)
    bias = bias if bias is not None else input._new(np.zeros(C, dtype.np), dtype)
    return dispatch.apply(OPS[name], (input, weight, bias),
                          {"result1": input._new(mean.astype(dtype.np), dtype),
                           "result2": input._new(rstd.astype(dtype.np), dtype),
                           "N": N, "C": C, "HxW": HxW, "group": group, "eps": eps})


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):  # noqa: A002
    """ATen's native_layer_norm: each row over the last len(normalized_shape) dims normalised by its own mean and
    biased variance; the mean and 1/sqrt(var + eps) are kept (as result1, result2) with those dims of size 1."""
    return native_layer_norm(input, normalized_shape, weight, bias, eps)[0]


def native_layer_norm(input, normalized_shape, weight, bias, eps):  # noqa: A002
    """(output, mean, rstd): torch.native_layer_norm; mean and rstd (not differentiable) have the normalised dims
    of size 1."""
    normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(normalized_shape)
    if not k:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != normalized_shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(t.shape)} and normalized_shape = {list(normalized_shape)}")
    if input.dim() < k or tuple(input.shape[input.dim() - k:]) != normalized_shape:
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, normalized_shape))}], but got input of size"
                           f"{list(input.shape)}")
    dtype = input.dtype
    # a bfloat16/float16 input with float32 weight and bias (autocast's): ATen's mixed type, the output of the
    # input's dtype, the mean and rstd float32
    mixed = dtype in (dtypes.bfloat16, dtypes.float16) and all(t is None or t.dtype is dtypes.float32
                                                                 for t in (weight, bias)) and weight is not None
    stats = dtypes.float32 if mixed else dtype
    data = input._data.astype(np.float64)
    dims = tuple(range(input.dim() - k, input.dim()))
    mean = input._new(data.mean(axis=dims, keepdims=True).astype(stats.np), stats)
    rstd = input._new((1 / np.sqrt(data.var(axis=dims, keepdims=True) + eps)).astype(stats.np), stats)
    weight = weight if weight is not None else input._new(np.ones(normalized_shape, dtype.np), dtype)
    bias = bias if bias is not None else input._new(np.zeros(normalized_shape, stats.np), stats)
    out = dispatch.apply(OPS["layer_norm"], (input, weight, bias),
                         {"normalized_shape": normalized_shape, "eps": eps, "result1": mean, "result2": rstd},
                         dtype if mixed else None)
    return out, mean, rstd


def one_hot(tensor, num_classes=-1):
    """F.one_hot: int64 rows with a 1 at each class index (not differentiable)."""
    if tensor.dtype is not dtypes.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    t = tensor._data
    if t.size and t.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not t.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(t.max()) + 1
    elif t.size and t.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = np.zeros((*t.shape, num_classes), dtype=np.int64)
    np.put_along_axis(out, t[..., None], 1, axis=-1)
    return tensor._new(out, dtypes.int64)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,  # noqa: A002
              sparse=False):
    if sparse:
        raise RuntimeError("sparse gradients are not supported by this engine (sparse=True)")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    if max_norm is not None:
        _renorm_rows(weight, input, max_norm, norm_type)
    return dispatch.apply(*OPS["embedding"].bind(weight, input, padding_idx if padding_idx is not None else -1,
                                                 scale_grad_by_freq))


def _renorm_rows(weight, indices, max_norm, norm_type):
    """embedding_renorm_: the rows looked up whose norm exceeds max_norm are scaled down to it, in place and
    without grad, as torch does before the lookup."""
    rows = np.unique(indices._data.reshape(-1))
    with grad_mode.no_grad():
        data = weight._data
        norms = np.linalg.norm(data[rows].astype(np.float64), ord=norm_type, axis=1)
        over = norms > max_norm
        scale = (max_norm / (norms[over] + 1e-7)).astype(data.dtype)
        if over.any():
            data[rows[over]] = data[rows[over]] * scale[:, None]
            weight._vbox[0] += 1


def dropout1d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that "
                           "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                           "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    batched = input.dim() == 3
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)  # noqa: A001
    result = _feature_dropout(input, p, training, inplace)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def dropout2d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (3, 4):
        warnings.warn(f"dropout2d: Received a {input.dim()}-D input to dropout2d, which is deprecated and will "
                      "result in an error in a future release. To retain the behavior and silence this warning, "
                      "please use dropout instead. Note that dropout2d exists to provide channel-wise dropout on "
                      "inputs with 2 spatial dimensions, a channel dimension, and an optional batch dimension (i.e. "
                      "3D or 4D inputs).", UserWarning, stacklevel=messages.level(2))
    if input.dim() == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                      "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
                      "will change in a future release to interpret the input as one without a batch dimension, i.e. "
                      "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
                      "dropout1d instead.", UserWarning, stacklevel=messages.level(2))
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if input.dim() not in (4, 5):
        warnings.warn(f"dropout3d: Received a {input.dim()}-D input to dropout3d, which is deprecated and will "
                      "result in an error in a future release. To retain the behavior and silence this warning, "
                      "please use dropout instead. Note that dropout3d exists to provide channel-wise dropout on "
                      "inputs with 3 spatial dimensions, a channel dimension, and an optional batch dimension (i.e. "
                      "4D or 5D inputs).", UserWarning, stacklevel=messages.level(2))
    batched = input.dim() == 5
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)  # noqa: A001
    result = _feature_dropout(input, p, training, inplace)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


_SELU_ALPHA_PRIME = 1.7580993408473766


def _alpha_dropout(input, p, training, inplace, feature):  # noqa: A002
    """ATen's alpha dropout: noise = bernoulli_(1 − p) (one per channel for the feature form), then
    input · (noise · a) + ((noise − 1) · α′a + α′ap), a = 1 / √((α′²p + 1)(1 − p)), keeping SELU's statistics."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = input._constant(0)
        return input.mul_(zero) if inplace else input.mul(zero)
    dtype = input.dtype
    t = dtype.np.type
    shape = tuple(input.shape[:2]) + (1,) * (input.dim() - 2) if feature else tuple(input.shape)
    keep = draws.bernoulli(generator.default_generator, np.empty(shape, dtype.np), 1 - p)
    a = 1.0 / np.sqrt((_SELU_ALPHA_PRIME ** 2 * p + 1) * (1 - p))
    b = input._new(((keep + t(-1)) * t(_SELU_ALPHA_PRIME * a) + t(_SELU_ALPHA_PRIME * a * p)).astype(dtype.np), dtype)
    noise = input._new((keep * t(a)).astype(dtype.np), dtype)
    out = input.mul_(noise) if inplace else input.mul(noise)
    return out.add_(b)


def alpha_dropout(input, p=0.5, training=False, inplace=False):  # noqa: A002
    return _alpha_dropout(input, p, training, inplace, feature=False)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):  # noqa: A002
    return _alpha_dropout(input, p, training, inplace, feature=True)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):  # noqa: A002
    """F.smooth_l1_loss: ATen's smooth_l1_loss op, or l1_loss where beta is 0 (as torch's function chooses)."""
    op, inputs, attrs, dtype = OPS["smooth_l1_loss"].bind(input, target, size_average, reduce, reduction, beta)
    if beta == 0:
        return l1_loss(input, target, reduction=attrs["reduction"])
    return dispatch.apply(op, inputs, attrs, dtype)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):  # noqa: A002
    """F.huber_loss: ATen's huber_loss op, or with weight its elementwise loss times weight, then reduced."""
    if weight is None:
        return dispatch.apply(*OPS["huber_loss"].bind(input, target, reduction, delta))
    if tuple(weight.shape) != tuple(input.shape):
        raise ValueError("Weights and input must have the same size.")
    weighted = dispatch.apply(*OPS["huber_loss"].bind(input, target, "none", delta)) * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    if reduction == "mean":
        return weighted.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


from .attention import (  # noqa: E402, F401 - they use the functions above
    multi_head_attention_forward,
    scaled_dot_product_attention,
)
from .functional_arguments import checked  # noqa: E402
from .norm_functions import instance_norm, local_response_norm, rms_norm  # noqa: E402, F401
from .pool_functions import (  # noqa: E402, F401
    adaptive_avg_pool1d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d,
    adaptive_max_pool2d_with_indices,
    adaptive_max_pool3d,
    adaptive_max_pool3d_with_indices,
    avg_pool3d,
    fractional_max_pool2d,
    fractional_max_pool2d_with_indices,
    fractional_max_pool3d,
    fractional_max_pool3d_with_indices,
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_pool1d_with_indices,
    max_pool2d_with_indices,
    max_pool3d,
    max_pool3d_with_indices,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
)
from .upsample_functions import interpolate, upsample, upsample_bilinear, upsample_nearest  # noqa: E402, F401

globals().update(checked(globals()))
