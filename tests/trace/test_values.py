"""How values go into the timeline (engine/trace/values.py) and how the explorer writes them (text.py)."""
import json

import numpy as np

from engine.trace import run
from engine.trace.text import compact, numel, shape_of, short
from engine.trace.values import FULL, Values, record, shortest


def test_small_tensors_are_recorded_exactly():
    a = np.arange(FULL, dtype=np.float32).reshape(4, -1) / 3
    assert np.array_equal(np.array(record(a), dtype=np.float32), a)
    assert record(a.astype(np.float64)) == (a.astype(np.float64)).tolist()
    assert record(np.float32(0.1).reshape(())) == 0.1


def test_float32_values_are_their_shortest_decimals_and_exact_as_float32():
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(100_000) * 10.0 ** rng.integers(-9, 9, 100_000)).astype(np.float32)
    a = np.concatenate([a, np.array([0, -0.0, np.inf, -np.inf, 0.5, 1.00005, 1e-45, 3.4e38], dtype=np.float32)])
    got = shortest(a)
    assert np.array_equal(got.astype(np.float32).view(np.uint32), a.view(np.uint32))
    texts = [repr(v) for v in got[:-2].tolist()]
    assert all(float(t) == v for t, v in zip(texts, got[:-2].tolist()))
    assert _at_most_as_long(texts, a[:-2])
    assert np.isnan(shortest(np.array([np.nan], dtype=np.float32))[0])


def _at_most_as_long(texts, a):
    """Each text has no more significant digits than numpy's shortest float32 text."""
    def digits(t):
        return len(t.lower().split("e")[0].replace("-", "").replace(".", "").strip("0"))
    return all(digits(t) <= digits(str(v)) for t, v in zip(texts, a))


def test_small_float32_lists_are_filled_in_by_flush_and_short():
    values = Values()
    a = np.array([[1 / 3, 2 / 3]], dtype=np.float32)
    listed = values.record(a)
    assert listed == [] and values.unsized >= len(json.dumps(a.tolist()))  # the budget's charge, at most
    values.flush()
    assert listed == [[0.33333334, 0.6666667]]
    low = np.full((4, 4, 4), -1.1754944e-38, dtype=np.float32)  # the longest text a float32 has
    values.unsized = 0
    values.record(low)
    assert values.unsized >= len(json.dumps(low.tolist()))


def test_big_tensors_are_summarised_exactly_enough_to_show():
    a = np.linspace(-3, 3, 2000, dtype=np.float32)
    s = record(a)
    assert s["shape"] == [2000] and s["head"] == [float(f"{v:.7g}") for v in a[:3].tolist()]
    assert (s["min"], s["max"]) == (-3.0, 3.0) and abs(s["mean"]) < 1e-6
    assert abs(s["norm"] - float(np.linalg.norm(a.astype(np.float64)))) < 1e-4
    ints = record(np.arange(100).reshape(10, 10))
    assert ints["min"] == 0 and ints["max"] == 99 and isinstance(ints["head"][0], int)


def test_summaries_read_as_text():
    s = record(np.linspace(-3, 3, 2000, dtype=np.float32))
    assert short(s) == "2000 values [-3.0, -2.997, -2.994, …], mean 0.0 (-3.0 … 3.0)"
    assert compact(s) == "2000 values"
    assert numel(s) == 2000 and shape_of(s) == [2000]


def test_a_loop_over_big_tensors_records_summaries_and_a_small_timeline():
    source = ("import torch\nx = torch.linspace(-1, 1, 5000)\nw = torch.tensor(0.5, requires_grad=True)\n"
              "for i in range(20):\n    loss = ((w * x - x) ** 2).mean()\n    loss.backward()\n"
              "    with torch.no_grad():\n        w -= 0.1 * w.grad\n        w.grad = None\n")
    timeline = run(source)
    assert timeline.error is None
    big = [e for e in timeline.events if e["kind"] == "op" and e["shape"] == [5000]]
    assert big and all(isinstance(e["value"], dict) for e in big)
    assert len(timeline.to_json()) < 400_000
