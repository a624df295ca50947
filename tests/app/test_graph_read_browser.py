"""In Chromium: the camera keeps boxes in shape and on screen, the editor shows the step's line and a hovered
line lights its nodes, and the label widths the overlap test assumes are never narrower than drawn."""

from __future__ import annotations

import pytest

from app.graph import legibility
from app.graph import model as gm
from app.program.examples import EXAMPLES
from app.store import Store

pytest.importorskip("playwright")
from browser import BOXES_IN_VIEW, graph_script, open_app, wait_counter, wait_for  # noqa: E402

# The figure's scale on each axis (px per unit), and the frame, from Bokeh's own scales.
SCALES = graph_script("""
  const graph = graphBoxes();
  if (!graph) return null;
  const pv = graph.view, xs = pv.frame.x_scale, ys = pv.frame.y_scale, at = pv.canvas_view.el.getBoundingClientRect();
  return {sx: xs.compute(1) - xs.compute(0), sy: ys.compute(0) - ys.compute(1),
          left: at.left, top: at.top, x0: pv.frame.bbox.left, x1: pv.frame.bbox.right,
          y0: pv.frame.bbox.top, y1: pv.frame.bbox.bottom};
""")

# Where node `key` is drawn in the figure's frame (px), and its outline colour.
NODE = graph_script("""
  const graph = graphBoxes();
  if (!graph) return null;
  const {view: pv, data} = graph, i = [...data.key].indexOf(key);
  if (i < 0) return null;
  return {x: pv.frame.x_scale.compute(data.x[i]), y: pv.frame.y_scale.compute(data.y[i]), line: data.line[i],
          fn: data.fn[i]};
""", "key")

EDITOR = ".editor .ace_editor"


def _inside(frame: dict, node: dict) -> bool:
    """Whether a node (its canvas px) is in the figure's frame."""
    return frame["x0"] <= node["x"] <= frame["x1"] and frame["y0"] <= node["y"] <= frame["y1"]


def test_the_camera_follows_the_steps_and_keeps_boxes_in_shape(page, url):
    store = Store()
    store.load(next(e.source for e in EXAMPLES if e.slug == "chain-100"), step=-1)
    open_app(page, url, "example=chain-100&step=0")  # the counter at 0: before the program runs
    page.locator("body").click(position={"x": 5, "y": 790})
    for k in range(6):
        page.keyboard.press("ArrowRight")
        wait_counter(page, k + 1)
    store.goto(5)
    key = gm.key(store.graph.box_of[store.state["event"]["id"]])

    def settled() -> bool:
        frame, node = page.evaluate(SCALES), page.evaluate(NODE, key)
        return frame is not None and node is not None and _inside(frame, node)

    wait_for(settled, 5_000)
    frame = page.evaluate(SCALES)
    assert frame["sx"] == pytest.approx(frame["sy"], rel=0.01)  # one scale on both axes
    assert frame["sx"] == pytest.approx(gm.SCALE, rel=0.01)  # the default zoom, where labels are legible
    box = page.evaluate(NODE, key)
    page.mouse.move(frame["left"] + box["x"], frame["top"] + box["y"])
    page.mouse.wheel(0, -400)
    wait_for(lambda: page.evaluate(SCALES)["sx"] > frame["sx"] * 1.05, 5_000)
    zoomed = page.evaluate(SCALES)
    assert zoomed["sx"] == pytest.approx(zoomed["sy"], rel=0.01)  # zooming keeps shapes


def test_a_link_to_the_end_of_a_big_graph_shows_nodes(page, url):
    open_app(page, url, "example=scalar-mlp&step=end")  # the last steps print: they act on no node
    wait_for(lambda: (page.evaluate(BOXES_IN_VIEW) or {"shown": 0})["shown"] > 0, 10_000)
    # and the player's knob is at the end (Panel's player drew it at 100, its range input's default max)
    knob = page.locator(".stepper input[type=range]")
    wait_for(lambda: knob.evaluate("el => [el.value, el.max]") == ["2811", "2811"], 10_000)


def test_the_editor_shows_the_steps_line_and_a_hovered_line_lights_its_nodes(page, url):
    store = Store()
    store.load(next(e.source for e in EXAMPLES if e.slug == "mlp-step"))
    open_app(page, url, "example=mlp-step")
    line = store.state["event"]["line"]
    marked = """el => Object.values(el.env.editor.session.getMarkers(false))
                  .filter(m => m.clazz === 'step-line').map(m => m.range.start.row)"""
    wait_for(lambda: page.locator(EDITOR).evaluate(marked) == [line - 1], 5_000)
    page.locator("body").click(position={"x": 5, "y": 790})
    page.keyboard.press("ArrowRight")
    wait_counter(page, store.k + 2)
    wait_for(lambda: page.locator(EDITOR).evaluate(marked) == [store.timeline.events[store.k + 1]["line"] - 1],
             5_000)
    model0 = next(gm.key(b) for b, (name, _) in store.graph.modules.items() if name == "model.0")
    assert page.evaluate(NODE, model0)["line"] != gm.COLOURS["lit"]
    row = page.locator(f"{EDITOR} .ace_line").nth(13)  # line 14: loss = F.mse_loss(model(x), target)
    assert "mse_loss" in row.inner_text()
    at = row.bounding_box()
    page.mouse.move(at["x"] + 40, at["y"] + at["height"] / 2)
    wait_for(lambda: page.evaluate(NODE, model0)["line"] == gm.COLOURS["lit"], 5_000)
    page.mouse.move(5, 790)
    wait_for(lambda: page.evaluate(NODE, model0)["line"] != gm.COLOURS["lit"], 5_000)


def test_a_click_on_a_module_box_opens_it(page, url):
    store = Store()
    store.load(next(e.source for e in EXAMPLES if e.slug == "mlp-step"), step="end")
    box = next(b for b, (name, _) in store.graph.modules.items() if name == "model.1")
    key = gm.key(box)
    made = next(k for k, e in enumerate(store.timeline.events)  # the step that makes it: the camera shows it
                if e.get("id") in store.graph.box_of and store.graph.box_of[e["id"]] == box)
    open_app(page, url, f"example=mlp-step&step={made + 1}")
    wait_for(lambda: _inside(page.evaluate(SCALES), page.evaluate(NODE, key)), 5_000)
    frame, node = page.evaluate(SCALES), page.evaluate(NODE, key)
    page.mouse.click(frame["left"] + node["x"], frame["top"] + node["y"])
    assert page.evaluate(NODE, key)["fn"] == "Tanh"
    # Its box opens to its one op, which keeps the box's place and key (a module's box is its first node's).
    wait_for(lambda: page.evaluate(NODE, key)["fn"] == "TanhBackward0", 5_000)


def test_label_widths_are_never_underestimated(page):
    texts = set()
    for example in EXAMPLES:
        if example.slug == "scalar-mlp":
            continue
        store = Store()
        store.load(example.source, step="end")
        for k in range(-1, store.last + 1, max(1, store.last // 40)):
            store.goto(k)
            texts.update(t for _, _, t, _ in legibility.labels(store.graph, store.state))
    texts = sorted(texts)
    assert len(texts) > 100
    page.set_content("<canvas></canvas>")
    drawn = page.evaluate("""(texts) => { const c = document.querySelector('canvas').getContext('2d');
      return ['bold 11px helvetica', '11px helvetica', 'italic 11px helvetica'].map(font => {
        c.font = font; return texts.map(t => c.measureText(t).width) }) }""", texts)
    from app.graph.text_width import width
    narrower = [(t, width(t), max(d[i] for d in drawn)) for i, t in enumerate(texts)
                if width(t) < max(d[i] for d in drawn)]
    assert not narrower, narrower[:10]
