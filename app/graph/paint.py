"""What the browser does per step for the graph, made cheaper.

Draw only what is in view: Bokeh paints every label, box and edge of a source on each repaint, also the ones
outside the figure's frame (its text, rect, ellipse and Bézier glyphs do not use their spatial index), and a
graph of 1,000+ nodes then spends most of a step painting text nobody sees. In the browser, the graph's glyphs
of those kinds paint only the boxes and labels whose centre lies in the frame or within a box's width of it,
and the edges whose curve can reach the frame.

Hover after the paint: with the pointer over the graph, Bokeh's hover tools hit-test and lay their tooltip out
again inside every repaint (forcing the page's layout while a step's changes are still arriving). A move of the
pointer is answered just after the paint; a repaint (a step, the camera) once the repaints pause for
CALM_MS: while a key is held or the player runs, the tooltip (~5 ms a time) does not take the next step's time."""

from __future__ import annotations

from bokeh.models import CustomJS, GlyphRenderer, HoverTool

from app.graph.model import BOX_W

FEW = 20  # a glyph with fewer items than this is painted whole: sorting them out would cost more

_JS = f"""
for (const r of renderers) {{
  r.glyph.__paint_in_view = true;  // the graph's: other figures' glyphs of the same kinds are painted whole
  const proto = r.glyph.default_view.prototype;
  if (proto.__in_view_only) {{ continue }}
  const paint = proto._paint;
  proto._paint = function (ctx, indices, data) {{
    if (!this.model.__paint_in_view || indices.length < {FEW}) {{ return paint.call(this, ctx, indices, data) }}
    const at = (name) => (data && data[name]) || this[name];
    const frame = this.renderer.plot_view.frame, f = frame.bbox, shown = [];
    const sx = at('sx'), sy = at('sy'), x0 = at('sx0');
    if (sx != null && sy != null) {{  // a box or label: its centre, within a box's width of the frame
      const xs = frame.x_scale, pad = Math.abs(xs.compute({BOX_W}) - xs.compute(0)) + 8;
      const left = f.left - pad, right = f.right + pad, top = f.top - pad, bottom = f.bottom + pad;
      for (const i of indices) {{
        const x = sx[i], y = sy[i];
        if (x >= left && x <= right && y >= top && y <= bottom) {{ shown.push(i) }}
      }}
    }} else if (x0 != null) {{  // an edge: a Bézier curve lies inside the box of its end and control points
      const x1 = at('sx1'), cx0 = at('scx0'), cx1 = at('scx1');
      const y0 = at('sy0'), y1 = at('sy1'), cy0 = at('scy0'), cy1 = at('scy1');
      const left = f.left - 8, right = f.right + 8, top = f.top - 8, bottom = f.bottom + 8;
      for (const i of indices) {{
        const xa = Math.min(x0[i], x1[i], cx0[i], cx1[i]), xb = Math.max(x0[i], x1[i], cx0[i], cx1[i]);
        const ya = Math.min(y0[i], y1[i], cy0[i], cy1[i]), yb = Math.max(y0[i], y1[i], cy0[i], cy1[i]);
        if (xb >= left && xa <= right && yb >= top && ya <= bottom) {{ shown.push(i) }}
      }}
    }} else {{
      return paint.call(this, ctx, indices, data);
    }}
    return paint.call(this, ctx, shown, data);
  }};
  proto.__in_view_only = true;
}}
"""


def paint_in_view_only(figure) -> None:
    """Give the figure's text, rect, ellipse and Bézier glyphs an in-view-only paint (set once per page on their
    kinds, and taken only by this figure's glyphs)."""
    kinds = {"Text", "Rect", "Ellipse", "Bezier"}
    renderers = [r for r in figure.renderers if isinstance(r, GlyphRenderer) and type(r.glyph).__name__ in kinds]
    code = CustomJS(args={"renderers": renderers}, code=_JS)
    figure.js_on_change("inner_width", code)
    figure.js_on_change("inner_height", code)


CALM_MS = 120

_HOVER_JS = f"""
for (const tool of tools) {{
  const proto = tool.default_view.prototype;
  if (proto.__after_paint) {{ continue }}
  const inspect = proto._inspect, move = proto._move;
  proto._move = function (ev) {{
    this.__pointer = true;
    try {{ return move.call(this, ev) }} finally {{ this.__pointer = false }}
  }};
  proto._inspect = function (sx, sy, dims) {{
    clearTimeout(this.__inspecting);
    const wait = this.__pointer || !Number.isFinite(sx + sy) ? 0 : {CALM_MS};
    this.__inspecting = setTimeout(() => inspect.call(this, sx, sy, dims), wait);
  }};
  proto.__after_paint = true;
}}
"""


def hover_after_paint(figure) -> None:
    """Make the figure's hover tools (their kind: every figure's) hit-test just after a paint, not in it, and after
    repaints only once they pause."""
    code = CustomJS(args={"tools": [t for t in figure.tools if isinstance(t, HoverTool)]}, code=_HOVER_JS)
    figure.js_on_change("inner_width", code)
    figure.js_on_change("inner_height", code)
