"""IterationBar: the training loop at a glance, shown when the program has one: which iteration the graph
shows (a slider and ◀ ▶ to pick another), the phases of its training step (forward, zero_grad, backward,
optimizer step: click one to go to its first step), and the loss of every iteration beside them (click the
curve to jump to that iteration)."""

from __future__ import annotations

from html import escape

import panel as pn
import param
from bokeh.events import Tap
from bokeh.models import AdaptiveTicker, BasicTickFormatter, ColumnDataSource, FixedTicker, HoverTool, Span
from bokeh.plotting import figure
from panel.custom import JSComponent
from panel.viewable import Viewer

from app.player import iterations as it
from app.serving import batch, on_loop
from app.store import Store
from app.widgets.html_box import HtmlBox
from app.widgets.responsive import PHONE, narrow
from engine.trace.text import number

HEIGHT = 62  # px: the label and the slider on one line, the phases under them; the loss curve beside them
CONTROLS_WIDTH = 500  # px
SLIDER_WIDTH = 200  # px: the label beside it has the rest of the line ("iteration 1000 of 1000 · loss 0.001234")


class _Slider(pn.widgets.IntSlider):
    _debounce = 0


class Phases(JSComponent):
    """The phases of the training step shown, as chips; a click on one asks for its first step (`goto`)."""

    items = param.List(default=[], doc="[name, first step, last step, shown now] per phase.")
    goto = param.Integer(default=-1, doc="Set by a click: the first step of the phase clicked.")
    clicks = param.Integer(default=0, doc="Counts the clicks, so that a click on the same phase is seen again.")

    _debounce = 0
    _esm = """
export function render({ model }) {
  const box = document.createElement('div')
  box.className = 'phases'
  const draw = () => {
    box.replaceChildren()
    model.items.forEach(([name, first, last, now], i) => {
      if (i) { box.append(' → ') }
      const chip = document.createElement('button')
      chip.className = 'phase' + (now ? ' now' : '')
      chip.textContent = name
      chip.title = `steps ${first + 1}–${last + 1}: go to the first`
      chip.onclick = () => { model.goto = first; model.clicks += 1 }
      box.append(chip)
    })
  }
  draw()
  model.on('items', draw)
  return box
}
"""


class IterationBar(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        self.label = HtmlBox(css=_CSS + narrow("width: 100% !important; flex: none !important;", PHONE),
                             height=22, sizing_mode="stretch_width", margin=(5, 4, 0, 8))
        self.slider = _Slider(start=1, end=2, value=1, show_value=False, width=SLIDER_WIDTH, margin=(0, 4),
                              css_classes=["iteration-slider"],
                              stylesheets=[_SHARES_PHONE])
        self.prev = pn.widgets.Button(label="◀", description="Previous iteration", width=38, margin=(0, 2),
                                      css_classes=["prev-iteration"])
        self.next = pn.widgets.Button(label="▶", description="Next iteration", width=38, margin=(0, 2),
                                      css_classes=["next-iteration"])
        self.phases = Phases(height=26, sizing_mode="stretch_width", margin=(0, 8, 0, 8), stylesheets=[_CSS])
        self.phases.param.watch(lambda e: self.store.goto(self.phases.goto), "clicks")
        self.loss = ColumnDataSource(data={"x": [], "y": [], "text": []})
        self.now = ColumnDataSource(data={"x": [], "y": []})
        self.loss_ticks = FixedTicker(ticks=[])
        self.span = Span(location=0, dimension="height", line_color="#d62728", line_dash="dashed", line_width=1.5,
                         level="overlay")
        # The loss curve on a linear or a log axis: each figure is made the first time a loop's loss is shown on
        # it (a page whose program has no loop builds neither: ~80 Bokeh models fewer to build and send).
        self.curves: dict[str, pn.pane.Bokeh] = {}
        self.curve = pn.Column(sizing_mode="stretch_width", height=HEIGHT - 2, css_classes=["loss-curve"],
                               stylesheets=[narrow("width: 100% !important; height: 120px !important; "
                                                   "flex: none !important;", PHONE)])
        line = pn.Row(self.label, self.prev, self.slider, self.next, sizing_mode="stretch_width", margin=(2, 0, 0, 0),
                      stylesheets=[_WRAPS_PHONE])
        self.controls = pn.Column(line, self.phases, width=CONTROLS_WIDTH, css_classes=["iteration-controls"],
                                  stylesheets=[narrow("width: 100% !important; min-width: 0 !important; "
                                                      "height: auto !important; flex: none !important;", PHONE)])
        # The bar gets its parts the first time a program with a training loop is shown.
        self.row = pn.Row(
            height=HEIGHT, sizing_mode="stretch_width", visible=False, margin=(0, 8, 4, 8),
            styles={"border": "1px solid #e3e3e3", "border-radius": "4px", "background": "white"},
            css_classes=["iteration-bar"],
            stylesheets=[narrow("flex-direction: column !important; height: auto !important; flex: none !important; "
                                "min-width: 0 !important;", PHONE)],  # on a phone the loss curve goes below
        )
        self.slider.param.watch(lambda e: self.store.goto_iteration(e.new - 1), "value")
        self.prev.on_click(on_loop(lambda e: self._by(-1)))
        self.next.on_click(on_loop(lambda e: self._by(+1)))
        self.store.param.watch(self._on_timeline, "iterations")
        self.store.param.watch(self._on_state, "state")
        self._phases_of: tuple | None = None  # (segment, its phases)
        self._on_timeline()

    def _show_curve(self, axis: str) -> None:
        if axis not in self.curves:
            self.curves[axis] = pn.pane.Bokeh(self._figure(axis), sizing_mode="stretch_width", height=HEIGHT - 2)
        if [*self.curve.objects] != [self.curves[axis]]:
            self.curve.objects = [self.curves[axis]]

    def _figure(self, axis: str):
        # (the x axis has no title: the bar's label says "iteration"; the strip is short)
        p = figure(tools="", toolbar_location=None, sizing_mode="stretch_both", min_border=4, y_axis_type=axis,
                   y_axis_label="loss")
        curve = p.line("x", "y", source=self.loss, line_width=1.6, color="#2ca02c")
        hit = p.scatter("x", "y", source=self.loss, size=7, alpha=0, hover_alpha=0.6, color="#2ca02c")
        # A step moves only the marker and the span: on the overlay layer, they repaint without the curve's
        # thousands of points, and the axes' ranges follow the curve alone.
        p.scatter("x", "y", source=self.now, size=10, color="#d62728", level="overlay")
        p.x_range.renderers = p.y_range.renderers = [curve]
        p.add_layout(self.span)
        p.add_tools(HoverTool(renderers=[hit], tooltips=[("iteration", "@x"), ("loss", "@text")],
                              mode="vline"))
        p.on_event(Tap, on_loop(self._on_tap))
        p.xaxis.ticker = AdaptiveTicker(min_interval=1, num_minor_ticks=0)  # iterations are whole numbers
        p.yaxis.ticker = self.loss_ticks  # the strip is short: its least and greatest loss (10 and 20 overlapped)
        p.yaxis.formatter = BasicTickFormatter()  # the numbers, also on a log axis (not 10⁰ for 0.93)
        p.axis.axis_label_text_font_size = "11px"
        p.axis.axis_label_text_font_style = "normal"
        p.axis.major_label_text_font_size = "11px"
        p.grid.grid_line_alpha = 0.4
        p.background_fill_color = "#fcfcfc"
        return p

    def _by(self, delta: int) -> None:
        j = self.store.iterations.iteration(self.store.k)
        self.store.goto_iteration((j if j is not None else -1) + delta)

    def _on_tap(self, event) -> None:
        if event.x is not None and self.store.iterations:
            self.store.goto_iteration(round(event.x) - 1)

    def _on_timeline(self, *events) -> None:
        its = self.store.iterations
        shown = bool(its) and len(its) > 1
        with batch():
            self.row.visible = shown
            if not shown:
                return
            if not self.row.objects:
                self.row.objects = [self.controls, self.curve]
            points = [(j + 1, v) for j, v in enumerate(its.loss) if v is not None]
            log = bool(points) and all(v > 0 for _, v in points) and max(v for _, v in points) > 20 * min(
                v for _, v in points)
            self._show_curve("log" if log else "linear")
            self.loss.data = {"x": [x for x, _ in points], "y": [y for _, y in points],
                              "text": [number(y) for _, y in points]}
            ys = [y for _, y in points]
            self.loss_ticks.ticks = sorted({float(f"{min(ys):.2g}"), float(f"{max(ys):.2g}")}) if ys else []
            self.slider.param.update(start=1, end=max(len(its), 2))
            self._on_state()

    def _on_state(self, *events) -> None:
        s = self.store
        its = s.iterations
        if not self.row.visible or its is None or s.timeline is None:
            return
        j = its.iteration(s.k)
        if j is not None:
            loss = its.loss[j]
            self.label.text = (f'<div class="it">iteration <b>{j + 1}</b> of {len(its)}'
                               + (f' · loss <b>{escape(number(loss))}</b>' if loss is not None else "") + "</div>")
            if self.slider.value != j + 1:
                self.slider.value = j + 1
            self.span.location = j + 1
            self.now.data = {"x": [j + 1], "y": [loss]} if loss is not None else {"x": [], "y": []}
        else:
            before = s.k < its.starts[0]
            self.label.text = (f'<div class="it">{"before" if before else "after"} the training loop '
                               f'({len(its)} iterations)</div>')
            self.now.data = {"x": [], "y": []}
        items = self._phase_items(j)
        if items != self.phases.items:
            self.phases.items = items

    def _phase_items(self, j: int | None) -> list:
        s = self.store
        if j is None:
            return []
        if self._phases_of is None or self._phases_of[0] != (s.timeline, j):
            self._phases_of = ((s.timeline, j), it.phases(s.timeline.events, s.iterations.starts[j],
                                                          s.iterations.ends[j]))
        return [[name, first, last, first <= s.k <= last] for name, first, last in self._phases_of[1]]

    def __panel__(self):
        return self.row


# On a phone the label has a line of its own and the slider the rest of the buttons' line.
_WRAPS_PHONE = narrow("flex-wrap: wrap !important; min-width: 0 !important; width: 100% !important;", PHONE)
_SHARES_PHONE = narrow("flex: 1 1 0 !important; width: 0 !important; min-width: 0 !important;", PHONE)
_CSS = """
.it { font-size: 13px; color: #1f2d3d; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.phases { font-size: 12px; color: #555; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.phase { font: inherit; font-size: 12px; padding: 1px 7px; border-radius: 9px; border: 1px solid #d0d4da;
  background: #f6f7f9; color: #1f2d3d; cursor: pointer; }
.phase.now { background: #3b5b92; color: white; border-color: #3b5b92; font-weight: 600; }
"""
