"""The normalisations with nodes of their own: batch_norm (NativeBatchNormBackward0), group_norm
(NativeGroupNormBackward0) and layer_norm (NativeLayerNormBackward0)."""
import numpy as np

from .table import Spelling, op


# --- batch_norm -------------------------------------------------------------------------------------------
def bn_layout(ndim, channels):
    """The dims batch norm reduces over (all but the channel dim 1) and the shape its per-channel statistics
    broadcast in."""
    return (0, *range(2, ndim)), (1, channels) + (1,) * (ndim - 2)


def _batch_norm(x, weight, bias, result1, result2, training, eps, running_mean, running_var):
    _, shape = bn_layout(x.ndim, x.shape[1])
    if training:
        mean, invstd = result1._data, result2._data
    else:
        mean = running_mean._data
        invstd = (1 / np.sqrt(running_var._data.astype(np.float64) + eps)).astype(x.dtype)
    return (x - mean.reshape(shape)) * invstd.reshape(shape) * weight.reshape(shape) + bias.reshape(shape)


def _bn_statistics(n, x, shape, dims):
    """(x − mean, invstd) of the forward, as Tensor ops of the saved input (so a second backward sees how they
    depend on it) when training, or from the running statistics."""
    a = n.attrs
    if not a["training"]:
        return x - a["running_mean"].view(shape), (a["running_var"].view(shape) + a["eps"]).rsqrt()
    centred = x - x.mean(dims, keepdim=True)
    return centred, ((centred * centred).mean(dims, keepdim=True) + a["eps"]).rsqrt()


def _bn_input_grad(n, g):
    """batch_norm_backward_cpu's order: dotp = Σ grad·(x − mean), then (grad − mean(grad) − (x − mean)·dotp·invstd²/N)
    · invstd · weight; in eval mode grad · invstd · weight."""
    x = n["input"]
    dims, shape = bn_layout(x.dim(), x.shape[1])
    centred, invstd = _bn_statistics(n, x, shape, dims)
    scale = invstd * n["weight"].view(shape)
    if not n.attrs["training"]:
        return g * scale
    count = x.numel() // x.shape[1]
    k = (g * centred).sum(dims, keepdim=True) * invstd * invstd / count
    return (g - g.sum(dims, keepdim=True) / count - centred * k) * scale


def _bn_bias_grad(n, g):
    """Σ grad, by ATen's one NativeBatchNormBackwardBackward0, whose inputs are the grad and the saved input and
    weight (so that under create_graph it needs grad when they do, as torch's does)."""
    return g._op("batch_norm_bias", n["input"], n["weight"])


def _bn_weight_grad(n, g):
    x = n["input"]
    dims, shape = bn_layout(x.dim(), x.shape[1])
    centred, invstd = _bn_statistics(n, x, shape, dims)
    return (g * (centred * invstd)).sum(dims)


op("batch_norm", "NativeBatchNormBackward0", ("input", "weight", "bias"), _batch_norm,
   ("weight · invstd · (grad − mean(grad) − x̂ · mean(grad · x̂))", _bn_input_grad),
   ("Σ grad · x̂", _bn_weight_grad),
   ("Σ grad", _bn_bias_grad),
   saves={0: ("input", "weight", "running_mean", "running_var", "result1", "result2", "training", "eps"),
          1: ("input", "result1", "result2"), 2: ("input", "weight")},
   spell=Spelling(name="batch_norm({0}, …)"), bind=False)


def _zeros_like_input(n, i, v):
    return v._new(np.zeros(n._shapes[i], v.dtype.np), v.dtype)


op("batch_norm_bias", "NativeBatchNormBackwardBackward0", ("grad", "input", "weight"),
   lambda g, x, w: np.sum(g, axis=bn_layout(g.ndim, g.shape[1])[0]),
   ("grad spread over the batch and the positions",
    lambda n, v: v.view(*bn_layout(len(n._shapes[0]), n._shapes[0][1])[1]).expand(*n._shapes[0])),
   ("0", lambda n, v: _zeros_like_input(n, 1, v)), ("0", lambda n, v: _zeros_like_input(n, 2, v)))


# --- group norm ----------------------------------------------------------------------------------------------
def _group_norm(x, weight, bias, result1, result2, N, C, HxW, group, eps):
    """native_group_norm's output, from the statistics F.group_norm worked out (result1: mean, result2: rstd)."""
    groups = x.reshape(N, group, -1)
    out = ((groups - result1._data[..., None]) * result2._data[..., None]).reshape(N, C, -1)
    return (out * weight.reshape(1, C, 1) + bias.reshape(1, C, 1)).reshape(x.shape)


def _gn_normalised(n):
    """x̂ per group, (N, group, C/group · HxW), as Tensor ops of the saved input, and rstd."""
    a = n.attrs
    groups = n["input"].reshape(a["N"], a["group"], -1)
    centred = groups - groups.mean(-1, keepdim=True)
    rstd = ((centred * centred).mean(-1, keepdim=True) + a["eps"]).rsqrt()
    return centred * rstd, rstd


def _gn_input_grad(n, g):
    a = n.attrs
    xhat, rstd = _gn_normalised(n)
    gy = (g.reshape(a["N"], a["C"], -1) * n["weight"].view(1, a["C"], 1)).reshape(a["N"], a["group"], -1)
    return (rstd * (gy - gy.mean(-1, keepdim=True) - xhat * (gy * xhat).mean(-1, keepdim=True))).reshape(g.shape)


def _gn_weight_grad(n, g):
    a = n.attrs
    xhat, _ = _gn_normalised(n)
    return (g.reshape(a["N"], a["C"], -1) * xhat.reshape(a["N"], a["C"], -1)).sum((0, 2))


op("group_norm", "NativeGroupNormBackward0", ("input", "weight", "bias"), _group_norm,
   ("weight · rstd · (grad − mean(grad) − x̂ · mean(grad · x̂)) per group", _gn_input_grad),
   ("Σ grad · x̂", _gn_weight_grad),
   ("Σ grad", lambda n, g: g.reshape(n.attrs["N"], n.attrs["C"], -1).sum((0, 2))),
   saves={0: ("input", "weight", "result1", "result2", "N", "C", "HxW", "group", "eps"),
          1: ("input", "result1", "result2"), 2: ()},
   spell=Spelling(functional="group_norm", name=lambda s, a: f"group_norm({s[0]}, {a['group']}, {s[1]}, {s[2]})"),
   bind=False)


# --- layer_norm -------------------------------------------------------------------------------------------
def _ln_dims(x, normalized_shape):
    return tuple(range(x.ndim - len(normalized_shape), x.ndim))


def _layer_norm(x, weight, bias, normalized_shape, eps, result1, result2):
    """ATen's LayerNormKernelImpl: y = (x · rstd − rstd · mean) · weight + bias, in x's dtype."""
    rstd, mean = result2._data, result1._data
    return (x * rstd + (-rstd * mean)) * weight + bias


def _ln_statistics(n, x):
    """(x − mean, rstd) as Tensor ops of the saved input, so that a second backward sees how they depend on it."""
    dims = _ln_dims(x, n.attrs["normalized_shape"])
    centred = x - x.mean(dims, keepdim=True)
    return centred, ((centred * centred).mean(dims, keepdim=True) + n.attrs["eps"]).rsqrt(), dims


def _ln_input_grad(n, g):
    x = n["input"]
    centred, rstd, dims = _ln_statistics(n, x)
    gw = g * n["weight"]
    xhat = centred * rstd
    return (gw - gw.mean(dims, keepdim=True) - xhat * (gw * xhat).mean(dims, keepdim=True)) * rstd


def _ln_batch_dims(n, g):
    return tuple(range(g.dim() - len(n.attrs["normalized_shape"])))


def _ln_weight_grad(n, g):
    centred, rstd, _ = _ln_statistics(n, n["input"])
    return (g * (centred * rstd)).sum(_ln_batch_dims(n, g))


op("layer_norm", "NativeLayerNormBackward0", ("input", "weight", "bias"), _layer_norm,
   ("rstd · (grad·weight − mean(grad·weight) − x̂ · mean(grad·weight · x̂))", _ln_input_grad),
   ("Σ grad · x̂ over the batch dims", _ln_weight_grad),
   ("Σ grad over the batch dims", lambda n, g: g.sum(_ln_batch_dims(n, g))),
   saves={0: ("input", "weight", "bias", "normalized_shape[]", "result1", "result2"),
          1: ("input", "result1", "result2"), 2: ()},
   spell=Spelling(name="layer_norm({0}, …)"), bind=False)
