"""Predict, then reveal, in Chromium, driven as a person drives it: turn the mode on, step, type a wrong guess
and see it marked with the right value and its formula, an unreadable one and see why, a right one and see the
score; on an example and on a program of the learner's own (a ?code= link). Screenshots land in
test-artifacts/ (predict-*.png) at 1280×800, 1920×1080 and 800 wide."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright")
from browser import (  # noqa: E402
    ARTIFACTS,
    SERIOUS,
    VIEWPORT,
    axe_violations,
    counter,
    open_app,
    wait_counter,
    wait_for,
)

from app.program.links import encode_code  # noqa: E402


def _page(browser, viewport=VIEWPORT):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def _panel(page) -> str:
    return page.locator(".predict").inner_text()


def _guess(page, text: str) -> None:
    field = page.get_by_role("textbox", name="Your prediction")
    field.fill(text)
    field.press("Enter")


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    time.sleep(0.8)
    page.screenshot(path=str(ARTIFACTS / f"predict-{name}.png"), full_page=page.viewport_size["width"] < 1000)


def test_predict_then_reveal_marks_guesses_and_keeps_score(browser, url):
    ctx, page, errors = _page(browser)
    open_app(page, url, "example=accumulate")
    start, total = counter(page)  # before backward: y = x * x, then y.backward()
    page.get_by_role("checkbox", name="Predict, then reveal").check()
    wait_for(lambda: page.locator(".predict").count() and "Score 0 / 0" in _panel(page))
    page.keyboard.press("ArrowRight")  # onto backward(): nothing to predict yet
    wait_counter(page, start + 1)
    page.keyboard.press("ArrowRight")  # MulBackward0 sends a grad: the step waits for a prediction
    wait_for(lambda: "What does it send to x (as self)?" in _panel(page))
    time.sleep(0.3)
    assert counter(page)[0] == start + 1
    page.get_by_role("button", name="Next step").click()  # the player is held too
    time.sleep(0.5)
    assert counter(page)[0] == start + 1
    assert "(1 of 2)" in _panel(page)

    _guess(page, "three")
    wait_for(lambda: "Cannot read “three” as a number or a tensor" in _panel(page))
    assert counter(page)[0] == start + 1 and "Score 0 / 0" in _panel(page)

    _guess(page, "2")  # wrong: y = x * x sends x = 3.0 along each edge
    wait_for(lambda: "✗ not quite" in _panel(page))
    text = _panel(page)
    assert "→ x (as self) = 3.0, you said 2" in text and "× x — 1.0 × 3.0 = 3.0" in text
    assert "(2 of 2)" in text and "Score 0 / 1" in text
    assert counter(page)[0] == start + 1
    _shot(page, "wrong-1280")
    assert [v for v in axe_violations(page) if v["impact"] in SERIOUS] == []  # the question, field and verdict

    _guess(page, "3")  # right: the step is taken, the value and formula stay
    wait_counter(page, start + 2)
    wait_for(lambda: "Score 1 / 2" in _panel(page))
    assert "✓ right → x (as other) = 3.0" in _panel(page)
    assert "MulBackward0 receives 1.0 and sends 3.0 to x and 3.0 to x" in page.locator(".caption-text").inner_text()
    _shot(page, "right-1280")

    # The field is empty again: → steps on from it, to the next question (x.grad, where the two grads meet).
    page.get_by_role("textbox", name="Your prediction").press("ArrowRight")
    wait_for(lambda: "What will x.grad be after this backward step?" in _panel(page))
    _guess(page, "tensor(6.)")  # as PyTorch prints it
    wait_for(lambda: "Score 2 / 3" in _panel(page))
    assert "grads meet: 3.0 + 3.0 = 6.0" in _panel(page)
    assert "AccumulateGrad receives 6.0 for x.grad" in page.locator(".caption-text").inner_text()  # the step asked
    page.keyboard.press("ArrowRight")  # then the .grad write; the verdict stays with the step it was about
    wait_for(lambda: "x.grad was None, now 6.0" in page.locator(".caption-text").inner_text())
    assert "✓" not in _panel(page)

    page.get_by_role("checkbox", name="Predict, then reveal").uncheck()  # stepping is free again
    wait_for(lambda: page.locator(".predict").is_hidden())
    page.get_by_role("button", name="Last step").click()
    wait_counter(page, total)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("name, viewport", [("own-1920", {"width": 1920, "height": 1080}),
                                            ("own-800", {"width": 800, "height": 900}), ("own-1280", VIEWPORT)])
def test_predict_works_on_the_learners_own_program_at_every_width(browser, url, name, viewport):
    source = "import torch\na = torch.tensor([1.0, 2.0], requires_grad=True)\nb = (a * a).sum()\nb.backward()\n"
    ctx, page, errors = _page(browser, viewport)
    open_app(page, url, "code=" + encode_code(source))
    start, _ = counter(page)
    page.get_by_role("checkbox", name="Predict, then reveal").check()
    wait_for(lambda: page.locator(".predict").count() and "Score 0 / 0" in _panel(page))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_for(lambda: "SumBackward0 (b) receives its grad. What does it send to a * a?" in _panel(page))
    _guess(page, "[1, 1]")
    wait_for(lambda: "Score 1 / 1" in _panel(page))
    page.keyboard.press("ArrowRight")
    wait_for(lambda: "What does it send to a (as self)?" in _panel(page))
    _guess(page, "[2, 4]")  # wrong: the grad is a, [1, 2]
    wait_for(lambda: "Score 1 / 2" in _panel(page))
    assert "✗ not quite → a (as self) = [1.0, 2.0], you said [2, 4]" in _panel(page)
    _guess(page, "[1., 2.]")
    wait_for(lambda: "Score 2 / 3" in _panel(page))
    _shot(page, name)
    assert not errors, errors
    ctx.close()
