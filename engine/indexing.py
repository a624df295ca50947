"""t[key] and t[key] = value, as PyTorch records them: a chain of views for basic indexing
(SelectBackward0, SliceBackward0, UnsqueezeBackward0), IndexBackward0 for tensor indices, and
CopySlices on the base for assignment."""
import numpy as np

from . import dispatch, dtypes, grad_mode, graph, messages, observe, sizes
from .ops import OPS
from .ops.regions import ConjugatedRegion, view_region
from .ops.views import INT64_MAX
from .tensor import Tensor


def _is_advanced(k):
    return isinstance(k, (Tensor, list, np.ndarray)) or (isinstance(k, bool))


def _advanced_key(k):
    if isinstance(k, Tensor):
        if k.dtype.is_floating_point:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return k._data
    if isinstance(k, list):
        return np.asarray([_advanced_key(i) if isinstance(i, Tensor) else i for i in k])
    return k


def _normalize(key):
    return key if isinstance(key, tuple) else (key,)


def _check_zero_dim(t, key):
    """A 0-dim tensor refuses an integer, a slice or any index that consumes a dimension, as torch's Python
    binding does before indexing (python_variable_indexing.cpp)."""
    if t.dim() != 0:
        return
    if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
        if key == 0:
            raise IndexError(messages.ZERO_DIM_INDEX)
        raise IndexError(f"index {key} is out of bounds for dimension 0 with size 0")
    if isinstance(key, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    for k in _normalize(key):
        if k is None or k is Ellipsis or isinstance(k, bool) or (isinstance(k, Tensor) and k.dtype is dtypes.bool
                                                                  and k.dim() == 0):
            continue
        raise IndexError("too many indices for tensor of dimension 0")


def _check_index(t, dim, index, real_dim):
    size = t.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {real_dim} with size {size}")
    return index  # as given: the node keeps it so (-1 as 2**64 - 1)


def _saved_indices(t, keys):
    """The indices IndexBackward0 keeps, as ATen's index takes them: per dim up to the last indexed one, its index
    tensor (the user's own, or one made of a list), None where the dim is not indexed (x[:, t] keeps (None, t))."""
    out = []
    for k in keys:
        if k is Ellipsis:
            out += [None] * (t.dim() - sum(1 for j in keys if j is not None and j is not Ellipsis))
        elif isinstance(k, Tensor):
            out.append(k)
        elif isinstance(k, list):
            data = np.asarray(_advanced_key(k))
            out.append(Tensor._make(data, dtypes.from_numpy(data.dtype)))
        elif not isinstance(k, (int, np.integer)) or isinstance(k, bool):  # ATen selects an int's dim away first
            out.append(None)
    while out and out[-1] is None:
        out.pop()
    return tuple(out)


def getitem(t, key):
    _check_zero_dim(t, key)
    keys = _normalize(key)
    if any(_is_advanced(k) for k in keys):
        np_key = tuple(_advanced_key(k) if _is_advanced(k) else k for k in keys)
        return dispatch.apply(OPS["index"], (t,), {"key": np_key if len(np_key) > 1 else np_key[0],
                                                    "indices": _saved_indices(t, keys)})
    if not isinstance(key, tuple):
        if isinstance(key, slice):  # a lone slice is always a SliceBackward0, even a full one
            return _slice(t, 0, key, full_ok=True)
        if key is Ellipsis:
            return dispatch.apply(OPS["alias"], (t,))
    n_real = sum(1 for k in keys if k is not None and k is not Ellipsis)
    if n_real > t.dim():
        raise IndexError(f"too many indices for tensor of dimension {t.dim()}")
    out, dim, real, changed = t, 0, 0, False
    for k in keys:
        if k is Ellipsis:
            span = out.dim() - dim - (n_real - _consumed(keys, k))
            dim += span
            real += span
            continue
        if k is None:
            out = out.unsqueeze(dim)
            dim += 1
            changed = True
        elif isinstance(k, slice):
            sliced = _slice(out, dim, k, full_ok=False)
            changed = changed or sliced is not out
            out = sliced
            dim += 1
        elif isinstance(k, (int, np.integer)) and not isinstance(k, bool):
            index = _check_index(out, dim, int(k), real)
            out = dispatch.apply(OPS["select"], (out,), {"dim": dim, "index": index})
            changed = True
        else:
            raise IndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
                "indices (got " + type(k).__name__ + ")"
            )
        real += 1
    if not changed:
        return dispatch.apply(OPS["alias"], (t,))
    return out


def _consumed(keys, upto):
    n = 0
    for k in keys:
        if k is upto:
            break
        if k is not None and k is not Ellipsis:
            n += 1
    return n


def _slice(t, dim, s, full_ok):
    size = t.shape[dim]
    start, stop, step = s.indices(size)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    if not full_ok and start == 0 and stop >= size and step == 1:
        return t
    start = 0 if s.start is None else int(s.start)  # as written, as ATen's slice keeps them
    end = INT64_MAX if s.stop is None else int(s.stop)
    return dispatch.apply(OPS["slice"], (t,), {"dim": dim, "start": start, "end": end, "step": step})


def setitem(t, key, value):
    """t[key] = value: an in-place copy into the region key selects, as a CopySlices on t's base."""
    _check_zero_dim(t, key)
    keys = _normalize(key)
    advanced = any(_is_advanced(k) for k in keys)
    np_key = tuple(_advanced_key(k) if _is_advanced(k) else k for k in keys)
    np_key = np_key if isinstance(key, tuple) else np_key[0]
    if not advanced and Ellipsis not in keys:
        np_key = (np_key if isinstance(np_key, tuple) else (np_key,)) + (Ellipsis,)  # a view even for t[0, 0]
    if observe._observers:  # the region's copy below, and a value given as (nested) lists
        observe.emit("on_alloc", sizes.index_numel(t._data.shape, np_key) if advanced else 0)
        if not isinstance(value, Tensor):
            observe.emit("on_alloc", sizes.nested_numel(value))
    if isinstance(value, Tensor):
        src = value
    else:
        src = Tensor._make(np.asarray(value, dtype=t.dtype.np), t.dtype)
    try:
        target = np.shape(t._data[np_key])
    except IndexError as e:
        raise IndexError(str(e)) from None
    _check_fits(src, target, advanced)
    _check_inplace_view(t)
    t._data[np_key] = dtypes.stored(t.dtype, src._data)
    dispatch.check_inference_write(t)
    t._bump()
    if grad_mode._state["enabled"] and (src.requires_grad or t.requires_grad):
        _record_setitem(t, np_key, src, advanced, keys)
    if observe._observers:
        observe.emit("on_inplace", t, OPS["copy"], (t, value), {"key": np_key})


def _check_fits(src, target, advanced):
    """The value must broadcast to the indexed region; PyTorch words the failure as its expand does."""
    shape = list(src.shape)
    if advanced:
        try:
            np.broadcast_shapes(tuple(shape), target)
        except ValueError:
            raise RuntimeError(
                f"shape mismatch: value tensor of shape {shape} cannot be broadcast to indexing result of shape "
                f"{list(target)}"
            ) from None
        return
    while shape and shape[0] == 1 and len(shape) > len(target):
        shape.pop(0)
    if len(shape) > len(target):
        raise RuntimeError(
            f"expand({src.type()}{{{list(src.shape)}}}, size={list(target)}): the number of sizes provided "
            f"({len(target)}) must be greater or equal to the number of dimensions in the tensor ({len(shape)})"
        )
    lead = len(target) - len(shape)
    for i, s in enumerate(shape):
        if s != 1 and s != target[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing size ({s}) at "
                f"non-singleton dimension {lead + i}.  Target sizes: {list(target)}.  Tensor sizes: {shape}"
            )


def _check_inplace_view(t):
    """t[key] = v writes through a view of t: a leaf that requires grad gets the view message."""
    if grad_mode._state["enabled"]:
        base = t._base if t._base is not None else t
        if base.grad_fn is None and base._requires_grad:
            raise RuntimeError(messages.VIEW_OF_LEAF_INPLACE)


def _record_setitem(t, np_key, src, advanced, keys):
    base = t._base if t._base is not None else t
    parent = t._view_fn
    region = view_region(parent, lambda a: a[np_key])

    if advanced and t._base is None:  # t[tensor] = v is index_put_, not a copy into a view
        holder = Tensor._make(np.empty(t.shape, dtype=t.dtype.np), t.dtype)
        attrs = {"region": _RegionKey(None, np_key), "indices": _saved_indices(t, keys), "accumulate": False}
        t.grad_fn = dispatch.make_node(OPS["index_put"], [holder, src], attrs, t,
                                       t.dtype, originals=[_EdgeOf(t), src])
        return
    region_view = _key_region(parent, np_key) if advanced else region
    old_view = Tensor._make(np.empty(np.shape(t._data[np_key]), dtype=t.dtype.np), t.dtype)
    inner = dispatch.make_node(OPS["copy"], [old_view, src], {}, old_view, t.dtype,
                               originals=[_EdgeOf(t), src])
    node = graph.CopySlices(graph.edge(base), base.shape, region_view, inner)
    base.grad_fn = node
    if base is not t:
        t.grad_fn = graph.as_strided(t, (node, 0))


def _key_region(parent, key):
    if isinstance(parent, ConjugatedRegion):
        return ConjugatedRegion(_RegionKey(parent.geometry, key))
    return _RegionKey(parent, key)


class _RegionKey:
    """A region picked by advanced indexing: numpy returns copies, so writes go through the key."""

    def __init__(self, parent, key):
        self.parent = parent
        self.key = key

    def __call__(self, a):
        return _Writable(self.parent(a) if self.parent is not None else a, self.key)


class _Writable:
    def __init__(self, arr, key):
        self.arr, self.key = arr, key

    def __array__(self, dtype=None, copy=None):
        return self.arr[self.key]

    def __setitem__(self, ellipsis, value):
        self.arr[self.key] = value


class _EdgeOf:
    """Stands for t when taking its edge before the write (t's old grad_fn, or its AccumulateGrad)."""

    def __init__(self, t):
        self.grad_fn = t.grad_fn
        self._output_nr = t._output_nr
        self._requires_grad = t._requires_grad
        self._t = t

    def _accumulate_grad(self):
        return self._t._accumulate_grad()


Tensor.__getitem__ = getitem
Tensor.__setitem__ = setitem
