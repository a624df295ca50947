"""In Chromium at 1280×800, every example at its last step: the graph is whole in its view (no node cut off) and
nothing drawn on it overlaps: no label on another label (chips, grads, the chain rule, notes), no label on a box
not its own, no label outside the graph's frame. One page; the examples menu switches between them. The two
benchmark graphs (hundreds of nodes) are too big to be legible whole: the camera follows the step there, and
test_legibility checks their layout.
Screenshots: test-artifacts/fit-<example>.png."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from browser import ARTIFACTS, counter, editor_text, open_app, wait_for  # noqa: E402

from app.examples import EXAMPLES  # noqa: E402

SHOWN = [e for e in EXAMPLES if e.slug not in ("chain-100", "scalar-mlp")]

# What the graph's canvas shows, in canvas pixels: its frame, each box and AccumulateGrad ellipse (key, rect) and
# each label Bokeh laid out (renderer name or text source's first column, text, rect, the box it is drawn in).
_DRAWN = """
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


def test_every_example_opens_whole_and_nothing_on_the_graph_overlaps_at_its_end(page, url):
    open_app(page, url, f"example={SHOWN[0].slug}&step=end")
    seen = {}
    for example in SHOWN:
        if example is not SHOWN[0]:
            page.locator(".examples select").select_option(label=example.title)
            wait_for(lambda source=example.source: editor_text(page) == source, 20_000)
        page.get_by_role("button", name="Last step").click()
        wait_for(lambda: counter(page)[0] == counter(page)[1], 20_000)
        page.wait_for_timeout(700)  # the camera settles
        drawn = page.evaluate(_DRAWN)
        page.screenshot(path=str(ARTIFACTS / f"fit-{example.slug}.png"))
        seen[example.slug] = problems(drawn)
    assert {slug: found for slug, found in seen.items() if found} == {}
