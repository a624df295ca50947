"""Lessons on the static site (issue 28): a built-in lesson steps block by block before Python has started (its
steps recorded by the build, as an example's are), by keyboard alone and with axe-core finding nothing serious
at 1280x800, 800 and 390 wide; a teacher's own lesson (`build.py --lessons tests/site/lessons`, sitekit's build)
is on the site beside them, its files that cannot be built left out, and Python takes over where the learner got.
The build's messages for those files: tests/site/test_lessons_build.py."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("playwright")

from tests.app.browser import SERIOUS, active_element, axe_violations, counter, wait_for  # noqa: E402
from tests.site import sitekit  # noqa: E402


def _current(page) -> str:
    return page.locator(".block.current .block-head").inner_text() if page.locator(".block.current").count() else ""


def _tab_to(page, css: str, limit: int = 40) -> None:
    """Press Tab until the focus is on the button inside `css` (a Panel widget's host class)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if css in active_element(page)["host"]:
            return
    raise AssertionError(f"Tab never reached .{css}: {active_element(page)}")


def test_a_builtin_lesson_steps_block_by_block_before_python_starts(page, site):
    sitekit.open_before_python(page, f"{site}?lesson=grad-accumulates")
    assert page.evaluate("() => !window.site.ready")
    assert "this lesson" in page.locator("#site-loading").inner_text()
    assert page.locator(".lesson .block").count() == 11 and "adds up" in page.locator(".lesson h1").inner_text()
    assert page.locator(".sidebar").is_hidden()  # a wide window: the lesson takes the editor's column
    _tab_to(page, "next-block")
    page.keyboard.press("Enter")
    wait_for(lambda: _current(page).startswith("block 1"))
    page.keyboard.press("Enter")
    wait_for(lambda: _current(page).startswith("block 2"))
    shown = counter(page)[0]
    page.keyboard.press("ArrowRight")  # the arrow keys step from anywhere but a text field
    wait_for(lambda: counter(page)[0] == shown + 1)
    page.keyboard.press("Shift+Tab")  # back from `block ▶` to `◀ block`: the start of the block before this one
    assert "prev-block" in active_element(page)["host"]
    page.keyboard.press("Enter")
    wait_for(lambda: _current(page).startswith("block 1") and counter(page)[0] < shown)
    assert page.evaluate("() => !window.site.ready")  # all of it before Python
    for width, height in ((1280, 800), (800, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        serious = [v for v in axe_violations(page) if v["impact"] in SERIOUS]
        assert serious == [], (width, serious)
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"), width


def test_a_teachers_lesson_is_built_beside_the_builtin_ones(page, site):
    manifest = json.loads((sitekit.DIST / "manifest.json").read_text())
    assert list(manifest["lessons"]) == ["squares"]  # refused.md and bad-question.md are left out
    assert manifest["lessons"]["squares"] == {"file": "static/lessons/squares.md", "name": "squares.md"}
    assert sorted(manifest["lesson_preludes"]) == ["autograd-blitz", "autograd-pitfalls", "autograd-tour",
                                                   "grad-accumulates", "squares"]
    python = sitekit.open_before_python(page, f"{site}?lesson=squares")
    assert "Squares, a teacher's own lesson" in page.locator(".lesson h1").inner_text()
    page.locator(".next-block button").click()
    wait_for(lambda: _current(page).startswith("block 1"))
    page.locator(".next-block button").click()
    wait_for(lambda: _current(page).startswith("block 2"))
    at = counter(page)[0]
    python.release()
    sitekit.wait_ready(page)
    wait_for(lambda: page.locator(".lesson .block").count() == 2, 60_000)
    assert _current(page).startswith("block 2") and counter(page)[0] == at  # Python took over where it got
    assert "Squares, a teacher's own lesson" in page.locator(".lesson-menu select").inner_text()
    page.locator(".lesson").focus()
    for _ in range(8):  # on to the lesson's question: Python asks it
        if "What will x.grad be" in page.locator(".predict").inner_text():
            break
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(400)
    wait_for(lambda: "What will x.grad be" in page.locator(".predict").inner_text(), 30_000)
    page.wait_for_timeout(1_500)  # the page's query follows what it shows (QUERY_CALM_MS): still the lesson
    assert "lesson=squares" in page.url
