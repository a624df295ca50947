"""In Chromium: a big graph paints only the labels in view (graph_paint.py), and the hover tooltip, which now
hit-tests just after a paint, still tells the node under the pointer, also after a step; while steps keep coming
it waits for them to pause."""

from __future__ import annotations

import pytest

from app.graph import model as gm
from app.program.examples import BY_SLUG
from app.store import Store
from engine.trace.text import short

pytest.importorskip("playwright")
from browser import BOXES_IN_VIEW, node_xy, open_app, wait_counter, wait_for  # noqa: E402


def counting(**calls: str) -> str:
    """A page script that counts, from now on, the calls of each method (name="Prototype.method") into
    window.__counts[name]."""
    wraps = "".join(f"""
  window.__counts.{name} = 0;
  if (!{where}.__counted) {{
    const original = {where};
    {where} = function (...args) {{ window.__counts.{name} += 1; return original.apply(this, args) }};
    {where}.__counted = true;
  }}""" for name, where in ((name, where.replace(".", ".prototype.")) for name, where in calls.items()))
    return f"() => {{\n  window.__counts = window.__counts || {{}};{wraps}\n}}"


# The texts and curves the canvas draws.
COUNT_TEXTS = counting(texts="CanvasRenderingContext2D.fillText", curves="CanvasRenderingContext2D.bezierCurveTo")

# The text of the graph's hover tooltip that is showing, or "".
TOOLTIP = """
() => {
  const all = (root, out) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.classList.contains('bk-tooltip-content') && el.textContent.trim()) out.push(el);
      if (el.shadowRoot) { all(el.shadowRoot, out) }
    }
    return out;
  };
  return all(document, []).map((el) => el.textContent).join(' | ');
}
"""


def test_a_big_graph_paints_the_labels_in_view_only(page, url):
    store = Store()
    store.load(BY_SLUG["scalar-mlp"].source)  # just before backward: the camera is on the loss
    open_app(page, url, f"example=scalar-mlp&step={store.k + 5}")
    page.wait_for_timeout(800)  # the camera settles
    view = page.evaluate(BOXES_IN_VIEW)
    assert view["all"] > 1000 and 0 < view["shown"] < view["all"] / 4
    page.evaluate(COUNT_TEXTS)
    page.locator("body").click(position={"x": 5, "y": 790})
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(800)
    texts, curves = page.evaluate("() => [window.__counts.texts, window.__counts.curves]")
    # Each box in view has up to five lines (title, value, grad_fn, grad, a badge); the rest are not drawn.
    assert view["shown"] <= texts < view["all"]
    # The edges: those whose curve can reach the view, at least one into each box there, not all of them.
    assert view["shown"] / 2 <= curves < view["all"]


def test_the_hover_tooltip_tells_the_node_under_the_pointer_also_after_a_step(page, url):
    store = Store()
    store.load(BY_SLUG["chain-100"].source)  # just before backward
    k = store.k + 4  # a backward step: its node receives its grad, and the camera is on it before and after
    node = _state(store, k)["active"]
    assert _state(store, k - 1)["nodes"][node].get("grad") is None
    grad = short(_state(store, k)["nodes"][node]["grad"], limit=12)
    open_app(page, url, f"example=chain-100&step={k}")  # a link counts steps from 1: store step k - 1
    page.locator("body").click(position={"x": 5, "y": 790})  # the keys go to the page
    page.wait_for_timeout(800)  # the camera settles
    x, y = node_xy(page, gm.key(store.graph.box_of[node]))
    page.mouse.move(x, y)
    wait_for(lambda: "grad: None" in page.evaluate(TOOLTIP), 5_000)
    page.keyboard.press("ArrowRight")
    wait_counter(page, k + 1)
    wait_for(lambda: f"grad: {grad}" in page.evaluate(TOOLTIP), 5_000)


# The tooltips Bokeh shows (each is laid out again).
COUNT_SHOWN = counting(shown="HTMLElement.showPopover")


def test_a_held_key_lays_no_tooltip_out_until_the_steps_pause(page, url):
    store = Store()
    store.load(BY_SLUG["chain-100"].source)
    k = store.k + 4
    node = _state(store, k)["active"]
    last = k + 11  # the store's step after 12 steps from the link's step k (store step k - 1)
    at_last = _state(store, last)
    grad = short(at_last["nodes"][at_last["active"]].get("grad"), limit=12)
    open_app(page, url, f"example=chain-100&step={k}")
    page.locator("body").click(position={"x": 5, "y": 790})
    page.wait_for_timeout(800)
    x, y = node_xy(page, gm.key(store.graph.box_of[node]))
    page.mouse.move(x, y)
    wait_for(lambda: "grad" in page.evaluate(TOOLTIP), 5_000)
    page.evaluate(COUNT_SHOWN)
    for _ in range(12):  # a key held: steps as fast as the page takes them (far inside the 120 ms calm)
        page.keyboard.press("ArrowRight")
    wait_counter(page, last + 1)
    held = page.evaluate("() => window.__counts.shown")
    x, y = node_xy(page, gm.key(store.graph.box_of[at_last["active"]]))
    page.mouse.move(x, y)
    wait_for(lambda: f"grad: {grad}" in page.evaluate(TOOLTIP), 5_000)
    assert held <= 1, f"{held} tooltips laid out while the key was held"
    assert page.evaluate("() => window.__counts.shown") >= 1


def _state(store: Store, k: int) -> dict:
    store.goto(k)
    return store.state
