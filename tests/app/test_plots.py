"""The Plots card: the figures a program drew with pyplot, as they stand at the step shown (plots_model.py), drawn
with Bokeh (plots.py), and only for a program that draws."""

from bokeh.models import GlyphRenderer, Span

from app import timeline as tl
from app.page import Explorer
from app.player.caption import caption
from app.plots.model import Plotted, describe, figures_of, grouped
from app.plots.view import bokeh_figure
from app.program.links import encode_code

PROGRAM = """import torch
import matplotlib.pyplot as plt

losses = []
for i in range(3):
    losses.append(1.0 / (i + 1))
plt.plot(losses, label="loss")
plt.yscale("log")
plt.legend()
plt.show()
plt.scatter([1, 2], [3, 4], marker="x")
plt.hist([1.0, 2.0, 2.5], bins=2)
plt.axvline(1.5, color="r")
print("done")
"""

IMAGES = """import torch
import matplotlib.pyplot as plt
plt.imshow(torch.tensor([[0.0, 1.0], [2.0, 3.0]]), cmap="gray")
plt.text(0, 0, "low", color="red")
plt.figure()
plt.imshow(torch.ones(2, 3, 3))
"""


def test_figures_fold_the_drawing_calls_up_to_the_step(record):
    timeline = record(PROGRAM)
    plotted = Plotted(timeline.events)
    assert plotted.count(-1) == 0 and plotted.figures(-1) == []
    end = len(timeline.events) - 1
    first, second = plotted.figures(end)
    assert (first.number, first.yscale, first.legend, first.shown) == (1, "log", True, True)
    assert first.series == [{"kind": "line", "x": [0.0, 1.0, 2.0], "y": [1.0, 0.5, 1 / 3], "label": "loss",
                             "color": "#1f77b4"}]
    assert [s["kind"] for s in second.series] == ["scatter", "hist", "vline"] and not second.shown
    line = next(i for i, e in enumerate(timeline.events) if e["kind"] == "plot" and "series" in e)
    [only] = plotted.figures(line)
    assert only.series == first.series and only.yscale == "linear" and not only.legend


def test_legend_labels_closed_and_cleared_figures():
    calls = [{"figure": 1, "opened": True}, {"figure": 1, "series": {"kind": "line", "x": [0], "y": [1]}},
             {"figure": 1, "series": {"kind": "line", "x": [0], "y": [2]}}, {"figure": 1, "legend": ["a"]},
             {"figure": 2, "opened": True}, {"figure": 2, "series": {"kind": "bar", "x": [0], "y": [1]}},
             {"figure": 2, "closed": True}, {"figure": 3, "title": "t"}, {"figure": 3, "cleared": True}]
    [one] = figures_of(calls)
    assert [s.get("label") for s in one.series] == ["a", None] and one.legend


def test_captions_say_what_each_drawing_call_did(record):
    timeline = record(PROGRAM)
    total = len(timeline.events)
    said = [caption(tl.state_at(timeline, i), total) for i, e in enumerate(timeline.events) if e["kind"] == "plot"]
    assert "Line 7: A new plot: plot 1." in said
    assert "Line 7: matplotlib draws a line through 3 points (loss) in plot 1 (see Plots)." in said
    assert "Line 8: plot 1 gets yscale log." in said
    assert ("Line 10: plt.show() shows plot 1 under Plots and closes its figure: what is drawn next starts a new "
            "one.") in said
    assert "Line 12: matplotlib draws a histogram of 2 bins in plot 2 (see Plots)." in said
    assert describe({"figure": 4, "closed": True}) == "plot 4's figure is closed without being shown."
    assert describe({"figure": 5, "opened": True, "cell": [2, 3, 4], "grid": 2}) == (
        "A new plot: plot 5, subplot 4 of a 2×3 grid.")


def test_bokeh_draws_each_kind_of_series(record):
    timeline = record(PROGRAM)
    first, second = Plotted(timeline.events).figures(len(timeline.events) - 1)
    p = bokeh_figure(first)
    glyphs = [r.glyph for r in p.renderers if isinstance(r, GlyphRenderer)]
    assert [type(g).__name__ for g in glyphs] == ["Line"] and p.y_scale.__class__.__name__ == "LogScale"
    assert [item.label.value for item in p.legend[0].items] == ["loss"]
    q = bokeh_figure(second)
    assert [type(r.glyph).__name__ for r in q.renderers] == ["Scatter", "Quad"]
    assert q.renderers[0].glyph.marker == "x"
    assert [(s.location, s.dimension) for s in q.center if isinstance(s, Span)] == [(1.5, "height")]


def test_the_card_shows_only_for_a_program_that_draws_and_follows_the_step():
    drawing = Explorer({"code": encode_code(PROGRAM), "step": "end"})
    assert drawing.plots.drawing and len(drawing.plots.column.objects) == 2
    drawing.store.goto(-1)
    [note] = drawing.plots.column.objects
    assert note.object == "9 drawing steps later in the program"
    line = next(i for i, e in enumerate(drawing.store.timeline.events) if e["kind"] == "plot" and "series" in e)
    drawing.store.goto(line)
    shown = drawing.plots.column.objects
    assert len(shown) == 2 and "later in the program" in shown[-1].object
    plain = Explorer({"code": encode_code("import torch\nx = torch.ones(2, requires_grad=True)\n(x * 2).sum()"
                                          ".backward()\n"), "step": "end"})
    assert not plain.plots.drawing and plain.plots.column.objects == []


def test_images_and_texts_are_drawn_row_0_at_the_top(record):
    timeline = record(IMAGES)
    gray, rgb = Plotted(timeline.events).figures(len(timeline.events) - 1)
    p = bokeh_figure(gray)
    image, text = p.renderers
    assert type(image.glyph).__name__ == "Image" and p.y_range.flipped
    assert image.glyph.color_mapper.palette[0] == "#000000"  # gray: low values black
    assert (image.data_source.data["image"][0] == [[0.0, 1.0], [2.0, 3.0]]).all()
    assert type(text.glyph).__name__ == "Text" and text.data_source.data["text"] == ["low"]
    [pixels] = bokeh_figure(rgb).renderers
    assert type(pixels.glyph).__name__ == "ImageRGBA" and pixels.data_source.data["image"][0].shape == (2, 3)


GRID = """import matplotlib.pyplot as plt
fig, axes = plt.subplots(2, 2)
axes[0, 0].plot([1, 2])
axes[1, 1].bar([1], [2])
axes[0, 1].set_title("empty")
plt.figure()
plt.plot([3, 1])
"""


def test_a_grids_subplots_are_drawn_together_in_its_columns(record):
    timeline = record(GRID)
    figures = Plotted(timeline.events).figures(len(timeline.events) - 1)
    groups = grouped(figures)
    assert [[f.cell for f in group] for group in groups] == [[[2, 2, 1], [2, 2, 2], [2, 2, 4]], [None]]
    explorer = Explorer({"code": encode_code(GRID), "step": "end"})
    grid, alone = explorer.plots.column.objects
    assert grid.ncols == 2 and [type(o).__name__ for o in grid.objects] == ["Bokeh", "Bokeh", "Spacer", "Bokeh"]
    assert type(alone).__name__ == "Bokeh"


COLOURED = """import matplotlib.pyplot as plt
plt.scatter([1, 2, 3], [3, 1, 2], c=[0.0, 1.0, 2.0], cmap="jet")
plt.scatter([1, 2], [1, 2], c=["r", (0, 0, 1, 0.5)])
plt.bar([1, 2, 3], [2, 3, 1], color=["C1", "k"])
plt.hlines([1, 2], 0, 1, colors="tab:green")
"""


def test_colours_per_item_and_through_a_colormap(record):
    timeline = record(COLOURED)
    (drawn,) = Plotted(timeline.events).figures(len(timeline.events) - 1)
    mapped, painted, bars, lines = bokeh_figure(drawn).renderers
    mapper = mapped.glyph.fill_color.transform
    assert mapped.data_source.data["values"] == [0.0, 1.0, 2.0] and (mapper.low, mapper.high) == (0.0, 2.0)
    assert mapper.palette[0] == "#000080" and len(mapper.palette) == 256  # matplotlib's jet, dark blue first
    assert painted.data_source.data["colors"] == ["#ff0000", "#0000ff80"] and painted.glyph.fill_color == "colors"
    assert list(bars.data_source.data["fill_color"]) == ["#ff7f0e", "#000000", "#ff7f0e"]
    assert lines.glyph.line_color == "#2ca02c"
