"""What torch.tensor reads from Python data (nested lists and tuples of numbers, tensors, numpy arrays and scalars,
ranges): its dtype, its numbers as nested lists, and torch's errors for ragged or unsized data."""
import numpy as np

from . import dtypes
from .tensor import Tensor


def infer_dtype(data):
    """PyTorch's choice for Python data: each number's dtype (a float the default dtype, an int int64, a bool
    bool; a tensor inside a list its own dtype), promoted together as torch.promote_types does."""
    found = set()

    def walk(x):
        if isinstance(x, Tensor):
            found.add(x.dtype)
        elif isinstance(x, (np.ndarray, np.generic)):  # before float and int: np.float64 is a float
            found.add(dtypes.from_numpy(x.dtype))
        elif isinstance(x, (list, tuple)):
            for i in x:
                walk(i)
        elif isinstance(x, range):  # a sequence of ints, as torch reads it
            if len(x):
                found.add(dtypes.int64)
        elif isinstance(x, bool):
            found.add(dtypes.bool)
        elif isinstance(x, int):
            found.add(dtypes.int64)
        elif isinstance(x, float):
            found.add(dtypes.DEFAULT[0])
        elif isinstance(x, complex):
            found.add(dtypes.default_complex())
        else:
            raise TypeError(f"Could not infer dtype of {type(x).__name__}")

    walk(data)
    if not found:
        return dtypes.DEFAULT[0]
    return dtypes.promote([(d, 2) for d in sorted(found, key=lambda d: d._rank)])


def plain(data, nested=False, arrays=None):
    """The numbers of `data` as nested lists; a tensor inside a list is one number, as torch reads it (its
    item(): a tensor of more elements raises ValueError). A numpy array inside a list stays one (appended to
    `arrays`: torch warns that it reads it number by number)."""
    if isinstance(data, Tensor):
        return data._scalar() if nested else data._data
    if isinstance(data, (list, tuple)):
        return [plain(x, True, arrays) for x in data]
    if isinstance(data, range):
        return list(data)
    if nested and isinstance(data, np.ndarray) and arrays is not None:
        arrays.append(data)
    return data


def first_sizes(data):
    """torch's walk for the shape down the first items: a 0-dim array met there has no length."""
    while isinstance(data, (list, tuple, np.ndarray)):
        if isinstance(data, np.ndarray) and data.ndim == 0:
            raise TypeError("len() of unsized object")
        if not len(data):
            return
        data = data[0]


def _has_length(item):
    return isinstance(item, (list, tuple)) or isinstance(item, np.ndarray) and item.ndim > 0


def check_ragged(data, dim=0):
    if not isinstance(data, list) or not data:
        return
    first = data[0]
    n = len(first) if _has_length(first) else None
    for item in data:
        m = len(item) if _has_length(item) else None
        if m != n:
            if n is None:
                if isinstance(item, np.ndarray):
                    float(item)  # numpy's own error for an array where a number goes
                raise TypeError(f"must be real number, not {type(item).__name__}")
            if m is None:
                raise TypeError("not a sequence")
            raise ValueError(f"expected sequence of length {n} at dim {dim + 1} (got {m})")
    if n is not None:
        for item in data:
            check_ragged(list(item), dim + 1)
