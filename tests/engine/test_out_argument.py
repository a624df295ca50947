"""torch.f(..., out=t) is taken by the functions that take it in PyTorch and refused by the others (views,
Python-level functions like einsum and split, conv and pooling), with PyTorch's error where it words one."""
from __future__ import annotations

import numpy as np
import pytest
from difftest import load_engine, to_numpy, torch

engine = load_engine()

class T(tuple):
    """A tensor argument of this shape, holding 1, 2, 3 …"""


class D(str):
    """A dtype argument, by name (torch's or the engine's, as the call goes)."""


def tensors(*shapes):
    return [T(s) for s in shapes]


# name -> the call's arguments (T: a tensor of that shape; a list of T: a list of tensors; the rest as written)
CALLS = {
    "sum": [T((2, 3)), 1], "mean": [T((2, 3)), 1], "prod": [T((2, 3)), 1], "std": [T((2, 3)), 1],
    "var": [T((2, 3)), 1], "mm": tensors((2, 3), (3, 2)), "matmul": tensors((2, 3), (3, 2)),
    "relu": [T((2, 3))], "clone": [T((2, 3))], "flip": [T((2, 3)), [0]], "softmax": [T((2, 3)), 1],
    "log_softmax": [T((2, 3)), 1], "argmax": [T((2, 3))], "argmin": [T((2, 3))], "square": [T((2, 3))],
    "exp": [T((2, 3))], "add": tensors((2, 3), (2, 3)), "outer": tensors((2,), (3,)),
    "floor_divide": [T((2, 3)), 2.0], "true_divide": [T((2, 3)), 2.0], "repeat_interleave": [T((2,)), 2],
    "xlogy": tensors((2, 3), (2, 3)), "cat": [tensors((2, 3), (2, 3))], "stack": [tensors((2, 3), (2, 3))],
    "einsum": ["ij->i", T((2, 3))], "reshape": [T((2, 3)), (6,)], "flatten": [T((2, 3))],
    "unflatten": [T((2, 3)), 1, (3, 1)], "split": [T((2, 3)), 1], "chunk": [T((2, 3)), 2],
    "unbind": [T((2, 3))], "unsafe_split": [T((2, 3)), 1], "unsafe_chunk": [T((2, 3)), 2],
    "movedim": [T((2, 3)), 0, 1], "moveaxis": [T((2, 3)), 0, 1], "transpose": [T((2, 3)), 0, 1],
    "swapaxes": [T((2, 3)), 0, 1], "swapdims": [T((2, 3)), 0, 1],
    "t": [T((2, 3))], "permute": [T((2, 3)), (1, 0)], "squeeze": [T((2, 1))],
    "unsqueeze": [T((2, 3)), 0], "diagonal": [T((3, 3))], "select": [T((2, 3)), 0, 1],
    "narrow": [T((2, 3)), 1, 0, 2], "cdist": tensors((2, 3), (4, 3)), "pdist": [T((3, 2))],
    "conv1d": tensors((1, 1, 4), (1, 1, 2)),
    "conv2d": tensors((1, 1, 3, 3), (1, 1, 2, 2)),
    "conv3d": tensors((1, 1, 2, 2, 2), (1, 1, 1, 1, 1)), "conv_transpose1d": tensors((1, 1, 4), (1, 1, 2)),
    "conv_transpose2d": tensors((1, 1, 3, 3), (1, 1, 2, 2)),
    "conv_transpose3d": tensors((1, 1, 2, 2, 2), (1, 1, 1, 1, 1)), "max_pool1d": [T((1, 1, 4)), 2],
    "pixel_shuffle": [T((1, 4, 2, 2)), 2], "pixel_unshuffle": [T((1, 1, 2, 2)), 2],
    "channel_shuffle": [T((1, 4, 2)), 2], "native_channel_shuffle": [T((1, 4, 2)), 2],
    "conv_tbc": tensors((3, 1, 2), (2, 2, 2), (2,)),
    "max_pool2d": [T((1, 1, 4, 4)), 2], "avg_pool1d": [T((1, 1, 4)), 2],
    "conj": [T((2, 3))], "imag": [T((2, 3))], "real": [T((2, 3))], "resolve_conj": [T((2, 3))],
    "resolve_neg": [T((2, 3))], "atan2": tensors((2, 3), (3,)), "hypot": tensors((2, 3), (2, 3)),
    "frexp": [T((2, 3))],
    "stft": [T((16,)), 8], "istft": [T((5, 3)), 8],
    "adjoint": [T((2, 3))], "atleast_1d": [T((2,))], "atleast_2d": [T((2,))], "atleast_3d": [T((2,))],
    "broadcast_tensors": tensors((1, 3), (2, 1)), "broadcast_to": [T((3,)), (2, 3)], "tile": [T((2, 3)), (2,)],
    "tensor_split": [T((4,)), 2], "hsplit": [T((2, 4)), 2], "vsplit": [T((4, 2)), 2], "dsplit": [T((1, 2, 4)), 2],
    "split_with_sizes": [T((3,)), [1, 2]], "meshgrid": tensors((2,), (3,)), "cartesian_prod": tensors((2,), (3,)),
    "combinations": [T((3,))], "diagflat": [T((2,))], "diag_embed": [T((2, 3))], "rot90": [T((2, 3))],
    "fliplr": [T((2, 3))], "flipud": [T((2, 3))], "ravel": [T((2, 3))], "block_diag": tensors((2, 2), (1, 3)),
    "roll": [T((2, 3)), 1], "select_scatter": [T((2, 3)), T((3,)), 0, 0], "diagonal_scatter": [T((2, 3)), T((2,))],
    "masked_scatter": tensors((2,), (2,), (2,)), "masked_fill": [T((2,)), T((2,)), 1.0],
    "put": tensors((3,), (1,), (1,)), "index_put": [T((3,)), [T((1,))], T((1,))], "count_nonzero": [T((2, 3))],
    "var_mean": [T((2, 3))], "std_mean": [T((2, 3))], "argsort": [T((3,))], "argwhere": [T((3,))],
    "bincount": [T((3,))], "cov": [T((2, 3))], "corrcoef": [T((2, 3))], "trapezoid": [T((2, 3))],
    "trapz": [T((2, 3))], "cumulative_trapezoid": [T((2, 3))], "fill": [T((2, 3)), 2.0],
    "constant_pad_nd": [T((2, 3)), (1, 1)], "unravel_index": [T((2,)), (2, 3)],
    "slice_scatter": tensors((2, 3), (2, 3)), "hstack": [tensors((2,), (3,))], "gradient": [T((2, 3))],
    "as_strided": [T((2, 3)), (2, 2), (1, 2)], "_segment_reduce": [T((3,)), "sum"],
    "_softmax_backward_data": [T((2, 3)), T((2, 3)), 1, D("float32")],
    "_unsafe_masked_index": [T((2, 3)), T((1,)), [T((1,))], 0.0],
    "_unsafe_masked_index_put_accumulate": [T((2, 3)), T((1,)), [T((1,))], T((1, 3))],
    "as_strided_scatter": [T((2, 3)), T((2, 2)), (2, 2), (1, 2)], "histogramdd": [T((2, 3)), 2],
    "view_as_complex": [T((3, 2))], "view_as_real": [T((3, 2))],
    "grid_sampler": [T((1, 1, 2, 2)), T((1, 1, 1, 2)), 0, 0, False],
    "grid_sampler_2d": [T((1, 1, 2, 2)), T((1, 1, 1, 2)), 0, 0, False],
    "grid_sampler_3d": [T((1, 1, 2, 2, 2)), T((1, 1, 1, 1, 3)), 0, 0, False],
}
INTEGER_RESULTS = {"argmax", "argmin"}


def _value(lib, a):
    if isinstance(a, T):
        return lib.arange(1.0, float(np.prod(a)) + 1).reshape(a)
    if isinstance(a, list) and a and isinstance(a[0], T):
        return [_value(lib, x) for x in a]
    if isinstance(a, D):
        return getattr(lib, a)
    return a


def _call(lib, name):
    out = lib.empty(0, dtype=lib.int64 if name in INTEGER_RESULTS else lib.float32)
    try:
        result = getattr(lib, name)(*(_value(lib, a) for a in CALLS[name]), out=out)
    except TypeError as e:
        return "refused", str(e).splitlines()[0]
    return "taken", to_numpy(result[0] if isinstance(result, tuple) else result)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_out_is_taken_where_torch_takes_it(name):
    want, got = _call(torch, name), _call(engine, name)
    assert got[0] == want[0], (got, want)
    if want[0] == "taken":
        np.testing.assert_array_equal(got[1], want[1])
    elif "unexpected keyword argument 'out'" in want[1]:
        assert got[1] == want[1]


def test_every_function_that_refuses_out_is_checked_against_torch():
    from engine.ops import COMPOSITES, OPS

    spellings = [op.spelling for op in OPS.values() if op.spelling] + [spell for _, spell in COMPOSITES.values()]
    refusing = {name for spell in spellings if not spell.out for name in spell.function}
    assert refusing and refusing <= set(CALLS), sorted(refusing - set(CALLS))
