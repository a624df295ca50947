"""The layout of `x[key]` with tensor indices as ATen's index gives it: the basic part of the key (slices, None,
Ellipsis) taken as a view first, the indexed dims of that view moved to the front when they are not adjacent,
the view restrided to the result's shape (stride 0 across the indexed block) and each index expanded to it
(stride 0 elsewhere), and the result laid out by TensorIterator over those operands, the view first."""
import numpy as np

from .. import memory


def indexed(a, key):
    """a[key] (numpy's values and shape) laid out as torch's index lays it out."""
    out = a[key]
    if out.ndim < 2 or not out.size:
        return out
    want = _strides(a, key if isinstance(key, tuple) else (key,), out.shape)
    if want is None or memory.strides(out) == want:
        return out
    return memory.with_strides(out, want)


def _strides(a, key, shape):
    """The result's strides, or None for a key this does not model (an int beside tensor indices, which numpy
    broadcasts with them and ATen selects first)."""
    for k in key:
        if isinstance(k, (int, np.integer, bool, np.bool_)) or (isinstance(k, np.ndarray) and not k.ndim):
            return None
    basic, advanced, dim = [], {}, 0  # advanced: dim of the basic view -> its index array
    n_real = sum(_dims_of(k) for k in key if k is not None and k is not Ellipsis)
    for k in key:
        if k is Ellipsis:
            basic += [slice(None)] * (a.ndim - n_real)
            dim += a.ndim - n_real
        elif k is None:
            basic.append(None)
            dim += 1
        elif isinstance(k, slice):
            basic.append(k)
            dim += 1
        else:
            k = np.asarray(k)
            if k.dtype == bool:  # a mask: one index per masked dim, the columns of nonzero (each stride 1)
                for column in np.nonzero(k):
                    advanced[dim] = np.ascontiguousarray(column)
                    basic.append(slice(None))
                    dim += 1
            else:
                advanced[dim] = k
                basic.append(slice(None))
                dim += 1
    view = a[tuple(basic)]
    dims = sorted(advanced)
    block = np.broadcast_shapes(*(advanced[d].shape for d in dims))
    if dims != list(range(dims[0], dims[-1] + 1)):  # not adjacent: ATen transposes the indexed dims to the front
        order = dims + [d for d in range(view.ndim) if d not in advanced]
        view = view.transpose(order)
        advanced = {i: advanced[d] for i, d in enumerate(dims)}
        dims = list(range(len(dims)))
    before, after = dims[0], view.ndim - dims[-1] - 1
    if tuple(shape) != view.shape[:before] + tuple(block) + view.shape[view.ndim - after:]:
        return None
    vs = memory.strides(view)
    src = list(vs[:before]) + [0] * len(block) + list(vs[view.ndim - after:])
    operands = [src]
    for d in dims:
        index = advanced[d]
        expanded = memory.expand_strides(index.shape, memory.strides(index), tuple(block))
        operands.append([0] * before + list(expanded) + [0] * after)
    return memory.iterator_strides_of(tuple(shape), operands)


def _dims_of(k):
    """How many of the input's dims a key entry consumes."""
    if isinstance(k, slice):
        return 1
    k = np.asarray(k)
    return max(k.ndim, 1) if k.dtype == bool else 1
