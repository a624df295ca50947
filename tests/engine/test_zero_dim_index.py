"""Indexing a 0-dim tensor: the IndexError texts torch's Python binding gives before it indexes (an integer, a
slice, a list or tensor index), as the 2017 tutorials' `loss.data[0]` meets them."""
from __future__ import annotations

import numpy as np
import pytest
import torch
from difftest import load_engine

engine = load_engine()

KEYS = ["0", "-1", "2", "np.int64(0)", "slice(0, 1)", "None", "...", "(0,)", "[0]", "T.tensor(0)", "True",
        "(None, 0)", "T.tensor(True)", "T.tensor([True])", "(..., None)"]


def outcome(fn):
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return type(e).__name__, str(e)
    return "ok", tuple(r.shape) if r is not None else None


@pytest.mark.parametrize("key", KEYS)
def test_getitem_and_setitem_of_a_zero_dim_tensor(key):
    def both(T):
        t = T.tensor(1.5)
        k = eval(key, {"T": T, "np": np})
        got = outcome(lambda: t[k])

        def put():
            t[k] = 2.0

        return got, outcome(put)

    assert both(load_engine()) == both(torch)
