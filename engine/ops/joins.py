"""Joining tensors: cat and stack (variadic: one grad formula for every input)."""
import numpy as np

from .. import observe
from .table import OPS, Spelling, op, result_dtype


def _split_back(n, g, i):
    dim = n.attrs["dim"]
    if n._op.name == "stack":
        return g.select(dim, i)
    if _legacy_empty(n._shapes[i]) and g.dim() != 1:
        return g._new(np.zeros(0, g.dtype.np), g.dtype)
    start = sum(s[dim] for s in n._shapes[:i] if not (_legacy_empty(s) and g.dim() != 1))
    return g.narrow(dim, start, n._shapes[i][dim])


def _tensors(name, tensors):
    if hasattr(tensors, "_data") or not hasattr(tensors, "__iter__"):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    tensors = list(tensors)
    total = 0
    for i, t in enumerate(tensors):
        if not hasattr(type(t), "_data"):
            raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                            f"{type(t).__name__}" if i == 0 else
                            f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
        total += t.numel()
    if observe._observers:  # before the checks below walk a list of a million tensors
        observe.emit("on_size", total)
    return tensors


def _bind_stack(tensors, dim=0):
    tensors = _tensors("stack", tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape = tensors[0].shape
    for i, t in enumerate(tensors):
        if t.shape != shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(shape)} at entry 0 and "
                f"{list(t.shape)} at entry {i}")
    d = tensors[0]._dim(dim, tensors[0].dim() + 1)
    return OPS["stack"], tuple(tensors), {"dim": d}, result_dtype(tensors)


def _legacy_empty(shape):
    """A 1-d tensor of no elements, which cat skips whatever the others' shapes (ATen's legacy rule)."""
    return len(shape) == 1 and shape[0] == 0


def _bind_cat(tensors, dim=0):
    tensors = _tensors("cat", tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t.dim() == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    first = next((t for t in tensors if not _legacy_empty(t.shape)), tensors[0])
    d = first._dim(dim)
    ref = first.shape
    for i, t in enumerate(tensors):
        if _legacy_empty(t.shape) and not _legacy_empty(ref):
            continue
        if t.dim() != len(ref):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(ref)} and {t.dim()}")
        for j in range(len(ref)):
            if j != d and t.shape[j] != ref[j]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {ref[j]} but got "
                    f"size {t.shape[j]} for tensor number {i} in the list.")
    return OPS["cat"], tuple(tensors), {"dim": d}, result_dtype(tensors)


op("stack", "StackBackward0", ("tensors",), lambda *a, dim: np.stack(a, axis=dim),
   ("grad[i] along dim", _split_back), variadic=True, saves={0: ("dim",)}, spell=Spelling(function="stack"),
   bind=_bind_stack)
def _concatenate(*arrays, dim):
    kept = [a for a in arrays if not _legacy_empty(a.shape)]
    return np.concatenate(kept or arrays, axis=dim if kept else 0)


op("cat", "CatBackward0", ("tensors",), _concatenate,
   ("grad's slice of input i along dim", _split_back), variadic=True, saves={0: ("dim",)},
   spell=Spelling(function=("cat", "concat", "concatenate"), out_overlap=True), bind=_bind_cat)


# --- _chunk_cat: each tensor cut into num_chunks along dim (padded with zeros to a multiple), chunk i of every
# tensor flattened and joined ----------------------------------------------------------------------------------
def _bind_chunk_cat(tensors, dim, num_chunks):
    tensors = list(tensors)
    if num_chunks < 1:
        raise RuntimeError("_chunk_cat expects positive num_chunks")
    if not tensors:
        raise RuntimeError("_chunk_cat expects a non-empty input tensor list")
    for t in tensors:
        if not t.numel():
            raise RuntimeError("_chunk_cat expects non-empty tensor")
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError("_chunk_cat expects all input tensors with the same dtype")
    if len({t.dim() for t in tensors}) == 1:
        dim = tensors[0]._dim(dim)
    elif dim < 0:
        raise RuntimeError("_chunk_cat expects non-negative dim when input tensors have different ndims")
    elif any(dim >= t.dim() for t in tensors):
        raise RuntimeError("_chunk_cat expects dim < ndim for all input tensors")
    if any(t.shape[:dim] != tensors[0].shape[:dim] for t in tensors):
        raise RuntimeError("_chunk_cat expects same sizes of 0,...,dim-1 dimensions for all tensors")
    return OPS["_chunk_cat"], tuple(tensors), {"dim": dim, "num_chunks": num_chunks}, tensors[0].dtype


def _chunk_cat(*arrays, dim, num_chunks):
    pieces = []
    for a in arrays:
        size = a.shape[dim]
        padded = -(-size // num_chunks) * num_chunks
        if padded != size:
            a = np.concatenate([a, np.zeros(a.shape[:dim] + (padded - size,) + a.shape[dim + 1:], a.dtype)], dim)
        pieces.append(a.reshape(a.shape[:dim] + (num_chunks, -1)))
    return np.concatenate(pieces, axis=dim + 1)


def _chunk_cat_grad(n, g, i):
    raise RuntimeError("derivative for aten::_chunk_cat is not implemented")


op("_chunk_cat", "NotImplemented", ("tensors",), _chunk_cat, ("not implemented", _chunk_cat_grad), variadic=True,
   spell=Spelling(function="_chunk_cat"), bind=_bind_chunk_cat,
   numel=lambda arrays, attrs: sum(-(-a.shape[attrs["dim"]] // attrs["num_chunks"]) * attrs["num_chunks"] * a.size
                                   // a.shape[attrs["dim"]] for a in arrays))
