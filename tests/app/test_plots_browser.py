"""A program that draws with pyplot shows its figures under Plots, in Chromium (served), at 1280x800, 1920x1080, 800
and 390 wide, without sideways scrolling or a serious axe violation; a program that does not draw shows no Plots
card. Screenshots land in test-artifacts/."""

from __future__ import annotations

import pytest

from app.program.links import encode_code

pytest.importorskip("playwright")
from browser import ARTIFACTS, SERIOUS, axe_violations, open_app, wait_for  # noqa: E402

from tests.app.test_plots import PROGRAM  # noqa: E402

SIZES = ((1280, 800), (1920, 1080), (800, 900), (390, 844))


def _resize(page, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    wait_for(lambda: page.evaluate("() => innerWidth") == width, 3_000)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_timeout(200)


def test_the_figures_a_program_draws_show_under_plots(browser, url):
    """At each of SIZES: one page load, resized (a load per size took most of this test)."""
    context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_app(page, url, f"code={encode_code(PROGRAM)}&step=end")
    card = page.locator(".plots-card")
    wait_for(lambda: card.locator("canvas").count() >= 2, 20_000)
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        _resize(page, width, height)
        card.scroll_into_view_if_needed()
        assert card.is_visible() and card.locator(".section-title").inner_text().upper() == "PLOTS"
        box = card.bounding_box()
        assert box["width"] >= 300 and box["x"] + box["width"] <= width + 1, (width, box)
        scroll, client = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert scroll <= client, f"the page scrolls sideways at {width}: {scroll} > {client} px"
        assert [v for v in axe_violations(page) if v["impact"] in SERIOUS] == [], width
        page.screenshot(path=str(ARTIFACTS / f"plots-{width}.png"), full_page=True)
    open_app(page, url, "code=" + encode_code("import torch\nprint(torch.ones(2))\n") + "&step=end")
    wait_for(lambda: "tensor([1., 1.])" in page.locator(".console pre.stdout").text_content())
    assert not page.locator(".plots-card").is_visible()
    context.close()
    assert not errors, errors
