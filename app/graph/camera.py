"""The graph's camera, in the browser: it keeps one scale on both axes (boxes keep their shape when zooming
or resizing), starts with the whole graph in view (at most 1.35 × graph_model.SCALE px per unit; a graph that
does not fit at MIN_FIT opens at SCALE, where every label is 11 px), and glides to the node each step acts on
when it leaves the middle of the view (jumps, when stepping fast). Python only sends the graph's extent and the
focus (camera_model.py); the camera's moves are not sent back (nothing in Python reads the ranges), so a glide's
frames cost the server and the socket nothing while a step's changes are on their way."""

from __future__ import annotations

from bokeh.models import ColumnDataSource, CustomJS

from app.graph.model import SCALE

MAX_SCALE = 1.35 * SCALE  # a small graph is drawn bigger, up to this
MIN_FIT = 0.55 * SCALE  # a graph opens whole when it fits at this zoom or more (its labels still drawn, smaller)
CALM_MS = 350  # a step this long after the one before glides there; a quicker one jumps
MARGIN = 0.2  # the focus may come this close (a fraction of the view) to its edges before the camera moves

_JS = f"""
const W = p.inner_width, H = p.inner_height, d = cam.data;
if (!(W > 0 && H > 0) || !d.x0.length) {{ return }}
const xr = p.x_range, yr = p.y_range;
const fx = d.fx[0], fy = d.fy[0], has = Number.isFinite(fx) && Number.isFinite(fy);
// A new graph is framed; so is one shown whole when the view changes size (a panel opens beside it).
const eps = 1e-6, whole = xr.start <= d.x0[0] + eps && xr.end >= d.x1[0] - eps && yr.start <= d.y0[0] + eps
  && yr.end >= d.y1[0] - eps;
const refit = cam._fit !== d.fit[0] || (cb_obj !== cam && whole && cam._W !== undefined);
// The view's centre for one at (x, y) at scale s that shows as much of the graph as it can.
const keep_in = (x, y, s) => {{
  const near = (c, lo, hi, half) => hi - lo <= 2 * half ? (lo + hi) / 2 : Math.min(hi - half, Math.max(lo + half, c));
  return [near(x, d.x0[0], d.x1[0], W / s / 2), near(y, d.y0[0], d.y1[0], H / s / 2)];
}};
let s, cx, cy;
if (refit) {{
  cam._fit = d.fit[0];
  const gw = d.x1[0] - d.x0[0], gh = d.y1[0] - d.y0[0];
  const fit = Math.min(W / gw, H / gh);  // too small a zoom to read: the default one, following the step
  s = fit >= {MIN_FIT} ? Math.min({MAX_SCALE}, fit) : {SCALE};
  if (has) {{ cx = fx; cy = fy }} else {{ cx = d.x0[0]; cy = d.y1[0] }}
  [cx, cy] = keep_in(cx, cy, s);
}} else {{
  s = (cam._W || W) / (xr.end - xr.start);
  if (!Number.isFinite(s) || s <= 0) {{ s = {SCALE} }}
  cx = (xr.start + xr.end) / 2; cy = (yr.start + yr.end) / 2;
  const hw = W / s / 2 * (1 - 2 * {MARGIN}), hh = H / s / 2 * (1 - 2 * {MARGIN});
  const away = has && (Math.abs(fx - cx) > hw || Math.abs(fy - cy) > hh);
  if (cb_obj === cam && !away) {{ cam._stepped = performance.now(); return }}  // the view stays: no repaint
  if (away) {{ [cx, cy] = keep_in(fx, fy, s) }}
}}
cam._W = W;
const to = [cx - W / s / 2, cx + W / s / 2, cy - H / s / 2, cy + H / s / 2];
const from = [xr.start, xr.end, yr.start, yr.end];
if (cam._anim) {{ cancelAnimationFrame(cam._anim) }}
// A glide only when steps are apart: stepping fast (holding a key, playing), the view jumps with them.
const now = performance.now(), calm = now - (cam._stepped || 0) > {CALM_MS};
if (cb_obj === cam) {{ cam._stepped = now }}
const glide = calm && !refit && cb_obj === cam && from.every(Number.isFinite);
if (!glide) {{
  xr.setv({{start: to[0], end: to[1], reset_start: to[0], reset_end: to[1]}}, {{sync: false}});
  yr.setv({{start: to[2], end: to[3], reset_start: to[2], reset_end: to[3]}}, {{sync: false}});
  return;
}}
if (from.every((v, i) => Math.abs(v - to[i]) < 1e-9)) {{ return }}
const t0 = now, ms = 260;
const frame = (now) => {{
  const t = Math.min(1, (now - t0) / ms), e = t * t * (3 - 2 * t);
  const v = from.map((a, i) => a + (to[i] - a) * e);
  xr.setv({{start: v[0], end: v[1]}}, {{sync: false}});
  yr.setv({{start: v[2], end: v[3]}}, {{sync: false}});
  cam._anim = t < 1 ? requestAnimationFrame(frame) : null;
}};
cam._anim = requestAnimationFrame(frame);
"""


def camera(figure) -> ColumnDataSource:
    """A source the view writes the graph's extent (x0, x1, y0, y1), a counter `fit` (a new graph: frame it)
    and the focus (fx, fy; NaN for none) into; the figure's ranges follow it."""
    cam = ColumnDataSource(data={c: [] for c in ("x0", "x1", "y0", "y1", "fit", "fx", "fy")})
    code = CustomJS(args={"p": figure, "cam": cam}, code=_JS)
    cam.js_on_change("data", code)
    figure.js_on_change("inner_width", code)
    figure.js_on_change("inner_height", code)
    return cam
