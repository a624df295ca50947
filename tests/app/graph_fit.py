"""What the graph's canvas shows, read in the browser, and what of it is cut off or overlaps (the examples' check in
test_accessibility.py, at 1280×800 at their last step)."""

from __future__ import annotations

# What the graph's canvas shows, in canvas pixels: its frame, each box and AccumulateGrad ellipse (key, rect) and
# each label Bokeh laid out (renderer name or text source's first column, text, rect, the box it is drawn in).
DRAWN = """
() => {
  for (const pv of Bokeh.index.all_views()) {
    if (!pv.frame || !pv.renderer_views || !pv.model.toolbar) continue;
    const xs = pv.frame.x_scale, ys = pv.frame.y_scale, f = pv.frame.bbox;
    const shapes = [], labels = [];
    for (const [model, rv] of pv.renderer_views) {
      const g = model.glyph, data = model.data_source && model.data_source.data;
      if (!model.visible || !data || !data.x) continue;
      const type = g.type || g.constructor.__name__;
      if (data.key && (type === 'Rect' || type === 'Ellipse')) {
        const w = type === 'Rect' ? g.width.value : g.width.value, hs = data.h;
        for (let i = 0; i < data.key.length; i++) {
          const h = hs ? hs[i] : g.height.value, x = data.x[i], y = data.y[i];
          shapes.push([data.key[i], [xs.compute(x - w / 2), ys.compute(y + h / 2), xs.compute(x + w / 2),
                                     ys.compute(y - h / 2)]]);
        }
      }
      if (type !== 'Text' || !rv.glyph.labels) continue;
      const gv = rv.glyph;
      for (let i = 0; i < gv.labels.length; i++) {
        const text = data.text ? data.text[i] : data[Object.keys(data).find((c) => c !== 'x' && c !== 'y')][i];
        if (!text || gv.labels[i] == null) continue;
        const r = gv.rect_i(i), px = [r.p0.x, r.p1.x, r.p2.x, r.p3.x], py = [r.p0.y, r.p1.y, r.p2.y, r.p3.y];
        if (!px.every(Number.isFinite)) continue;
        labels.push([model.name || '', String(text), [Math.min(...px), Math.min(...py), Math.max(...px),
                                                     Math.max(...py)], [data.x[i], data.y[i]]]);
      }
    }
    if (!shapes.length) continue;  // another figure (the .grad history's)
    const at = (x, y) => [xs.compute(x), ys.compute(y)];
    return {frame: [f.left, f.top, f.right, f.bottom], shapes,
            labels: labels.map(([n, t, r, xy]) => [n, t, r, at(xy[0], xy[1])])};
  }
  return null;
}
"""


def _meet(a, b, margin=1.0) -> bool:
    return a[0] < b[2] - margin and b[0] < a[2] - margin and a[1] < b[3] - margin and b[1] < a[3] - margin


def _inside(point, r) -> bool:
    return r[0] <= point[0] <= r[2] and r[1] <= point[1] <= r[3]


def _within(r, frame) -> bool:
    return r[0] >= frame[0] - 1 and r[2] <= frame[2] + 1 and r[1] >= frame[1] - 1 and r[3] <= frame[3] + 1


def problems(drawn: dict) -> list[str]:
    frame, shapes, labels = drawn["frame"], drawn["shapes"], drawn["labels"]
    found = [f"box {k} is cut off" for k, r in shapes if not _within(r, frame)]
    found += [f"{t!r} is cut off" for _, t, r, _ in labels if not _within(r, frame)]
    for i, (_, t, r, _) in enumerate(labels):
        for _, u, q, _ in labels[i + 1:]:
            if _meet(r, q):
                found.append(f"{t!r} overlaps {u!r}")
        for k, box in shapes:
            if _meet(r, box) and not _inside(labels[i][3], box):
                found.append(f"{t!r} overlaps box {k}")
    return found
