"""End to end: `panel serve app/main.py` driven by Chromium, checked against real PyTorch (the oracle).

Screenshots land in test-artifacts/.
"""

from __future__ import annotations

import base64

import pytest

from app.program.examples import EXAMPLES
from engine.trace.text import short

pytest.importorskip("playwright")
from browser import (  # noqa: E402
    TORCH_PYTHON,
    Oracle,
    console_stderr,
    console_stdout,
    counter,
    editor_text,
    grads_shown,
    node_xy,
    open_app,
    wait_counter,
    wait_for,
)

pytestmark = pytest.mark.skipif(not TORCH_PYTHON.exists(), reason="the real-PyTorch oracle is not set up")


@pytest.fixture(scope="module")
def oracle():
    o = Oracle()
    yield o
    o.close()


def expected_grads(result: dict) -> dict[str, str]:
    return {name: short(value, limit=8) for name, value in result["grads"].items()}


@pytest.mark.parametrize("slug", [e.slug for e in EXAMPLES])
def test_example_at_the_end_matches_pytorch(page, url, oracle, slug):
    source = next(e.source for e in EXAMPLES if e.slug == slug)
    open_app(page, url, f"example={slug}&step=0")
    shown, total = counter(page)
    while shown < total:  # step to the end a backward call at a time
        page.locator(".next-call button").click()
        wait_for(lambda before=shown: counter(page)[0] > before)
        shown = counter(page)[0]
    truth = oracle.run(source, list(grads_shown(page)))
    assert console_stdout(page) == truth["stdout"]
    stderr = console_stderr(page)
    if truth["error"]:
        assert f"{truth['error']['type']}: {truth['error']['message']}" in stderr
    for w in truth["warnings"]:
        message = w["message"].split(" (Triggered internally at")[0]
        assert f"{w['category']}: {message}" in stderr
    grads = grads_shown(page)
    expected = expected_grads(truth)
    assert {name: grads[name] for name in expected} == expected
    if "backward()" in source and not truth["error"]:
        assert expected, "an example with backward shows at least one leaf .grad"


def test_clicking_a_node_fills_the_inspector(page, url):
    open_app(page, url, "example=square-of-sum&step=end")
    x, y = node_xy(page, "t0")
    page.mouse.click(x, y)
    page.wait_for_selector(".inspector h3", timeout=10_000)
    assert page.locator(".inspector h3").inner_text() == "x"
    assert page.locator(".inspector td.v-grad").inner_text() == "6.0"
    assert page.locator(".inspector td.v-grad_fn").inner_text() == "None"
    page.keyboard.press("ArrowLeft")
    shown, total = counter(page)
    wait_counter(page, total - 1)


def test_share_and_exports(page, url, oracle):
    open_app(page, url, "example=square-of-sum&step=5")
    page.locator(".share-export button.share").click()
    wait_for(lambda: "example=square-of-sum&step=5" in page.url)
    for kind, magic in (("svg", b"<svg"), ("png", b"\x89PNG")):
        with page.expect_download() as download:
            page.locator(f".share-export button.export-{kind}").click()
        assert download.value.suggested_filename == f"autograd-graph.{kind}"
        assert magic in open(download.value.path(), "rb").read(200)
    with page.expect_download() as download:
        page.locator(".export-py button").click()
    source = open(download.value.path(), encoding="utf-8").read()
    assert "z.backward()" in source
    assert oracle.run(source)["stdout"] == "tensor(6.) tensor(6.)\n"


def test_step_back_after_the_end(page, url):
    from app import timeline as tl
    from app.program.examples import BY_SLUG

    starts = tl.backward_starts(tl.run(BY_SLUG["accumulate"].source).events)
    open_app(page, url, "example=accumulate&step=end")
    shown, total = counter(page)
    assert shown == total and grads_shown(page)["x"] == "11.0"
    page.locator("body").click(position={"x": 5, "y": 790})
    for i in range(1, 4):
        page.keyboard.press("ArrowLeft")
        wait_counter(page, total - i)
    k = total - 4
    while k > -1:
        page.locator(".prev-call button").click()
        k = max([s for s in starts if s < k], default=-1)
        wait_counter(page, k + 1)
        if k == starts[0]:
            assert grads_shown(page)["x"] == "None"
    page.keyboard.press("ArrowRight")
    wait_counter(page, 1)
    page.locator(".stepper button.faster").click()
    page.locator(".stepper button.play").click()
    wait_for(lambda: counter(page)[0] >= 4)
    page.locator(".stepper button.pause").click()


def test_malformed_code_link_shows_a_message_and_the_default_example(page, url):
    open_app(page, url, "code=%25%25not-base64!&step=end")
    alert = page.locator(".link-problem")
    assert "broken" in alert.inner_text() and "default example" in alert.inner_text()
    assert "y.backward()" in editor_text(page)


def test_code_link_opens_that_program_at_that_step(page, url, oracle):
    source = "import torch\n\nw = torch.tensor([1.0, -2.0], requires_grad=True)\nloss = (w * w).sum()\n" \
             "loss.backward()\nprint(w.grad)\n"
    code = base64.urlsafe_b64encode(source.encode()).decode().rstrip("=")
    open_app(page, url, f"code={code}&step=end")
    assert console_stdout(page) == oracle.run(source)["stdout"]
    assert grads_shown(page)["w"] == "[2.0, -4.0]"
