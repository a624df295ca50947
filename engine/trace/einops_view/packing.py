"""einops.pack and einops.unpack: tensors joined along the '*' axis of a pattern (reshape + cat) and split back
(slices + reshape), as einops 0.8 does it, with its errors."""
from __future__ import annotations

from .backends import backend_of
from .parsing import EinopsError, axis_name_problem


def _axes(pattern, opname):
    """(axes before '*', axes after it, the least number of dims a tensor needs)."""
    axes = pattern.split()
    if len(axes) != len(set(axes)):
        raise EinopsError(f'Duplicates in axes names in {opname}(..., "{pattern}")')
    if "*" not in axes:
        raise EinopsError(f'No *-axis in {opname}(..., "{pattern}")')
    for axis in axes:
        if axis != "*" and axis_name_problem(axis):
            raise EinopsError(f'Invalid axis name {axis} in {opname}(..., "{pattern}")')
    before = axes.index("*")
    return before, len(axes) - before - 1, len(axes) - 1


def pack(tensors, pattern):
    before, after, least = _axes(pattern, "pack")
    backend, _, hand_out = backend_of(tensors[0])
    pieces, shapes = [], []
    for i, tensor in enumerate(tensors):
        tensor = backend_of(tensor)[1]
        shape = backend.shape(tensor)
        if len(shape) < least:
            raise EinopsError(f"packed tensor #{i} (enumeration starts with 0) has shape {shape}, while pattern "
                              f"{pattern} assumes at least {least} axes")
        end = len(shape) - after
        shapes.append(shape[before:end])
        pieces.append(backend.reshape(tensor, (*shape[:before], -1, *shape[end:])))
    return hand_out(backend.concat(pieces, before)), shapes


def _product(shape):
    out = 1
    for n in shape:
        out *= n
    return out


def unpack(tensor, packed_shapes, pattern):
    before, after, _ = _axes(pattern, "unpack")
    backend, tensor, hand_out = backend_of(tensor)
    shape = backend.shape(tensor)
    if len(shape) != before + 1 + after:
        raise EinopsError(f"unpack(..., {pattern}) received input of wrong dim with shape {shape}")
    lengths = [-1 if -1 in p else _product(p) for p in packed_shapes]
    if sum(n == -1 for n in lengths) > 1:
        raise EinopsError(f"unpack(..., {pattern}) received more than one -1 in {packed_shapes} and can't infer "
                          "dimensions")
    splits = [0] * len(packed_shapes) + [shape[before]]
    if -1 not in lengths:
        for i, n in enumerate(lengths[:-1]):
            splits[i + 1] = splits[i] + n
    else:
        unknown = lengths.index(-1)
        for i in range(unknown):
            splits[i + 1] = splits[i] + lengths[i]
        for j in range(unknown + 1, len(lengths))[::-1]:
            splits[j] = splits[j + 1] - lengths[j]
    filler = (slice(None, None),) * before
    try:
        return [hand_out(backend.reshape(tensor[(*filler, slice(splits[i], splits[i + 1]))],
                                         (*shape[:before], *element, *shape[before + 1:])))
                for i, element in enumerate(packed_shapes)]
    except Exception:
        raise RuntimeError(f'Error during unpack(..., "{pattern}"): could not split axis of size {splits[-1]} into '
                           f"requested {packed_shapes}") from None
