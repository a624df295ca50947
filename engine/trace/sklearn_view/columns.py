"""Labels as scikit-learn reads them: one column (column_or_1d), its sorted classes and their codes."""
from __future__ import annotations

import numpy as np

from ..arrays import plain


def column_or_1d(y, dtype=None):
    y = np.asarray(plain(y), dtype=dtype)
    if y.ndim == 1 or y.ndim == 2 and y.shape[1] == 1:
        return np.ravel(y)
    raise ValueError(f"y should be a 1d array, got an array of shape {y.shape} instead.")


def unique_labels(values, return_inverse=False):
    return np.unique(values, return_inverse=return_inverse)


def encode(values, classes):
    """The code of each value (its place in classes), refusing values classes lacks."""
    if values.dtype.kind in "OUS":
        table = {value: code for code, value in enumerate(classes.tolist())}
        for value in values:
            if value.item() not in table:
                raise ValueError(f"y contains previously unseen labels: {value!r}")
        return np.array([table[value] for value in values.tolist()])
    diff = list(np.setdiff1d(np.unique(values), classes))
    if diff:
        raise ValueError(f"y contains previously unseen labels: {diff}")
    return np.searchsorted(classes, values)
