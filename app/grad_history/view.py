"""GradHistory: each leaf's .grad after every backward call (zero_/None marked), and the loss per call."""

from __future__ import annotations

from html import escape

import panel as pn
import param
from bokeh.models import BasicTicker, BoxAnnotation, ColumnDataSource, FixedTicker, HoverTool, Span
from bokeh.plotting import figure
from panel.viewable import Viewer

from app.grad_history.model import FUTURE_ALPHA, History, faint_rows, future_from
from app.serving import batch
from app.store import Store
from app.widgets.html_box import HtmlBox
from engine.trace.text import short

MAX_LEGEND = 6


class GradHistory(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        h = History()
        self.veils = []  # over the points after step k, on each figure
        self.lines = ColumnDataSource(data=h.lines)
        self.points = ColumnDataSource(data=h.points)
        self.loss = ColumnDataSource(data=h.loss)
        # The points at x = now that step k has not reached (history_model.faint_rows), each under a cover
        # of the background on the overlay layer, as the veil covers the future: a step then repaints the
        # overlay alone, not a training loop's thousands of points.
        self.points_faint = ColumnDataSource(data=_covers(h.points, []))
        self.loss_faint = ColumnDataSource(data=_covers(h.loss, []))
        self.now = _now_line()
        self.loss_now = _now_line()
        self.grad_fig = self._grad_figure()
        # The loss figure is made the first time a program's loss has more than two points (a loop): most programs
        # never show it, and a page that does not builds and sends ~45 Bokeh models fewer.
        self.loss_fig = None
        self.empty = pn.pane.HTML("<div style='color:#666;font-size:12.5px'>No backward call yet: the "
                                  "history fills in as backward() runs.</div>", visible=False)
        self.grad_pane = pn.pane.Bokeh(self.grad_fig, sizing_mode="stretch_both")
        self.loss_box = pn.Column(sizing_mode="stretch_both", margin=0, visible=False)
        self.current = HtmlBox(css=_CSS, margin=(0, 8), height=40, sizing_mode="stretch_width")
        self.store.param.watch(self._on_history, "history")
        self.store.param.watch(self._on_state, "state")
        if self.store.history is not None:
            self._on_history()

    def _grad_figure(self):
        p = figure(tools="pan,wheel_zoom,reset", toolbar_location=None, sizing_mode="stretch_both",
                   min_border=6, x_axis_label="backward call", y_axis_label=".grad")
        p.multi_line("xs", "ys", source=self.lines, line_color="colour", line_width=2, line_alpha=0.45,
                     legend_field="name")
        r = p.scatter("x", "y", source=self.points, marker="marker", size=9, fill_color="colour",
                      line_color="colour")
        p.add_tools(HoverTool(renderers=[r], tooltips=[("", "@name = @text")]))
        _cover(p, self.points_faint, size=9)
        p.add_layout(self.now)
        legend = p.legend[0]
        p.add_layout(legend, "above")
        legend.orientation = "horizontal"
        legend.label_text_font_size = "10px"
        legend.padding = 0
        legend.margin = 2
        legend.border_line_alpha = 0
        legend.glyph_width = 14
        self._veil(p)
        _style(p)
        return p

    def _loss_figure(self):
        p = figure(tools="pan,wheel_zoom,reset", toolbar_location=None, sizing_mode="stretch_both",
                   min_border=6, x_axis_label="backward call", y_axis_label="loss")
        p.line("x", "y", source=self.loss, line_width=2, color="#2ca02c", alpha=0.45)
        r = p.scatter("x", "y", source=self.loss, size=6, color="#2ca02c")
        p.add_tools(HoverTool(renderers=[r], tooltips=[("loss", "@text")]))
        _cover(p, self.loss_faint, size=6)
        p.add_layout(self.loss_now)
        self._veil(p)
        _style(p)
        return p

    def _veil(self, p) -> None:
        """What has not happened yet is seen through a veil of the background: a step moves the veil, on
        the overlay layer, and the points under it are not drawn again."""
        veil = BoxAnnotation(left=0.25, fill_color=p.background_fill_color, fill_alpha=1 - FUTURE_ALPHA,
                             line_alpha=0, level="overlay")
        p.add_layout(veil)
        self.veils.append(veil)

    def _on_history(self, *events):
        h = self.store.history
        with batch():
            self.lines.data = h.lines
            self.points.data = h.points
            self.loss.data = h.loss
            calls = max(h.calls, 1)
            loop = len(h.loss["x"]) > 2
            if self.loss_fig is None and loop:
                self.loss_fig = self._loss_figure()
                self.loss_box.objects = [pn.pane.Bokeh(self.loss_fig, sizing_mode="stretch_both")]
            for fig in [f for f in (self.grad_fig, self.loss_fig) if f is not None]:
                fig.x_range.start, fig.x_range.end = 0.5, calls + 0.9
                fig.xaxis[0].ticker = FixedTicker(ticks=list(range(1, calls + 1))) if calls <= 12 else BasicTicker()
            self.grad_fig.legend.visible = 1 < len(h.lines["name"]) <= MAX_LEGEND
            self.empty.visible = not h.points["x"]
            self.grad_fig.visible = bool(h.points["x"])
            self.loss_box.visible = loop
            self._on_state()

    def _on_state(self, *events):
        h, k = self.store.history, self.store.k
        if h is None:
            return
        self.current.text = grads_now_html(self.store.state)
        x = h.now[k] if 0 <= k < len(h.now) else 0.0
        for line in (self.now, self.loss_now):
            line.location = x
        for veil in self.veils:
            veil.left = future_from(x)
        for covers, part in ((self.points_faint, h.points), (self.loss_faint, h.loss)):
            faint = _covers(part, faint_rows(part["x"], part["k"], k, x))
            if faint["row"] != covers.data["row"]:
                covers.data = faint

    def __panel__(self):
        # the loss beside the grads, not under them: two plots one above the other in the card were too flat to read
        plots = pn.Row(self.grad_pane, self.loss_box, sizing_mode="stretch_both", margin=0)
        return pn.Column(self.current, self.empty, plots, sizing_mode="stretch_both")


def _covers(points: dict, rows: list[int]) -> dict[str, list]:
    """Where to cover the points of `rows` (and which rows they are)."""
    return {"x": [points["x"][i] for i in rows], "y": [points["y"][i] for i in rows],
            "marker": [points["marker"][i] for i in rows] if "marker" in points else ["circle"] * len(rows),
            "row": list(rows)}


def _cover(p, covers: ColumnDataSource, size: float) -> None:
    """The background over the points in `covers`, letting FUTURE_ALPHA of them through; the figure's ranges
    follow its other renderers."""
    drawn = list(p.renderers)
    bg = p.background_fill_color
    p.scatter("x", "y", source=covers, marker="marker", size=size + 1, fill_color=bg, line_color=bg,
              alpha=1 - FUTURE_ALPHA, level="overlay")
    p.x_range.renderers = p.y_range.renderers = drawn


def _now_line() -> Span:
    return Span(location=0, dimension="height", line_color="#d62728", line_dash="dashed", line_width=1.5,
                level="overlay")


def grads_now_html(state: dict | None) -> str:
    """`x.grad = 4.0 · y.grad = None`: every leaf's .grad at step k, as text (leaves that require grad are in
    the state's grads from the step that makes them)."""
    if not state:
        return ""
    leaves = dict(state.get("grads") or {})
    items = "".join(
        f'<span class="g" data-name="{escape(name)}">{escape(name)}.grad = <b>{escape(short(v, limit=8))}</b></span>'
        for name, v in leaves.items()
    )
    return f'<div class="now">{items}</div>'


_CSS = """
.now { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; line-height: 1.5;
  display: flex; flex-wrap: wrap; column-gap: 14px; max-height: 40px; overflow-y: auto; }
.now .g { white-space: nowrap; }
"""


def _style(p) -> None:
    p.axis.axis_label_text_font_size = "11px"
    p.axis.axis_label_text_font_style = "normal"
    p.axis.major_label_text_font_size = "10px"
    p.grid.grid_line_alpha = 0.4
