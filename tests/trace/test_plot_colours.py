"""Colours in a program's pyplot (engine/trace/plot_colours.py) as real matplotlib takes them: every form it
accepts as the hex text its to_hex gives, what it refuses refused; colours per point or per bar, and numbers
through a colormap, as matplotlib paints them."""
from __future__ import annotations

import numpy as np
import pytest

from engine.trace import run as trace
from engine.trace.plot_colours import CSS4, jet, to_hex

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import to_hex as real_to_hex  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

COLOURS = ["red", "Red", "RED", "darkgrey", "tab:grey", "tab:Blue", "C0", "C12", "C01", "#f00", "#F00A", "#00ff00",
           "#00ff0080", "0", "1", "0.5", ".3", "1e-1", "none", "None", "b", "g", "c", "m", "y", "k", "w",
           (1, 0, 0), (0.1, 0.2, 0.3, 0.4), [0, 0, 1], (True, 0, 0), ("C1", 0.25), ("red", 0.5),
           # refused by matplotlib:
           "bluee", "#ff000", "#ff0000f", "1.5", "-0.1", "nan", "inf", " red", "B", "C", "tab:", "tab:bluee",
           (1.2, 0, 0), (1, 0), ("red", 2), (0, 0, 0, 0, 0), "", 5, None]


def _matplotlibs(value):
    try:
        rgba = to_rgba(value)
    except (ValueError, TypeError):
        return None
    return real_to_hex(rgba, keep_alpha=rgba[3] < 1)


@pytest.mark.parametrize("value", COLOURS, ids=repr)
def test_a_colour_is_what_matplotlib_makes_of_it(value):
    assert to_hex(value) == _matplotlibs(value)


def test_the_css_names_are_matplotlibs():
    assert CSS4 == {name: value.lower() for name, value in matplotlib.colors.CSS4_COLORS.items()}


def test_jet_is_matplotlibs_lookup_table():
    assert jet() == [real_to_hex(c) for c in matplotlib.colormaps["jet"](np.linspace(0, 1, 256))]


PER_ITEM = """import matplotlib.pyplot as plt
plt.scatter([1, 2, 3], [3, 1, 2], c=["r", "C1", (0, 0, 1, 0.5)])
plt.scatter([1, 2, 3], [3, 1, 2], c=[[1, 0, 0], [0, 1, 0], [0, 0, 1]])
plt.scatter([1, 2, 3], [3, 1, 2], color=["k", "w", "y"])
plt.bar([1, 2, 3], [2, 3, 1], color=["r", "g"])
plt.hlines([1, 2], 0, 1, colors=["C1", "0.5"])
"""
MAPPED = """import matplotlib.pyplot as plt
plt.scatter([1, 2, 3, 4], [3, 1, 2, 0], c=[0.0, 2.0, 1.0, 5.0])
plt.scatter([1, 2, 3], [3, 1, 2], c=[1, 2, 3], cmap="jet", vmin=0)
plt.scatter([1, 2], [3, 1], c=[[7], [8]], cmap="gray", vmax=10)
"""


def _run(source):
    timeline = trace(source)
    assert timeline.error is None, timeline.error
    return [e["series"] for e in timeline.events if e["kind"] == "plot" and "series" in e]


def _real_figure(source):
    plt.close("all")
    exec(source.replace("import matplotlib.pyplot as plt\n", ""), {"plt": plt})
    ax = plt.gca()
    return ax, list(ax.collections), [list(c) for c in ax.containers]


def test_a_colour_per_point_and_per_bar_as_matplotlib_paints_them():
    ours = _run(PER_ITEM)
    ax, collections, containers = _real_figure(PER_ITEM)
    scatters = [c for c in collections if c.__class__.__name__ == "PathCollection"]
    for series, real in zip(ours[:3], scatters):
        assert series["colors"] == [real_to_hex(c, keep_alpha=c[3] < 1) for c in real.get_facecolors()]
    assert ours[3]["colors"] == [real_to_hex(r.get_facecolor()) for r in containers[0]]
    segments = [c for c in collections if c.__class__.__name__ == "LineCollection"][0]
    assert ours[4]["colors"] == [real_to_hex(c) for c in segments.get_colors()]
    plt.close("all")


def test_numbers_through_a_colormap_as_matplotlib_maps_them():
    ours = _run(MAPPED)
    _, collections, _ = _real_figure(MAPPED)
    for series, real in zip(ours, collections):
        assert series["values"] == [float(v) for v in np.ravel(real.get_array())]
        assert (series["cmap"], series["vmin"], series["vmax"]) == (real.get_cmap().name, *real.get_clim())
    plt.close("all")
