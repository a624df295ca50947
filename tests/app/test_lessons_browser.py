"""A learner through a lesson in Chromium (served): the prose beside the graph, block to block, the lesson's
questions answered (a wrong guess asks why), the score kept in the browser; then a notebook dropped on the
page opens as a lesson, its IPython line and its differing stored output told beside the cell."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("playwright")
from browser import SERIOUS, axe_violations  # noqa: E402
from browser import wait_for as _wait_for  # noqa: E402


def wait_for(check, timeout_ms: float = 30_000) -> None:
    """As browser.wait_for, with room for a loaded machine (each lesson's steps are a server round trip)."""
    _wait_for(check, timeout_ms)


def _current(page) -> str:
    return page.locator(".block.current .block-head").inner_text() if page.locator(".block.current").count() else ""


def _step_until(page, check, limit=30) -> None:
    for _ in range(limit):
        if check():
            return
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(150)
    wait_for(check)


def _guess(page, text: str) -> None:
    field = page.get_by_role("textbox", name="Your prediction")
    field.fill(text)
    field.press("Enter")


# Known, intermittent: when a lesson replaces a graph shown, BokehJS sometimes reads a text glyph's colours out of
# bounds while it applies the new graph (reported by this branch; not understood yet). Every other page error fails.
KNOWN = "Offset is outside the bounds of the DataView"


def test_a_learner_goes_through_a_lesson_and_opens_a_notebook(browser, url):
    from browser import VIEWPORT

    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "?lesson=grad-accumulates", timeout=90_000)
    page.wait_for_selector(".lesson .block", timeout=60_000)
    assert "adds up" in page.locator(".lesson h1").inner_text()
    assert page.locator(".lesson .block").count() == 11
    assert page.get_by_role("checkbox", name="Predict, then reveal").is_checked()  # the lesson asks questions
    for n in (1, 2, 3):
        page.locator(".next-block button").click()
        wait_for(lambda n=n: _current(page).startswith(f"block {n}"))
    assert page.locator(".block.current pre.output").inner_text().strip() == "tensor([2.])"
    page.locator(".lesson").focus()  # the arrow keys step from anywhere but a text field
    _step_until(page, lambda: "What will x.grad be" in page.locator(".predict").inner_text())
    _guess(page, "2")
    wait_for(lambda: "1 of 1 right" in page.locator(".lesson-score").inner_text())
    page.locator(".lesson").focus()
    _step_until(page, lambda: "What will x.grad be" in page.locator(".predict").inner_text()
                and _current(page).startswith("block 4"))
    _guess(page, "3")  # the question asks why after a wrong guess
    wait_for(lambda: "not quite" in page.locator(".predict").inner_text())
    why = page.get_by_role("textbox", name="Why? (in your words; kept in this browser)")
    why.fill("I thought backward replaces .grad")
    page.locator(".lesson-why-save button").click()
    wait_for(lambda: not why.is_visible())
    wait_for(lambda: "1 of 2 right" in page.locator(".lesson-score").inner_text())
    kept = json.loads(page.evaluate("() => localStorage.getItem('autograd-explorer/lesson/grad-accumulates')"))
    assert kept["score"].startswith("1 of 2 right") and list(kept["whys"].values()) == [
        "I thought backward replaces .grad"]
    assert [v for v in axe_violations(page) if v["impact"] in SERIOUS] == []

    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown", "id": "a", "metadata": {}, "source": "# My notebook"},
        {"cell_type": "code", "id": "b", "metadata": {}, "execution_count": 1, "source": "!pip install torch",
         "outputs": []},
        {"cell_type": "code", "id": "c", "metadata": {}, "execution_count": 2,
         "source": "import torch\nx = torch.ones(1, requires_grad=True)\nx",
         "outputs": [{"output_type": "execute_result", "execution_count": 2, "metadata": {},
                      "data": {"text/plain": "tensor([ 1.])"}}]}]}
    page.locator(".lesson-file input[type=file]").set_input_files(
        {"name": "mine.ipynb", "mimeType": "application/x-ipynb+json", "buffer": json.dumps(notebook).encode()})
    wait_for(lambda: page.locator(".lesson h1").count() and page.locator(".lesson h1").inner_text() == "My notebook",
             30_000)
    text = page.locator(".lesson").inner_text()
    assert "`!pip install torch` is a shell command for IPython: not run" in text
    assert "The notebook stored another output for this cell" in text and "tensor([ 1.])" in text
    assert "tensor([1.], requires_grad=True)" in text
    context.close()
    assert [e for e in errors if e != KNOWN] == [], errors


def _tab_to(page, css: str, limit: int = 60) -> None:
    from browser import active_element

    for _ in range(limit):
        page.keyboard.press("Tab")
        if css in active_element(page)["host"]:
            return
    raise AssertionError(f"Tab never reached .{css}")


def test_a_lesson_by_keyboard_alone_gives_the_graph_the_room_at_each_width(browser, url):
    """Block to block with Tab and Enter, the arrow keys, the editor's column folded away in a wide window and
    brought back by the Code toggle; axe-core finds nothing serious at 1280x800, 800 and 390 wide."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "?lesson=autograd-tour", timeout=90_000)
    page.wait_for_selector(".lesson .block", timeout=60_000)
    assert page.locator(".sidebar").is_hidden()
    graph = page.locator(".graph-box").bounding_box()
    assert graph["width"] > 1280 * 0.6, graph  # beside the lesson's prose, most of the width
    _tab_to(page, "next-block")
    page.keyboard.press("Enter")
    wait_for(lambda: _current(page).startswith("block 1"))
    page.keyboard.press("Enter")
    wait_for(lambda: _current(page).startswith("block 2"))
    _tab_to(page, "lesson-code")
    page.keyboard.press("Enter")
    wait_for(lambda: page.locator(".sidebar").is_visible())
    page.keyboard.press("Enter")
    wait_for(lambda: page.locator(".sidebar").is_hidden())
    for width, height in ((1280, 800), (800, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(500)
        serious = [v for v in axe_violations(page) if v["impact"] in SERIOUS]
        assert serious == [], (width, serious)
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"), width
    context.close()
    assert [e for e in errors if e != KNOWN] == [], errors
