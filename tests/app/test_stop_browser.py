"""Stop (the button beside Run, or Ctrl+.) ends the program running under `panel serve` at once, shows what it
recorded so far (the child is told to end at its next tick, and sends its timeline: engine/trace/isolated.py),
and leaves the app ready for the next program."""

import re

from browser import console_stderr, console_stdout, counter, editor_text, open_app, wait_counter, wait_for

# 42 steps (x, the print, 20 iterations of two ops), then a loop that never ends
LOOP = ("import torch\nx = torch.ones(2, requires_grad=True)\nprint('before')\nfor i in range(20):\n"
        "    y = (x * i).sum()\nwhile True:\n    i += 1\n")
STOPPED = re.compile(r"line [67]: Stopped: the program was stopped")


def set_program(page, source):
    page.locator(".editor .ace_editor").evaluate("(el, code) => el.env.editor.setValue(code)", source)
    wait_for(lambda: editor_text(page) == source)
    page.wait_for_timeout(500)  # the editor's text reaches the server


def test_stop_ends_the_program_shows_its_steps_and_the_app_is_ready(page, url):
    open_app(page, url, "example=accumulate")
    set_program(page, LOOP)
    page.locator(".run button").click()
    page.wait_for_selector(".stop button", state="visible", timeout=10_000)
    assert "Running" in page.locator(".run button").inner_text()
    page.wait_for_timeout(1500)
    page.locator(".stop button").click()
    page.wait_for_selector(".stop button", state="hidden", timeout=8_000)  # at once, not after the 30 s budget
    assert "Run" in page.locator(".run button").inner_text()
    wait_for(lambda: STOPPED.search(console_stderr(page)) is not None, 5_000)
    assert console_stdout(page) == "before\n"  # what it printed before it was stopped
    assert counter(page) == (43, 43), "its 42 steps, then the stop"
    page.locator("body").click(position={"x": 5, "y": 790})
    for shown in (42, 41):  # what it recorded can be stepped through
        page.keyboard.press("ArrowLeft")
        wait_counter(page, shown)
    set_program(page, "import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * 3).backward()\nprint(x.grad)\n")
    page.locator(".run button").click()
    wait_for(lambda: counter(page)[1] == 8, 20_000)  # the next program's 8 steps: the app is ready


def test_ctrl_period_stops_it_too(page, url):
    open_app(page, url, "example=accumulate")
    set_program(page, LOOP)
    page.locator(".run button").click()
    page.wait_for_selector(".stop button", state="visible", timeout=10_000)
    page.wait_for_timeout(1000)
    page.keyboard.press("Control+Period")
    page.wait_for_selector(".stop button", state="hidden", timeout=8_000)
    wait_for(lambda: STOPPED.search(console_stderr(page)) is not None, 5_000)
