"""The normalisations with nodes of their own: batch_norm (NativeBatchNormBackward0), group_norm
(NativeGroupNormBackward0) and layer_norm (NativeLayerNormBackward0)."""
import numpy as np

from .table import Spelling, op


def _normalised(x, dims, eps):
    """x̂, rstd and P(z) = z − mean(z) − x̂ · mean(z · x̂) over dims, as Tensor ops of x (so that a second backward
    sees how they depend on it)."""
    centred = x - x.mean(dims, keepdim=True)
    rstd = ((centred * centred).mean(dims, keepdim=True) + eps).rsqrt()
    xhat = centred * rstd

    def project(z):
        return z - z.mean(dims, keepdim=True) - xhat * (z * xhat).mean(dims, keepdim=True)

    return xhat, rstd, project


def _double_input(ggi, gw, g_ggw, xhat, rstd, project, dims):
    """d/dx of ⟨gg_input, grad_input⟩ + ⟨gg_weight, grad_weight⟩ for grad_input = rstd · P(gw), grad_weight = Σ grad · x̂
    (ATen's *_norm_double_backward, its gI): −rstd² (mean(gg_input · P(gw)) x̂ + mean(gw · x̂) P(gg_input)
    + mean(gg_input · x̂) P(gw)) + rstd · P(gg_weight · grad)."""
    out = xhat * 0
    if ggi is not None:
        pgw = project(gw)
        out = out - rstd * rstd * ((ggi * pgw).mean(dims, keepdim=True) * xhat
                                   + (gw * xhat).mean(dims, keepdim=True) * project(ggi)
                                   + (ggi * xhat).mean(dims, keepdim=True) * pgw)
    if g_ggw is not None:
        out = out + rstd * project(g_ggw)
    return out


def _total(*terms):
    """The sum of the terms that are not None (None when all are)."""
    out = None
    for t in terms:
        if t is not None:
            out = t if out is None else out + t
    return out


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
    groups = x.reshape(N, group, C // group * HxW)
    out = ((groups - result1._data[..., None]) * result2._data[..., None]).reshape(N, C, HxW)
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


def _ln_grads(n, g, i):
    """Output i of ATen's native_layer_norm_backward: one op giving the three grads (NativeLayerNormBackwardBackward0
    under create_graph, as torch's)."""
    a = n.attrs
    return g._op("layer_norm_backward", n["input"], n["weight"], normalized_shape=a["normalized_shape"],
                 eps=a["eps"])[i]


def _np_normalised(x, dims, eps):
    """x̂ and rstd over dims, in float64 for float32 (as ATen accumulates), and that wide dtype."""
    wide = np.float64 if x.dtype == np.float32 else x.dtype
    centred = x.astype(wide) - x.astype(wide).mean(axis=dims, keepdims=True)
    rstd = 1 / np.sqrt((centred * centred).mean(axis=dims, keepdims=True) + eps)
    return centred * rstd, rstd, wide


def _np_input_grad(gw, xhat, rstd, dims):
    return rstd * (gw - gw.mean(axis=dims, keepdims=True) - xhat * (gw * xhat).mean(axis=dims, keepdims=True))


def _ln_backward(g, x, w, normalized_shape, eps):
    """(grad_input, grad_weight, grad_bias): rstd · (gw − mean(gw) − x̂ · mean(gw · x̂)) with gw = grad · weight,
    Σ grad · x̂ and Σ grad over the batch dims."""
    dims = _ln_dims(x, normalized_shape)
    batch = tuple(range(x.ndim - len(normalized_shape)))
    xhat, rstd, wide = _np_normalised(x, dims, eps)
    gd = g.astype(wide)
    gi = _np_input_grad(gd * w, xhat, rstd, dims)
    return (np.ascontiguousarray(gi, x.dtype), np.ascontiguousarray((gd * xhat).sum(axis=batch), x.dtype),
            np.ascontiguousarray(gd.sum(axis=batch), x.dtype))


def _ln_parts(n):
    x = n["input"]
    dims = _ln_dims(x, n.attrs["normalized_shape"])
    return (*_normalised(x, dims, n.attrs["eps"]), dims)


def _ln_double_grad(n, grads):
    """Through grad_input: weight · rstd · P(gg_input); through grad_weight: gg_weight · x̂; through grad_bias:
    gg_bias (ATen's layer_norm_double_backward, its gO)."""
    ggi, ggw, ggb = grads
    xhat, rstd, project, _ = _ln_parts(n)
    out = _total(None if ggi is None else n["weight"] * rstd * project(ggi),
                 None if ggw is None else ggw * xhat, None if ggb is None else ggb.expand(*xhat.shape))
    return out if out is not None else xhat * 0


def _ln_double_input(n, grads):
    ggi, ggw, _ = grads
    xhat, rstd, project, dims = _ln_parts(n)
    g = n["grad"]
    return _double_input(ggi, g * n["weight"], None if ggw is None else ggw * g, xhat, rstd, project, dims)


def _ln_double_weight(n, grads):
    """Σ over the batch dims of grad · rstd · P(gg_input)."""
    ggi = grads[0]
    g = n["grad"]
    batch = tuple(range(g.dim() - len(n.attrs["normalized_shape"])))
    if ggi is None:
        return _sum_batch(g * 0, batch)
    _, rstd, project, _ = _ln_parts(n)
    return _sum_batch(g * rstd * project(ggi), batch)


def _sum_batch(t, batch):
    """t summed over the batch dims (none: t itself; Tensor.sum(()) would sum all)."""
    return t.sum(batch) if batch else t


op("layer_norm_backward", "NativeLayerNormBackwardBackward0", ("grad", "input", "weight"), _ln_backward,
   ("weight · rstd · P(gg_input) + gg_weight · x̂ + gg_bias", _ln_double_grad),
   ("−rstd² (mean(gg_input·P(gw)) x̂ + mean(gw·x̂) P(gg_input) + mean(gg_input·x̂) P(gw)) + rstd · P(gg_weight·grad)",
    _ln_double_input),
   ("Σ grad · rstd · P(gg_input) over the batch dims", _ln_double_weight),
   saves={0: ("input", "weight", "normalized_shape[]", "eps"),
          1: ("grad", "input", "weight", "normalized_shape[]", "eps"),
          2: ("grad", "input", "normalized_shape[]", "eps")}, several=True, bind=False)


op("layer_norm", "NativeLayerNormBackward0", ("input", "weight", "bias"), _layer_norm,
   ("rstd · (grad·weight − mean(grad·weight) − x̂ · mean(grad·weight · x̂))", lambda n, g: _ln_grads(n, g, 0)),
   ("Σ grad · x̂ over the batch dims", lambda n, g: _ln_grads(n, g, 1)),
   ("Σ grad over the batch dims", lambda n, g: _ln_grads(n, g, 2)),
   saves={0: ("input", "weight", "bias", "normalized_shape[]", "result1", "result2"),
          1: ("input", "weight", "result1", "result2"), 2: ("input", "weight")},
   spell=Spelling(name="layer_norm({0}, …)"), bind=False)
