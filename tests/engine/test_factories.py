"""Making tensors and converting them, against torch: the factories (zeros, ones, full, empty, arange, linspace,
logspace, eye, scalar_tensor, *_like), Tensor.new_* on tensors and Parameters, and the conversions (float, double,
half, int, long, short, char, byte, bool with memory_format=, to, type, type_as, clone, contiguous, view_as, item,
tolist). Each case prints what it made (value, dtype, grad_fn, requires_grad, type) or fails; both must agree,
warnings and error texts included."""
from __future__ import annotations

import pytest
from difftest import ENGINE_NAME, run_both, run_fresh

PRELUDE = "import torch\nimport torch.nn as nn\n"


def show(expr):
    return f"t = {expr}\nprint(t, t.dtype, t.shape, t.requires_grad, t.grad_fn is not None)\n"


# torch warns once per process that a list of numpy arrays is slow (test_list_of_arrays_warns_once_per_process):
# an earlier test may have used that warning up on one side only.
NDARRAYS_QUIET = "import warnings\nwarnings.filterwarnings('ignore', 'Creating a tensor from a list of numpy')\n"

CASES = {
    # --- factories ------------------------------------------------------------------------------------------
    "zeros": show("torch.zeros(2, 3, dtype=torch.float64)") + show("torch.zeros((2,), dtype=torch.int64)")
    + show("torch.zeros(size=(1, 2))") + show("torch.zeros(())") + show("torch.zeros(2, requires_grad=True)"),
    "ones_layout_device": show("torch.ones(2, 2, layout=torch.strided, device='cpu', dtype=torch.int16)")
    + show("torch.ones([3], dtype=torch.half)") + show("torch.ones(2, dtype=torch.int8)"),
    "zeros_out": "o = torch.ones(3, dtype=torch.int64)\nr = torch.zeros(3, out=o)\nprint(r is o, o)",
    "empty_shape": "t = torch.empty(2, 0, 3, dtype=torch.float64)\nprint(t.shape, t.dtype, t.numel())\n"
    "print(torch.empty((2, 3), memory_format=torch.contiguous_format).shape)",
    "empty_preserve_refused": "torch.empty(2, memory_format=torch.preserve_format)",
    "empty_channels_last_rank": "torch.empty(2, 3, memory_format=torch.channels_last)",
    "empty_permuted_strided": "a = torch.empty_permuted((2, 3, 4), (2, 0, 1), dtype=torch.float64)\n"
    "b = torch.empty_strided((2, 3), (1, 2))\nc = torch.ones(2, dtype=torch.int64).new_empty_strided((2, 2), (1, 2))\n"
    "for t in (a, b, c, torch.empty_strided((3, 2), (2, 1)), torch.empty_permuted((2, 3), (0, 1))):\n"
    "    print(t.shape, t.dtype, t.is_contiguous())",
    "empty_permuted_duplicate": "torch.empty_permuted((2, 3), (0, 0))",
    "empty_permuted_out_of_range": "torch.empty_permuted((2,), (3,))",
    "empty_permuted_length": "torch.empty_permuted((2,), (0, 1))",
    "empty_strided_length": "torch.empty_strided((2, 3), (1,))",
    "negative_size": "torch.ones(2, -1)",
    "int_requires_grad": "torch.zeros(2, dtype=torch.int64, requires_grad=True)",
    "full_dtypes": show("torch.full((2,), 3)") + show("torch.full((2,), True)") + show("torch.full((2, 1), 1.5)")
    + show("torch.full((2,), 1.5, dtype=torch.int64)") + show("torch.full((), torch.tensor(2.5))"),
    "full_int_size": "torch.full(3, 1.0)",
    "scalar_tensor": show("torch.scalar_tensor(3)") + show("torch.scalar_tensor(True)")
    + show("torch.scalar_tensor(2, dtype=torch.int64)") + show("torch.scalar_tensor(-1.5, requires_grad=True)"),
    "like": "x = torch.arange(6.).reshape(2, 3)\n" + show("torch.zeros_like(x)")
    + show("torch.ones_like(x, dtype=torch.int64)") + show("torch.full_like(x, 7)")
    + show("torch.full_like(x, 2.5, requires_grad=True)")
    + show("torch.empty_like(x).fill_(1)") + show("torch.zeros_like(x, memory_format=torch.preserve_format)"),
    "like_channels_last_rank": "torch.zeros_like(torch.ones(2, 3), memory_format=torch.channels_last)",
    "arange": show("torch.arange(5)") + show("torch.arange(1, 4)") + show("torch.arange(0, 1, 0.125)")
    + show("torch.arange(5, dtype=torch.float64)") + show("torch.arange(-1.5, 2.5, 0.5, dtype=torch.float64)")
    + show("torch.arange(10, 0, -3)") + show("torch.arange(torch.tensor(3))") + show("torch.arange(torch.tensor(3.))")
    + show("torch.arange(0.5, 4, dtype=torch.int64)") + show("torch.arange(1, 2.5, 0.5, requires_grad=True)"),
    "arange_out": "o = torch.zeros(2)\nprint(torch.arange(3, out=o) is o, o)",
    "arange_zero_step": "torch.arange(0, 3, 0)",
    "arange_fractional_int_step": "torch.arange(0, 3, 0.5, dtype=torch.int64)",
    "arange_wrong_sign": "torch.arange(3, 0, 1)",
    "arange_inf": "torch.arange(0, float('inf'))",
    "linspace": show("torch.linspace(0, 1, 5)") + show("torch.linspace(-2, 3, 7, dtype=torch.float64)")
    + show("torch.linspace(0, 10, 4, dtype=torch.int64)") + show("torch.linspace(3, 3, 1)")
    + show("torch.linspace(torch.tensor(0.), torch.tensor(2), 3)") + show("torch.linspace(0, 1, torch.tensor(3))"),
    "linspace_float_steps": "torch.linspace(0, 3, 1.0)",
    "linspace_vector_ends": "torch.linspace(torch.tensor([1, 1]), torch.tensor([3, 3]), 2)",
    "linspace_negative_steps": "torch.linspace(0, 3, -1)",
    "logspace": show("torch.logspace(0, 2, 3)") + show("torch.logspace(-1, 1, 5, dtype=torch.float64)")
    + show("torch.logspace(0, 3, 4, 2)") + show("torch.logspace(0, 3, 4, base=2, dtype=torch.int64)")
    + show("torch.logspace(1, 1, 1)") + show("torch.logspace(0.5, 2.5, 6, 3.0, dtype=torch.float64)"),
    "logspace_float_steps": "torch.logspace(0, 3, 1.0)",
    "logspace_float_steps_base": "torch.logspace(0, 3, 1.0, 2.0)",
    "eye": show("torch.eye(3)") + show("torch.eye(2, 4, dtype=torch.int64)")
    + show("torch.eye(3, 2, dtype=torch.bool)") + show("torch.eye(0)"),
    "eye_negative": "torch.eye(-1)",
    "eye_negative_m": "torch.eye(2, -1)",
    "promotion_small_ints": "a = torch.ones(2, dtype=torch.uint8)\nb = torch.ones(2, dtype=torch.int8)\n"
    "print((a + b).dtype, (b + torch.ones(2, dtype=torch.int16)).dtype, (b * 2).dtype, (b + 1.5).dtype)",
    # --- Tensor.new_* --------------------------------------------------------------------------------------
    "new": "x = torch.ones(2, 3, dtype=torch.float64)\n" + show("x.new_zeros(2)") + show("x.new_zeros((2, 1))")
    + show("x.new_ones(3, dtype=torch.int64)") + show("x.new_full((2,), 5)") + show("x.new_empty((2,)).fill_(0)")
    + show("x.new_ones(())") + show("x.new_tensor([1, 2])") + show("x.new_tensor([1, 2], dtype=torch.int64)")
    + show("x.new_zeros(2, requires_grad=True)"),
    "new_on_int": "x = torch.ones(2, dtype=torch.int64)\n" + show("x.new_full((2,), 5.7)")
    + show("x.new_tensor([1.5])"),
    "new_on_parameter": "p = nn.Parameter(torch.ones(2))\n" + show("p.new_zeros(2)") + show("p.new_full((1,), 3.)")
    + "print(type(p.new_ones(1)).__name__, type(p.new_tensor([1.])).__name__)",
    "new_tensor_from_tensor": "x = torch.ones(2)\n" + show("x.new_tensor(torch.tensor([1, 2]))"),
    "new_full_int_size": "torch.ones(2).new_full(2, 3.)",
    "new_negative": "torch.ones(2).new_zeros((2, -1))",
    # --- conversions ---------------------------------------------------------------------------------------
    "casts": "x = torch.tensor([[-1.5, 0.25], [2.75, 300.0]], requires_grad=True)\n"
    + "".join(show(f"x.{c}()") for c in ("float", "double", "half", "int", "long", "short", "char", "byte", "bool")),
    "casts_memory_format": "x = torch.tensor([[1.5, 2.0]])\n" + show("x.double(memory_format=torch.preserve_format)")
    + show("x.long(memory_format=torch.contiguous_format)")
    + "print(x.float(memory_format=torch.preserve_format) is x)\n"
    + show("torch.tensor(2.5).double(memory_format=torch.contiguous_format)")
    + show("torch.tensor(2.5).clone(memory_format=torch.contiguous_format)"),
    "cast_positional": "torch.ones(2).float(torch.contiguous_format)",
    "cast_same_dtype_is_self": "x = torch.ones(2)\nprint(x.float() is x, x.to(torch.float32) is x, x.to('cpu') is x)",
    "to": "x = torch.tensor([1.5, -2.0], requires_grad=True)\n" + show("x.to(torch.float64)")
    + show("x.to('cpu', torch.float64, False, True)") + show("x.to(torch.float32, copy=True)")
    + show("x.to(dtype=torch.int64)") + show("x.to(torch.ones(1, dtype=torch.int32))")
    + show("x.to(device='cpu', dtype=torch.float16)")
    + show("x.to(torch.float64, memory_format=torch.preserve_format)"),
    "to_channels_last_rank": "torch.ones(2).to(memory_format=torch.channels_last)",
    "type": "x = torch.tensor([1.5, 2.5])\nprint(x.type(), x.double().type(), x.long().type(), x.bool().type())\n"
    + show("x.type(torch.int64)") + show("x.type('torch.DoubleTensor')") + "print(x.type(torch.float32) is x)",
    "type_invalid": "torch.ones(2).type('torch.NoSuchTensor')",
    "type_as": "x = torch.tensor([1.5, 2.5], requires_grad=True)\n"
    + show("x.type_as(torch.ones(1, dtype=torch.int64))") + show("x.type_as(torch.ones(1, dtype=torch.float64))")
    + "print(x.type_as(torch.ones(1)) is x)",
    "clone_contiguous": "x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n"
    + show("x.clone()") + show("x.clone(memory_format=torch.contiguous_format)")
    + show("torch.clone(x, memory_format=torch.preserve_format)") + show("x.t().contiguous()")
    + "print(x.contiguous() is x, x.contiguous(memory_format=torch.contiguous_format) is x)",
    "clone_channels_last_rank": "torch.ones(2).clone(memory_format=torch.channels_last)",
    "view_as": "x = torch.arange(6.)\n" + show("x.view_as(torch.ones(2, 3))") + show("x.view_as(torch.ones(3, 2, 1))"),
    "channels_last": "x = torch.arange(24.).reshape(1, 2, 3, 4).requires_grad_()\n"
    "def flags(t):\n"
    "    print(t.is_contiguous(), t.is_contiguous(memory_format=torch.channels_last), t.grad_fn is not None)\n"
    "c = x.to(memory_format=torch.channels_last)\nflags(c)\nflags(x.float(memory_format=torch.channels_last))\n"
    "flags(x.double(memory_format=torch.channels_last))\nflags(x.clone(memory_format=torch.channels_last))\n"
    "flags(c.contiguous())\nprint(c.contiguous(memory_format=torch.channels_last) is c, c.to(torch.float32) is c)\n"
    "flags(torch.zeros_like(c))\nflags(torch.empty(1, 2, 3, 4, memory_format=torch.channels_last))\n"
    "flags(torch.ones_like(x, memory_format=torch.channels_last))\nflags(c * 2)\nflags(c.to(torch.float64))\n"
    "print(c.sum(), (c + 1).flatten(), c.detach().tolist() == x.detach().tolist())\n"
    "(c * torch.arange(24.).reshape(1, 2, 3, 4)).sum().backward()\nprint(x.grad.flatten())",
    "zeros_like_transposed": "x = torch.ones(2, 3).t()\nprint(torch.zeros_like(x).is_contiguous(), "
    "torch.zeros_like(x, memory_format=torch.contiguous_format).is_contiguous(), "
    "torch.ones_like(x[::2]).is_contiguous())",
    "is_contiguous_preserve": "print(torch.ones(2).is_contiguous(memory_format=torch.preserve_format), "
    "torch.ones(2, 3).t().is_contiguous(memory_format=torch.preserve_format))",
    "item_tolist": "x = torch.tensor([[1.5, 2.0]], dtype=torch.float64)\nprint(x[0, 0].item(), x.tolist(), "
    "torch.tensor(3).item(), torch.tensor([True]).tolist(), torch.tensor(2.5).tolist())",
    "item_many": "torch.ones(2).item()",
    # --- torch.tensor from Python data holding ranges and tensors --------------------------------------------
    "tensor_from_range": show("torch.tensor(range(4))") + show("torch.tensor([range(2), range(2)])")
    + show("torch.tensor(range(0))") + show("torch.tensor(range(3), dtype=torch.float64)"),
    "tensor_from_list_of_tensors": "t = torch.tensor([1.5])\n" + show("torch.tensor([t])")
    + show("torch.tensor([torch.tensor([[1.5]]), 2])") + show("torch.tensor([[t], [t]])")
    + show("torch.tensor([torch.tensor(1., dtype=torch.float64), 2])")
    + show("torch.tensor([torch.tensor(1, dtype=torch.int32), torch.tensor(2, dtype=torch.int32)])")
    + show("torch.tensor([torch.tensor(1, dtype=torch.int32), 2.5])")
    + show("torch.tensor([torch.tensor(1, dtype=torch.uint8), torch.tensor(2, dtype=torch.int8)])")
    + show("torch.tensor([torch.tensor(True), False])")
    + show("torch.tensor([torch.tensor(1.7), 2], dtype=torch.int64)")
    + show("torch.tensor([torch.tensor(2.0, requires_grad=True)])"),
    "tensor_from_list_of_long_tensors": "torch.tensor([torch.tensor([1., 2.]), torch.tensor([3., 4.])])",
    # --- numpy arrays and scalars, alone and inside lists (RL tutorials batch lists of observations) ------------
    "tensor_from_numpy_data": NDARRAYS_QUIET + "import numpy as np\nrows = [np.eye(3)[[0, 1]], np.eye(3)[[2, 0]]]\n"
    + show("torch.tensor(rows)") + show("torch.tensor([np.array([1, 2]), np.array([3, 4])])")
    + show("torch.tensor([[np.array([1., 2.], dtype=np.float32)]])") + show("torch.tensor(np.float64(1.5))")
    + show("torch.tensor(np.int16(3))") + show("torch.tensor([np.float64(1.0)])")
    + show("torch.tensor([np.float32(1), 2.0])") + show("torch.tensor([np.int32(1), np.int8(2)])")
    + show("torch.tensor([np.float16(1), np.int64(3)])") + show("torch.tensor([np.uint8(1), np.int8(2)])")
    + show("torch.tensor((np.float32(1.5), np.array(2.0)))") + show("torch.tensor(rows, dtype=torch.float32)")
    + show("torch.as_tensor(rows)") + show("torch.Tensor(rows)") + show("torch.FloatTensor(rows)")
    + show("torch.LongTensor([np.array([1, 2]), np.array([3, 4])])")
    + show("torch.tensor([np.array([1.0]), np.array([2.0])], requires_grad=True)"),
    "tensor_from_list_starting_with_0dim_array": NDARRAYS_QUIET + "import numpy as np\n"
    "torch.tensor([np.array(1.0), 2])",
    "tensor_from_list_with_array_for_number": NDARRAYS_QUIET + "import numpy as np\n"
    "torch.tensor([1, np.array([1.5, 2.])])",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_factory_or_conversion_matches_torch(case):
    want, got = run_both(CASES[case], PRELUDE)
    assert got.exc == want.exc
    assert got.warnings == want.warnings
    assert got.stdout == want.stdout


def test_list_of_arrays_warns_once_per_process():
    source = ("import numpy as np\nrows = [np.ones(2), np.zeros(2)]\ntorch.tensor(rows)\ntorch.FloatTensor(rows)\n"
              "torch.tensor([[np.ones(1)]])\nprint('made')")
    (want,), (got,) = run_fresh((PRELUDE + source,), "torch"), run_fresh((PRELUDE + source,), ENGINE_NAME)
    assert len(want.warnings) == 1
    assert (got.stdout, got.warnings, got.exc) == (want.stdout, want.warnings, want.exc)
