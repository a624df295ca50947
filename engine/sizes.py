"""Sizes worked out before anything is made, for the budget to refuse what is too big: the shape shapes broadcast
to, the numbers walking nested lists visits, the elements an index selects."""
import math

import numpy as np

from .tensor import Tensor


def broadcast_shape(shapes):
    """The shape shapes broadcast to, as np.broadcast_shapes works it out, without numpy's size limit (which
    a 32-bit build such as Pyodide's hits first). Raises ValueError if they do not broadcast."""
    ndim = max(map(len, shapes), default=0)
    out = [1] * ndim
    for shape in shapes:
        for i, size in enumerate(shape, ndim - len(shape)):
            if size != 1:
                if out[i] not in (1, size):
                    raise ValueError(f"shapes {shapes} do not broadcast")
                out[i] = size
    return tuple(out)


_NESTED = (list, tuple, range, Tensor, np.ndarray)


def nested_numel(data):
    """How many numbers walking nested lists and tuples visits (a list that holds one list a thousand times
    counts it a thousand times), worked out in time proportional to the distinct lists; tensors and arrays
    count their elements, anything else 1. A list that holds itself counts it once."""
    if isinstance(data, (Tensor, np.ndarray)):
        return int(np.size(data._data if isinstance(data, Tensor) else data))
    if isinstance(data, range):
        return len(data)
    if not isinstance(data, (list, tuple)):
        return 1
    kinds = set(map(type, data))
    if not any(issubclass(k, _NESTED) for k in kinds):  # flat: the common case, decided fast
        return len(data)
    counts = {}  # id(container) -> its count; None while it is being counted
    keep = []  # the containers counted (ids stay theirs)
    todo = [(data, False)]
    while todo:
        node, ready = todo.pop()
        if ready:
            counts[id(node)] = sum(counts.get(id(x)) or 1 if isinstance(x, (list, tuple)) else
                                   (x._data.size if isinstance(x, Tensor) else len(x) if isinstance(x, range) else
                                    x.size if isinstance(x, np.ndarray) else 1) for x in node)
            continue
        if id(node) in counts:
            continue
        counts[id(node)] = None
        keep.append(node)
        todo.append((node, True))
        todo.extend((x, False) for x in node if isinstance(x, (list, tuple)) and id(x) not in counts)
    return counts[id(data)]


def index_numel(shape, key):
    """How many elements `a[key]` holds, for an array of this shape and a numpy index (basic and advanced),
    worked out without making it; 0 for a key numpy will refuse."""
    keys = key if isinstance(key, tuple) else (key,)
    try:
        consumed = sum(k.ndim if isinstance(k, np.ndarray) and k.dtype == bool else 1 for k in keys
                       if k is not None and k is not Ellipsis and not isinstance(k, (bool, np.bool_)))
        n, pos, advanced = 1, 0, []
        for k in keys:
            if k is None:
                continue
            if k is Ellipsis:
                span = len(shape) - consumed
                n *= math.prod(shape[pos:pos + span])
                pos += span
            elif isinstance(k, slice):
                n *= len(range(*k.indices(shape[pos])))
                pos += 1
            elif isinstance(k, (bool, np.bool_)):
                advanced.append((1 if k else 0,))
            elif isinstance(k, np.ndarray) and k.dtype == bool:
                advanced.append((int(np.count_nonzero(k)),))
                pos += k.ndim
            else:  # an integer, or an array or list of them
                advanced.append(np.shape(k))
                pos += 1
        n *= math.prod(shape[pos:])
        return n * math.prod(broadcast_shape(advanced)) if advanced else n
    except (TypeError, ValueError, IndexError):
        return 0
