"""Which index torch's CPU kernels return among equal values: sort(stable=False) of the types sorted with
std::sort (bool, uint8, int8, int16, float16), topk (partial_sort, or nth_element and a sort of the first k-1, or
none when sorted=False), kthvalue (TH's quickselect) and mode (std::sort, then the end of the longest run). Rows are
longer than 16 so that libstdc++'s introsort partitions (it sorts shorter ranges by insertion, which is stable)."""

from __future__ import annotations

import numpy as np
import pytest
from difftest import run_both

PRELUDE = "import torch\n"


def _values(seed, n, high, nan=False):
    rng = np.random.default_rng(seed)
    v = rng.integers(0, high, n).astype(float)
    if nan:
        v[rng.random(n) < 0.2] = np.nan
    return repr(v.tolist()).replace("nan", "float('nan')")


CASES = {
    "sort_bool": f"x = torch.tensor({_values(0, 300, 2)}).bool()\nprint(torch.sort(x).indices.tolist())",
    "sort_bool_descending": f"x = torch.tensor({_values(1, 200, 2)}).bool()\n"
                            "print(torch.sort(x, descending=True).indices.tolist())",
    "argsort_int16_rows": f"x = torch.tensor({_values(2, 120, 4)}).to(torch.int16).view(3, 40)\n"
                          "print(torch.argsort(x, dim=1).tolist())",
    "sort_int8_dim0": f"x = torch.tensor({_values(3, 120, 3)}).to(torch.int8).view(40, 3)\n"
                      "print(torch.sort(x, dim=0, descending=True).indices.tolist())",
    "sort_float16_nan": f"x = torch.tensor({_values(4, 100, 5, nan=True)}).half()\n"
                        "print(torch.sort(x, stable=False).indices.tolist())",
    "sort_bool_stable": f"x = torch.tensor({_values(5, 100, 2)}).bool()\n"
                        "print(torch.sort(x, stable=True).indices.tolist())",
    "topk_nth_element": f"x = torch.tensor({_values(6, 150, 5)}).long().view(3, 50)\n"
                        "print(torch.topk(x, 7, dim=1).indices.tolist())",
    "topk_unsorted": f"x = torch.tensor({_values(7, 60, 5)}).long()\n"
                     "print(torch.topk(x, 9, sorted=False).indices.tolist())",
    "topk_partial_sort": f"x = torch.tensor({_values(8, 300, 6)}).long()\n"
                         "print(torch.topk(x, 4, largest=False).indices.tolist())",
    "topk_nan": f"x = torch.tensor({_values(9, 80, 4, nan=True)}, dtype=torch.float64)\n"
                "print(torch.topk(x, 20).indices.tolist())",
    "kthvalue": f"x = torch.tensor({_values(10, 120, 5)}).long().view(2, 60)\n"
                "print(torch.kthvalue(x, 17, dim=1).indices.tolist())",
    "kthvalue_nan": f"x = torch.tensor({_values(11, 70, 6, nan=True)}, dtype=torch.float64)\n"
                    "print(torch.kthvalue(x, 50).indices.tolist())",
    "mode_long_row": f"x = torch.tensor({_values(12, 3000, 50)}).long()\nprint(torch.mode(x).indices.tolist())",
    "mode_bool": f"x = torch.tensor({_values(13, 200, 2)}).bool().view(4, 50)\n"
                 "print(torch.mode(x, 1).indices.tolist())",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_tie_order_matches_torch(case):
    want, got = run_both(CASES[case], PRELUDE)
    assert want.exc is None
    assert got.exc is None
    assert got.stdout == want.stdout
