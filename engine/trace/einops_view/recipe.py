"""How einops 0.8 turns a pattern into tensor operations: a reshape into the elementary axes, a permute, a
reduction over the dropped ones, new axes (unsqueeze and expand), a reshape into the groups of the right side.
Each step is skipped when einops skips it, so an engine tensor's graph shows the ops einops makes on torch."""
from __future__ import annotations

import itertools

from .parsing import ELLIPSIS, AnonymousAxis, EinopsError, Side, axis_name_problem

REDUCTIONS = ("min", "max", "sum", "mean", "prod", "any", "all")
_UNKNOWN, _EXPECTED = -999999, -99999


def _check_sides(pattern, operation, left, right, axes_names):
    if not left.has_ellipsis and right.has_ellipsis:
        raise EinopsError(f"Ellipsis found in right side, but not left side of a pattern {pattern}")
    if left.has_ellipsis and left.has_ellipsis_parenthesized:
        raise EinopsError(f"Ellipsis inside parenthesis in the left side is not allowed: {pattern}")
    if operation == "rearrange":
        if left.has_non_unitary_anonymous_axes or right.has_non_unitary_anonymous_axes:
            raise EinopsError("Non-unitary anonymous axes are not supported in rearrange (exception is length 1)")
        difference = set.symmetric_difference(left.identifiers, right.identifiers)
        if difference:
            raise EinopsError(f"Identifiers only on one side of expression (should be on both): {difference}")
    elif operation == "repeat":
        difference = set.difference(left.identifiers, right.identifiers)
        if difference:
            raise EinopsError(f"Unexpected identifiers on the left side of repeat: {difference}")
        without_size = {ax for ax in right.identifiers if not isinstance(ax, AnonymousAxis)} - {
            *left.identifiers, *axes_names}
        if without_size:
            raise EinopsError(f"Specify sizes for new axes in repeat: {without_size}")
    elif operation in REDUCTIONS or callable(operation):
        difference = set.difference(right.identifiers, left.identifiers)
        if difference:
            raise EinopsError(f"Unexpected identifiers on the right side of reduce {operation}: {difference}")
    else:
        raise EinopsError(f"Unknown reduction {operation}. Expect one of {REDUCTIONS}.")


def _expand_ellipsis(left, right, ndim):
    if not left.has_ellipsis:
        if ndim != len(left.composition):
            raise EinopsError(f"Wrong shape: expected {len(left.composition)} dims. Received {ndim}-dim tensor.")
        return left.composition, right.composition
    others = len(left.composition) - 1
    if ndim < others:
        raise EinopsError(f"Wrong shape: expected >={others} dims. Received {ndim}-dim tensor.")
    ell = [ELLIPSIS + str(i) for i in range(ndim - others)]
    left_axes = []
    for group in left.composition:
        left_axes.extend([[axis] for axis in ell] if group == ELLIPSIS else [group])
    right_axes = []
    for group in right.composition:
        if group == ELLIPSIS:
            right_axes.extend([axis] for axis in ell)
        else:
            right_axes.append([a for axis in group for a in (ell if axis == ELLIPSIS else [axis])])
    for side in (left, right) if right.has_ellipsis else (left,):
        side.identifiers.update(ell)
        side.identifiers.remove(ELLIPSIS)
    return left_axes, right_axes


def prepare(pattern, operation, axes_names, ndim):
    """The recipe of `pattern` for a tensor of ndim dims (einops' _prepare_transformation_recipe)."""
    left_text, right_text = pattern.split("->")
    left, right = Side(left_text), Side(right_text)
    _check_sides(pattern, operation, left, right, axes_names)
    left_axes, right_axes = _expand_ellipsis(left, right, ndim)
    known = {}
    for axis in itertools.chain(*left_axes):
        known[axis] = axis.value if isinstance(axis, AnonymousAxis) else _UNKNOWN
    for axis in right.identifiers:
        if axis not in known:
            known[axis] = axis.value if isinstance(axis, AnonymousAxis) else _UNKNOWN
    position = {name: i for i, name in enumerate(known)}
    for name in axes_names:
        if axis_name_problem(name):
            raise EinopsError("Invalid name for an axis", name)
        if name not in known:
            raise EinopsError(f"Axis {name} is not used in transform")
        known[name] = _EXPECTED
    inputs = []
    for group in left_axes:
        unknown = {axis for axis in group if known[axis] == _UNKNOWN}
        if len(unknown) > 1:
            raise EinopsError(f"Could not infer sizes for {unknown}")
        inputs.append(([position[a] for a in group if known[a] != _UNKNOWN], [position[a] for a in unknown]))
    ordered_left, ordered_right = list(itertools.chain(*left_axes)), list(itertools.chain(*right_axes))
    reduced = [axis for axis in ordered_left if axis not in right.identifiers]
    after = [axis for axis in ordered_right if axis in left.identifiers] + reduced
    return {"lengths": list(known.values()), "named": {name: position[name] for name in axes_names},
            "inputs": inputs, "permutation": [ordered_left.index(axis) for axis in after],
            "first_reduced": len(after) - len(reduced),
            "added": {i: position[name] for i, name in enumerate(ordered_right) if name not in left.identifiers},
            "outputs": [[position[axis] for axis in group] for group in right_axes]}


def shapes(recipe, shape, axes_lengths):
    """(init reshape or None, permutation or None, reduced axes, added axes, final reshape or None, dims with added)."""
    lengths = list(recipe["lengths"])
    for name, length in axes_lengths:
        lengths[recipe["named"][name]] = length
    need_init = False
    for axis, (known, unknown) in enumerate(recipe["inputs"]):
        length = shape[axis]
        if not known and len(unknown) == 1:
            lengths[unknown[0]] = length
            continue
        product = 1
        for i in known:
            product *= lengths[i]
        if not unknown:
            if length != product:
                raise EinopsError(f"Shape mismatch, {length} != {product}")
        else:
            if length % product != 0:
                raise EinopsError(f"Shape mismatch, can't divide axis of length {length} in chunks of {product}")
            lengths[unknown[0]] = length // product
        if len(known) + len(unknown) != 1:
            need_init = True
    n = len(recipe["permutation"])
    init = lengths[:n] if need_init else None
    final, need_final = [], False
    for group in recipe["outputs"]:
        product = 1
        for i in group:
            product *= lengths[i]
        final.append(product)
        need_final = need_final or len(group) != 1
    added = {pos: lengths[i] for pos, i in recipe["added"].items()}
    permutation = None if recipe["permutation"] == list(range(n)) else recipe["permutation"]
    return init, permutation, list(range(recipe["first_reduced"], n)), added, final if need_final else None, \
        len(added) + n


def apply(backend, recipe, tensor, reduction, axes_lengths):
    init, permutation, reduced, added, final, n_axes = shapes(recipe, backend.shape(tensor), axes_lengths)
    if init is not None:
        tensor = backend.reshape(tensor, init)
    if permutation is not None:
        tensor = backend.transpose(tensor, permutation)
    if reduced:
        if callable(reduction):
            tensor = reduction(tensor, tuple(reduced))
        else:
            if reduction == "mean" and not backend.is_float_type(tensor):
                raise NotImplementedError("reduce_mean is not available for non-floating tensors")
            tensor = backend.reduce(tensor, reduction, tuple(reduced))
    if added:
        tensor = backend.add_axes(tensor, n_axes, added)
    if final is not None:
        tensor = backend.reshape(tensor, final)
    return tensor
