"""The canvas builder on the static site (Python in the page's worker, programs in the program worker): palette,
wires, a value, backward from a node and a step, as on the served app; nothing is fetched from another host."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from tests.app.browser import counter, editor_text, grads_shown  # noqa: E402
from tests.site import sitekit  # noqa: E402


def _wait(check, timeout_s: float = 60) -> None:
    import time

    t0 = time.time()
    while not check():
        assert time.time() - t0 < timeout_s, "the page did not show it in time"
        time.sleep(0.05)


def test_the_canvas_builds_and_backwards_on_the_static_site(site, chromium):
    url = site
    context = chromium.new_context(viewport=sitekit.VIEWPORT)
    watch = sitekit.watch_context(context, url)
    page = context.new_page()
    sitekit.watch_page(page, watch)
    try:
        sitekit.open_site(page, url, "example=accumulate")
        board = page.locator(".canvas-board")
        page.locator(".new-program button").click()
        _wait(lambda: board.locator(".empty").count() == 1)
        for op in ("leaf", "leaf", "×"):
            n = board.locator(".node").count()
            board.locator(f"button.pal[data-op='{op}']").click()
            _wait(lambda n=n: board.locator(".node").count() == n + 1)
        board.locator("[data-key='out:a']").drag_to(board.locator("[data-key='in:c:0']"))
        board.locator("[data-key='out:b']").click()
        board.locator("[data-key='in:c:1']").click()
        _wait(lambda: "\nc = a * b\n" in editor_text(page))
        board.locator("[data-key='node:a']").click()
        _wait(lambda: page.locator(".node-title b").inner_text().startswith("a = "))
        page.locator(".leaf-value input").fill("4.0")
        page.locator(".leaf-value input").press("Enter")
        _wait(lambda: "a = torch.tensor(4.0, requires_grad=True)" in editor_text(page))
        board.locator("[data-key='node:c']").click()
        _wait(lambda: page.locator(".node-title b").inner_text().startswith("c = "))
        page.locator(".backward-here button").click()
        _wait(lambda: "c.backward()" in editor_text(page) and counter(page)[0] < counter(page)[1])
        page.locator(".last-step button, .stepper button.last").first.click()
        _wait(lambda: grads_shown(page) == {"a": "1.0", "b": "4.0"})
        page.screenshot(path=str(sitekit.ARTIFACTS / "site-canvas.png"))
    finally:
        context.close()
    assert watch.external == [], watch.external
    assert watch.errors == [], watch.errors
