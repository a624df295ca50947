"""torch.as_tensor of a numpy array shares its memory as from_numpy does (Godoy's chapter 1 shows the tensor
change with the array), converts when given another dtype, and a negative stride is refused by from_numpy,
as_tensor and tensor alike, with torch's text."""
from __future__ import annotations

import numpy as np
import pytest
import torch
from difftest import load_engine

CASES = {
    "int_shared": "a = np.array([1, 2, 3]); t = T.as_tensor(a); a[1] = 0",
    "float_same_dtype_shared": "a = np.array([1., 2., 3.]); t = T.as_tensor(a, dtype=T.float64); a[1] = 0",
    "float_other_dtype_copied": "a = np.array([1., 2., 3.]); t = T.as_tensor(a, dtype=T.float32); a[1] = 0",
    "float32_cpu_shared": "a = np.array([1., 2.], dtype=np.float32); t = T.as_tensor(a, device='cpu'); a[0] = 5",
    "transposed_shared": "a = np.arange(6).reshape(2, 3).T; t = T.as_tensor(a); a[0, 0] = 9",
    "bool_and_0d": "t = T.as_tensor(np.array([True, False])) if False else T.as_tensor(np.array(5))",
    "list_copied": "a = [1, 2]; t = T.as_tensor(a); a[0] = 7",
    "negative_stride_as_tensor": "t = T.as_tensor(np.arange(3)[::-1])",
    "negative_stride_other_dtype": "t = T.as_tensor(np.arange(3)[::-1], dtype=T.float32)",
    "negative_stride_from_numpy": "t = T.from_numpy(np.arange(3.0)[::-1])",
    "negative_stride_tensor": "t = T.tensor(np.arange(3)[::-1])",
    "negative_stride_copied_first": "t = T.tensor(np.arange(3)[::-1].copy())",
}


def outcome(T, code):
    scope = {"T": T, "np": np}
    try:
        exec(code, scope)  # noqa: S102 - the case's own code
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return type(e).__name__, str(e)
    t = scope["t"]
    return str(t.dtype), t.tolist(), t.stride()


@pytest.mark.parametrize("case", sorted(CASES))
def test_as_tensor_of_numpy(case):
    assert outcome(load_engine(), CASES[case]) == outcome(torch, CASES[case])
