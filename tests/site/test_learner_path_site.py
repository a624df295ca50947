"""What a learner trips over on the static site before Python has started (issue 26): a Run pressed then runs
once Python is ready, a cold `?code=` link shows its own program at once (not the default example's snapshot)
and says its graph is coming, and `?example=<unknown>` says so."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")

from app.program.links import encode_code  # noqa: E402
from tests.app.browser import console_stdout, counter, editor_text, wait_for  # noqa: E402
from tests.site import sitekit  # noqa: E402

QUEUED = "import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * x).backward()\nprint('queued', x.grad)\n"


def test_a_run_pressed_before_python_runs_once_python_is_ready(page, site):
    python = sitekit.open_before_python(page, site + "?example=accumulate")
    page.locator(".editor .ace_editor").evaluate("(el, text) => el.env.editor.setValue(text, 1)", QUEUED)
    page.locator(".run button").click()
    wait_for(lambda: page.evaluate("site.queued === true"), 5_000)
    assert "Queued" in page.locator(".run button").inner_text()
    assert "runs as soon as Python has started" in page.locator("#site-loading").inner_text()
    python.release()
    sitekit.wait_ready(page)
    # the program pressed, not the example: its graph at its first backward call, its print at the end
    wait_for(lambda: "x * x = 4.0" in page.locator(".caption-text").inner_text(), 60_000)
    page.locator(".stepper button.last").click()
    wait_for(lambda: "queued tensor(4.)" in console_stdout(page), 10_000)
    assert editor_text(page) == QUEUED and "Run" in page.locator(".run button").inner_text()


def test_a_cold_link_shows_its_own_program_at_once_and_says_its_graph_is_coming(page, site):
    source = "import torch\nw = torch.tensor([1.0, 3.0], requires_grad=True)\n(w ** 2).sum().backward()\n"
    python = sitekit.HeldPython(page)
    page.goto(f"{site}?code={encode_code(source)}")
    page.wait_for_function("() => window.site && window.site.linkCode", timeout=60_000)
    assert page.locator(".site-link-code").inner_text().strip() == source.strip()
    assert "Its graph is coming" in page.locator("#site-loading").inner_text()
    assert not page.locator("#site-snapshot").is_visible()  # not the default example's picture
    python.release()
    sitekit.wait_ready(page)
    assert editor_text(page) == source and counter(page)[1] > 0


def test_an_unknown_example_is_named_before_python_starts(page, site):
    sitekit.HeldPython(page)
    page.goto(f"{site}?example=nope")
    wait_for(lambda: page.locator("#site-loading").count() == 1 and "No example is called “nope”"
             in page.locator("#site-loading").inner_text(), 30_000)
