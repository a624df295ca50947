"""The normalisations with nodes of their own: batch_norm (NativeBatchNormBackward0), group_norm
(NativeGroupNormBackward0) and layer_norm (NativeLayerNormBackward0)."""
import numpy as np

from .. import dtypes
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


def _bn_grads(n, g, i):
    """Output i of ATen's native_batch_norm_backward: one op giving the three grads (NativeBatchNormBackwardBackward0
    under create_graph, as torch's)."""
    a = n.attrs
    return g._op("batch_norm_backward", n["input"], n["weight"], **{k: a[k] for k in _BN_ATTRS})[i]


def _bn_stats(x, training, eps, result1, result2, running_mean, running_var):
    """The mean and invstd the forward used: the saved batch statistics, or the running ones."""
    if training:
        return result1._data, result2._data
    return running_mean._data, (1 / np.sqrt(running_var._data.astype(np.float64) + eps)).astype(x.dtype)


def _bn_backward(g, x, w, **attrs):
    """batch_norm_backward_cpu: with dotp = Σ grad · (x − mean), grad_input = (grad − Σ grad / N − (x − mean) · dotp
    · invstd² / N) · invstd · weight when training, else grad · invstd · weight; grad_weight = dotp · invstd,
    grad_bias = Σ grad."""
    dims, shape = bn_layout(x.ndim, x.shape[1])
    mean, invstd = (s.reshape(shape) for s in _bn_stats(x, **attrs))
    centred = x - mean
    total = g.sum(axis=dims, keepdims=True)
    dotp = (g * centred).sum(axis=dims, keepdims=True)
    scale = invstd * w.reshape(shape)
    if attrs["training"]:
        count = x.size // x.shape[1] if x.shape[1] else 0
        gi = (g - total / count - centred * (dotp * invstd * invstd / count)) * scale
    else:
        gi = g * scale
    return (np.ascontiguousarray(gi, x.dtype), np.ascontiguousarray((dotp * invstd).reshape(-1), x.dtype),
            np.ascontiguousarray(total.reshape(-1), x.dtype))


def _bn_parts(n):
    """x̂, invstd, P (the identity's complement is none in eval mode: P is None), the reduced dims and a
    per-channel vector's view, as Tensor ops of the saved input."""
    a = n.attrs
    x = n["input"]
    dims, shape = bn_layout(x.dim(), x.shape[1])
    if a["training"]:
        return (*_normalised(x, dims, a["eps"]), dims, lambda v: v.view(shape))
    invstd = (a["running_var"].view(shape) + a["eps"]).rsqrt()
    return (x - a["running_mean"].view(shape)) * invstd, invstd, None, dims, lambda v: v.view(shape)


def _bn_double_grad(n, grads):
    ggi, ggw, ggb = grads
    xhat, invstd, project, _, per_channel = _bn_parts(n)
    through_input = None
    if ggi is not None:
        through_input = per_channel(n["weight"]) * invstd * (project(ggi) if project else ggi)
    out = _total(through_input, None if ggw is None else per_channel(ggw) * xhat,
                 None if ggb is None else per_channel(ggb).expand(*xhat.shape))
    return out if out is not None else xhat * 0


def _bn_double_input(n, grads):
    ggi, ggw, _ = grads
    xhat, invstd, project, dims, per_channel = _bn_parts(n)
    g = n["grad"]
    g_ggw = None if ggw is None else g * per_channel(ggw)
    if project is None:  # the running statistics are constants: only grad_weight depends on x (else undefined)
        return None if g_ggw is None else g_ggw * invstd
    return _double_input(ggi, g * per_channel(n["weight"]), g_ggw, xhat, invstd, project, dims)


def _bn_double_weight(n, grads):
    ggi = grads[0]
    _, invstd, project, dims, _ = _bn_parts(n)
    g = n["grad"]
    if ggi is None:
        return (g * 0).sum(dims)
    return (g * invstd * (project(ggi) if project else ggi)).sum(dims)


_BN_ATTRS = ("training", "eps", "result1", "result2", "running_mean", "running_var")
op("batch_norm_backward", "NativeBatchNormBackwardBackward0", ("grad", "input", "weight"), _bn_backward,
   ("weight · invstd · P(gg_input) + gg_weight · x̂ + gg_bias (P the identity in eval mode)", _bn_double_grad),
   ("−invstd² (mean(gg_input·P(gw)) x̂ + mean(gw·x̂) P(gg_input) + mean(gg_input·x̂) P(gw)) + invstd · P(gg_weight·grad)"
    " (eval: invstd · gg_weight · grad)", _bn_double_input),
   ("Σ grad · invstd · P(gg_input) per channel", _bn_double_weight),
   saves={0: ("input", "weight", *_BN_ATTRS), 1: ("grad", "input", "weight", *_BN_ATTRS),
          2: ("grad", "input", *_BN_ATTRS)}, several=True, bind=False)


def _declare_batch_norm(name, node, running=True):
    """native_batch_norm's node, and _native_batch_norm_legit's (its own names; no running statistics kept by
    the no_stats overload's)."""
    stats = ("running_mean", "running_var") if running else ()
    op(name, node, ("input", "weight", "bias"), _batch_norm,
       ("weight · invstd · (grad − mean(grad) − x̂ · mean(grad · x̂))", lambda n, g: _bn_grads(n, g, 0)),
       ("Σ grad · x̂", lambda n, g: _bn_grads(n, g, 1)),
       ("Σ grad", lambda n, g: _bn_grads(n, g, 2)),
       saves={0: ("input", "weight", *stats, "result1", "result2", "training", "eps"),
              1: ("input", "weight", "result1", "result2"), 2: ("input", "weight")},
       spell=Spelling(name="batch_norm({0}, …)"), bind=False)


_declare_batch_norm("batch_norm", "NativeBatchNormBackward0")
_declare_batch_norm("batch_norm_legit", "NativeBatchNormLegitBackward0")
_declare_batch_norm("batch_norm_legit_no_stats", "NativeBatchNormLegitBackward1", running=False)


# --- group norm ----------------------------------------------------------------------------------------------
def _group_norm(x, weight, bias, result1, result2, N, C, HxW, group, eps):
    """native_group_norm's output, from the statistics F.group_norm worked out (result1: mean, result2: rstd)."""
    groups = x.reshape(N, group, C // group * HxW)
    if result2.dtype.fit is not None:
        # bfloat16: ATen's kernel, in float32 from the unrounded statistics: y = x · scale + shift per channel
        wide = groups.astype(np.float64)
        mean = wide.mean(-1).astype(np.float32)
        rstd = (1 / np.sqrt(wide.var(-1) + eps)).astype(np.float32)
        scale = (np.repeat(rstd, C // group, axis=1) * weight.reshape(1, C)).astype(np.float32)
        shift = -scale * np.repeat(mean, C // group, axis=1) + bias.reshape(1, C)
        return (x.reshape(N, C, HxW) * scale[..., None] + shift[..., None]).reshape(x.shape)
    out = ((groups - result1._data[..., None]) * result2._data[..., None]).reshape(N, C, HxW)
    return (out * weight.reshape(1, C, 1) + bias.reshape(1, C, 1)).reshape(x.shape)


def _gn_sizes(n):
    """N, C, group and C/group · HxW (explicit: a reshape to -1 of no elements is ambiguous)."""
    a = n.attrs
    return a["N"], a["C"], a["group"], a["C"] // a["group"] * a["HxW"]


def _gn_normalised(n):
    """x̂ per group, (N, group, C/group · HxW), as Tensor ops of the saved input, and rstd."""
    N, _, G, M = _gn_sizes(n)
    groups = n["input"].reshape(N, G, M)
    centred = groups - groups.mean(-1, keepdim=True)
    rstd = ((centred * centred).mean(-1, keepdim=True) + n.attrs["eps"]).rsqrt()
    return centred * rstd, rstd


def _gn_input_grad(n, g):
    N, C, G, M = _gn_sizes(n)
    xhat, rstd = _gn_normalised(n)
    gy = (g.reshape(N, C, n.attrs["HxW"]) * n["weight"].view(1, C, 1)).reshape(N, G, M)
    return (rstd * (gy - gy.mean(-1, keepdim=True) - xhat * (gy * xhat).mean(-1, keepdim=True))).reshape(g.shape)


def _gn_weight_grad(n, g):
    """Σ grad · x̂ over the batch and positions, viewed back to (C,) (ViewBackward0 under create_graph, as
    ATen's infinitely differentiable group norm backward)."""
    N, C, G, M = _gn_sizes(n)
    xhat, _ = _gn_normalised(n)
    hw = n.attrs["HxW"]
    return (g.reshape(N, C, hw) * xhat.reshape(N, C, hw)).sum(0).sum(-1).view(C)


op("group_norm", "NativeGroupNormBackward0", ("input", "weight", "bias"), _group_norm,
   ("weight · rstd · (grad − mean(grad) − x̂ · mean(grad · x̂)) per group", _gn_input_grad),
   ("Σ grad · x̂", _gn_weight_grad),
   ("Σ grad", lambda n, g: g.reshape(n.attrs["N"], n.attrs["C"], n.attrs["HxW"]).sum((0, 2))),
   saves={0: ("input", "weight", "result1", "result2", "N", "C", "HxW", "group", "eps"),
          1: ("input", "result1", "result2"), 2: ()},
   spell=Spelling(functional="group_norm", name=lambda s, a: f"group_norm({s[0]}, {a['group']}, {s[1]}, {s[2]})"),
   bind=False)


def _native_group_norm(x, weight, bias, result1, result2, N, C, HxW, group, eps):
    return _group_norm(x, weight, bias, result1, result2, N, C, HxW, group, eps), result1._data, result2._data


def _native_gn_input_grad(n, grads):
    """Through the output as F.group_norm's; through mean: grad_mean / M; through rstd: −rstd² · x̂ · grad_rstd / M
    (M the elements of a group), summed per group before the view back to the input's shape."""
    g, g_mean, g_rstd = grads
    N, C, G, M = _gn_sizes(n)
    xhat, rstd = _gn_normalised(n)
    total = xhat * 0
    if g is not None:
        gy = (g.reshape(N, C, n.attrs["HxW"]) * n["weight"].view(1, C, 1)).reshape(N, G, M)
        total = total + rstd * (gy - gy.mean(-1, keepdim=True) - xhat * (gy * xhat).mean(-1, keepdim=True))
    if g_mean is not None:
        total = total + g_mean.unsqueeze(-1) / M
    if g_rstd is not None:
        total = total - rstd * rstd * xhat * g_rstd.unsqueeze(-1) / M
    return total.reshape(n._shapes[0])


def _native_gn_weight_grad(n, grads):
    return None if grads[0] is None else _gn_weight_grad(n, grads[0])


def _native_gn_bias_grad(n, grads):
    g = grads[0]
    return None if g is None else g.reshape(n.attrs["N"], n.attrs["C"], n.attrs["HxW"]).sum((0, 2))


op("native_group_norm", "NativeGroupNormBackward0", ("input", "weight", "bias"), _native_group_norm,
   ("weight · rstd · (grad − mean(grad) − x̂ · mean(grad · x̂)) per group + grad_mean / M − rstd² · x̂ · grad_rstd / M",
    _native_gn_input_grad),
   ("Σ grad · x̂", _native_gn_weight_grad),
   ("Σ grad", _native_gn_bias_grad),
   saves={0: ("input", "weight", "result1", "result2", "N", "C", "HxW", "group", "eps"),
          1: ("input", "result1", "result2"), 2: ()},
   spell=Spelling(name=lambda s, a: f"torch.native_group_norm({s[0]}, {s[1]}, {s[2]}, {a['N']}, {a['C']}, "
                                    f"{a['HxW']}, {a['group']}, {a['eps']})[{a.get('output', 0)}]"),
   several=True, bind=False)


# --- layer_norm -------------------------------------------------------------------------------------------
def _ln_dims(x, normalized_shape):
    return tuple(range(x.ndim - len(normalized_shape), x.ndim))


def _layer_norm(x, weight, bias, normalized_shape, eps, result1, result2):
    """ATen's LayerNormKernelImpl: y = (x · rstd − rstd · mean) · weight + bias, in x's dtype (bfloat16: in float32,
    with the mean and rstd of float32, which it keeps rounded)."""
    rstd, mean = result2._data, result1._data
    if result2.dtype.fit is not None:
        dims = tuple(range(x.ndim - len(normalized_shape), x.ndim))
        wide = x.astype(np.float64)
        mean = wide.mean(axis=dims, keepdims=True).astype(np.float32)
        rstd = (1 / np.sqrt(wide.var(axis=dims, keepdims=True) + eps)).astype(np.float32)
    y = (x * rstd + (-rstd * mean)) * weight + bias
    return y if y.flags.c_contiguous else np.array(y, order="C")  # ATen allocates Y row-major


def _ln_grads(n, g, i):
    """Output i of ATen's native_layer_norm_backward: one op giving the three grads (NativeLayerNormBackwardBackward0
    under create_graph, as torch's)."""
    a = n.attrs
    x = n["input"]
    if x.dtype.fit is not None:  # bfloat16: ATen sums the weight's and bias's grads in bfloat16 (reduced=True)
        return g._op("layer_norm_backward", x, n["weight"], normalized_shape=a["normalized_shape"], eps=a["eps"],
                     reduced=True)[i]
    return g._op("layer_norm_backward", x, n["weight"], normalized_shape=a["normalized_shape"], eps=a["eps"])[i]


def _np_normalised(x, dims, eps):
    """x̂ and rstd over dims, in float64 for float32 (as ATen accumulates), and that wide dtype."""
    wide = np.float64 if x.dtype == np.float32 else x.dtype
    centred = x.astype(wide) - x.astype(wide).mean(axis=dims, keepdims=True)
    rstd = 1 / np.sqrt((centred * centred).mean(axis=dims, keepdims=True) + eps)
    return centred * rstd, rstd, wide


def _np_input_grad(gw, xhat, rstd, dims):
    return rstd * (gw - gw.mean(axis=dims, keepdims=True) - xhat * (gw * xhat).mean(axis=dims, keepdims=True))


def _ln_backward(g, x, w, normalized_shape, eps, reduced=False):
    """(grad_input, grad_weight, grad_bias): rstd · (gw − mean(gw) − x̂ · mean(gw · x̂)) with gw = grad · weight,
    Σ grad · x̂ and Σ grad over the batch dims. reduced (a bfloat16 input): ATen's kernel adds each row's
    grad · x̂ and grad into bfloat16 buffers, row after row (one thread)."""
    dims = _ln_dims(x, normalized_shape)
    batch = tuple(range(x.ndim - len(normalized_shape)))
    xhat, rstd, wide = _np_normalised(x, dims, eps)
    gd = g.astype(wide)
    gi = _np_input_grad(gd * w, xhat, rstd, dims)
    if reduced:
        k = len(normalized_shape)
        rows_gw = (gd * xhat).reshape((-1,) + x.shape[x.ndim - k:]).astype(np.float32)
        rows_gb = g.reshape((-1,) + x.shape[x.ndim - k:]).astype(np.float32)
        gw, gb = np.zeros(rows_gw.shape[1:], np.float32), np.zeros(rows_gb.shape[1:], np.float32)
        for i in range(rows_gw.shape[0]):
            gw = dtypes.round_bfloat16(gw + rows_gw[i])
            gb = dtypes.round_bfloat16(gb + rows_gb[i])
        return np.ascontiguousarray(gi, x.dtype), gw, gb
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
