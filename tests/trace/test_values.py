"""How values go into the timeline (engine/trace/values.py) and how the explorer writes them (text.py)."""
import numpy as np

from engine.trace import run
from engine.trace.text import compact, numel, shape_of, short
from engine.trace.values import FULL, record


def test_small_tensors_are_recorded_exactly():
    a = np.arange(FULL, dtype=np.float32) / 3
    assert record(a) == a.tolist()
    assert record(np.float32(0.1).reshape(())) == float(np.float32(0.1))


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
