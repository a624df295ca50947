"""Every in-place twin of the op table (`x.exp_()`, `x.clamp_(…)`, …) behaves as torch's: on a non-leaf (its
grad_fn, version counter, values and grads), on a view of a non-leaf (CopySlices on the base), on a leaf that
requires grad (the error), on an integer tensor (the cast error), and after it outdated a saved tensor (the
error at backward). The list of twins is derived from the op table, so a new one fails here until it has args.
"""
from __future__ import annotations

import pytest
from difftest import ENGINE_NAME, run_both

from engine.ops import OPS

TWINS = sorted({name for op in OPS.values() if op.spelling and op.bind for name in op.spelling.inplace})

# twin -> (input values, arguments): inputs chosen inside each op's domain
POS = "[0.5, 1.5, 2.0]"
ANY = "[-1.5, 0.25, 2.0]"
SMALL = "[-0.5, 0.25, 0.75]"
MATRIX = "[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]"
ARGS = {
    "abs_": (ANY, ""), "absolute_": (ANY, ""), "add_": (ANY, "torch.tensor([1.0, 2.0, 3.0]), alpha=2"),
    "conj_physical_": (ANY, ""),
    "addcdiv_": (ANY, "torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 4.0, 8.0]), value=0.5"),
    "addcmul_": (ANY, "torch.tensor([1.0, 2.0, 3.0]), torch.tensor([2.0, 4.0, 8.0]), value=0.5"),
    "addmv_": (ANY, "torch.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]]), torch.tensor([2.0, -1.0]), beta=0.5, "
                    "alpha=2"),
    "atan_": (ANY, ""), "arctan_": (ANY, ""), "ceil_": (ANY, ""), "clamp_": (ANY, "-0.5, 0.5"),
    "clip_": (ANY, "min=0.0"),
    "clamp_min_": (ANY, "0.5"), "clamp_max_": (ANY, "torch.tensor([0.5, 1.0, 2.5])"),
    "copy_": (ANY, "torch.tensor([7.0, 8.0, 9.0])"), "cos_": (ANY, ""), "erf_": (ANY, ""), "cosh_": (ANY, ""),
    "div_": (ANY, "torch.tensor([2.0, 4.0, 8.0])"), "exp_": (ANY, ""), "expm1_": (ANY, ""), "fill_": (ANY, "2.5"),
    "floor_": (ANY, ""), "floor_divide_": (ANY, "torch.tensor([0.7, -1.5, 2.0])"), "fmod_": (ANY, "0.75"),
    "index_add_": (ANY, "0, torch.tensor([2, 0, 2]), torch.tensor([1.0, 2.0, 3.0]), alpha=2"),
    "index_copy_": (ANY, "0, torch.tensor([2, 0]), torch.tensor([7.0, 8.0])"),
    "index_fill_": (ANY, "0, torch.tensor([1]), -2.0"),
    "scatter_": (ANY, "0, torch.tensor([2, 0]), torch.tensor([7.0, 8.0])"),
    "scatter_add_": (ANY, "0, torch.tensor([2, 2]), torch.tensor([7.0, 8.0])"),
    "scatter_reduce_": (ANY, "0, torch.tensor([2, 2]), torch.tensor([7.0, 8.0]), 'amax', include_self=False"),
    "lerp_": (ANY, "torch.tensor([1.0, 2.0, 3.0]), 0.25"), "log10_": (POS, ""),
    "log1p_": (POS, ""), "log2_": (POS, ""), "log_": (POS, ""),
    "masked_fill_": (ANY, "torch.tensor([True, False, True]), -1.0"),
    "cumsum_": (ANY, "0"), "cumprod_": (ANY, "-1"),
    "masked_scatter_": (ANY, "torch.tensor([True, False, True]), torch.tensor([7.0, 8.0, 9.0])"),
    "put_": (ANY, "torch.tensor([2, 0]), torch.tensor([7.0, 8.0]), accumulate=True"),
    "index_put_": (ANY, "(torch.tensor([2, 0]),), torch.tensor([7.0, 8.0])"),
    "index_reduce_": (ANY, "0, torch.tensor([2, 2]), torch.tensor([7.0, 8.0]), 'amax', include_self=False"),
    "mul_": (ANY, "3.0"), "multiply_": (ANY, "3.0"), "subtract_": (ANY, "torch.tensor([1.0, 2.0, 3.0]), alpha=2"),
    "neg_": (ANY, ""),
    "negative_": (ANY, ""), "pow_": (POS, "2"), "reciprocal_": (POS, ""), "relu_": (ANY, ""), "round_": (ANY, ""),
    "rsqrt_": (POS, ""), "sgn_": (ANY, ""), "sigmoid_": (ANY, ""), "sign_": (ANY, ""), "sin_": (ANY, ""),
    "sinh_": (ANY, ""), "sqrt_": (POS, ""), "sub_": (ANY, "torch.tensor([1.0, 2.0, 3.0])"),
    "remainder_": (ANY, "torch.tensor([0.7, 1.5, 2.0])"), "tan_": (SMALL, ""),
    "tanh_": (ANY, ""), "trunc_": (ANY, ""), "zero_": (ANY, ""),
    # element-wise math, torch.special, comparisons and integer ops
    **{op: (SMALL, "") for op in ("asin_", "arcsin_", "acos_", "arccos_", "atanh_", "arctanh_", "erfinv_")},
    **{op: (ANY, "") for op in ("asinh_", "arcsinh_", "exp2_", "deg2rad_", "rad2deg_", "frac_", "sinc_", "erfc_",
                                "i0_", "fix_", "nan_to_num_")},
    **{op: (POS, "") for op in ("lgamma_", "digamma_")},
    **{op: (POS, "torch.tensor([1.0, 2.0, 0.5])") for op in ("igamma_", "igammac_")},
    "acosh_": ("[1.5, 2.5, 3.0]", ""), "arccosh_": ("[1.5, 2.5, 3.0]", ""), "logit_": (SMALL, "eps=0.3"),
    "polygamma_": (POS, "1"), "mvlgamma_": ("[1.5, 2.5, 3.0]", "2"),
    **{op: (ANY, "torch.tensor([0.5, -1.0, 2.0])") for op in ("atan2_", "arctan2_", "hypot_", "copysign_",
                                                               "nextafter_", "xlogy_", "divide_", "true_divide_")},
    "ldexp_": (ANY, "torch.tensor([1, 0, 2])"), "heaviside_": (ANY, "torch.tensor([0.5, -1.0, 2.0])"),
    **{op: (ANY, "torch.tensor([0.25, -1.0, 3.0])") for op in ("eq_", "ne_", "not_equal_", "lt_", "less_", "le_",
                                                                "less_equal_", "gt_", "greater_", "ge_",
                                                                "greater_equal_")},
    # integer-only kernels: integer inputs (which cannot require grad, in torch as here)
    **{op: ("[3, 1, 2]", "torch.tensor([3, 1, 2])") for op in ("bitwise_and_", "bitwise_or_", "bitwise_xor_",
                                                                "bitwise_left_shift_", "bitwise_right_shift_",
                                                                "gcd_", "lcm_")},
    # matrix twins: a 2×3 self (a 1×2×3 batch for baddbmm_)
    **{op: (MATRIX, args) for op, args in (
        ("addmm_", "torch.tensor([[1.0, 2.0], [0.5, -1.0]]), torch.tensor([[1.0, 0.5, -2.0], [0.25, 3.0, 1.0]]), "
                   "beta=0.5, alpha=2"),
        ("addr_", "torch.tensor([1.0, -2.0]), torch.tensor([0.5, 1.0, 3.0]), alpha=0.5"),
        ("addbmm_", "torch.ones(2, 2, 4) * 0.5, torch.arange(24.0).reshape(2, 4, 3) / 8, beta=2"),
        ("renorm_", "2, 0, 1.0"), ("tril_", ""), ("triu_", "1"))},
    "baddbmm_": ("[" + MATRIX + "]", "torch.ones(1, 2, 4) * 0.5, torch.arange(12.0).reshape(1, 4, 3) / 8, alpha=2"),
    # the random twins draw from a generator of their own, so that torch and the engine draw the same values
    "bernoulli_": (ANY, "0.4, generator=torch.Generator().manual_seed(1)"),
    "exponential_": (ANY, "2.0, generator=torch.Generator().manual_seed(1)"),
    "cauchy_": (ANY, "0.5, 2.0, generator=torch.Generator().manual_seed(1)"),
    "geometric_": (ANY, "0.3, generator=torch.Generator().manual_seed(1)"),
    "log_normal_": (ANY, "0.5, 0.7, generator=torch.Generator().manual_seed(1)"),
    "normal_": (ANY, "1.0, 0.5, generator=torch.Generator().manual_seed(1)"),
    "random_": (ANY, "-5, 5, generator=torch.Generator().manual_seed(1)"),
    "uniform_": (ANY, "-2.0, 3.0, generator=torch.Generator().manual_seed(1)"),
}

CASES = {
    "non_leaf": """
x = torch.tensor({x}, requires_grad=True)
y = x * 1
print(y._version)
r = y.{op}({args})
print(r is y, y._version, type(y.grad_fn).__name__)
print(y)
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
""",
    "view_of_non_leaf": """
x = torch.tensor([{x}, {x}], requires_grad=True)
y = x * 1
y[1].{op}({args})
print(y._version, type(y.grad_fn).__name__)
print(y)
(y * 2).sum().backward()
print(x.grad)
""",
    "leaf": """
x = torch.tensor({x}, requires_grad=True)
x.{op}({args})
""",
    "outdated_saved": """
x = torch.tensor({x}, requires_grad=True)
y = x * 1
z = y * y
y.{op}({args})
z.sum().backward()
""",
    "no_grad": """
x = torch.tensor({x}, requires_grad=True)
with torch.no_grad():
    x.{op}({args})
print(x, x._version, x.grad_fn)
""",
}

# (int, bool) inputs for the dtype cases: the same positions as ARGS's, as integers and as bools
INTEGER_INPUTS = {"int": "[1, 2, 3]", "bool": "[True, False, True]"}
DTYPE_GAPS = {
    **{("addr_", kind): "torch's addr_ refuses a self that is not 2-D first ('2D tensor expected, got 1D tensor for "
                        "input'); the engine's first error is the cast's" for kind in ("int", "bool")},
    **{(op, kind): "clamp's cast error names the C type ('long int', 'bool'), other ops the tensor type"
       for op in ("clamp_", "clip_", "clamp_min_") for kind in ("int", "bool")},
    **{(op, "bool"): "the cast error of an int64 result (torch: its kernel has no bool version, NotImplementedError)"
       for op in ("cumsum_", "cumprod_")},
}


def test_every_twin_has_arguments():
    assert sorted(ARGS) == TWINS


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="the twins of the engine's op table")
def test_the_torch_functions_of_the_twins_are_torchs():
    import torch

    import engine

    assert [n for n in TWINS if hasattr(engine, n)] == [n for n in TWINS if hasattr(torch, n)]


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="the twins of the engine's op table")
@pytest.mark.parametrize("op", [n for n in TWINS if n in ("sin_", "exp_", "clamp_", "fill_", "zero_", "relu_")])
def test_torch_level_twin_matches_torch(op):
    x, args = ARGS[op]
    comma = ", " if args else ""
    want, got = run_both(f"import torch\nx = torch.tensor({x}, requires_grad=True)\ny = x * 1\n"
                         f"r = torch.{op}(y{comma}{args})\nprint(r is y, y, y._version)\n"
                         f"a = torch.tensor({x}, requires_grad=True)\ntorch.{op}(a{comma}{args})\n")
    assert (got.stdout, got.exc) == (want.stdout, want.exc)


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="the twins of the engine's op table")
@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("op", TWINS)
def test_in_place_twin_matches_torch(op, case):
    x, args = ARGS[op]
    want, got = run_both("import torch\n" + CASES[case].format(op=op, x=x, args=args))
    assert got.stdout == want.stdout
    assert got.exc == want.exc
    assert got.warnings == want.warnings


@pytest.mark.skipif(ENGINE_NAME != "engine", reason="the twins of the engine's op table")
@pytest.mark.parametrize("op, kind", [
    pytest.param(op, kind, marks=[pytest.mark.xfail(strict=True, reason=DTYPE_GAPS[(op, kind)])]
                 if (op, kind) in DTYPE_GAPS else [])
    for op in TWINS for kind in sorted(INTEGER_INPUTS)])
def test_twin_on_integers_and_bools_as_in_torch(op, kind):
    """The result dtype's cast into the tensor (PyTorch's canCast), or the kernel's refusal, as torch."""
    _, args = ARGS[op]
    want, got = run_both(f"import torch\nx = torch.tensor({INTEGER_INPUTS[kind]})\nr = x.{op}({args})\n"
                         "print(r, r is x, x.dtype)\n")
    assert (got.stdout, got.exc) == (want.stdout, want.exc)
