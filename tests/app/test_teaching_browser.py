"""The chain rule on the edges and the saved tensors on the graph, in Chromium, stepped with the arrow keys as a
person steps: the edge labels with the product, the sum where grads meet, the in-place warning before backward
fails and PyTorch's message at the failing node. Screenshots land in test-artifacts/ (teach-*.png)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright")
from browser import (  # noqa: E402
    ARTIFACTS,
    VIEWPORT,
    counter,
    open_app,
    wait_counter,
    wait_for,
)

# The texts a named glyph of the graph shows now (the graph is a canvas: its labels are its sources' data).
GLYPH_TEXTS = """
(name) => {
  for (const pv of Bokeh.index.all_views()) {
    if (!pv.renderer_views) continue;
    for (const [model, rv] of pv.renderer_views) {
      if (model.name === name) return [...model.data_source.data.text];
    }
  }
  return null;
}
"""


def texts(page, name: str) -> list[str]:
    return page.evaluate(GLYPH_TEXTS, name) or []


def _page(browser, **context):
    ctx = browser.new_context(**{"viewport": VIEWPORT, **context})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def step(page) -> None:
    shown, _ = counter(page)
    page.keyboard.press("ArrowRight")
    wait_counter(page, shown + 1)


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    time.sleep(0.8)  # the dot carrying the grad has arrived
    page.screenshot(path=str(ARTIFACTS / f"teach-{name}.png"))


def test_stepping_backward_shows_the_chain_rule_on_the_edges_and_the_sum_where_grads_meet(browser, url):
    ctx, page, errors = _page(browser)
    open_app(page, url, "example=pitfall-backward-twice")
    page.locator("body").click(position={"x": 5, "y": 790})
    step(page)  # y.backward() starts
    wait_for(lambda: texts(page, "grad-arrivals") == ["seed 1.0 = ∂y/∂y"])
    assert texts(page, "saved-chips") == ["saved other=x@v0, self=x@v0"]
    step(page)  # MulBackward0 sends x·grad to x, twice
    wait_for(lambda: texts(page, "chain-labels") == ["→ x: × x\n1.0 × 3.0 = 3.0"] * 2)
    wait_for(lambda: page.locator(".grad-pulse").count() == 2, 2_000)  # the grads travel along both edges
    shot(page, "edges-1280")
    step(page)  # MulBackward0 frees what it saved
    wait_for(lambda: texts(page, "saved-chips") == ["freed other=x@v0, self=x@v0"])
    step(page)  # AccumulateGrad: the two grads meet
    wait_for(lambda: texts(page, "grad-arrivals") == ["grads meet: 3.0 + 3.0 = 6.0"])
    shot(page, "fan-in-1280")
    while not texts(page, "backward-notes"):
        step(page)  # on to the second y.backward()
    assert texts(page, "backward-notes")[0].startswith("⚠ backward will fail at MulBackward0")
    step(page)
    wait_for(lambda: texts(page, "backward-notes")[0].startswith("RuntimeError: Trying to backward through"))
    ctx.close()
    assert not errors, errors


def test_the_in_place_warning_appears_before_backward_fails_at_that_node(browser, url):
    ctx, page, errors = _page(browser)
    open_app(page, url, "example=pitfall-inplace-saved&step=3")  # b = a ** 2 saved a
    page.locator("body").click(position={"x": 5, "y": 790})
    wait_for(lambda: texts(page, "saved-chips") == ["saved other=1.0", "saved self=a@v0"])
    assert texts(page, "backward-notes") == []
    step(page)  # a.add_(1)
    warning = "⚠ backward will fail at PowBackward0: saved a@v0, a is now v1"
    wait_for(lambda: [t.replace("\n", " ") for t in texts(page, "backward-notes")] == [warning])
    assert "saved self=a@v0 ✗ now v1" in texts(page, "saved-chips")
    warned_at, total = counter(page)
    shot(page, "inplace-warning-1280")
    while counter(page)[0] < total:
        step(page)
    note = texts(page, "backward-notes")[0].replace("\n", " ")
    assert note.startswith("RuntimeError: one of the variables needed for gradient computation has been modified")
    assert warned_at < total
    shot(page, "inplace-error-1280")
    ctx.close()
    assert not errors, errors


def test_nothing_moves_for_a_reader_who_prefers_reduced_motion(browser, url):
    ctx, page, errors = _page(browser, reduced_motion="reduce")
    open_app(page, url, "example=square-of-sum")
    page.locator("body").click(position={"x": 5, "y": 790})
    step(page)
    step(page)  # AddBackward0 sends grads along two edges
    wait_for(lambda: len(texts(page, "chain-labels")) == 2)
    deadline = time.time() + 1.0
    while time.time() < deadline:
        assert page.locator(".grad-pulse").count() == 0
        time.sleep(0.05)
    ctx.close()
    assert not errors, errors


@pytest.mark.parametrize("slug,step_of", [("broadcast", "AddBackward0"), ("square-of-sum", "AccumulateGrad"),
                                          ("pitfall-inplace-saved", "error")])
def test_screenshots(browser, url, slug, step_of):
    """At 1280 and 800 px wide: one page load, narrowed."""
    from app import timeline as tl
    from app.program.examples import BY_SLUG

    events = tl.run(BY_SLUG[slug].source).events
    k = next(i for i, e in enumerate(events) if e["kind"] == step_of or e.get("name") == step_of)
    ctx, page, errors = _page(browser, viewport={"width": 1280, "height": 800})
    open_app(page, url, f"example={slug}&step={k}")
    for width in (1280, 800):
        page.set_viewport_size({"width": width, "height": 800})
        wait_for(lambda w=width: page.evaluate("() => innerWidth") == w)
        wait_for(lambda: texts(page, "chain-labels") or texts(page, "grad-arrivals") or texts(page, "backward-notes"))
        shot(page, f"{slug}-{width}")
    ctx.close()
    assert not errors, errors
