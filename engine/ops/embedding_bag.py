"""F.embedding_bag: ATen's _embedding_bag (EmbeddingBagBackward0): rows of weight picked by index, summed, averaged
or maxed per bag; its backward (EmbeddingBagBackwardBackward0) and the per-sample weights' backward."""
import numpy as np

from .. import dtypes, grad_mode
from .table import OPS, Spelling, composite, op

MODES = {"sum": 0, "mean": 1, "max": 2}
NO_PADDING = 2**64 - 1  # padding_idx=None as torch's node shows it (an unsigned int64)


def _no_tensor(t):
    """Where torch passes an undefined per_sample_weights: an empty tensor that needs no grad (its edge is None)."""
    return t._new(np.zeros(0, t.dtype.np), t.dtype)


def _kept(idx, padding_idx):
    return np.ones(idx.shape, bool) if padding_idx == NO_PADDING else idx != padding_idx


def _bags(idx, offsets, include_last_offset, padding_idx, mode, num_features, fast):
    """offset2bag, bag_size, max_indices (result1..3 of ATen's _embedding_bag, as its CPU kernel leaves them)."""
    starts = offsets[:-1] if include_last_offset else offsets
    nbags = len(starts)
    offset2bag = np.searchsorted(starts, np.arange(len(idx)), side="right") - 1 if nbags else np.zeros(0, np.int64)
    offset2bag = offset2bag.astype(np.int64)
    kept = _kept(idx, padding_idx)
    # float32 with include_last_offset and no padding_idx (fbgemm's path): torch's CPU kernel sums only up to the
    # last offset, but counts a bag's size (and gives grads) through the end of the input
    fast = fast and len(offsets)
    summed = kept & (np.arange(len(idx)) < offsets[-1]) if fast else kept
    size = np.bincount(offset2bag[kept].astype(np.intp), minlength=nbags).astype(np.int64)
    bag_size = size if mode else np.zeros(nbags, np.int64)
    max_indices = np.zeros((nbags, num_features), np.int64) if mode == 2 else bag_size.copy()
    return offset2bag, bag_size, max_indices, kept, summed, size


def _forward(w, psw, indices, offsets, mode, padding_idx, include_last_offset, scale_grad_by_freq, sparse,
             result1, result2, result3, bag, kept, summed, size):
    idx = indices._data
    kept = summed
    nbags = len(size)
    out = np.zeros((nbags, w.shape[1]), w.dtype)
    rows = w[idx[kept]]
    if psw.size:
        rows = rows * psw[kept][:, None]
    if mode == 2:
        out[:] = -np.inf
        for r, b, i in zip(rows, bag[kept], idx[kept]):
            better = r > out[b]
            out[b] = np.where(better, r, out[b])
            result3._data[b] = np.where(better, i, result3._data[b])
        out[np.bincount(bag[kept].astype(np.intp), minlength=nbags) == 0] = 0
        return out
    np.add.at(out, bag[kept], rows)
    if mode == 1:
        out = np.where(size[:, None] > 0, out / np.maximum(size, 1)[:, None].astype(w.dtype), out).astype(w.dtype)
    return out


def _weight_grad(n, g):
    psw = n["per_sample_weights"] if "per_sample_weights" in n._saved else _no_tensor(g)
    return g._op("embedding_bag_backward", psw, num_weights=n._shapes[0][0], **_grad_attrs(n))


def _grad_attrs(n):
    return {k: n.attrs[k] for k in ("indices", "mode", "scale_grad_by_freq", "bag", "result3", "kept", "size")}


def _embedding_bag_backward(g, psw, num_weights, indices, mode, scale_grad_by_freq, bag, result3, kept, size):
    out = np.zeros((num_weights, g.shape[1]), g.dtype)
    if mode == 2:
        cols = np.arange(g.shape[1])
        for b in np.flatnonzero(size):
            np.add.at(out, (result3._data[b], cols), g[b])
        return out
    scale = _row_scale_attrs(indices._data, mode, scale_grad_by_freq, bag, kept, size).astype(g.dtype)
    if psw.size:
        scale = scale * psw
    np.add.at(out, indices._data, g[bag] * scale[:, None])
    return out


def _row_scale_attrs(idx, mode, scale_grad_by_freq, bag, kept, size):
    scale = kept.astype(np.float64)
    if mode == 1:
        scale = scale / np.maximum(size, 1)[bag]
    if scale_grad_by_freq and idx.size:
        # torch's CPU kernel divides the grads of the k-th smallest distinct index by the count of the k-th smallest
        # index (its sorted list read at the segment's number, not at the segment's start)
        counts, uniq = np.bincount(idx.astype(np.intp)), np.unique(idx)
        scale = scale / counts[np.sort(idx)[np.searchsorted(uniq, idx)]]
    return scale


def _backward_grad(n, v):
    """The weight grad is linear in grad: its transpose picks v's rows back into the bags."""
    a = n.attrs
    if a["mode"] == 2:
        mask = v._new((a["size"] > 0).astype(v.dtype.np)[:, None], v.dtype)
        return v.gather(0, a["result3"]) * mask
    scale = _row_scale_attrs(a["indices"]._data, a["mode"], a["scale_grad_by_freq"], a["bag"], a["kept"],
                             a["size"])
    rows = v.index_select(0, a["indices"]) * v._new(scale.astype(v.dtype.np)[:, None], v.dtype)
    if "per_sample_weights" in n._saved:
        rows = rows * n["per_sample_weights"].unsqueeze(1)
    zeros = v._new(np.zeros((len(a["size"]), v.shape[1]), v.dtype.np), v.dtype)
    return zeros.index_add(0, v._new(a["bag"], dtypes.int64), rows)


def _psw_grad(n, g):
    return g._op("embedding_bag_psw_backward", n["weight"], indices=n.attrs["indices"], bag=n.attrs["bag"],
                 kept=n.attrs["kept"])


def _not_differentiable(n, g):
    raise RuntimeError("derivative for aten::_embedding_bag_per_sample_weights_backward is not implemented")


op("embedding_bag", "EmbeddingBagBackward0", ("weight", "per_sample_weights"), _forward,
   ("grad rows (× per-sample weight, ÷ bag size for mean, at the max for max) summed into the rows picked",
    _weight_grad),
   ("grad of the bag · the row picked", _psw_grad),
   saves={0: ("indices", "offsets", "per_sample_weights", "mode", "padding_idx", "scale_grad_by_freq",
              "sparse", "result1", "result2", "result3", "weight_sym_argsize_0"),
          1: ("weight", "indices", "offsets", "per_sample_weights", "mode", "padding_idx", "scale_grad_by_freq",
              "sparse", "result1", "result2", "result3", "weight_sym_argsize_0")},
   bind=False)
op("embedding_bag_backward", "EmbeddingBagBackwardBackward0", ("grad", "per_sample_weights"),
   _embedding_bag_backward, ("grad's rows picked back into the bags", _backward_grad),
   ("not implemented", _not_differentiable), bind=False,
   numel=lambda arrays, attrs: attrs["num_weights"] * arrays[0].shape[1])
op("embedding_bag_psw_backward", "NotImplemented", ("grad", "weight"),
   lambda g, w, indices, bag, kept: np.where(kept, (g[bag] * w[indices._data]).sum(-1), 0).astype(
       g.dtype),
   ("not implemented", _not_differentiable), ("not implemented", _not_differentiable), bind=False)


def _check_indices(indices, offsets):
    """ATen promotes indices and offsets to one type, then checks the indices'."""
    floats = [t.dtype for t in (indices, offsets) if t.dtype.is_floating_point]
    bad = floats[0] if floats else indices.dtype if indices.dtype.name == offsets.dtype.name == "bool" else None
    if bad is not None:
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{bad.type_name}Tensor instead (while checking arguments for "
                           "embedding_bag)")


@composite(Spelling(functional="embedding_bag", out=False))
def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,  # noqa: A002
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    return embedding_bag_results(input, weight, offsets, max_norm, norm_type, scale_grad_by_freq, mode, sparse,
                                 per_sample_weights, include_last_offset, padding_idx)[0]


def embedding_bag_results(input, weight, offsets=None, max_norm=None, norm_type=2,  # noqa: A002
                          scale_grad_by_freq=False, mode="mean", sparse=False, per_sample_weights=None,
                          include_last_offset=False, padding_idx=None):
    """F.embedding_bag's output with ATen's other three results (offset2bag, bag_size, max_indices), which
    torch.embedding_bag returns."""
    if weight.dtype == dtypes.int64 and input.dtype.is_floating_point:
        weight, input = input, weight  # noqa: A001 - torch's old argument order, which it still takes
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences. However, found offsets of type "
                             + ("<class 'torch.Tensor'>" if hasattr(offsets, "_data") else str(type(offsets))))
        offsets = input._new(np.arange(0, input.numel(), input.shape[1], dtype=input.dtype.np), input.dtype)
        include_last_offset = False
        input = input.reshape(-1)  # noqa: A001
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if sparse:
        raise RuntimeError("sparse gradients are not supported by this engine (sparse=True)")
    if max_norm is not None:
        _renorm_rows(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    _check_indices(input, offsets)
    num = weight.shape[0]
    if padding_idx is None:
        padding_idx = NO_PADDING
    else:
        if not -num <= padding_idx < num:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, -{num} through {num - 1}, but "
                               f"got {padding_idx}")
        padding_idx = padding_idx % num
    idx, offs = input._data.astype(np.int64), offsets._data.astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= num):
        bad = int(idx[(idx < 0) | (idx >= num)][0])
        raise IndexError(f"index {bad} is out of bounds for dimension 0 with size {num}")
    m = MODES[mode]
    fast = padding_idx == NO_PADDING and weight.dtype == dtypes.float32  # fbgemm's path, which keeps no offset2bag
    bag, bag_size, max_indices, kept, summed, size = _bags(idx, offs, include_last_offset, padding_idx, m,
                                                           weight.shape[1], fast and include_last_offset and m != 2)
    new = input._new
    attrs = {"indices": input, "offsets": offsets, "mode": m, "padding_idx": padding_idx,
             "include_last_offset": bool(include_last_offset), "scale_grad_by_freq": bool(scale_grad_by_freq),
             "sparse": bool(sparse),
             "result1": new(bag[:0] if fast and m == 0 else bag, dtypes.int64),
             "result2": new(bag_size, dtypes.int64),
             "result3": new(max_indices, dtypes.int64), "bag": bag, "kept": kept, "summed": summed,
             "size": size}
    psw = per_sample_weights if per_sample_weights is not None else _no_tensor(weight)
    out = weight._apply(OPS["embedding_bag"], (weight, psw), attrs, weight.dtype)
    if per_sample_weights is None and out.grad_fn is not None:
        out.grad_fn._saved.pop("per_sample_weights", None)  # torch's node keeps an undefined one: None
    return out, attrs["result1"], attrs["result2"], attrs["result3"]


def _renorm_rows(weight, indices, max_norm, norm_type):
    """embedding_renorm_: the rows looked up whose norm exceeds max_norm are scaled down to it, in place and
    without grad, as torch does before the lookup."""
    rows = np.unique(indices._data.reshape(-1))
    with grad_mode.no_grad():
        data = weight._data
        norms = np.linalg.norm(data[rows].astype(np.float64), ord=norm_type, axis=1)
        over = norms > max_norm
        if over.any():
            scale = (max_norm / (norms[over] + 1e-7)).astype(data.dtype)
            data[rows[over]] = data[rows[over]] * scale[:, None]
            weight._vbox[0] += 1
