"""A program that draws with pyplot shows its figures under Plots, in Chromium (served), at 1280x800, 1920x1080, 800
and 390 wide, without sideways scrolling or a serious axe violation; a program that does not draw shows no Plots
card. Screenshots land in test-artifacts/."""

from __future__ import annotations

import pytest

from app.program.links import encode_code

pytest.importorskip("playwright")
from browser import ARTIFACTS, SERIOUS, axe_violations, open_app, wait_for  # noqa: E402

from tests.app.test_plots import PROGRAM  # noqa: E402


@pytest.mark.parametrize("width,height", [(1280, 800), (1920, 1080), (800, 900), (390, 844)])
def test_the_figures_a_program_draws_show_under_plots(browser, url, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_app(page, url, f"code={encode_code(PROGRAM)}&step=end")
    card = page.locator(".plots-card")
    wait_for(lambda: card.locator("canvas").count() >= 2, 20_000)
    card.scroll_into_view_if_needed()
    assert card.is_visible() and card.locator(".section-title").inner_text().upper() == "PLOTS"
    box = card.bounding_box()
    assert box["width"] >= 300 and box["x"] + box["width"] <= width + 1
    scroll, client = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert scroll <= client, f"the page scrolls sideways: {scroll} > {client} px"
    assert [v for v in axe_violations(page) if v["impact"] in SERIOUS] == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"plots-{width}.png"), full_page=True)
    open_app(page, url, "code=" + encode_code("import torch\nprint(torch.ones(2))\n") + "&step=end")
    wait_for(lambda: "tensor([1., 1.])" in page.locator(".console pre.stdout").text_content())
    assert not page.locator(".plots-card").is_visible()
    context.close()
    assert not errors, errors
