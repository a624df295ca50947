"""How scikit-learn picks rows of what a program gives it (sklearn.utils._safe_indexing): arrays and tensors
by `a[rows, ...]`, lists item by item; and sklearn.utils.shuffle, which reorders them all alike."""
from __future__ import annotations

import numpy as np

from ..arrays import plain


def n_samples(value):
    """sklearn's _num_samples, for arrays, tensors and lists."""
    shape = getattr(value, "shape", None)
    if shape is not None:
        if len(shape) == 0:
            raise TypeError(f"Input should have at least 1 dimension i.e. satisfy `len(x.shape) > 0`, got scalar "
                            f"`{value!r}` instead.")
        return shape[0]
    if not hasattr(value, "__len__"):
        raise TypeError(f"Expected sequence or array-like, got {type(value)}")
    return len(value)


def check_consistent_length(*arrays):
    lengths = [n_samples(a) for a in arrays if a is not None]
    if len(set(lengths)) > 1:
        raise ValueError("Found input variables with inconsistent numbers of samples: "
                         f"{[int(n) for n in lengths]!r}")


def take_rows(value, rows):
    if value is None:
        return None
    if hasattr(value, "shape"):
        return value[rows, ...] if isinstance(value, np.ndarray) else value[rows.tolist(), ...]
    return [value[i] for i in rows]


def shuffled(arrays, rng, max_n_samples=None):
    """sklearn.utils.resample(replace=False): one permutation drawn by rng.shuffle, applied to each array."""
    count = n_samples(arrays[0])
    if max_n_samples is None:
        max_n_samples = count
    elif max_n_samples > count:
        raise ValueError(f"Cannot sample {max_n_samples} out of arrays with dim {count} when replace is False")
    check_consistent_length(*arrays)
    indices = np.arange(count)
    rng.shuffle(indices)
    indices = indices[:max_n_samples]
    return [take_rows(plain(a), indices) for a in arrays]
