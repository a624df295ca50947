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
from tests.corpus.corpus import PROGRAMS


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
                                            "linestyle": "--", "color": "#ff0000", "label": "loss"}},
        {"line": 5, "figure": 1, "title": "Training"},
        {"line": 6, "figure": 1, "xlabel": "epoch"},
        {"line": 7, "figure": 1, "yscale": "log"},
        {"line": 8, "figure": 1, "legend": True},
        {"line": 9, "figure": 1, "shown": True},
        {"line": 10, "figure": 2, "opened": True},  # show() closed figure 1: the next call opens another
        {"line": 10, "figure": 2, "series": {"kind": "line", "x": [0.0, 1.0], "y": [1.0, 2.0], "color": "#1f77b4"}},
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
    assert series[0] == {"kind": "scatter", "x": xs, "y": [2 * v for v in xs], "label": "data", "size": 16.0,
                         "color": "#1f77b4"}
    assert series[1] == {"kind": "line", "x": xs, "y": xs, "marker": "o", "linestyle": "none", "color": "#1f77b4"}
    assert series[2] == {"kind": "line", "x": xs, "y": [-v for v in xs], "marker": "o", "linestyle": "none",
                         "color": "#ff7f0e"}
    from engine import manual_seed, randn
    manual_seed(0)  # (linspace draws nothing: the same numbers as the program's randn(50))
    counts, edges = np.histogram(randn(50).numpy(), bins=4)
    assert series[3] == {"kind": "hist", "x": edges.tolist(), "y": counts.astype(float).tolist(), "color": "#2ca02c"}
    assert timeline.output == f"{counts.astype(float).tolist()} 5\n"
    assert series[4] == {"kind": "bar", "x": [0.0, 1.0, 2.0], "y": [3.0, 1.0, 2.0], "width": 0.8, "color": "#ff7f0e"}
    assert series[5] == {"kind": "hline", "y": [0.5], "color": "#000000", "linestyle": ":"}
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
    ("plt.yscale('cubic')", "ValueError", "'cubic' is not a valid value for scale."),
    ("plt.plot([1, 2], foo=3)", "AttributeError", "Line2D.set() got an unexpected keyword argument 'foo'"),
    ("plt.hist([1, 2], cumulative=True)", "GuardError", "the explorer does not draw cumulative="),
    ("plt.matshow([[1, 2], [3, 4]])", "GuardError", "plt.matshow() is not drawn in the explorer"),
    ("plt.imshow([[1, 2]], cmap='coolwarm')", "GuardError", "the colormap 'coolwarm' is not drawn"),
    ("plt.imshow([1, 2])", "TypeError", "Invalid shape (2,) for image data"),
    ("plt.savefig('loss.png')", "GuardError", "plt.savefig() is not drawn in the explorer"),
    ("plt.subplots(subplot_kw={'projection': '3d'})", "GuardError", "a '3d' projection is not drawn"),
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
        (3, 1, ["opened"]), (3, 1, ["series"]), (5, 2, ["opened"]), (5, 2, ["series"]), (7, 1, ["title"]),
        (8, 2, ["closed"]), (9, 1, ["closed"])]  # (a figure has no axes, and no plot, until something is drawn)


def test_the_pyplot_a_program_sees_is_its_own_and_read_only():
    timeline = trace("import matplotlib.pyplot as plt\nplt.plot = print\n")
    assert timeline.error["message"] == "setting attributes of module objects is not allowed"
    timeline = trace("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax._pyplot\n")
    assert (timeline.error["type"], timeline.error["line"]) == ("GuardError", 3)
    first = trace("import matplotlib.pyplot as plt\nplt.plot([1])\n")
    second = trace("import matplotlib.pyplot as plt\nplt.title('t')\n")
    assert [e["figure"] for e in second.events if e["kind"] == "plot"] == [1, 1]  # not figure 1 of the first run
    assert first.error is None and second.error is None


# --- against real matplotlib (the oracle's; Agg: nothing is shown) -----------------------------------------

AGAINST_MATPLOTLIB = {
    "line_recoloured": """function_line, = plt.plot([1, 2, 3], [1, 4, 9], label='Function')
function_line.set_color("red")
derivative_line, = plt.plot([1, 2, 3], [2, 4, 6], label='Derivative')
derivative_line.set_color((0.0, 0.5, 0.0))
plt.legend()
""",
    "loss_curve": """losses = [2.0 / (i + 1) for i in range(6)]
plt.plot(losses, label="train")
plt.plot([0.5 * v for v in losses], "r--", label="val")
plt.title("Loss")
plt.xlabel("epoch")
plt.ylabel("MSE")
plt.yscale("log")
plt.legend()
""",
    "tensors_and_colour_cycles": """torch.manual_seed(0)
x = torch.linspace(-2, 2, 9)
w = torch.randn(9, requires_grad=True)
y = (w * x).sum()
y.backward()
fig, ax = plt.subplots(figsize=(5, 3))
ax.plot(x, x ** 2)
ax.hist(torch.randn(200), bins=7)
ax.scatter(x.numpy(), w.grad, marker="x")
ax.plot(x, torch.stack([x, -x], 1), "o-")
ax.bar([1, 2, 3], torch.tensor([3.0, 1.0, 2.0]), width=0.5)
ax.plot(x, x, color="C4", lw=3, ls=":")
ax.axhline(0.5, color="k")
ax.set_xlim(-3, 3)
""",
    "two_figures": """plt.figure()
plt.plot([3, 1, 2], "g^")
plt.figure(figsize=(4, 4))
plt.hist([0.1, 0.2, 0.2, 0.9], bins=[0, 0.5, 1], color="tab:purple", alpha=0.5)
plt.grid(True)
""",
    "images_and_texts": """torch.manual_seed(0)
h = torch.randn(8, 12).tanh()
plt.figure(figsize=(6, 3))
plt.imshow(h.abs() > 0.9, cmap="gray", interpolation="nearest")
plt.figure()
plt.imshow(h, vmin=-0.5)
C = torch.randn(5, 2)
plt.figure(figsize=(4, 4))
plt.scatter(C[:, 0].data, C[:, 1].data, s=200)
for i in range(C.shape[0]):
    plt.text(C[i, 0].item(), C[i, 1].item(), "abcde"[i], ha="center", va="center", color="white")
plt.grid("minor")
plt.figure()
plt.imshow(torch.rand(3, 4, 3))
""",
    "subplots_grid": """torch.manual_seed(0)
x = torch.linspace(-3, 3, 50)
fig, axes = plt.subplots(2, 2, figsize=(8, 6))
for ax, f in zip(axes.flat, [torch.relu, torch.sigmoid, torch.tanh]):
    ax.plot(x, f(x))
    ax.set_title(f.__name__)
axes[1, 1].hist(torch.randn(100), bins=5)
axes[1][1].set_xlabel("value")
fig.suptitle("activations")
plt.figure()
plt.subplot(1, 2, 1)
plt.plot([1, 2, 3])
plt.subplot(122)
plt.scatter([1, 2], [2, 1])
plt.subplot(1, 2, 1)
plt.title("back to the first")
""",
    "colours": """plt.plot([1, 2], color="Red")
plt.plot([2, 1], c="#0f0")
plt.plot([1, 3], color="0.25")
plt.plot([3, 1], color=(0.1, 0.2, 0.3))
plt.plot([0, 1], color="C12")
plt.plot([1, 0], "C3--")
plt.plot([2, 2], "tab:olive")
plt.plot([0, 2], "c:")
plt.plot([2, 0], "m")
plt.plot([1, 1], "y.")
plt.plot([0, 0], color="tab:grey")
plt.scatter([1, 2], [2, 1], c="darkgrey")
plt.bar([1, 2], [2, 3], color=(0.5, 0.25, 0.75))
plt.hist([0.1, 0.3], color="k")
plt.text(0, 0, "a", color=("C2", 0.5))
""",
    "gradient_flow": """torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 8), torch.nn.Tanh(),
                            torch.nn.Linear(8, 1))
loss = model(torch.randn(16, 4)).pow(2).mean()
loss.backward()
names, means = [], []
for name, p in model.named_parameters():
    if "bias" not in name:
        names.append(name)
        means.append(p.grad.abs().mean().item())
plt.plot(means, alpha=0.3, color="b")
plt.hlines(0, 0, len(means) + 1, lw=2, color="k")
plt.vlines([0.5, 1.5], 0, [0.1, 0.2])
plt.xticks(range(0, len(means), 1), names, rotation="vertical")
plt.yticks([0, 0.1, 0.2])
plt.xlim(xmin=0, xmax=len(means))
plt.xlabel("Layers")
plt.title("Gradient flow")
plt.grid(True)
""",
}


def _real(source):
    """The figures real matplotlib draws for source: per figure its labels and (kind, x, y, colour, label)."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import torch
    from matplotlib.collections import LineCollection
    from matplotlib.colors import to_hex
    from matplotlib.ticker import FixedLocator

    plt.close("all")
    out = []

    def show(*args, **kwargs):  # as a window closed (or a notebook cell shown): the next plot is a new figure
        out.extend(_drawn(plt, LineCollection, to_hex, FixedLocator))
        plt.close("all")

    real_show, plt.show = plt.show, show
    try:
        exec(source, {"plt": plt, "torch": torch})
    finally:
        plt.show = real_show
    out.extend(_drawn(plt, LineCollection, to_hex, FixedLocator))
    plt.close("all")
    return out


def _drawn(plt, LineCollection, to_hex, FixedLocator):  # noqa: N803 - matplotlib's class names
    out = []
    for ax in (ax for number in plt.get_fignums() for ax in plt.figure(number).axes):
        series = [("line", list(line.get_xdata()), list(line.get_ydata()), to_hex(line.get_color()),
                   line.get_label()) for line in ax.lines]
        for c in ax.collections:
            if isinstance(c, LineCollection):
                ends = [list(np.asarray(segment).ravel()) for segment in c.get_segments()]
                series.append(("segments", ends, [], to_hex(c.get_color()[0]), c.get_label()))
            else:
                series.append(("scatter", list(c.get_offsets()[:, 0]), list(c.get_offsets()[:, 1]),
                               to_hex(c.get_facecolor()[0]), c.get_label()))
        for bars in ax.containers:
            rects = list(bars)
            series.append(("bars", [r.get_x() for r in rects], [r.get_height() for r in rects],
                           to_hex(rects[0].get_facecolor(), keep_alpha=False), bars.get_label()))
        for image in ax.images:
            array = np.ma.getdata(image.get_array()).astype(float)
            series.append(("image", array.tolist(), list(image.get_clim()) if array.ndim == 2 else [],
                           image.get_cmap().name if array.ndim == 2 else "", None))
        for text in ax.texts:
            series.append(("text", [text.get_position()[0]], [text.get_position()[1]], to_hex(text.get_color()),
                           text.get_text()))
        ticks = {}
        for axis, labels in (("x", ax.get_xticklabels()), ("y", ax.get_yticklabels())):
            locator = getattr(ax, f"{axis}axis").get_major_locator()
            if isinstance(locator, FixedLocator):
                ticks[f"{axis}ticks"] = {"at": [float(v) for v in locator.locs],
                                         "labels": [t.get_text() for t in labels],
                                         "rotation": labels[0].get_rotation() if labels else 0.0}
        out.append({"title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
                    "yscale": ax.get_yscale(), "series": series,
                    "xlim": list(ax.get_xlim()) if ax.get_autoscalex_on() is False else None, **ticks})
    return out


def _ours(source):
    """The same, from the plot events of the explorer's run."""
    from matplotlib.colors import to_hex

    timeline = trace("import torch\nimport matplotlib.pyplot as plt\n" + source)
    assert timeline.error is None, timeline.error
    figures = {}
    for e in (e for e in timeline.events if e["kind"] == "plot"):
        figure = figures.setdefault(e["figure"], {"title": "", "xlabel": "", "ylabel": "", "yscale": "linear",
                                                  "series": [], "xlim": None})
        figure.update({k: e[k] for k in ("title", "xlabel", "ylabel", "yscale", "xlim", "xticks", "yticks")
                       if k in e})
        if "series" in e:
            figure["series"].append(e["series"])
    out = []
    for figure in figures.values():
        lines, dots, bars, images, texts = [], [], [], [], []
        for s in figure["series"]:
            colour, label = to_hex(s.get("color", "none")), s.get("label")
            if s["kind"] == "line":
                lines.append(("line", s["x"], s["y"], colour, label))
            elif s["kind"] == "hline":
                lines.append(("line", [0.0, 1.0], s["y"] * 2, colour, label))
            elif s["kind"] in ("hlines", "vlines"):
                ends = [[low, at, high, at] if s["kind"] == "hlines" else [at, low, at, high]
                        for at, low, high in zip(s["at"], s["low"], s["high"])]
                dots.append(("segments", ends, [], colour, label))
            elif s["kind"] == "image":
                images.append(("image", s["z"], [s["vmin"], s["vmax"]] if "cmap" in s else [], s.get("cmap", ""),
                               None))
            elif s["kind"] == "text":
                texts.append(("text", s["x"], s["y"], colour, s["text"][0]))
            elif s["kind"] == "scatter":
                dots.append(("scatter", s["x"], s["y"], colour, label))
            elif s["kind"] == "hist":
                bars.append(("bars", s["x"][:-1], s["y"], colour, label))
            elif s["kind"] == "bar":
                bars.append(("bars", [x - s["width"] / 2 for x in s["x"]], s["y"], colour, label))
        out.append({**figure, "series": lines + dots + bars + images + texts})
    return out


# and the corpus programs that draw (tests/corpus/programs), whose training loops may drift by float32 ulps
DRAWING_CORPUS = {slug: source for slug, source in PROGRAMS.items() if "import matplotlib" in source}
AGAINST_MATPLOTLIB.update(DRAWING_CORPUS)


@pytest.mark.parametrize("name", sorted(AGAINST_MATPLOTLIB))
def test_the_figures_are_those_real_matplotlib_draws(name):
    real, ours = _real(AGAINST_MATPLOTLIB[name]), _ours(AGAINST_MATPLOTLIB[name])
    rtol = 1e-4 if name in DRAWING_CORPUS else 1e-6
    assert len(real) == len(ours)
    for theirs, mine in zip(real, ours):
        for key in ("xticks", "yticks"):
            if key in mine and mine[key]["labels"] is None:  # (matplotlib's own labels: numbers it formats)
                theirs[key]["labels"] = None
        assert {k: v for k, v in mine.items() if k != "series"} == {k: v for k, v in theirs.items() if k != "series"}
        assert len(mine["series"]) == len(theirs["series"])
        for (kind, x, y, colour, label), (kind2, x2, y2, colour2, label2) in zip(mine["series"], theirs["series"]):
            assert (kind, colour) == (kind2, colour2)
            assert label == label2 or (label is None and label2.startswith("_")), (label, label2)
            if kind == "image":  # (the pixels, the colour limits, the colormap's name)
                np.testing.assert_allclose(np.asarray(x, dtype=float), np.asarray(x2, dtype=float), rtol=1e-6)
                assert y == [float(v) for v in y2]
                continue
            np.testing.assert_allclose(np.asarray(x, dtype=float), np.asarray(x2, dtype=float), rtol=rtol)
            np.testing.assert_allclose(np.asarray(y, dtype=float), np.asarray(y2, dtype=float), rtol=rtol)


@pytest.mark.parametrize("call", [
    "plt.plot([1, 2, 3], [1, 2])", "plt.plot([1, 2], 'q')", "plt.yscale('cubic')", "plt.plot([1, 2], foo=3)",
    "plt.scatter([1, 2], [1, 2, 3])", "plt.plot([[[1]]])", "plt.plot([[1, 2], [3, 4]], [[1, 2, 3], [4, 5, 6]])",
    "plt.plot([1, 2], ls='x')", "plt.plot(torch.ones(3, requires_grad=True))",
    "print(plt.hist([1.0, 2.0, 2.5], bins=2)[:2], plt.bar([1, 2], [3, 4]), plt.figure(), plt.gca())",
    "print(plt.xticks([0, 1], ['a', 'b'])[1])", "print(plt.yticks([2.5])[1])", "print(plt.xticks(range(3))[1])",
    "print(plt.xticks(torch.tensor([-1, 0, 0.25]))[1])",
    "plt.xticks([0, 1], ['a'])", "print(plt.imshow([[1, 2]]), plt.text(1, 2, 'a'), plt.imshow(torch.zeros(2, 2, 3)))",
    "plt.imshow(torch.zeros(2, 2, 2))",
    "print(plt.subplots(2, 3)[1].shape, plt.subplots(1, 2, squeeze=False)[1].shape)",
    "fig, axes = plt.subplots(1, 2)\naxes[0].set_title('T')\nprint(axes, str(axes[1]), repr(fig), fig)",
    "print(plt.subplots(2, 2)[1], plt.subplot(2, 2, 3), plt.gcf().get_axes())", "plt.subplot(2, 2, 5)",
    "ax = plt.subplot(2, 2, 3)\nprint(plt.subplot(223) is ax, plt.subplots(3, 1)[1][2])",
    # colours matplotlib refuses, in the words of each call
    "plt.plot([1, 2], color='bluee')", "plt.plot([1, 2], c='#ff000')", "plt.plot([1, 2], color=('red', 2))",
    "plt.axhline(0, color='1.5')", "plt.text(0, 0, 'a', color=(1.2, 0, 0))", "plt.hist([1.0], color='bluee')",
    "plt.bar([1], [2], color='bluee')", "plt.bar([1, 2], [2, 3], color=['r', 'bluee'])",
    "plt.scatter([1], [2], c='bluee')", "plt.scatter([1, 2], [2, 3], c=['r', 'bluee'])",
    "plt.scatter([1], [2], color='bluee')", "plt.scatter([1, 2, 3], [1, 2, 3], c=[1, 2])",
    "plt.scatter([1], [2], c='r', color='r')", "plt.hlines(0, 0, 1, colors='bluee')", "plt.plot([1, 2], 'Cx')",
    "line, = plt.plot([1, 2])\nprint(line.set_color('g'))", "line, = plt.plot([1, 2])\nline.set_color('bluee')",
])
def test_errors_and_printed_text_are_real_matplotlibs(call):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import io
    from contextlib import redirect_stdout

    import matplotlib.pyplot as plt
    import torch

    plt.close("all")
    printed = io.StringIO()
    try:
        with redirect_stdout(printed):
            exec(call, {"plt": plt, "torch": torch})
        expected = None
    except Exception as e:  # noqa: BLE001 - the error matplotlib raises is the truth
        expected = (type(e).__name__, str(e))
    plt.close("all")
    timeline = trace("import torch\nimport matplotlib.pyplot as plt\n" + call + "\n")
    got = None if timeline.error is None else (timeline.error["type"], timeline.error["message"])
    assert got == expected
    assert timeline.output == printed.getvalue()


def test_figure_numbers_as_matplotlib_gives_them_and_events_that_never_reuse_one():
    _, drawn = plots("""import matplotlib.pyplot as plt
plt.plot([1])
plt.show()
fig = plt.figure()
print(plt.figure(1) is not None)
plt.figure(7)
plt.plot([2])
plt.close(1)
plt.figure(7)
plt.title("seven")
""")
    assert [(e["figure"], [k for k in e if k not in ("line", "figure")]) for e in drawn] == [
        (1, ["opened"]), (1, ["series"]), (1, ["shown"]),  # figure 1, shown and closed
        # plt.figure(): matplotlib's figure 1 again, without axes; plt.figure(7) draws the events' plot 2
        (2, ["opened"]), (2, ["series"]), (2, ["title"])]
