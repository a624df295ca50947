"""einops' rearrange, reduce, repeat and einsum on the engine's tensors and on numpy arrays."""
from __future__ import annotations

import string

from .backends import backend_of
from .parsing import ELLIPSIS, EinopsError, Side
from .recipe import apply, prepare


def reduce(tensor, pattern, reduction, **axes_lengths):
    shape = None
    try:
        if isinstance(tensor, list):
            if not tensor:
                raise TypeError("Rearrange/Reduce/Repeat can't be applied to an empty list")
            backend, _, hand_out = backend_of(tensor[0])
            stacked = backend.stack([backend_of(t)[1] for t in tensor])
        else:
            backend, stacked, hand_out = backend_of(tensor)
        shape = backend.shape(stacked)
        recipe = prepare(pattern, reduction, tuple(axes_lengths), len(shape))
        return hand_out(apply(backend, recipe, stacked, reduction, tuple(axes_lengths.items())))
    except EinopsError as e:
        message = f' Error while processing {reduction}-reduction pattern "{pattern}".'
        message += f"\n Input tensor shape: {shape}. " if not isinstance(tensor, list) else "\n Input is list. "
        message += f"Additional info: {axes_lengths}."
        raise EinopsError(message + f"\n {e}") from None


def rearrange(tensor, pattern, **axes_lengths):
    return reduce(tensor, pattern, reduction="rearrange", **axes_lengths)


def repeat(tensor, pattern, **axes_lengths):
    return reduce(tensor, pattern, reduction="repeat", **axes_lengths)


def _einsum_axes(side):
    axes = []
    for token in side.replace("(", " ( ").replace(")", " ) ").split():
        if token in "()":
            raise NotImplementedError("Shape rearrangement is not yet supported in einsum.")
        if token == "...":
            axes.append("...")
        elif token.isdecimal():
            raise NotImplementedError("Anonymous axes are not yet supported in einsum.")
        else:
            axes.append(token)
    return axes


def _compact(pattern):
    """einops' named-axes einsum pattern as numpy's and torch's one-letter one."""
    if "->" not in pattern:
        raise ValueError("Einsum pattern must contain '->'.")
    lefts, right = pattern.split("->")
    letters = {}
    compact = []
    for left in lefts.split(","):
        part = ""
        for axis in _einsum_axes(left):
            if axis != "..." and axis not in letters:
                if len(letters) >= len(string.ascii_letters):
                    raise RuntimeError("Too many axes in einsum.")
                letters[axis] = string.ascii_letters[len(letters)]
            part += "..." if axis == "..." else letters[axis]
        compact.append(part)
    out = ""
    for axis in _einsum_axes(right):
        if axis != "..." and axis not in letters:
            raise EinopsError(f"Unknown axis {axis} on right side of einsum {pattern}.")
        out += "..." if axis == "..." else letters[axis]
    return ",".join(compact) + "->" + out


def einsum(*tensors_and_pattern):
    if len(tensors_and_pattern) <= 1:
        raise ValueError("`einops.einsum` takes at minimum two arguments: the tensors (at least one), followed by "
                         "the pattern.")
    pattern = tensors_and_pattern[-1]
    if not isinstance(pattern, str):
        raise ValueError("The last argument passed to `einops.einsum` must be a string, representing the einsum "
                         "pattern.")
    backend, _, hand_out = backend_of(tensors_and_pattern[0])
    tensors = [backend_of(t)[1] for t in tensors_and_pattern[:-1]]
    return hand_out(backend.einsum(_compact(pattern), *tensors))


def parse_shape(x, pattern):
    """{axis name: length} of x's dims as pattern names them ('_' skips one)."""
    side = Side(pattern, allow_underscore=True)
    shape = backend_of(x)[0].shape(x)
    if any(isinstance(group, list) and len(group) > 1 for group in side.composition):
        raise RuntimeError(f"Can't parse shape with composite axes: {pattern} {shape}")
    composition = side.composition
    if len(shape) != len(composition):
        if not side.has_ellipsis:
            raise RuntimeError(f"Can't parse shape with different number of dimensions: {pattern} {shape}")
        if len(shape) < len(composition) - 1:
            raise RuntimeError(f"Can't parse shape with this number of dimensions: {pattern} {shape}")
    if side.has_ellipsis:
        at = composition.index(ELLIPSIS)
        composition = composition[:at] + ["_"] * (len(shape) - len(composition) + 1) + composition[at + 1:]
    result = {}
    for axes, length in zip(composition, shape):
        if len(axes) == 0:
            if length != 1:
                raise RuntimeError(f"Length of axis is not 1: {pattern} {shape}")
            continue
        [axis] = axes
        if isinstance(axis, str):
            if axis != "_":
                result[axis] = length
        elif axis.value != length:
            raise RuntimeError(f"Length of anonymous axis does not match: {pattern} {shape}")
    return result
