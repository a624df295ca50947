"""Stop on the static site (the button beside Run, or Ctrl+.): the program worker is terminated at once, the
program is reported as stopped at the last line it posted, the spare worker takes over and the app is ready for
the next program (tests/app/test_stop_browser.py is the served one). The page keeps its full 15 s budget: what
ends the program is Stop, not the budget."""

from __future__ import annotations

import re
import time

import pytest

pytest.importorskip("playwright")

from tests.app.browser import console_stderr, counter, editor_text, wait_for  # noqa: E402

LOOP = "import torch\nx = torch.ones(2)\nprint('before')\ni = 0\nwhile True:\n    i += 1\n"
GOOD = "import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * 3).backward()\nprint(x.grad)\n"
STOPPED = re.compile(r"line [56]: Stopped: the program was stopped")


@pytest.fixture
def page(plain_page):
    return plain_page


def wall(page) -> dict:
    return page.evaluate("window.site.wall") or {"runs": 0, "stopped": 0, "why": None}


def start_loop(page) -> float:
    page.locator(".editor .ace_editor").evaluate("(el, code) => el.env.editor.setValue(code, 1)", LOOP)
    wait_for(lambda: editor_text(page) == LOOP)
    page.wait_for_timeout(700)  # the editor's text reaches Python (the editor sends it a moment after a change)
    page.locator(".run button").click()
    page.wait_for_selector(".stop button", state="visible", timeout=10_000)
    assert "Running" in page.locator(".run button").inner_text()
    page.wait_for_timeout(1500)  # the loop is running in the program worker
    return time.time()


def stopped_at_once(page, pressed: float, stops: int) -> None:
    # The worker is terminated as the press arrives (0.6 s here at load 15); the app's Python then shows the stopped
    # run (a few seconds at that load, beside the next spare worker's start): both well before the 15 s budget.
    page.wait_for_function(f"window.site.wall && window.site.wall.stopped === {stops}", timeout=5_000)
    assert time.time() - pressed < 5
    page.wait_for_selector(".stop button", state="hidden", timeout=10_000)
    assert "Run" in page.locator(".run button").inner_text()
    wait_for(lambda: STOPPED.search(console_stderr(page)) is not None, 5_000)
    assert wall(page)["stopped"] == stops and wall(page)["why"]["type"] == "Stopped"


def test_stop_ends_the_program_at_once_and_the_app_is_ready(page):
    stops = wall(page)["stopped"]
    pressed = start_loop(page)
    page.locator(".stop button").click()
    stopped_at_once(page, pressed, stops + 1)
    assert editor_text(page) == LOOP, "the learner's code survives"
    page.locator(".editor .ace_editor").evaluate("(el, code) => el.env.editor.setValue(code, 1)", GOOD)
    page.wait_for_timeout(700)
    page.locator(".run button").click()
    wait_for(lambda: counter(page)[1] == 8, 20_000)  # the next program's 8 steps: the app is ready


def test_ctrl_period_stops_it_too(page):
    stops = wall(page)["stopped"]
    pressed = start_loop(page)
    page.keyboard.press("Control+Period")
    stopped_at_once(page, pressed, stops + 1)
