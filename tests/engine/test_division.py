"""Rounding division against PyTorch: `//`, `7 // x`, `//=`, torch.floor_divide, torch.div(…, rounding_mode=None |
'trunc' | 'floor'), `%` and torch.remainder (also with the number first), fmod, for float32, float64, int64, int32
and bool operands (Python numbers too): values, result dtypes, grad_fn names, grads or torch's error, and division
by zero (float64 finite differences: test_gradcheck.CASES; error texts: test_messages.CASES)."""
from __future__ import annotations

import math

import pytest
from difftest import load_engine, run_both, torch

DIVIDENDS = [7, -7, 5.5, -0.5, 0, 3, -3, 1e9, -2.25, 0.1, 6, -1e-30]
DIVISORS = [2, 2, -2, 3, 5, -3, 3, 7, 0.75, -0.3, 0, 0.3]
CALLS = ["a // b", "a // 2", "a // 2.5", "7 // a", "-2.5 // a", "torch.floor_divide(a, b)", "torch.floor_divide(a, 3)",
         "torch.div(a, b, rounding_mode='floor')", "torch.div(a, b, rounding_mode='trunc')",
         "a.div(2, rounding_mode='floor')", "a.div(b, rounding_mode=None)", "a.divide(b, rounding_mode='trunc')",
         "a / b", "a.fmod(b)", "a.fmod(2)", "torch.fmod(a, -1.5)", "a % b", "a.remainder(2)", "torch.remainder(7, a)",
         "2 % a", "a % 0", "a // 0", "a.fmod(0)", "torch.div(a, 0, rounding_mode='trunc')"]


def _operand(T, values, dtype):
    if dtype.startswith("int"):
        values = [int(v) for v in values]
    elif dtype == "bool":
        values = [bool(v) for v in values]
    return T.tensor(values, dtype=getattr(T, dtype), requires_grad=dtype.startswith("float"))


def _divided(T, call, dtype_a, dtype_b):
    a, b = _operand(T, DIVIDENDS, dtype_a), _operand(T, DIVISORS, dtype_b)
    try:
        y = eval(call, {"torch": T, "a": a, "b": b})  # noqa: S307 - the test's own expressions
    except (RuntimeError, NotImplementedError) as e:
        return [type(e).__name__, str(e)]
    out = [y.tolist(), str(y.dtype), y.grad_fn and type(y.grad_fn).__name__]
    if y.requires_grad:
        try:
            y.sum().backward()
            out += [None if t.grad is None else t.grad.tolist() for t in (a, b)]
        except RuntimeError as e:
            out.append(str(e))
    return out


def _same(x, y):
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(_same(p, q) for p, q in zip(x, y))
    if isinstance(x, float) and isinstance(y, float):
        return x == y and math.copysign(1, x) == math.copysign(1, y) or x != x and y != y
    return x == y and type(x) is type(y)


@pytest.mark.parametrize("dtype_b", ["float32", "int64", "bool"])
@pytest.mark.parametrize("dtype_a", ["float32", "float64", "int64", "int32", "bool"])
@pytest.mark.parametrize("call", CALLS)
def test_rounding_division_as_torch(call, dtype_a, dtype_b):
    want, got = _divided(torch, call, dtype_a, dtype_b), _divided(load_engine(), call, dtype_a, dtype_b)
    assert _same(got, want), f"engine {got}\ntorch  {want}"


PROGRAM = """
import torch
x = torch.tensor([7., -7., 5.5], requires_grad=True)
y = x.div(2, rounding_mode='floor')
print(y, y.grad_fn._saved_rounding_mode, y.grad_fn._saved_other, y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
z = x * 1
z //= 2
print(z, z.grad_fn.next_functions, z._version)
w = torch.arange(-4, 5)
w //= 3
print(w, w % 3, w.fmod(3), -7 // w.clamp(min=1), torch.floor_divide(w, 2.0))
f = x.fmod(torch.tensor([2., 2., -2.]))
print(f, f.grad_fn, f.grad_fn._saved_other)
"""


def test_division_program_prints_as_torch():
    want, got = run_both(PROGRAM)
    assert got.stdout == want.stdout, f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    assert (got.exc, got.warnings) == (want.exc, want.warnings)
