"""GradHistory: each leaf's .grad after every backward call (zero_/None marked), and the loss per call."""

from __future__ import annotations

from bisect import bisect_right
from html import escape

import panel as pn
import param
from bokeh.models import BasicTicker, ColumnDataSource, FixedTicker, HoverTool, Span
from bokeh.plotting import figure
from panel.viewable import Viewer

from app.history_model import FUTURE_ALPHA, History, alphas
from app.html_box import HtmlBox
from app.store import Store
from engine.trace.text import short

MAX_LEGEND = 6


class GradHistory(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        h = History()
        self.lines = ColumnDataSource(data=h.lines)
        self.points = ColumnDataSource(data={**h.points, "alpha": []})
        self.loss = ColumnDataSource(data={**h.loss, "alpha": []})
        self.now = Span(location=0, dimension="height", line_color="#d62728", line_dash="dashed", line_width=1.5)
        self.grad_fig = self._grad_figure()
        self.loss_fig = self._loss_figure()
        self.empty = pn.pane.HTML("<div style='color:#666;font-size:12.5px'>No backward call yet: the "
                                  "history fills in as backward() runs.</div>", visible=False)
        self.grad_pane = pn.pane.Bokeh(self.grad_fig, sizing_mode="stretch_both")
        self.loss_pane = pn.pane.Bokeh(self.loss_fig, sizing_mode="stretch_both")
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
                      line_color="colour", alpha="alpha")
        p.add_tools(HoverTool(renderers=[r], tooltips=[("", "@name = @text")]))
        p.add_layout(self.now)
        legend = p.legend[0]
        p.add_layout(legend, "above")
        legend.orientation = "horizontal"
        legend.label_text_font_size = "10px"
        legend.padding = 0
        legend.margin = 2
        legend.border_line_alpha = 0
        legend.glyph_width = 14
        _style(p)
        return p

    def _loss_figure(self):
        p = figure(tools="pan,wheel_zoom,reset", toolbar_location=None, sizing_mode="stretch_both",
                   min_border=6, x_axis_label="backward call", y_axis_label="loss")
        p.line("x", "y", source=self.loss, line_width=2, color="#2ca02c", alpha=0.45)
        r = p.scatter("x", "y", source=self.loss, size=6, color="#2ca02c", alpha="alpha")
        p.add_tools(HoverTool(renderers=[r], tooltips=[("loss", "@text")]))
        self.loss_now = Span(location=0, dimension="height", line_color="#d62728", line_dash="dashed",
                             line_width=1.5)
        p.add_layout(self.loss_now)
        _style(p)
        return p

    def _on_history(self, *events):
        h = self.store.history
        with pn.io.hold():
            self.lines.data = h.lines
            self.points.data = {**h.points, "alpha": alphas(h.points["k"], self.store.k)}
            self.loss.data = {**h.loss, "alpha": alphas(h.loss["k"], self.store.k)}
            calls = max(h.calls, 1)
            for fig in (self.grad_fig, self.loss_fig):
                fig.x_range.start, fig.x_range.end = 0.5, calls + 0.9
                fig.xaxis[0].ticker = FixedTicker(ticks=list(range(1, calls + 1))) if calls <= 12 else BasicTicker()
            self.grad_fig.legend.visible = 1 < len(h.lines["name"]) <= MAX_LEGEND
            self.empty.visible = not h.points["x"]
            self.grad_fig.visible = bool(h.points["x"])
            self.loss_fig.visible = len(h.loss["x"]) > 2
            self._on_state()

    def _on_state(self, *events):
        h, k = self.store.history, self.store.k
        if h is None:
            return
        self.current.text = grads_now_html(self.store.state)
        x = h.now[k] if 0 <= k < len(h.now) else 0.0
        self.now.location = x
        self.loss_now.location = x
        for source, ks in ((self.points, h.points["k"]), (self.loss, h.loss["k"])):
            _fade(source, ks, k)

    def __panel__(self):
        return pn.Column(self.current, self.empty, self.grad_pane, self.loss_pane, sizing_mode="stretch_both")


def _fade(source: ColumnDataSource, ks: list[int], k: int) -> None:
    """Points that have happened by step k solid, the rest faint. The alphas are solid up to some point: only
    the points between it and step k change (a training loop has thousands)."""
    alpha = source.data.get("alpha")
    if alpha is None or len(alpha) != len(ks):
        source.data["alpha"] = alphas(ks, k)
        return
    lo, hi = 0, len(alpha)  # alpha[:m] == 1.0 and alpha[m:] faint: find m
    while lo < hi:
        mid = (lo + hi) // 2
        if alpha[mid] == 1.0:
            lo = mid + 1
        else:
            hi = mid
    n = bisect_right(ks, k)
    changed = [(i, 1.0) for i in range(lo, n)] + [(i, FUTURE_ALPHA) for i in range(n, lo)]
    if len(changed) > 200:
        source.data["alpha"] = alphas(ks, k)
    elif changed:
        source.patch({"alpha": changed})


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
