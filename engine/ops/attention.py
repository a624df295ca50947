"""scaled_dot_product_attention as ATen runs it on the CPU: the flash kernel's node
(ScaledDotProductFlashAttentionForCpuBackward0, not differentiable twice) for 4-d inputs without dropout, and
_safe_softmax (SafeSoftmaxBackward0) for the math path that the other calls take (engine/nn/attention.py)."""
import math

import numpy as np

from .. import dtypes, memory
from .nn import _softmax
from .table import Spelling, op


def _safe_softmax(a, dim):
    """softmax along dim, 0 along a row that is all −inf (ATen's _safe_softmax)."""
    out = _softmax(a, dim)
    return np.where(np.all(a == -np.inf, axis=dim, keepdims=True), a.dtype.type(0), out).astype(a.dtype)


op("safe_softmax", "SafeSoftmaxBackward0", ("self",), _safe_softmax,
   ("result · (grad − Σ grad·result)",
    lambda n, g: n["result"] * (g - (g * n["result"]).sum(n.attrs["dim"], keepdim=True))),
   saves={0: ("result", "dim")}, bind=False,
   spell=Spelling(name=lambda s, a: f"torch._safe_softmax({s[0]}, {a['dim']})"))


def _mask_bias(attn_mask, is_causal, shape, dtype):
    """The additive mask: a bool mask's False as −inf, a float mask as it is, is_causal the lower triangle."""
    L, S = shape[-2], shape[-1]
    bias = np.zeros((L, S), dtype)
    if is_causal:
        bias = np.where(np.tril(np.ones((L, S), bool)), bias, -np.inf).astype(dtype)
    if attn_mask is not None:
        m = attn_mask._data
        bias = bias + (np.where(m, dtype.type(0), dtype.type(-np.inf)) if m.dtype == bool else m.astype(dtype))
    return bias


def _scale(q, scale):
    return 1 / math.sqrt(q.shape[-1]) if scale is None else scale


def _probabilities(q, k, attn_mask, is_causal, scale):
    wide = np.float64 if q.dtype == np.float32 else q.dtype
    scores = np.matmul(q.astype(wide), np.swapaxes(k.astype(wide), -1, -2)) * _scale(q, scale)
    scores = scores + _mask_bias(attn_mask, is_causal, scores.shape, np.dtype(wide))
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    total = np.sum(e, axis=-1, keepdims=True)
    p = e / np.where(total == 0, 1, total)
    return p, (np.log(total) + m)[..., 0]


def _attend_reduced(q, k, v, attn_mask, is_causal, scale):
    """bfloat16 (held in float32): ATen's flash kernel works in float32, multiplies value by exp(score − max) rounded
    to bfloat16, divides by the sum of the unrounded ones at the end; its log Σ exp is float32."""
    scores = np.matmul(q.astype(np.float64), np.swapaxes(k, -1, -2)).astype(np.float32) * np.float32(_scale(q, scale))
    scores = scores + _mask_bias(attn_mask, is_causal, scores.shape, np.dtype(np.float32))
    m = np.max(scores, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(scores - m)
    total = np.sum(e, axis=-1, keepdims=True, dtype=np.float64).astype(np.float32)
    out = (np.matmul(dtypes.round_bfloat16(e).astype(np.float64), v) / total).astype(np.float32)
    return out, (np.log(total) + m)[..., 0]


def attend(q, k, v, attn_mask, is_causal, scale, reduced=False):
    """The flash kernel's output and the log Σ exp of each row of scaled, masked scores, which its node keeps."""
    if reduced:
        return _attend_reduced(q, k, v, attn_mask, is_causal, scale)
    p, lse = _probabilities(q, k, attn_mask, is_causal, scale)
    return np.matmul(p, v.astype(p.dtype)).astype(q.dtype), lse.astype(q.dtype)


def _flash(q, k, v, attn_mask, is_causal, scale, dropout_p, output, logsumexp):
    return output._data.copy()  # computed by attend() where the call is bound, so that the node keeps it


def _flash_backward(g, q, k, v, attn_mask, is_causal, scale, which):
    """dV = Pᵀ·dO, dS = P ∘ (dO·Vᵀ − rowsum(dO ∘ O)), dQ = dS·K·scale, dK = dSᵀ·Q·scale."""
    p, _ = _probabilities(q, k, attn_mask, is_causal, scale)
    wide = p.dtype
    dout, vv = g.astype(wide), v.astype(wide)
    if which == 2:
        return _heads_inside(np.matmul(np.swapaxes(p, -1, -2), dout).astype(q.dtype))
    dp = np.matmul(dout, np.swapaxes(vv, -1, -2))
    ds = p * (dp - np.sum(dp * p, axis=-1, keepdims=True))
    s = _scale(q, scale)
    if which == 0:
        return _heads_inside((np.matmul(ds, k.astype(wide)) * s).astype(q.dtype))
    return _heads_inside((np.matmul(np.swapaxes(ds, -1, -2), q.astype(wide)) * s).astype(q.dtype))


def _heads_inside(grad):
    """A (batch, heads, length, dim) grad laid out as ATen's CPU flash kernel allocates it: (batch, length, heads,
    dim) in memory, transposed."""
    if grad.ndim != 4:
        return grad
    per_batch, per_position, per_head, per_item = memory.contiguous_strides(
        (grad.shape[0], grad.shape[2], grad.shape[1], grad.shape[3]))
    return memory.with_strides(grad, (per_batch, per_head, per_position, per_item))


def _not_differentiable(n, g):
    raise RuntimeError("derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not implemented")


def _flash_grad(which):
    def vjp(n, g):
        a = n.attrs
        return g._op("flash_attention_backward", n["query"], n["key"], n["value"], attn_mask=a["attn_mask"],
                     is_causal=a["is_causal"], scale=a["scale"], which=which)

    return vjp


op("flash_attention_backward", "NotImplemented", ("grad_out", "query", "key", "value"), _flash_backward,
   *[("not implemented", _not_differentiable)] * 4, bind=False)
_ATTRS = ("attn_mask", "dropout_p", "is_causal", "scale")
op("flash_attention", "ScaledDotProductFlashAttentionForCpuBackward0", ("query", "key", "value"), _flash,
   ("(P ∘ (grad·valueᵀ − Σ grad ∘ output)) · key · scale", _flash_grad(0)),
   ("(P ∘ (grad·valueᵀ − Σ grad ∘ output))ᵀ · query · scale", _flash_grad(1)),
   ("Pᵀ · grad (P = softmax(query·keyᵀ·scale + mask))", _flash_grad(2)),
   saves={i: ("query", "key", "value", "output", "logsumexp", *_ATTRS) for i in range(3)}, bind=False,
   spell=Spelling(functional="scaled_dot_product_attention",
                  name=lambda s, a: f"scaled_dot_product_attention({s[0]}, {s[1]}, {s[2]}"
                  + ("" if a["attn_mask"] is None else ", attn_mask=…")
                  + (", is_causal=True" if a["is_causal"] else "")
                  + ("" if a["scale"] is None else f", scale={a['scale']!r}") + ")"))
