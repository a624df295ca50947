"""Stop (the button beside Run, or Ctrl+.) ends the program running under `panel serve` at once, shows what it
recorded so far, and leaves the app ready for the next program."""

from browser import console_stderr, console_stdout, counter, editor_text, open_app, wait_for

LOOP = "import torch\nx = torch.ones(2)\nprint('before')\ni = 0\nwhile True:\n    i += 1\n"


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
    wait_for(lambda: "line 5: Stopped: the program was stopped" in console_stderr(page), 5_000)
    assert console_stdout(page) == "before\n"  # what it printed before it was stopped
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
    wait_for(lambda: "line 5: Stopped: the program was stopped" in console_stderr(page), 5_000)
