"""torch.unravel_index: flat indices as coordinates, as torch/functional.py computes them (floor_divide and %
against the shape's strides, then unbind)."""
import itertools
import operator

import numpy as np

from .. import dtypes
from .table import Spelling, composite


@composite(Spelling(function="unravel_index", out=False))
def unravel_index(indices, shape):
    if indices.dtype.is_floating_point or indices.dtype is dtypes.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if not isinstance(shape, (int, tuple, list)):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    for size in shape:
        if not isinstance(size, int):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(size)}")
    if any(size < 0 for size in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    coefs = list(reversed(list(itertools.accumulate(reversed(shape[1:] + (1,)), func=operator.mul))))
    steps = indices._new(np.array(coefs, np.int64), dtypes.int64)
    sizes = indices._new(np.array(shape, np.int64), dtypes.int64)
    return (indices.unsqueeze(-1).floor_divide(steps) % sizes).unbind(-1)
