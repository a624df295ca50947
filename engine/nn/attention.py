"""nn.functional's attention: scaled_dot_product_attention (ATen's flash kernel for 4-d inputs without dropout,
its math path otherwise) and multi_head_attention_forward, written as torch.nn.functional writes it."""
import math
import warnings

from .. import dispatch, dtypes, factories, messages
from ..methods import FUNCTIONAL
from ..ops import OPS
from ..ops.attention import attend
from . import basic_functions as F
from .attention_backends import ENABLED


def _flash_applies(query, key, value, attn_mask, dropout_p):
    return (query.dim() == key.dim() == value.dim() == 4 and dropout_p == 0.0
            and query.shape[-1] == key.shape[-1] == value.shape[-1]
            and (attn_mask is None or not attn_mask.requires_grad)
            and query.dtype.is_floating_point)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if not (ENABLED["math"] or ENABLED["flash"]):
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. This is likely due to "
                           "turning off both the math kernel and the fused kernels.")
    if ENABLED["flash"] and _flash_applies(query, key, value, attn_mask, dropout_p):
        if attn_mask is not None and attn_mask.dtype is dtypes.bool:  # ATen keeps it as 0 and −inf
            attn_mask = factories.zeros(*attn_mask.shape, dtype=query.dtype).masked_fill_(attn_mask.logical_not(),
                                                                                            float("-inf"))
        reduced = query.dtype is dtypes.bfloat16
        out, lse = attend(query._data, key._data, value._data, attn_mask, is_causal, scale, reduced)
        attrs = {"attn_mask": attn_mask, "dropout_p": 0.0, "is_causal": bool(is_causal), "scale": scale,
                 "output": query._new(out, query.dtype),
                 "logsumexp": query._new(lse, dtypes.float32 if reduced else query.dtype)}
        return dispatch.apply(OPS["flash_attention"], (query, key, value), attrs)
    if not ENABLED["math"]:  # (torch then warns why flash did not apply, a warning per reason: not given here)
        warnings.warn("Flash attention kernel not used because:", UserWarning, stacklevel=2)
        raise RuntimeError("No available kernel.  Aborting execution.")
    return _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale)


def _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale):
    """ATen's _scaled_dot_product_attention_math: q and k each scaled by √scale, their product masked, then
    _safe_softmax, dropout, and the product with value; bfloat16 and float16 computed in float32 (the CPU's
    upcast), the result cast back."""
    if query.dtype in (dtypes.bfloat16, dtypes.float16):
        origin = query.dtype
        query, key, value = query.float(), key.float(), value.float()
        if attn_mask is not None and attn_mask.dtype is origin:
            attn_mask = attn_mask.float()
        return _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale).to(origin)
    L, S = query.shape[-2], key.shape[-2]
    if is_causal:
        attn_mask = factories.ones(L, S, dtype=dtypes.bool).tril()
    if attn_mask is not None and attn_mask.dtype is dtypes.bool:
        attn_mask = factories.zeros(*attn_mask.shape, dtype=query.dtype).masked_fill_(attn_mask.logical_not(),
                                                                                        float("-inf"))
    factor = math.sqrt(1 / math.sqrt(query.shape[-1]) if scale is None else scale)
    q = query._op("mul_scalar", other=factor)
    attn = q.matmul(key.transpose(-2, -1)._op("mul_scalar", other=factor))
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = attn._op("safe_softmax", dim=-1)
    if dropout_p > 0.0:
        attn = F.dropout(attn, dropout_p, True)
    return attn.matmul(value)


def _none_or_dtype(input):  # noqa: A002
    if input is None:
        return None
    return input.dtype


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask as a float one (−inf where True), as torch.nn.functional._canonical_mask."""
    if mask is not None:
        is_float = mask.dtype.is_floating_point
        if mask.dtype is not dtypes.bool and not is_float:
            raise AssertionError(f"only bool and floating types of {mask_name} are supported")
        if check_other and other_type is not None and mask.dtype is not other_type:
            warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for "
                          "both instead.", UserWarning, stacklevel=messages.level(3))
        if not is_float:
            mask = factories.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _in_projection_packed(q, k, v, w, b=None):
    E = q.shape[-1]
    if k is v:
        if q is k:
            proj = F.linear(q, w, b)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv_proj = F.linear(k, w_kv, b_kv).unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return F.linear(q, w_q, b_q), kv_proj[0], kv_proj[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


def _mha_is_batched(query, key, value, key_padding_mask, attn_mask, num_heads):
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query "
                         "tensor")


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    is_batched = _mha_is_batched(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if not use_separate_proj_weight:
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q = F.linear(query, q_proj_weight, b_q)
        k = F.linear(key, k_proj_weight, b_k)
        v = F.linear(value, v_proj_weight, b_v)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:
        k = _cat([k, bias_k.repeat(1, bsz, 1)])
        v = _cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = FUNCTIONAL["pad"](attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = FUNCTIONAL["pad"](key_padding_mask, (0, 1))
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = (k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_k is None else static_k)
    v = (v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_v is None else static_v)
    if add_zero_attn:
        zeros = (bsz * num_heads, 1, head_dim)
        k = _cat([k, factories.zeros(*zeros, dtype=k.dtype)], dim=1)
        v = _cat([v, factories.zeros(*zeros, dtype=v.dtype)], dim=1)
        if attn_mask is not None:
            attn_mask = FUNCTIONAL["pad"](attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = FUNCTIONAL["pad"](key_padding_mask, (0, 1))
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise AssertionError(f"expecting key_padding_mask shape of {(bsz, src_len)}, but got "
                                 f"{key_padding_mask.shape}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        E = q.shape[-1]
        q_scaled = q * math.sqrt(1.0 / float(E))
        if attn_mask is not None:
            weights = attn_mask.baddbmm(q_scaled, k.transpose(-2, -1))
        else:
            weights = q_scaled.bmm(k.transpose(-2, -1))
        weights = F.softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = F.dropout(weights, p=dropout_p)
        out = weights.bmm(v)
        out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = F.linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.shape[1])
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.shape[0] == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = F.linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.shape[1])
    if not is_batched:
        out = out.squeeze(1)
    return out, None


def _cat(tensors, dim=0):
    return tensors[0]._op("cat", *tensors[1:], dim=dim)

