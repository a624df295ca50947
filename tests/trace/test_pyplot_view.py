"""`import matplotlib.pyplot as plt` in a program (engine/trace/plot_view.py): each drawing call becomes a `plot`
event with what it drew as numbers, checked and sized as matplotlib takes it; what the explorer cannot draw is
refused at its line, and a program's errors read as matplotlib's and torch's."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.trace import run as trace
from engine.trace.plot_view import MAX_POINTS
from engine.trace.timeline import Timeline


def plots(source):
    timeline = trace(source)
    return timeline, [{k: v for k, v in e.items() if k != "kind"} for e in timeline.events if e["kind"] == "plot"]


def test_a_loss_curve_is_recorded_with_its_labels_and_shown():
    timeline, drawn = plots("""import torch
import matplotlib.pyplot as plt
losses = [1.0 / (i + 1) for i in range(4)]
plt.plot(losses, 'r--', label="loss")
plt.title("Training")
plt.xlabel("epoch")
plt.yscale("log")
plt.legend()
plt.show()
plt.plot([1, 2])
""")
    assert timeline.error is None
    assert drawn == [
        {"line": 4, "figure": 1, "opened": True},
        {"line": 4, "figure": 1, "series": {"kind": "line", "x": [0.0, 1.0, 2.0, 3.0], "y": [1.0, 0.5, 1 / 3, 0.25],
                                            "linestyle": "--", "color": "red", "label": "loss"}},
        {"line": 5, "figure": 1, "title": "Training"},
        {"line": 6, "figure": 1, "xlabel": "epoch"},
        {"line": 7, "figure": 1, "yscale": "log"},
        {"line": 8, "figure": 1, "legend": True},
        {"line": 9, "figure": 1, "shown": True},
        {"line": 10, "figure": 2, "opened": True},  # show() closed figure 1: the next call opens another
        {"line": 10, "figure": 2, "series": {"kind": "line", "x": [0.0, 1.0], "y": [1.0, 2.0]}},
    ]


def test_tensors_axes_and_the_other_drawing_calls():
    timeline, drawn = plots("""import torch
from matplotlib import pyplot as plt
torch.manual_seed(0)
x = torch.linspace(-1, 1, 5).unsqueeze(1)
fig, ax = plt.subplots(figsize=(6, 3))
ax.scatter(x, 2 * x, label="data", s=16)
ax.plot(x, torch.cat([x, -x], 1), "o")
ax.set_title("two columns")
values = torch.randn(50)
counts, edges, bars = plt.hist(values, bins=4)
print(counts.tolist(), len(edges))
plt.bar([0, 1, 2], [3, 1, 2])
plt.axhline(0.5, color="k", linestyle=":")
plt.legend(["a", "b"])
""")
    assert timeline.error is None
    series = [e["series"] for e in drawn if "series" in e]
    xs = [-1.0, -0.5, 0.0, 0.5, 1.0]
    assert drawn[0] == {"line": 5, "figure": 1, "opened": True, "aspect": 2.0}
    assert series[0] == {"kind": "scatter", "x": xs, "y": [2 * v for v in xs], "label": "data", "size": 16.0}
    assert series[1] == {"kind": "line", "x": xs, "y": xs, "marker": "o", "linestyle": "none"}
    assert series[2] == {"kind": "line", "x": xs, "y": [-v for v in xs], "marker": "o", "linestyle": "none"}
    from engine import manual_seed, randn
    manual_seed(0)  # (linspace draws nothing: the same numbers as the program's randn(50))
    counts, edges = np.histogram(randn(50).numpy(), bins=4)
    assert series[3] == {"kind": "hist", "x": edges.tolist(), "y": counts.astype(float).tolist()}
    assert timeline.output == f"{counts.astype(float).tolist()} 5\n"
    assert series[4] == {"kind": "bar", "x": [0.0, 1.0, 2.0], "y": [3.0, 1.0, 2.0], "width": 0.8}
    assert series[5] == {"kind": "hline", "y": [0.5], "color": "black", "linestyle": ":"}
    assert drawn[-1]["legend"] == ["a", "b"]


def test_a_tensor_that_requires_grad_is_refused_as_torch_refuses_it():
    timeline = trace("import torch\nimport matplotlib.pyplot as plt\nw = torch.ones(3, requires_grad=True)\n"
                     "plt.plot(w * 2)\n")
    assert (timeline.error["type"], timeline.error["line"]) == ("RuntimeError", 4)
    assert timeline.error["message"] == ("Can't call numpy() on Tensor that requires grad. "
                                         "Use tensor.detach().numpy() instead.")


@pytest.mark.parametrize("call,kind,message", [
    ("plt.plot([1, 2, 3], [1, 2])", "ValueError",
     "x and y must have same first dimension, but have shapes (3,) and (2,)"),
    ("plt.plot([1, 2], 'q')", "ValueError", "'q' is not a valid format string (unrecognized character 'q')"),
    ("plt.yscale('cubic')", "ValueError",
     "'cubic' is not a valid value for scale; supported values are 'linear', 'log', 'symlog', 'logit'"),
    ("plt.plot([1, 2], zorder=3)", "TypeError", "the explorer does not draw the keyword 'zorder'"),
    ("plt.imshow([[1, 2], [3, 4]])", "GuardError", "plt.imshow() is not drawn in the explorer"),
    ("plt.savefig('loss.png')", "GuardError", "plt.savefig() is not drawn in the explorer"),
    ("plt.subplots(2, 2)", "GuardError", "a grid of subplots is not drawn in the explorer"),
    (f"plt.plot(list(range({MAX_POINTS + 1})))", "GuardError",
     f"{MAX_POINTS + 1:,} points in one drawing call are more than the explorer draws"),
    ("plt.scatter([[0] * 1000] * 101, [[0] * 1000] * 101)", "GuardError",
     "101,000 points in one drawing call are more than the explorer draws"),
    ("plt.title('x' * 501)", "GuardError", "longer than 500 characters"),
])
def test_what_cannot_be_drawn_stops_at_its_line_with_a_clear_message(call, kind, message):
    timeline = trace(f"import matplotlib.pyplot as plt\nprint('before')\n{call}\nprint('after')\n")
    assert timeline.output == "before\n"
    assert (timeline.error["type"], timeline.error["line"]) == (kind, 3)
    assert message in timeline.error["message"]


def test_numbers_json_cannot_hold_become_null_and_the_timeline_round_trips():
    timeline, drawn = plots("import math\nimport matplotlib.pyplot as plt\nplt.plot([1.0, math.nan, math.inf])\n")
    assert drawn[1]["series"]["y"] == [1.0, None, None]
    text = timeline.to_json()
    json.loads(text)  # strict JSON: no NaN or Infinity tokens
    assert Timeline.from_json(text).events == timeline.events


def test_figures_close_and_reopen_by_number():
    _, drawn = plots("""import matplotlib.pyplot as plt
plt.figure(1)
plt.plot([1, 2])
plt.figure(2)
plt.plot([3, 4])
plt.figure(1)
plt.title("first")
plt.close(2)
plt.close("all")
""")
    assert [(e["line"], e["figure"], [k for k in e if k not in ("line", "figure")]) for e in drawn] == [
        (2, 1, ["opened"]), (3, 1, ["series"]), (4, 2, ["opened"]), (5, 2, ["series"]), (7, 1, ["title"]),
        (8, 2, ["closed"]), (9, 1, ["closed"])]


def test_the_pyplot_a_program_sees_is_its_own_and_read_only():
    timeline = trace("import matplotlib.pyplot as plt\nplt.plot = print\n")
    assert timeline.error["message"] == "setting attributes of module objects is not allowed"
    timeline = trace("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax._pyplot\n")
    assert (timeline.error["type"], timeline.error["line"]) == ("GuardError", 3)
    first = trace("import matplotlib.pyplot as plt\nplt.plot([1])\n")
    second = trace("import matplotlib.pyplot as plt\nplt.title('t')\n")
    assert [e["figure"] for e in second.events if e["kind"] == "plot"] == [1, 1]  # not figure 1 of the first run
    assert first.error is None and second.error is None
