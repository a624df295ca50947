"""Stop on the static site (the button beside Run, or Ctrl+.): the program worker is terminated at once, the
program is reported as stopped at the last line it posted, what it recorded before (every event up to the last piece
the worker sent as it ran, engine/trace/so_far.py) can be stepped through, the spare worker takes over and the app is
ready for the next program (tests/app/test_stop_browser.py is the served one). The page keeps its full 15 s budget: what
ends the program is Stop, not the budget."""

from __future__ import annotations

import re
import time

import pytest

pytest.importorskip("playwright")

from tests.app.browser import console_stderr, console_stdout, counter, editor_text, wait_counter, wait_for  # noqa: E402

# 42 steps (x, the print, 20 iterations of two ops), then a loop that never ends
LOOP = ("import torch\nx = torch.ones(2, requires_grad=True)\nprint('before')\nfor i in range(20):\n"
        "    y = (x * i).sum()\nwhile True:\n    i += 1\n")
GOOD = "import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * 3).backward()\nprint(x.grad)\n"
STOPPED = re.compile(r"line [67]: Stopped: the program was stopped")
# 10,001 steps (10,001 prints: an event that costs little to record), a second of ticks, then one C call that never
# ends (Stop kills it)
LONG = ("import time\nprint('before')\nfor i in range(10000):\n    print(i)\nt = time.time()\n"
        "while time.time() - t < 1:\n    pass\na = [0]\nb = [0]\nfor i in range(40):\n    a = [a, a]\n    b = [b, b]\n"
        "a == b\n")
PRINTED = "before\n" + "".join(f"{i}\n" for i in range(10000))
LONG_STOPPED = re.compile(r"line ([6-9]|1[0-3]): Stopped: the program was stopped")  # the last line the worker posted
RECORDED_S = 9  # s from Run to the C call in Pyodide (~3 s on an idle 2-core machine; the page's budget is 15 s)


@pytest.fixture
def page(plain_page):
    return plain_page


def wall(page) -> dict:
    return page.evaluate("window.site.wall") or {"runs": 0, "stopped": 0, "why": None}


def start_loop(page, program=LOOP, seconds=1.5) -> float:
    page.locator(".editor .ace_editor").evaluate("(el, code) => el.env.editor.setValue(code, 1)", program)
    wait_for(lambda: editor_text(page) == program)
    page.wait_for_timeout(700)  # the editor's text reaches Python (the editor sends it a moment after a change)
    page.locator(".run button").click()
    page.wait_for_selector(".stop button", state="visible", timeout=10_000)
    assert "Running" in page.locator(".run button").inner_text()
    page.wait_for_timeout(seconds * 1000)  # the loop is running in the program worker
    return time.time()


def stopped_at_once(page, pressed: float, stops: int, said=STOPPED) -> None:
    # The worker is terminated as the press arrives (0.6 s here at load 15); the app's Python then shows the stopped
    # run (a few seconds at that load, beside the next spare worker's start): both well before the 15 s budget.
    page.wait_for_function(f"window.site.wall && window.site.wall.stopped === {stops}", timeout=5_000)
    assert time.time() - pressed < 5, "the worker is ended as the press arrives"
    page.wait_for_selector(".stop button", state="hidden", timeout=10_000)
    assert "Run" in page.locator(".run button").inner_text()
    wait_for(lambda: said.search(console_stderr(page)) is not None, 15_000)
    assert wall(page)["stopped"] == stops and wall(page)["why"]["type"] == "Stopped"


def test_stop_ends_the_program_at_once_and_the_app_is_ready(page):
    stops = wall(page)["stopped"]
    pressed = start_loop(page)
    page.locator(".stop button").click()
    stopped_at_once(page, pressed, stops + 1)
    assert editor_text(page) == LOOP, "the learner's code survives"
    assert counter(page) == (43, 43), "its 42 steps, then the stop"
    page.locator("body").click(position={"x": 5, "y": 790})
    for shown in (42, 41):
        page.keyboard.press("ArrowLeft")
        wait_counter(page, shown)
    assert "before" in console_stdout(page)
    page.locator(".editor .ace_editor").evaluate("(el, code) => el.env.editor.setValue(code, 1)", GOOD)
    page.wait_for_timeout(700)
    page.locator(".run button").click()
    wait_for(lambda: counter(page)[1] == 8, 20_000)  # the next program's 8 steps: the app is ready


def test_stop_keeps_every_step_of_a_long_run(page):
    stops = wall(page)["stopped"]
    pressed = start_loop(page, LONG, RECORDED_S)
    page.locator(".stop button").click()
    stopped_at_once(page, pressed, stops + 1, LONG_STOPPED)
    assert counter(page) == (10_002, 10_002), "its 10,001 steps, every one, then the stop"
    assert console_stdout(page) == PRINTED


def test_ctrl_period_stops_it_too(page):
    stops = wall(page)["stopped"]
    pressed = start_loop(page)
    page.keyboard.press("Control+Period")
    stopped_at_once(page, pressed, stops + 1)
