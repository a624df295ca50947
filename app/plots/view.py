"""Plots: the figures the program drew with matplotlib (`plt.plot(losses)`), drawn with Bokeh as they stand at
the step shown; shown only for a program that draws."""

from __future__ import annotations

import math

import numpy as np
import panel as pn
import param
from bokeh import palettes
from bokeh.models import ColumnDataSource, LinearColorMapper, Span
from bokeh.plotting import figure
from panel.viewable import Viewer

from app.plots.model import Figure, Plotted, grouped
from app.store import Store
from engine.trace import plot_colours

WIDTH, HEIGHT = 300, 210
MARKERS = {"o": "circle", ".": "dot", ",": "dot", "x": "x", "+": "cross", "*": "asterisk", "s": "square",
           "d": "diamond", "D": "diamond", "^": "triangle", "v": "inverted_triangle", "<": "triangle",
           ">": "triangle", "p": "square", "h": "hex", "|": "dash", "_": "dash"}
# matplotlib's colormaps as Bokeh's palettes (low values first).
PALETTES = {"viridis": palettes.Viridis256, "gray": palettes.Greys256, "Greys": palettes.Greys256[::-1],
            "binary": palettes.Greys256[::-1], "magma": palettes.Magma256, "inferno": palettes.Inferno256,
            "plasma": palettes.Plasma256, "cividis": palettes.Cividis256, "turbo": palettes.Turbo256,
            "jet": tuple(plot_colours.jet())}
DASHES = {"-": "solid", "solid": "solid", "--": "dashed", "dashed": "dashed", "-.": "dashdot", "dashdot": "dashdot",
          ":": "dotted", "dotted": "dotted"}


class Plots(Viewer):
    store = param.ClassSelector(class_=Store)
    drawing = param.Boolean(default=False, doc="Whether the program shown drew anything at all.")

    def __init__(self, **params):
        super().__init__(**params)
        self.column = pn.FlexBox(sizing_mode="stretch_width", margin=0)
        self.note = pn.pane.HTML("", margin=(0, 8), styles={"font-size": "11.5px", "color": "#5f6368"})
        self._plotted = None  # (timeline, its Plotted)
        self._drawn = None  # (timeline, drawing calls shown)
        self.store.param.watch(self._update, ["state", "failed"])
        self._update()

    def _update(self, *events):
        timeline = self.store.failed or self.store.timeline
        if timeline is None:
            self.column.objects, self.drawing = [], False
            return
        if self._plotted is None or self._plotted[0] is not timeline:
            self._plotted = (timeline, Plotted(timeline.events))
        plotted = self._plotted[1]
        self.drawing = bool(plotted.steps)
        k = len(timeline.events) - 1 if self.store.failed else self.store.k
        drawn = (timeline, plotted.count(k))
        if drawn == self._drawn:
            return
        self._drawn = drawn
        figures = plotted.figures(k)
        later = len(plotted.steps) - drawn[1]
        more = "more " if drawn[1] else ""
        self.note.object = f"{later} {more}drawing step{'s' if later != 1 else ''} later in the program" \
            if later else ""
        self.column.objects = [_drawn_together(group) for group in grouped(figures)] + ([self.note] if later else [])

    def __panel__(self):
        return self.column


def _drawn_together(group: list[Figure]):
    """A figure, or a grid's subplots in its rows and columns."""
    if group[0].cell is None:
        return pn.pane.Bokeh(bokeh_figure(group[0]), margin=(2, 4))
    columns = group[0].cell[1]
    at = {f.cell[2]: f for f in group}
    return pn.GridBox(*[pn.pane.Bokeh(bokeh_figure(at[i]), margin=(2, 2)) if i in at else pn.Spacer()
                        for i in range(1, max(at) + 1)], ncols=columns, margin=(2, 4))


def bokeh_figure(drawn: Figure):
    columns = drawn.cell[1] if drawn.cell else 1
    width = WIDTH if columns == 1 else WIDTH // 2
    height = HEIGHT if not drawn.aspect else max(140, min(300, round(width / drawn.aspect)))
    first = not drawn.cell or drawn.cell[2] == 1
    title = " · ".join(t for t in (drawn.suptitle if first else "", drawn.title) if t)
    p = figure(width=width, height=height, title=title or None, x_axis_type=drawn.xscale,
               y_axis_type=drawn.yscale, toolbar_location=None, tools="", background_fill_color="white")
    p.xaxis.axis_label, p.yaxis.axis_label = drawn.xlabel or None, drawn.ylabel or None
    if not drawn.grid:
        p.xgrid.grid_line_alpha = p.ygrid.grid_line_alpha = 0.35
    for ticks, axis in ((drawn.xticks, p.xaxis), (drawn.yticks, p.yaxis)):
        if ticks:
            axis.ticker = ticks["at"]
            if ticks["labels"] is not None:
                axis.major_label_overrides = dict(zip(ticks["at"], ticks["labels"]))
            axis.major_label_orientation = math.radians(ticks["rotation"])
    for lim, axis in ((drawn.xlim, p.x_range), (drawn.ylim, p.y_range)):
        if lim:
            if lim[0] is not None:
                axis.start = lim[0]
            if lim[1] is not None:
                axis.end = lim[1]
    for series in drawn.series:
        _draw(p, series, _paint(series), drawn.legend)
    if any(series["kind"] == "image" for series in drawn.series):
        p.y_range.flipped = True  # (row 0 at the top, as matplotlib draws an image)
    if drawn.legend and p.legend:
        p.legend.label_text_font_size, p.legend.location = "10px", "top_right"
        p.legend.background_fill_alpha = 0.7
    return p


def _draw(p, series, color, legend):
    kind = series["kind"]
    label = {"legend_label": series["label"]} if legend and series.get("label") else {}
    alpha = series.get("alpha", 1.0)
    if kind in ("hline", "vline"):
        value = (series["y"] if kind == "hline" else series["x"])[0]
        p.add_layout(Span(location=value, dimension="width" if kind == "hline" else "height", line_color=color,
                          line_dash=DASHES.get(series.get("linestyle", "-"), "solid"), line_alpha=alpha))
        return
    if kind in ("hlines", "vlines"):
        at, low, high = _nan(series["at"]), _nan(series["low"]), _nan(series["high"])
        ends = (low, at, high, at) if kind == "hlines" else (at, low, at, high)
        p.segment(*ends, line_color=color, line_width=series.get("width", 1.5), line_alpha=alpha,
                  line_dash=DASHES.get(series.get("linestyle", "-"), "solid"), **label)
        return
    if kind == "image":
        _image(p, series, alpha)
        return
    x, y = _nan(series["x"]), _nan(series["y"])
    if kind == "text":
        p.text(x, y, text=series["text"], text_color=color,
               text_align={"center": "center", "right": "right"}.get(series.get("ha"), "left"),
               text_baseline={"center": "middle", "top": "top", "bottom": "bottom"}.get(series.get("va"),
                                                                                      "alphabetic"),
               text_font_size=f"{series.get('size', 10):g}px")
        return
    if kind == "line":
        style = series.get("linestyle", "-")
        if style not in ("none", "None", ""):
            p.line(x, y, line_color=color, line_width=series.get("width", 1.5), line_alpha=alpha,
                   line_dash=DASHES.get(style, "solid"), **label)
            label = {}
        if "marker" in series:
            p.scatter(x, y, marker=MARKERS.get(series["marker"], "circle"), size=series.get("size", 6),
                      color=color, alpha=alpha, **label)
    elif kind == "scatter":
        size = series.get("size")
        columns = {"x": x, "y": y}
        if "values" in series:
            columns["values"] = _nan(series["values"])
        elif isinstance(color, list):
            columns["colors"], color = color, "colors"
        points = ColumnDataSource(columns)
        p.scatter("x", "y", source=points, marker=MARKERS.get(series.get("marker", "o"), "circle"),
                  size=math.sqrt(size) if size else 6, color=color, alpha=alpha if "alpha" in series else 0.8,
                  **label)
    elif kind == "hist":
        p.quad(left=x[:-1], right=x[1:], top=y, bottom=0, fill_color=color, line_color="white",
               fill_alpha=alpha if "alpha" in series else 0.85, **label)
    elif kind == "bar":
        p.vbar(x=x, top=y, width=series.get("width", 0.8), fill_color=color, line_color=color, fill_alpha=alpha,
               **label)


def _image(p, series, alpha):
    """An image as matplotlib's imshow draws it: pixel (row, column) centred on (column, row)."""
    height, width = series["shape"]
    z = np.array([[math.nan if v is None else v for v in row] for row in series["z"]], dtype=float) \
        if "cmap" in series else None
    where = {"x": -0.5, "y": -0.5, "dw": width, "dh": height, "global_alpha": alpha}
    if z is not None:
        low, high = series.get("vmin"), series.get("vmax")
        mapper = {"palette": PALETTES[series["cmap"]]} if low is None or high is None or low == high else {
            "color_mapper": LinearColorMapper(palette=PALETTES[series["cmap"]], low=low, high=high)}
        p.image(image=[z], **where, **mapper)
    else:
        rgb = np.array(series["z"], dtype=float)
        if rgb.max(initial=0) > 1:
            rgb = rgb / 255
        rgba = np.concatenate([rgb, np.ones(rgb.shape[:2] + (1,))], axis=2) if rgb.shape[2] == 3 else rgb
        packed = (np.clip(rgba, 0, 1) * 255).astype(np.uint8).view(np.uint32).reshape(height, width)
        p.image_rgba(image=[packed], **where)


def _paint(series):
    """What a series is painted with: its colour (hex, as the engine gives every colour), one per item, or its
    numbers through a colormap."""
    if "values" in series:
        mapper = LinearColorMapper(palette=PALETTES[series["cmap"]], low=series["vmin"], high=series["vmax"])
        return {"field": "values", "transform": mapper}
    return series.get("colors") or series.get("color")


def _nan(values):
    return [math.nan if v is None else v for v in values]
