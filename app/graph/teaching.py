"""The GraphView's teaching glyphs: the chain rule on the edges a gradient travels (with an animation that
carries it along, unless the reader asked for reduced motion), the sums where grads meet, saved-tensor chips
with their versions, and the notes that foretell or show where backward fails. Columns come from
teach_columns.py; this file only draws them."""

from __future__ import annotations

from bokeh.models import ColumnDataSource, CustomJS, HoverTool

from app.graph import saved_model
from app.graph import teach_columns as tc
from app.graph.model import BOX_H, BOX_W, COLOURS, FONT, SCALE, GraphModel, key
from app.timeline import introduced

# Moves a dot along each path (graph units -> canvas pixels) with the Web Animations API: the browser animates
# it, nothing goes back to the server. Nothing moves for a reader who prefers reduced motion.
_PULSE = """
const reduce = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
let view = null;
for (const v of Bokeh.index.all_views()) { if (v.model && v.model.id === plot.id && v.frame) { view = v; break } }
if (view == null) return;
const host = view.canvas_view.el.shadowRoot || view.canvas_view.el;
for (const old of host.querySelectorAll('.grad-pulse')) old.remove();
if (reduce) return;
const xs = paths.data.xs, ys = paths.data.ys;
for (let i = 0; i < xs.length; i++) {
  const frames = [];
  for (let j = 0; j < xs[i].length; j++) {
    const px = view.frame.x_scale.compute(xs[i][j]), py = view.frame.y_scale.compute(ys[i][j]);
    frames.push({transform: `translate(${px - 6}px, ${py - 6}px)`});
  }
  if (!frames.length) continue;
  const dot = document.createElement('div');
  dot.className = 'grad-pulse';
  dot.style.cssText = 'position:absolute;left:0;top:0;width:12px;height:12px;border-radius:6px;' +
    'background:#d62728;box-shadow:0 0 6px #d62728;pointer-events:none;z-index:5';
  host.appendChild(dot);
  const run = dot.animate(frames, {duration: 650, easing: 'ease-in-out', fill: 'forwards'});
  run.onfinish = () => dot.remove();
}
"""


# Saved-tensor chips are drawn with the other labels (graph_view.DETAIL), sized with the zoom as they are.
CHIP_MIN_PX = 0.55 * SCALE  # pixels per graph unit (a box is 1.6 units wide)
_CHIP_TOGGLE = f"""
const px = plot.inner_width / Math.max(xr.end - xr.start, 1e-9);
const show = px >= {CHIP_MIN_PX};
if (chips.visible !== show) {{ chips.visible = show }}
const size = `${{(Math.min(1, px / {SCALE}) * {FONT}).toFixed(1)}}px`;
if (show && chips._font !== size) {{ chips._font = size; chips.glyph.text_font_size = {{value: size}} }}
"""


class TeachingLayer:
    def __init__(self, figure, patch):
        """patch(source, columns): sends a source's changed rows (graph_view._patch)."""
        self._patch = patch
        self._index = (None, None)  # (the graph model shown, its saved_model.SavedIndex)
        self.edge_labels = ColumnDataSource(data={"x": [], "y": [], "text": []})
        self.arrivals = ColumnDataSource(data={"x": [], "y": [], "text": [], "align": []})
        self.chips = ColumnDataSource(data={c: [] for c in (
            "x", "y", "text", "fill", "line", "colour", "alpha", "tip", "full")})
        self.notes = ColumnDataSource(data={"x": [], "y": [], "text": [], "align": [], "baseline": []})
        self.halos = ColumnDataSource(data={"x": [], "y": [], "colour": [], "dash": []})
        self.paths = ColumnDataSource(data={"xs": [], "ys": [], "k": []})
        p = figure
        p.multi_line("xs", "ys", source=self.paths, line_alpha=0, name="grad-paths")  # puts paths in the document
        p.rect("x", "y", BOX_W + 0.16, BOX_H + 0.16, source=self.halos, fill_alpha=0, line_color="colour",
               line_width=3.5, line_dash="dash", border_radius=8, name="halos")
        chips = p.text("x", "y", text="text", source=self.chips, text_align="center", text_baseline="middle",
                       text_font_size=f"{FONT:g}px", text_color="colour", text_alpha="alpha",
                       background_fill_color="fill", background_fill_alpha="alpha", border_line_color="line",
                       border_line_alpha="alpha", padding=0, border_radius=3, name="saved-chips")
        toggle = CustomJS(args={"plot": p, "xr": p.x_range, "chips": chips}, code=_CHIP_TOGGLE)
        for r in (p.x_range,):
            r.js_on_change("start", toggle)
            r.js_on_change("end", toggle)
        p.js_on_change("inner_width", toggle)
        self.labels = [  # shown while the graph view shows details (graph_view.DETAIL)
            p.text("x", "y", text="text", source=self.edge_labels, text_align="center", text_baseline="top",
                   text_font_size=f"{FONT:g}px", text_font_style="bold", text_color=COLOURS["flow"],
                   text_line_height=1.15, background_fill_color="white", background_fill_alpha=0.92,
                   border_line_color="#f3b0b0", padding=3, border_radius=3, name="chain-labels"),
            p.text("x", "y", text="text", source=self.arrivals, text_align="align", text_baseline="top",
                   text_font_size=f"{FONT:g}px", text_font_style="bold", text_color="#7b2cbf",
                   background_fill_color="#f6efff", background_fill_alpha=0.95, border_line_color="#7b2cbf",
                   padding=3, border_radius=3, name="grad-arrivals"),
            p.text("x", "y", text="text", source=self.notes, text_align="align", text_baseline="baseline",
                   text_font_size=f"{FONT:g}px", text_color="#8b0000", text_line_height=1.2,
                   background_fill_color="#fff0f0", background_fill_alpha=0.97, border_line_color="#d62728",
                   padding=4, border_radius=3, name="backward-notes"),
        ]
        p.add_tools(HoverTool(renderers=[chips], tooltips=[("saved", "@full"), ("", "@tip")]))
        for r in (*self.labels, chips):
            r.selection_glyph = r.nonselection_glyph = None
        self.paths.js_on_change("data", CustomJS(args={"paths": self.paths, "plot": p}, code=_PULSE))

    def show(self, model: GraphModel, state: dict, timeline) -> None:
        """Set every source for step k: the chips (one per node that saved tensors) by patching the rows that
        changed, the others (a few rows each) whole."""
        if self._index[0] is not model:
            self._index = (model, saved_model.saved_index(model, introduced(timeline)))
        index = self._index[1]
        _put(self.edge_labels, tc.edge_label_columns(model, state, timeline))
        _put(self.arrivals, tc.arrival_columns(model, state, timeline))
        self._patch(self.chips, tc.chip_columns(model, state, index))
        notes = tc.note_columns(model, state, index)
        if notes["text"] or self.notes.data["text"]:
            self.notes.data = notes
            self.halos.data = _halos(model, state, index)
        paths = tc.pulse_columns(model, state)
        if paths["xs"] or self.paths.data["xs"]:
            self.paths.data = paths


def _put(source, data: dict[str, list]) -> None:
    """Set a source's data when it differs (Bokeh sends data set again, even the same)."""
    if dict(source.data) != data:
        source.data = data


def _halos(model: GraphModel, state: dict, index: saved_model.SavedIndex) -> dict[str, list]:
    """A dashed outline around a node where backward will fail (orange) or did (red)."""
    cols: dict[str, list] = {"x": [], "y": [], "colour": [], "dash": []}
    failed = saved_model.failure(model, state)
    marked = [] if failed is None else [(failed[0], COLOURS["active"])]
    marked += [(box, "#f0a500") for box, _ in saved_model.warnings(model, state, index)
               if failed is None or box != failed[0]]
    for box, colour in marked:
        x, y = model.pos[key(box)]
        cols["x"].append(x)
        cols["y"].append(y)
        cols["colour"].append(colour)
        cols["dash"].append("dashed")
    return cols
