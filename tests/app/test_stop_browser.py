"""Stop (the button beside Run, or Ctrl+.) ends the program running under `panel serve` at once, shows what it
recorded so far (the child is told to end at its next tick, and sends its timeline; one in a C call is killed, and
what it recorded comes from the pieces it sent as it ran: engine/trace/isolated.py, so_far.py), and leaves the app
ready for the next program."""

import re

from browser import console_stderr, console_stdout, counter, editor_text, open_app, wait_counter, wait_for

# 42 steps (x, the print, 20 iterations of two ops), then a loop that never ends
LOOP = ("import torch\nx = torch.ones(2, requires_grad=True)\nprint('before')\nfor i in range(20):\n"
        "    y = (x * i).sum()\nwhile True:\n    i += 1\n")
STOPPED = re.compile(r"line [67]: Stopped: the program was stopped")
# 10,001 steps (10,001 prints: an event that costs little to record), a second of ticks, then one C call that never
# ends (Stop kills it)
LONG = ("import time\nprint('before')\nfor i in range(10000):\n    print(i)\nt = time.time()\n"
        "while time.time() - t < 1:\n    pass\na = [0]\nb = [0]\nfor i in range(40):\n    a = [a, a]\n    b = [b, b]\n"
        "a == b\n")
PRINTED = "before\n" + "".join(f"{i}\n" for i in range(10000))
LONG_STOPPED = re.compile(r"line 13: Stopped: the program was stopped")
RECORDED_S = 6  # s from Run to the C call (~1.5 s on an idle 2-core machine)


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


def test_stop_keeps_every_step_of_a_long_run(page, url):
    open_app(page, url, "example=accumulate")
    set_program(page, LONG)
    page.locator(".run button").click()
    page.wait_for_selector(".stop button", state="visible", timeout=10_000)
    assert "Running" in page.locator(".run button").inner_text()
    page.wait_for_timeout(RECORDED_S * 1000)
    page.locator(".stop button").click()
    # at once (the child is killed 0.3 s later), not after the 30 s budget; the app then shows its 10,001 steps
    page.wait_for_selector(".stop button", state="hidden", timeout=20_000)
    assert "Run" in page.locator(".run button").inner_text()
    wait_for(lambda: LONG_STOPPED.search(console_stderr(page)) is not None, 10_000)
    assert console_stdout(page) == PRINTED  # what it printed before it was stopped
    assert counter(page) == (10_002, 10_002), "its 10,001 steps, every one, then the stop"


def test_ctrl_period_stops_it_too(page, url):
    open_app(page, url, "example=accumulate")
    set_program(page, LOOP)
    page.locator(".run button").click()
    page.wait_for_selector(".stop button", state="visible", timeout=10_000)
    page.wait_for_timeout(1000)
    page.keyboard.press("Control+Period")
    page.wait_for_selector(".stop button", state="hidden", timeout=8_000)
    wait_for(lambda: STOPPED.search(console_stderr(page)) is not None, 5_000)
