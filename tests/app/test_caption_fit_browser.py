"""The caption is readable whole at every width: stepped through examples with long backward sentences and
chain-rule formulas, its box is at least as tall as what it holds (nothing clipped, no scrollbar) at 800, 900,
1000 and 1099 px (one column) and at 1280 px (the middle column), where the graph under it stays put (longer
words are set smaller before the box grows). Screenshots: test-artifacts/caption-*.png."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from browser import ARTIFACTS, counter, open_app, wait_counter  # noqa: E402

WIDTHS = (800, 900, 1000, 1099, 1280)
JUMP_PX = 20  # at 1280 px the graph under the caption moves at most this much as it steps (its longest words)

# The box Panel gives the caption (its component's host) against the height and width of the caption inside it.
MEASURE = """
el => {
  let host = el;
  while (!(host.parentNode instanceof ShadowRoot)) host = host.parentNode;
  host = host.parentNode.host;
  const box = host.getBoundingClientRect(), text = el.getBoundingClientRect();
  return {box: host.clientHeight, scroll: host.scrollHeight, box_w: host.clientWidth, scroll_w: host.scrollWidth,
          text_bottom: text.bottom, box_bottom: box.bottom, text_right: text.right, page_w: innerWidth}
}
"""


def _clipped(m: dict) -> bool:
    return (m["scroll"] > m["box"] + 1 or m["scroll_w"] > m["box_w"] + 1 or m["text_bottom"] > m["box_bottom"] + 1
            or m["text_right"] > m["page_w"])


@pytest.mark.parametrize("example", ["mlp-step", "pitfall-inplace-saved", "broadcast"])
def test_the_whole_caption_fits_its_box_at_every_width(browser, url, example):
    page = browser.new_page(viewport={"width": WIDTHS[0], "height": 800})
    open_app(page, url, f"example={example}&step=0")
    shown, total = counter(page)
    tallest = {w: (0, 0) for w in WIDTHS}
    cut, graph_tops = [], set()
    ARTIFACTS.mkdir(exist_ok=True)
    k = shown
    for i, w in enumerate(WIDTHS):  # a width at a time, stepping through (a resize costs more than a step)
        page.set_viewport_size({"width": w, "height": 800})
        for target in range(shown, total + 1) if i % 2 == 0 else range(total, shown - 1, -1):
            if target != k:
                page.keyboard.press("ArrowRight" if target > k else "ArrowLeft")
                wait_counter(page, target)
                k = target
            m = page.locator(".caption-text").evaluate(MEASURE)
            if _clipped(m):
                cut.append((w, k, m))
            if m["scroll"] > tallest[w][1]:
                tallest[w] = (k, m["scroll"])
                # the step with the tallest caption so far, as a person sees it at this width
                page.locator(".caption-text").scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / f"caption-{example}-{w}.png"))
            if w == 1280:
                graph_tops.add(round(page.locator(".graph-box").evaluate(  # in the page, however it is scrolled
                    "el => el.getBoundingClientRect().top + window.scrollY")))
    page.close()
    assert not cut, f"the caption is cut off (width, step, sizes): {cut[:5]}"
    assert max(graph_tops) - min(graph_tops) <= JUMP_PX, f"the graph moves as the caption changes: {graph_tops}"
    assert max(h for _, h in tallest.values()) > 62, "no step had a caption taller than one line: test is idle"
