"""Ops' own argument and output checks against torch's: the order ATen checks in and each op's words (dot's dtypes
before sizes, masked_fill's overflowing value, the in-place and out= dtype rules ldexp, mvlgamma, gather, amax and
aminmax word themselves, cat's aliasing out, narrow_copy, masked_scatter_'s mask expansion, out= of the random
factories and where), and the in-place geometry changes resize_, resize_as_ and as_strided_."""

from __future__ import annotations

import math

import pytest
from difftest import run_both

PRELUDE = "import torch\n"

CASES = {
    # dot, vdot: ATen's dot_check — dims, then dtypes, then sizes
    "dot_dtype_before_size": "torch.dot(torch.ones(1), torch.ones(3, dtype=torch.float64))",
    "vdot_dtype_before_size": "torch.vdot(torch.ones(1), torch.ones(3, dtype=torch.long))",
    "dot_dims_first": "torch.dot(torch.ones(2, 2), torch.ones(3, dtype=torch.float64))",
    "dot_sizes": "torch.dot(torch.ones(2), torch.ones(3))",
    # masked_fill: c10's overflow check of the value against self's dtype
    "masked_fill_complex_into_float": "torch.ones(2).masked_fill(torch.tensor(True), 1j)",
    "masked_fill_complex_into_long": "torch.ones(2, dtype=torch.long).masked_fill(torch.tensor(True), 2j)",
    "masked_fill_int8_range": "torch.ones(2, dtype=torch.int8).masked_fill(torch.tensor(True), 300)",
    "masked_fill_float_range": "torch.ones(2).masked_fill(torch.tensor(True), 1e300)",
    "masked_fill_nan_into_int": "torch.ones(2, dtype=torch.int32).masked_fill(torch.tensor(True), float('nan'))",
    "masked_fill_uint8_wraps": "print(torch.ones(2, dtype=torch.uint8).masked_fill(torch.tensor(True), -1))",
    "masked_fill_inf_into_float": "print(torch.ones(2).masked_fill(torch.tensor(True), float('inf')))",
    "masked_fill_big_int": "torch.ones(2).masked_fill(torch.tensor(True), 2**70)",
    "masked_fill_tensor_value_range": "torch.ones(2, dtype=torch.long).masked_fill(torch.tensor(True), "
                                      "torch.tensor(1e30, dtype=torch.float64))",
    "masked_fill_bool_any": "print(torch.ones(2, dtype=torch.bool).masked_fill(torch.tensor(True), 3))",
    # in-place and out= dtypes in the op's own words
    "ldexp_inplace_long": "torch.ones(5, 5, dtype=torch.long).ldexp_(torch.ones(5, 5, dtype=torch.long))",
    "ldexp_cast_before_shape": "torch.ones(5, 1, dtype=torch.long).ldexp_(torch.ones(5, 5, dtype=torch.long))",
    "ldexp_out_int": "torch.ldexp(torch.ones(2), torch.ones(2), out=torch.empty(2, dtype=torch.int32))",
    "mvlgamma_inplace_long": "torch.ones(3, dtype=torch.long).mvlgamma_(2)",
    "mvlgamma_out_int": "torch.mvlgamma(torch.ones(3), 1, out=torch.empty(3, dtype=torch.int32))",
    "gather_out_dtype": "torch.gather(torch.ones(2, 2), 1, torch.zeros(2, 2, dtype=torch.long), "
                        "out=torch.empty(2, 2, dtype=torch.float64))",
    "amax_out_dtype": "torch.amax(torch.ones(3, 3), 0, out=torch.empty(3, dtype=torch.float64))",
    "amin_out_dtype": "torch.amin(torch.ones(3, 3), 0, out=torch.empty(3, dtype=torch.int32))",
    "aminmax_out_dtype": "torch.aminmax(torch.ones(4, 3), dim=0, out=(torch.empty(3), torch.empty(3).double()))",
    "aminmax_out_not_tuple": "torch.aminmax(torch.ones(4, 3), dim=0, out=torch.empty(3))",
    "aminmax_out_ok": "a, b = torch.empty(3), torch.empty(3)\nr = torch.aminmax(torch.arange(12.).view(4, 3), dim=0, "
                      "out=(a, b))\nprint(r, r.min is a)",
    "aminmax_empty_dim": "torch.aminmax(torch.ones(5, 0, 5), dim=1)",
    # cat
    "cat_out_is_input": "x = torch.zeros(0)\ntorch.cat((x, torch.ones(4, 6)), out=x)",
    "cat_out_overlaps_input": "z = torch.zeros(4, 6)\ntorch.cat((torch.ones(4, 6), z[:2]), out=z)",
    "cat_tensor_not_list": "torch.cat(torch.ones(2, 3))",
    "cat_strided_out_too_hard_to_tell": "b = torch.arange(8.).reshape(4, 2)\n"
                                        "print(torch.cat([b[0:2, 0], b[2:4, 1]], out=b[:, 0]), b)",
    "cat_out_halves_of_itself": "a = torch.arange(6.)\ntorch.cat([a[:3], a[3:]], out=a)",
    # histogram(dd): torch.histogramdd's words for its range and input
    "histogramdd_1d": "torch.histogramdd(torch.tensor([1., 2.]), bins=3)",
    "histogramdd_nan_range": "torch.histogramdd(torch.ones(2, 2), bins=[2, 2], range=[0., float('nan'), 0., 1.])",
    "histogramdd_min_over_max": "torch.histogramdd(torch.ones(2, 2), bins=[2, 2], range=[1., 0., 0., 1.])",
    "histogramdd_range_length": "torch.histogramdd(torch.ones(2, 2), bins=[2, 2], range=[0., 1.])",
    "histogram_inf_range": "torch.histogram(torch.tensor([1., 2.]), bins=2, range=(float('inf'), 1.))",
    # narrow_copy's checks are not narrow's
    "narrow_copy_dim_too_large": "torch.narrow_copy(torch.ones(2, 3), 2, 0, 1)",
    "narrow_copy_negative_length": "torch.narrow_copy(torch.ones(10), 0, 2, -1)",
    "narrow_copy_start": "torch.narrow_copy(torch.ones(10), 0, 11, 0)",
    # masked_scatter_ expands the mask to self
    "masked_scatter_inplace_mask_rank": "torch.zeros(5).masked_scatter_(torch.ones(5, 5, dtype=torch.bool), "
                                        "torch.ones(30))",
    "masked_scatter_mask_not_broadcastable": "torch.zeros(2, 3).masked_scatter(torch.ones(4, 3, dtype=torch.bool), "
                                             "torch.ones(12))",
    "masked_scatter_inplace_mask_size": "torch.zeros(5, 1).masked_scatter_(torch.ones(5, 5, dtype=torch.bool), "
                                        "torch.ones(30))",
    # out= of the random functions and where
    "randn_out": "torch.manual_seed(0)\nt = torch.empty(4, dtype=torch.float64)\n"
                 "print(torch.randn(2, 2, out=t) is t, t)",
    "randn_out_dtype_mismatch": "torch.randn(2, dtype=torch.float32, out=torch.empty(2, dtype=torch.float64))",
    "normal_out": "torch.manual_seed(0)\nt = torch.empty(3, dtype=torch.float64)\n"
                  "torch.normal(1.5, 0.5, (3,), layout=torch.strided, out=t)\nprint(t)",
    "multinomial_out_float": "torch.multinomial(torch.ones(3), 2, out=torch.empty(2))",
    "multinomial_entry_order": "torch.multinomial(torch.tensor([1., float('inf'), -1.]), 2, True)",
    "multinomial_nan_entry": "torch.multinomial(torch.tensor([1., float('nan'), 1.]), 2, True)",
    "where_out": "t = torch.empty(2)\ntorch.where(torch.tensor([True, False]), torch.ones(2), torch.zeros(2), out=t)\n"
                 "print(t)",
    "where_out_dtype": "torch.where(torch.ones(2).bool(), torch.ones(2), torch.ones(2), "
                       "out=torch.empty(2, dtype=torch.long))",
}

_SHOW = "print(tuple(x.shape), x.stride(), x.storage_offset(), x._version, x.tolist())"
GEOMETRY = {
    "resize_smaller": f"x = torch.arange(10.)\nx.resize_(2, 2)\n{_SHOW}",
    "resize_regrow_keeps_storage": f"x = torch.arange(10.)\nx.resize_(3)\nx.resize_(10)\n{_SHOW}",
    "resize_same_shape_keeps_strides": f"x = torch.arange(10.).reshape(2, 5).t()\nx.resize_(5, 2)\n{_SHOW}",
    "resize_view": f"x = torch.arange(10.)[2:5]\nx.resize_(2, 2)\n{_SHOW}",
    "resize_channels_last": f"x = torch.arange(16.)\nx.resize_([1, 2, 2, 2], memory_format=torch.channels_last)\n"
                            f"{_SHOW}",
    "resize_as": f"x = torch.arange(10.)\ntorch.resize_as_(x, torch.ones(2, 3))\n{_SHOW}",
    "resize_requires_grad": "torch.ones(3, requires_grad=True).resize_(2)",
    "resize_negative": "torch.ones(2).resize_(2, -1)",
    "as_strided_offset": f"x = torch.arange(9.).reshape(3, 3)\nx.as_strided_((2, 2), (1, 2), 1)\n{_SHOW}",
    "as_strided_of_view": f"x = torch.arange(10.)[2:]\nx.as_strided_((2, 2), (1, 2), 0)\n{_SHOW}",
    "as_strided_out_of_bounds": "torch.arange(9.).as_strided_((2, 2), (1, 2), 8)",
    # addbmm_ resizes self to the result (a (5, 1) self reads back what the copy into its resized storage wrote)
    **{f"addbmm_resizes_{'x'.join(map(str, shape)) or '0d'}":
       "d = torch.float64\nb1 = torch.arange(60., dtype=d).view(3, 5, 4)\n"
       "b2 = torch.arange(120., dtype=d).view(3, 4, 10)\n"
       f"x = torch.arange(1., {1 + math.prod(shape)}., dtype=d).reshape({shape}).clone()\n"
       f"x.addbmm_(b1, b2, beta=0.5, alpha=2)\n{_SHOW}" for shape in ((1,), (), (5, 1), (10,))},
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_matches_torch(case):
    want, got = run_both(CASES[case], PRELUDE)
    assert got.exc == want.exc
    assert got.stdout == want.stdout


@pytest.mark.parametrize("case", sorted(GEOMETRY))
def test_geometry_matches_torch(case):
    want, got = run_both(GEOMETRY[case], PRELUDE)
    assert got.exc == want.exc
    assert got.stdout == want.stdout
