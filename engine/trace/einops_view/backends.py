"""The two kinds of tensors einops works on here, each with the ops einops 0.8 calls on it: the engine's tensors
as einops' TorchBackend does (reshape, permute, amin/amax/sum/mean, unsqueeze + expand), numpy arrays as its
NumpyBackend does (reshape, transpose, the array's reductions, expand_dims + tile)."""
from __future__ import annotations

import math

import numpy as np

from ...dtypes import float16, float32, float64
from ...methods import FUNCTIONS
from ...tensor import Tensor
from ..arrays import as_array, charge, plain


class TorchBackend:
    @staticmethod
    def shape(x):
        return x.shape

    @staticmethod
    def reshape(x, shape):
        return x.reshape(shape)

    @staticmethod
    def transpose(x, axes):
        return x.permute(axes)

    @staticmethod
    def reduce(x, operation, axes):
        if operation in ("min", "max", "sum", "mean"):
            return getattr(x, {"min": "amin", "max": "amax"}.get(operation, operation))(dim=axes)
        for i in sorted(axes)[::-1]:
            x = getattr(x, operation)(dim=i)
        return x

    @staticmethod
    def add_axes(x, n_axes, pos2len):
        repeats = [-1] * n_axes
        for position, length in pos2len.items():
            x = x.unsqueeze(position)
            repeats[position] = length
        return x.expand(repeats)

    @staticmethod
    def is_float_type(x):
        return x.dtype in (float16, float32, float64)

    @staticmethod
    def stack(tensors):
        return FUNCTIONS["stack"](tensors)

    @staticmethod
    def einsum(pattern, *tensors):
        return FUNCTIONS["einsum"](pattern, *tensors)

    @staticmethod
    def concat(tensors, axis):
        return FUNCTIONS["cat"](tensors, dim=axis)


class NumpyBackend:
    @staticmethod
    def shape(x):
        return x.shape

    @staticmethod
    def reshape(x, shape):
        return x.reshape(shape)

    @staticmethod
    def transpose(x, axes):
        return x.transpose(axes)

    @staticmethod
    def reduce(x, operation, axes):
        return getattr(x, operation)(axis=axes)

    @staticmethod
    def add_axes(x, n_axes, pos2len):
        repeats = [1] * n_axes
        for position, length in pos2len.items():
            x = np.expand_dims(x, position)
            repeats[position] = length
        charge(x.size * math.prod(repeats))
        return np.tile(x, tuple(repeats))

    @staticmethod
    def is_float_type(x):
        return x.dtype in ("float16", "float32", "float64", "float128", "bfloat16")

    @staticmethod
    def concat(arrays, axis):
        charge(sum(np.size(a) for a in arrays))
        return np.concatenate(arrays, axis=axis)

    @staticmethod
    def stack(arrays):
        charge(sum(np.size(a) for a in arrays))
        return np.stack(arrays)

    @staticmethod
    def einsum(pattern, *arrays):
        charge(_einsum_work(pattern, arrays))
        return np.einsum(pattern, *arrays)


def _einsum_work(pattern, arrays):
    """Multiply-adds of a compact einsum pattern: each distinct axis once, and the broadcast '...' dims."""
    lengths, rest = {}, 1
    for part, array in zip(pattern.split("->")[0].split(","), arrays):
        letters = part.replace("...", "")
        shape = np.shape(array)
        if "..." in part:
            start = part.index("...")
            rest = max(rest, math.prod(shape[start:len(shape) - (len(letters) - start)]))
            shape = shape[:start] + shape[len(shape) - (len(letters) - start):]
        for letter, length in zip(letters, shape):
            lengths[letter] = max(lengths.get(letter, 1), length)
    return math.prod(lengths.values()) * rest


def backend_of(tensor):
    """(backend, the tensor as it works on it, how to hand the result back)."""
    if isinstance(tensor, Tensor):
        return TorchBackend, tensor, lambda x: x
    if isinstance(tensor, np.ndarray):
        return NumpyBackend, plain(tensor), as_array
    raise RuntimeError(f"Tensor type unknown to einops {type(tensor)}")
