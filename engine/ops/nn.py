"""nn.functional's ops: softmax and log_softmax, the losses with nodes of their own (nll, mse, huber, smooth l1;
the binary cross entropies are in binary_cross_entropy.py), and embedding."""
import math
import warnings

import numpy as np

from .. import dtypes, kernels, messages
from .rounding import EXP, LOG
from .table import OPS, Spelling, floats_only, op


def _softmax(a, dim):
    if a.size == 0:
        return a.copy()
    if a.dtype == np.float32:
        return kernels.softmax(a, dim).reshape(a.shape)
    e = EXP(a - np.max(a, axis=dim, keepdims=True))
    return e * (1 / np.sum(e, axis=dim, keepdims=True))


def _log_softmax(a, dim):
    if a.size == 0:
        return a.copy()
    if a.dtype == np.float32:
        return kernels.log_softmax(a, dim, reduced=dtypes.computing_reduced()).reshape(a.shape)
    s = a - np.max(a, axis=dim, keepdims=True)
    return s - LOG(np.sum(EXP(s), axis=dim, keepdims=True))


def _softmax_bind(name):
    def bind(input, dim, dtype=None):  # noqa: A002
        x = input if dtype is None else input.to(dtype)
        d = x._reduce_dims(dim)
        if not x.dtype.is_floating_point:
            last = x.dim() == 0 or d % x.dim() == x.dim() - 1
            floats_only(f"{name}_{'lastdim_' if last else ''}kernel_impl", x)
        return OPS[name], (x,), {"dim": d}, None

    return bind


def implicit_dim(name, input, dim):  # noqa: A002
    """F.softmax(x) without dim: PyTorch's deprecated guess, with its warning (at the caller's caller)."""
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                      "dim=X as an argument.", UserWarning, stacklevel=messages.level(3))
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return dim


op("softmax", "SoftmaxBackward0", ("self",), _softmax,
   ("result · (grad − Σ grad·result)",
    lambda n, g: g._op("softmax_backward_data", n["result"], dim=n.attrs["dim"])),
   saves={0: ("result", "dim")},
   spell=Spelling(method="softmax", function="softmax"), bind=_softmax_bind("softmax"))
op("log_softmax", "LogSoftmaxBackward0", ("self",), _log_softmax,
   ("grad − exp(result) · Σ grad",
    lambda n, g: g._op("log_softmax_backward_data", n["result"], dim=n.attrs["dim"])),
   saves={0: ("result", "dim")},
   spell=Spelling(method="log_softmax", function="log_softmax"), bind=_softmax_bind("log_softmax"))


# ATen's _softmax_backward_data and _log_softmax_backward_data: ops of their own, so that create_graph records them
def _row_sum(a, dim):
    return kernels.sum(a, axis=dim, keepdims=True) if a.ndim else a


def _softmax_backward(g, output, dim):
    return output * (g - _row_sum(g * output, dim))


def _log_softmax_backward(g, output, dim):
    return g - EXP(output) * _row_sum(g, dim)


def _softmax_double(n, v):
    """ATen's softmax_double_backward: grad_output · v − Σ(output · grad_output) · v − grad_output · Σ(output · v)."""
    go, out, dim = n["grad_output"], n["output"], n.attrs["dim"]
    return go * v - (out * go).sum(dim, True) * v - go * (out * v).sum(dim, True)


def _bind_softmax_backward(grad_output, output, dim, input_dtype):
    """torch._softmax_backward_data(grad_output, output, dim, input_dtype): the grad of the softmax whose result
    is output (input_dtype: the dtype softmax was given, which on the CPU the grad already has)."""
    if grad_output.dtype is not output.dtype:
        raise RuntimeError(f"expected scalar type {grad_output.dtype.type_name} but found {output.dtype.type_name}")
    return OPS["softmax_backward_data"], (grad_output, output), {"dim": output._reduce_dims(dim)}, grad_output.dtype


op("softmax_backward_data", "SoftmaxBackwardDataBackward0", ("grad_output", "output"), _softmax_backward,
   ("output · (grad − Σ grad·output)", lambda n, v: v._op("softmax_backward_data", n["output"], dim=n.attrs["dim"])),
   ("grad_output · grad − Σ(output · grad_output) · grad − grad_output · Σ(output · grad)", _softmax_double),
   saves={0: ("output", "dim"), 1: ("grad_output", "output", "dim")},
   spell=Spelling(function="_softmax_backward_data", out=False), bind=_bind_softmax_backward)
op("log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0", ("grad_output", "output"), _log_softmax_backward,
   ("grad − Σ(grad · exp(output))", lambda n, v: v - (v * n["output"].exp()).sum(n.attrs["dim"], True)),
   ("−Σ grad_output · exp(output) · grad",
    lambda n, v: -n["grad_output"].sum(n.attrs["dim"], True) * n["output"].exp() * v),
   saves={0: ("output", "dim"), 1: ("grad_output", "output", "dim")})


# --- nll_loss ------------------------------------------------------------------------------------------
def _nll(a, target, reduction, weight, ignore_index, total_weight):
    target, total_weight = target._data, total_weight._data
    if a.dtype == np.float32:
        return kernels.nll_loss(a, target, None if weight is None else weight._data, reduction, ignore_index,
                                dtypes.computing_reduced())
    rows = a.reshape(-1, a.shape[-1])
    t = target.reshape(-1)
    picked = -rows[np.arange(rows.shape[0]), _safe(t, ignore_index)] * _row_weights(t, weight, ignore_index, a.dtype)
    if reduction == "none":
        return picked if a.ndim == 2 else picked[0]
    total = np.sum(picked)
    return total if reduction == "sum" else total / np.asarray(total_weight, dtype=a.dtype)


def _safe(t, ignore_index):
    return np.where(t == ignore_index, 0, t)


def _row_weights(t, weight, ignore_index, dtype):
    """Each target's class weight (1 without weights), 0 where the target is ignore_index."""
    w = np.ones(t.shape, dtype) if weight is None else weight._data[_safe(t, ignore_index)].astype(dtype)
    return np.where(t == ignore_index, dtype.type(0), w)


def _nll_back(n, g):
    a = n.attrs
    scale = g if a["reduction"] != "mean" else g / a["total_weight"].item()
    t = a["target"]._data.reshape(-1)
    return (-scale)._op("nll_embed", n["self"], shape=n._shapes[0], target=t, ignore_index=a["ignore_index"],
                        weights=_row_weights(t, a["weight"], a["ignore_index"], np.dtype(g._data.dtype)))


def _nll_embed_fwd(g, x, shape, target, ignore_index, weights):
    out = np.zeros((int(np.prod(shape[:-1])), shape[-1]), dtype=g.dtype)
    kept = np.flatnonzero(target != ignore_index)  # an ignored row stays +0, as ATen never writes it
    values = g.reshape(-1) * weights if g.ndim else g * weights
    out[kept, target[kept]] = values[kept]
    return out.reshape(shape)


def _nll_take(n, g):
    a = n.attrs
    rows = g.reshape(-1, a["shape"][-1])
    taken = rows._op("index", key=(np.arange(len(a["target"])), _safe(a["target"], a["ignore_index"])))
    return taken * g._new(a["weights"], g.dtype)


def _bind_nll(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,  # noqa: A002
              reduction="mean"):
    if not hasattr(target, "_data") or target.dtype.is_floating_point:
        got = target.dtype.type_name if hasattr(target, "_data") else type(target).__name__
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {got}")
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    t = target._data
    n_classes = input.shape[-1] if input.dim() else 0
    if input.dim() == 2 and t.shape[0] != input.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({t.shape[0]}).")
    if t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    kept = t[t != ignore_index]
    if kept.size and (kept.min() < 0 or kept.max() >= n_classes):
        raise IndexError(f"Target {int(kept.max() if kept.max() >= n_classes else kept.min())} is out of bounds.")
    if weight is not None and tuple(weight.shape) != (n_classes,):
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes or no classes but "
                           f"got weight tensor of shape: [{', '.join(map(str, weight.shape))}]")
    if weight is not None and weight.requires_grad:
        raise RuntimeError("the derivative for 'weight' is not implemented.")
    total_weight = 0.0 if reduction == "none" else np.sum(
        _row_weights(t.reshape(-1), weight, ignore_index, np.dtype(np.float64)))
    total_weight = input._constant(total_weight)  # a tensor, as ATen's forward makes it
    return OPS["nll_loss"], (input,), {"target": target, "reduction": reduction, "weight": weight,
                                       "ignore_index": ignore_index, "total_weight": total_weight}, None


def valid_reduction(reduction):
    """torch.nn._reduction.get_enum's check, which nn.functional's losses make before ATen's."""
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def legacy_reduction(size_average, reduce):
    """torch.nn._reduction.legacy_get_string, with its warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' instead.",
                  UserWarning, stacklevel=messages.level(4))
    return reduction


op("nll_loss", "NllLossBackward0", ("self",), _nll, ("−weight[target] · grad / Σ weight at each target", _nll_back),
   saves={0: ("self", "target", "weight", "reduction", "ignore_index", "total_weight")},
   spell=Spelling(functional="nll_loss"), bind=_bind_nll)
op("nll_embed", "NllLossBackwardBackward0", ("grad", "self"), _nll_embed_fwd, ("grad at each target", _nll_take),
   ("0 (ATen's zeros_like)", lambda n, v: v._new(np.zeros(n._shapes[1], v.dtype.np), v.dtype)))


def _nll2d(a, target, reduction, weight, ignore_index, total_weight):
    """nll_loss2d: (N, C, H, W) log-probabilities, (N, H, W) targets: nll_loss of the rows (N·H·W, C)."""
    rows = np.ascontiguousarray(np.moveaxis(a, 1, -1)).reshape(-1, a.shape[1])
    flat = type(target)._make(target._data.reshape(-1), target.dtype)
    out = _nll(rows, flat, reduction, weight, ignore_index, total_weight)
    return out.reshape(target.shape) if reduction == "none" else out


def _nll2d_back(n, g):
    a = n.attrs
    N, C, H, W = n._shapes[0]
    scale = g if a["reduction"] != "mean" else g / a["total_weight"].item()
    t = a["target"]._data.reshape(-1)
    return (-scale)._op("nll2d_embed", n["self"], shape=(N, H, W, C), target=t, ignore_index=a["ignore_index"],
                        weights=_row_weights(t, a["weight"], a["ignore_index"], np.dtype(g._data.dtype)))


def _nll2d_embed_fwd(g, x, **attrs):
    """nll_embed of the rows (N·H·W, C), laid out (N, C, H, W) row-major as ATen writes it."""
    return np.ascontiguousarray(np.moveaxis(_nll_embed_fwd(g, x, **attrs), 3, 1))


op("nll2d_embed", "NllLoss2DBackwardBackward0", ("grad", "self"), _nll2d_embed_fwd,
   ("grad at each target", lambda n, v: _nll_take(n, v.permute(0, 2, 3, 1))),
   ("0 (ATen's zeros_like)", lambda n, v: v._new(np.zeros(n._shapes[1], v.dtype.np), v.dtype)))


def bind_nll2d(input, target, weight, reduction, ignore_index):  # noqa: A002
    """ATen's nll_loss2d for a (N, C, H, W) input and (N, H, W) target (nll_loss_nd views other shapes to these)."""
    if target.dim() != 3 or tuple(target.shape) != (input.shape[0], *input.shape[2:]):
        raise RuntimeError(f"size mismatch (got input: {'x'.join(map(str, input.shape))} , target: "
                           f"{'x'.join(map(str, target.shape))}")
    t = target._data
    kept = t[t != ignore_index]
    if kept.size and (kept.min() < 0 or kept.max() >= input.shape[1]):
        raise IndexError(f"Target {int(kept.max() if kept.max() >= input.shape[1] else kept.min())} is out of bounds.")
    total_weight = 0.0 if reduction == "none" else np.sum(
        _row_weights(t.reshape(-1), weight, ignore_index, np.dtype(np.float64)))
    attrs = {"target": target, "reduction": reduction, "weight": weight, "ignore_index": ignore_index,
             "total_weight": input._constant(total_weight)}
    return OPS["nll_loss2d"], (input,), attrs, None


op("nll_loss2d", "NllLoss2DBackward0", ("self",), _nll2d,
   ("−weight[target] · grad / Σ weight at each target (per position)", _nll2d_back),
   saves={0: ("self", "target", "weight", "reduction", "ignore_index", "total_weight")}, bind=False,
   spell=Spelling(name="nll_loss({0}, …)"))


# --- mse_loss -------------------------------------------------------------------------------------------
def _mse(a, b, reduction):
    return kernels.mse_loss(a, b, reduction)


def _norm(x, reduction, k=1):
    """What ATen's loss backwards scale by: k / numel for 'mean', else k, in x's dtype."""
    return x.dtype.type(k / x.size if reduction == "mean" else k)


def _mse_backward(g, x, t, reduction):
    return _norm(x, reduction, 2) * (x - t) * g


def _mean_of(n, v, name="self"):
    """v divided by the number of elements of input `name` for 'mean' (ATen's double backwards of the losses)."""
    return v / math.prod(n._shapes[n._op.args.index(name)]) if n.attrs["reduction"] == "mean" else v


op("mse_loss_backward", "MseLossBackwardBackward0", ("grad_output", "self", "target"), _mse_backward,
   ("2 · (self − target) · grad / N",
    lambda n, v: v._op("mse_loss_backward", n["self"], n["target"], reduction=n.attrs["reduction"])),
   ("2 · grad · grad_output / N", lambda n, v: _mean_of(n, 2 * (v * n["grad_output"]))),
   ("−2 · grad · grad_output / N", lambda n, v: -_mean_of(n, 2 * (v * n["grad_output"]), "target")),
   saves={0: ("self", "target", "reduction"), 1: ("grad_output", "reduction"), 2: ("grad_output", "reduction")})


def _bind_mse(input, target, reduction="mean"):  # noqa: A002
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
            "same size.", UserWarning, stacklevel=messages.level(3))
        try:
            np.broadcast_shapes(input.shape, target.shape)
        except ValueError:
            raise RuntimeError(
                f"The size of tensor a ({input.shape[-1]}) must match the size of tensor b "
                f"({target.shape[-1]}) at non-singleton dimension {input.dim() - 1}") from None
    return OPS["mse_loss"], (input, target), {"reduction": reduction}, None


op("mse_loss", "MseLossBackward0", ("self", "target"), _mse,
   ("2 · (self − target) · grad / N",
    lambda n, g: g._op("mse_loss_backward", n["self"], n["target"], reduction=n.attrs["reduction"])),
   ("2 · (target − self) · grad / N",
    lambda n, g: g._op("mse_loss_backward", n["target"], n["self"], reduction=n.attrs["reduction"])),
   saves={0: ("self", "target", "reduction"), 1: ("self", "target")}, spell=Spelling(functional="mse_loss"),
   bind=_bind_mse)


def _reduce(loss, reduction):
    """apply_loss_reduction: the elementwise loss, or its sum or mean as torch reduces them."""
    if reduction == "none":
        return loss
    return kernels.sum(loss) if reduction == "sum" else kernels.mean(loss)


def _mean_scale(n, g):
    return g / math.prod(n._shapes[0]) if n.attrs["reduction"] == "mean" else g


# --- huber_loss, smooth_l1_loss ----------------------------------------------------------------------------
def _huber(x, t, reduction, delta):
    z = np.abs(x - t)
    d = x.dtype.type(delta)
    return _reduce(np.where(z < d, x.dtype.type(0.5) * z * z, d * (z - x.dtype.type(0.5) * d)), reduction)


def _huber_backward(g, x, t, reduction, delta):
    """ATen's huber_backward_cpu_kernel: norm · clamp(x − t, −delta, delta) · grad, in its order of products."""
    norm, d, diff = _norm(x, reduction), x.dtype.type(delta), x - t
    return np.where(diff <= -d, -norm * g * d, np.where(diff >= d, norm * g * d, norm * diff * g))


def _inside(n, v, width):
    """ATen's huber/smooth_l1 double backward: grad · grad_output where |self − target| < width (/ N for 'mean')."""
    return _mean_of(n, v * n["grad_output"] * ((n["self"] - n["target"]).abs() < width))


def _smooth_l1(x, t, reduction, beta):
    z = np.abs(x - t)
    if beta == 0:
        return _reduce(z, reduction)
    b = x.dtype.type(beta)
    return _reduce(np.where(z < b, x.dtype.type(0.5) * z * z / b, z - x.dtype.type(0.5) * b), reduction)


def _smooth_l1_backward(g, x, t, reduction, beta):
    """ATen's smooth_l1_backward_cpu_kernel: norm · grad, with its sign, outside ±beta, norm · (x − t) · grad / beta
    inside."""
    norm, b, diff = _norm(x, reduction), x.dtype.type(beta), x - t
    if beta == 0:
        return np.sign(diff) * norm * g
    return np.where(diff <= -b, -norm * g, np.where(diff >= b, norm * g, norm * diff * g / b))


def _loss_backward_op(name, node, forward, option, text):
    """The op ATen's <name> backward is (its derivatives those of ATen's <name>_double_backward), and the vjps of
    <name> itself, self's and target's: the same op with self and target swapped for target."""
    def again(n, v, a, b):
        return v._op(name + "_backward", n[a], n[b], reduction=n.attrs["reduction"], **{option: n.attrs[option]})

    def inside(n, v):
        width = n.attrs[option]
        if width == 0:
            return v * 0
        inner = _inside(n, v, width)
        return inner if option == "delta" else inner / width

    op(name + "_backward", node + "BackwardBackward0", ("grad_output", "self", "target"), forward,
       (text, lambda n, v: again(n, v, "self", "target")),
       ("grad · grad_output where |self − target| < " + option, inside),
       ("−grad · grad_output where |self − target| < " + option, lambda n, v: -inside(n, v)),
       saves={0: ("self", "target", "reduction", option), 1: ("grad_output", "self", "target", "reduction", option),
              2: ("grad_output", "self", "target", "reduction", option)})
    return lambda n, g: again(n, g, "self", "target"), lambda n, g: again(n, g, "target", "self")


_huber_grads = _loss_backward_op("huber_loss", "HuberLoss", _huber_backward, "delta",
                                 "clamp(self − target, −delta, delta) · grad / N")
_smooth_l1_grads = _loss_backward_op("smooth_l1_loss", "SmoothL1Loss", _smooth_l1_backward, "beta",
                                     "clamp((self − target) / beta, −1, 1) · grad / N")


def _pair_loss(name, option, input, target, reduction, value):  # noqa: A002
    if value < 0:
        raise RuntimeError(f"{name} does not support negative values for {option}.")
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
            "same size.", UserWarning, stacklevel=messages.level(4))
    return OPS[name], (input, target), {"reduction": reduction, option: float(value)}, None


def _bind_huber(input, target, reduction="mean", delta=1.0):  # noqa: A002
    valid_reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return _pair_loss("huber_loss", "delta", input, target, reduction, delta)


def _bind_smooth_l1(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):  # noqa: A002
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    return _pair_loss("smooth_l1_loss", "beta", input, target, reduction, beta)


op("huber_loss", "HuberLossBackward0", ("self", "target"), _huber,
   ("clamp(self − target, −delta, delta) · grad / N", _huber_grads[0]),
   ("−clamp(self − target, −delta, delta) · grad / N", _huber_grads[1]),
   saves={0: ("self", "target", "delta", "reduction"), 1: ("self", "target", "delta", "reduction")},
   spell=Spelling(functional="huber_loss"), bind=_bind_huber)
op("smooth_l1_loss", "SmoothL1LossBackward0", ("self", "target"), _smooth_l1,
   ("clamp((self − target) / beta, −1, 1) · grad / N", _smooth_l1_grads[0]),
   ("−clamp((self − target) / beta, −1, 1) · grad / N", _smooth_l1_grads[1]),
   saves={0: ("self", "target", "beta", "reduction"), 1: ("self", "target", "beta", "reduction")},
   spell=Spelling(functional="smooth_l1_loss"), bind=_bind_smooth_l1)


# --- embedding ------------------------------------------------------------------------------------------
def _embedding_grad(n, g):
    a = n.attrs
    return g._op("embedding_backward", indices=a["indices"], num_weights=n._shapes[0][0],
                 padding_idx=a["padding_idx"], scale_grad_by_freq=a["scale_grad_by_freq"])


def _embedding_backward(g, indices, num_weights, padding_idx, scale_grad_by_freq):
    flat = indices._data.reshape(-1)
    rows = g.reshape(len(flat), -1)
    if scale_grad_by_freq:
        counts = np.bincount(flat.astype(np.intp), minlength=num_weights)
        rows = rows / counts[flat, None].astype(g.dtype)
    out = np.zeros((num_weights, rows.shape[1]), dtype=g.dtype)
    np.add.at(out, flat, rows)
    if padding_idx < num_weights:
        out[padding_idx] = 0
    return out


NO_PADDING = 2**64 - 1  # F.embedding's padding_idx=-1 as torch's node shows it (an unsigned int64)


def _bind_embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    padding_idx = NO_PADDING if padding_idx == -1 else padding_idx
    if indices.dtype.name not in ("int64", "int32"):
        got = "CPUBoolType" if indices.dtype.name == "bool" else f"torch.{indices.dtype.type_name}Tensor"
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {got} instead (while checking arguments for embedding)")
    t = indices._data
    if t.size and (t.min() < 0 or t.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    return (OPS["embedding"], (weight,), {"indices": indices, "padding_idx": padding_idx,
                                          "scale_grad_by_freq": scale_grad_by_freq, "sparse": sparse}, None)


op("embedding", "EmbeddingBackward0", ("weight",),
   lambda w, indices, padding_idx, scale_grad_by_freq, sparse: w[indices._data],
   ("grad rows summed into the rows picked", _embedding_grad),
   saves={0: ("indices", "padding_idx", "scale_grad_by_freq", "sparse", "weight_sym_argsize_0")},
   spell=Spelling(function="embedding"),
   bind=_bind_embedding)
op("embedding_backward", "EmbeddingDenseBackwardBackward0", ("grad",), _embedding_backward,
   ("grad at the rows picked", lambda n, g: g._op("index", key=(n.attrs["indices"]._data,))),
   bind=False)
