"""The canvas builder driven as a person would, served, in Chromium: leaves and an op from the palette (dragged
and clicked), wires drawn by dragging and by clicking ports, a value typed, the code written beside it, the code
edited and the canvas following, a node deleted with the keyboard, backward from a node, stepped with the player,
and the grads checked against real PyTorch. Screenshots land in test-artifacts/ (canvas-*.png)."""

from __future__ import annotations

import base64
import json

import pytest

pytest.importorskip("playwright")
from browser import (  # noqa: E402
    ARTIFACTS,
    SERIOUS,
    TORCH_PYTHON,
    Oracle,
    active_element,
    axe_violations,
    counter,
    editor_text,
    grads_shown,
    open_app,
    wait_counter,
    wait_for,
)

pytestmark = pytest.mark.skipif(not TORCH_PYTHON.exists(), reason="the real-PyTorch oracle is not set up")

SIZES = {"1280x800": (1280, 800), "1920x1080": (1920, 1080), "800": (800, 900)}


@pytest.fixture(scope="module")
def oracle():
    o = Oracle()
    yield o
    o.close()


def _board(page, css: str):
    return page.locator(f".canvas-board {css}")


def _formulas(page) -> list[str]:
    return _board(page, ".node .formula").all_inner_texts()


def _wait_code(page, text: str, present: bool = True) -> None:
    wait_for(lambda: (text in editor_text(page)) == present)


def _in_window(page, css: str, height: int) -> bool:
    box = page.locator(css).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def _select(page, name: str) -> None:
    """Click a node and wait for its fields, as a person would look before typing."""
    _board(page, f"[data-key='node:{name}']").click()
    wait_for(lambda: page.locator(".node-title b").inner_text().startswith(f"{name} = "))


def _fill(page, css: str, text: str) -> None:
    box = page.locator(f".{css} input")
    box.fill(text)
    box.press("Enter")


def test_a_person_builds_a_graph_edits_its_code_and_steps_its_backward(browser, url, oracle):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_app(page, url)
        assert "New canvas" in _board(page, ".why").inner_text()  # the default example is no canvas
        page.locator(".new-program button").click()
        wait_for(lambda: _board(page, ".empty").count() == 1)

        canvas = _board(page, ".board")
        _board(page, "button.pal[data-op=leaf]").drag_to(canvas, target_position={"x": 70, "y": 40})
        wait_for(lambda: _formulas(page) == ["a = 1.0"])
        _board(page, "button.pal[data-op=leaf]").click()
        wait_for(lambda: len(_formulas(page)) == 2)
        _board(page, "button.pal[data-op='×']").click()
        _wait_code(page, "# c = ? * ?")
        assert _formulas(page) == ["a = 1.0", "b = 1.0", "c = ? * ?"]

        _board(page, "[data-key='out:a']").drag_to(_board(page, "[data-key='in:c:0']"))  # a wire, dragged
        _wait_code(page, "# c = a * ?")
        _board(page, "[data-key='out:b']").click()  # a wire, clicked: output, then input
        _board(page, "[data-key='in:c:1']").click()
        _wait_code(page, "\nc = a * b\n")

        _select(page, "a")
        _fill(page, "leaf-value", "2.0")
        _wait_code(page, "a = torch.tensor(2.0, requires_grad=True)")
        _select(page, "b")
        _fill(page, "leaf-value", "3.0")
        _wait_code(page, "b = torch.tensor(3.0, requires_grad=True)")
        page.screenshot(path=str(ARTIFACTS / "canvas-built.png"))

        editor = page.locator(".editor .ace_content")  # the code, edited by hand, redraws the canvas
        editor.click()
        page.keyboard.press("Control+End")
        page.keyboard.type("d = c.tanh()\n")
        page.locator(".run button").click()
        wait_for(lambda: _formulas(page) == ["a = 2.0", "b = 3.0", "c = a * b", "d = c.tanh()"])
        assert _board(page, "[data-key='in:d:0']").get_attribute("aria-label") == "input a of d: c"

        _board(page, "[data-key='node:d']").focus()  # deleted with the keyboard
        page.keyboard.press("Delete")
        wait_for(lambda: len(_formulas(page)) == 3)
        _wait_code(page, "d = c.tanh()", present=False)

        _select(page, "c")
        page.locator(".backward-here button").click()
        _wait_code(page, "c.backward()")
        source = editor_text(page)
        truth = oracle.run(source, ["a", "b"])
        assert truth["error"] is None
        shown, total = counter(page)
        assert grads_shown(page) == {"a": "None", "b": "None"} and shown < total
        while shown < total:  # stepped with the player, as any program
            page.locator(".stepper button.next").click()
            shown += 1
            wait_counter(page, shown)
        assert grads_shown(page) == {"a": "3.0", "b": "2.0"} == {k: str(v) for k, v in truth["grads"].items()}
        assert _board(page, ".node.backward .formula").inner_text() == "c = a * b"
        page.screenshot(path=str(ARTIFACTS / "canvas-backward.png"))
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("size", [*SIZES, "390"])
def test_the_canvas_at_each_size(browser, url, size):
    width, height = {**SIZES, "390": (390, 844)}[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        source = ("import torch\n\nx = torch.tensor([1.0, -2.0], requires_grad=True)\nw = torch.tensor(3.0, "
                  "requires_grad=True)\ny = x * w\nz = y.tanh()\ns = z.sum()\n# t = s + ?  # not run yet: "
                  "connect every input\ns.backward()\nprint(x.grad)\nprint(w.grad)\n")
        open_app(page, url, "code=" + base64.urlsafe_b64encode(source.encode()).decode().rstrip("="))
        wait_for(lambda: len(_formulas(page)) == 6)
        _select(page, "y")
        wait_for(lambda: _in_window(page, ".port-a select", height) and _in_window(page, ".backward-here button",
                                                                                   height), 3_000)  # brought in
        _board(page, ".board").scroll_into_view_if_needed()
        board = _board(page, ".board").bounding_box()
        assert board["width"] >= 300
        width_now = page.evaluate("() => document.documentElement.scrollWidth")
        assert width_now <= width, f"the page scrolls sideways: {width_now} > {width}"
        page.screenshot(path=str(ARTIFACTS / f"canvas-{size}.png"))
        serious = [v for v in axe_violations(page) if v["impact"] in SERIOUS]
        assert serious == [], json.dumps(serious, indent=1)
    finally:
        context.close()


def test_the_keyboard_alone_adds_wires_and_moves_nodes(browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        source = ("import torch\n\na = torch.tensor(2.0, requires_grad=True)\n"
                  "# b = ?.exp()  # not run yet: connect every input\n")
        open_app(page, url, "code=" + base64.urlsafe_b64encode(source.encode()).decode().rstrip("="))
        wait_for(lambda: len(_formulas(page)) == 2)
        _board(page, "button.pal[data-op=leaf]").focus()
        for _ in range(40):  # Tab from the palette reaches the nodes and their ports
            page.keyboard.press("Tab")
            if (active_element(page) or {}).get("label", "").startswith("output of a"):
                break
        else:
            raise AssertionError(f"Tab never reached a's output; focus is on {active_element(page)}")
        page.keyboard.press("Enter")  # wire from a …
        wait_for(lambda: "now choose an input" in active_element(page)["label"])
        _board(page, "[data-key='in:b:0']").focus()
        page.keyboard.press("Enter")  # … into b's input
        _wait_code(page, "\nb = a.exp()\n")
        shown = page.locator(".counter").inner_text()
        top = _board(page, ".node[data-name=b]").evaluate("e => parseFloat(e.style.top)")
        _board(page, "[data-key='node:b']").focus()
        page.keyboard.press("ArrowDown")  # moves the node, does not step the program
        wait_for(lambda: _board(page, ".node[data-name=b]").evaluate("e => parseFloat(e.style.top)") == top + 10)
        assert page.locator(".counter").inner_text() == shown
        assert active_element(page)["label"].startswith("b = a.exp()")
    finally:
        context.close()


@pytest.mark.parametrize("size", ["1280x800", "800"])
def test_the_canvas_opens_large_by_keyboard_and_closes(browser, url, size):
    """“Larger canvas”: in a wide window the builder lies over the graph's area with the code still beside it
    (the graph's controls hidden, so Tab does not reach them); at 800 px it already spans the page and its board
    grows. Pressed again, everything is back as it was."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        open_app(page, url, "example=square-of-sum")
        wait_for(lambda: len(_formulas(page)) > 0)
        small = _board(page, ".board").bounding_box()
        toggle = page.get_by_role("button", name="Larger canvas")
        toggle.focus()
        page.keyboard.press("Enter")
        wait_for(lambda: page.get_by_role("button", name="Smaller canvas").count() == 1)
        wait_for(lambda: _board(page, ".board").bounding_box()["height"] > small["height"] + 100)
        large = _board(page, ".board").bounding_box()
        editor = page.locator(".editor .ace_editor").bounding_box()
        graph_seen = page.locator(".graph-box").evaluate("el => getComputedStyle(el).visibility")
        if width > 1099:
            assert large["width"] >= 2 * small["width"] and large["x"] >= editor["x"] + editor["width"]
            assert large["y"] + large["height"] <= height, "the large board runs past the window"
            assert graph_seen == "hidden"
        else:
            assert large["width"] >= 700 and graph_seen == "visible"
        _board(page, ".board").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"canvas-large-{size}.png"), full_page=width < 1000)
        serious = [v for v in axe_violations(page) if v["impact"] in SERIOUS]
        assert serious == [], json.dumps(serious, indent=1)
        page.get_by_role("button", name="Smaller canvas").click()
        wait_for(lambda: page.get_by_role("button", name="Larger canvas").count() == 1)
        wait_for(lambda: abs(_board(page, ".board").bounding_box()["height"] - small["height"]) < 2)
        assert page.locator(".graph-box").evaluate("el => getComputedStyle(el).visibility") == "visible"
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_keyboard_stays_on_the_canvas_toggle_as_its_name_changes(browser, url, size):
    """Enter on “Larger canvas” renames the button (Bokeh draws it anew): the focus stays on it, now named
    “Smaller canvas”, so Enter again (or Space) turns it back and Tab goes on to the next control."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        open_app(page, url, "example=square-of-sum")
        wait_for(lambda: len(_formulas(page)) > 0)
        page.get_by_role("button", name="Larger canvas").focus()
        page.keyboard.press("Enter")
        wait_for(lambda: page.get_by_role("button", name="Smaller canvas").count() == 1)
        wait_for(lambda: active_element(page)["text"] == "⤡ Smaller canvas")
        assert "widen-canvas" in active_element(page)["host"]
        page.screenshot(path=str(ARTIFACTS / f"canvas-toggle-focus-{size}.png"))
        page.keyboard.press("Space")
        wait_for(lambda: page.get_by_role("button", name="Larger canvas").count() == 1)
        wait_for(lambda: active_element(page)["text"] == "⤢ Larger canvas")
        page.keyboard.press("Enter")
        wait_for(lambda: active_element(page)["text"] == "⤡ Smaller canvas")
        page.keyboard.press("Tab")
        assert active_element(page)["text"] == "New canvas"
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")
        wait_for(lambda: active_element(page)["text"] == "⤢ Larger canvas")
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_several_backward_calls_from_the_canvas_run_as_pytorch(browser, url, oracle, size):
    """“Backward from here” on one node, then on another that shares its graph, then on a leaf: the code calls
    backward three times (the first with retain_graph=True, as PyTorch needs), the grads accumulate over the
    calls as real PyTorch's do, and pressing the button again takes that call away."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        source = ("import torch\n\na = torch.tensor(2.0, requires_grad=True)\nb = torch.tensor(3.0, "
                  "requires_grad=True)\nc = a * b\nd = c * a\n")
        open_app(page, url, "code=" + base64.urlsafe_b64encode(source.encode()).decode().rstrip("="))
        wait_for(lambda: len(_formulas(page)) == 4)
        for name in ("c", "d", "a"):
            _select(page, name)
            page.get_by_role("button", name=f"Backward from {name}").click()
            _wait_code(page, f"\n{name}.backward(")
        _wait_code(page, "c.backward(retain_graph=True)\nd.backward()\na.backward()\nprint(a.grad)\n")
        assert _board(page, ".node.backward .formula").all_inner_texts() == ["a = 2.0", "c = a * b", "d = c * a"]
        truth = oracle.run(editor_text(page), ["a", "b"])
        assert truth["error"] is None and truth["grads"] == {"a": 16.0, "b": 6.0}
        page.get_by_role("button", name="Last step").click()
        wait_for(lambda: grads_shown(page) == {"a": "16.0", "b": "6.0"})
        page.get_by_role("button", name="First step").click()
        wait_for(lambda: counter(page)[0] == 0)
        shown = []
        for _ in range(3):  # the player's backward-call button stops at each of the three calls
            page.locator(".next-call button").click()
            wait_for(lambda: counter(page)[0] not in (0, *shown))
            shown.append(counter(page)[0])
        assert shown == sorted(shown) and len(set(shown)) == 3
        _board(page, ".board").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"canvas-backwards-{size}.png"), full_page=width < 1000)

        _select(page, "d")  # pressed again: d's call goes, and c's no longer needs the graph kept
        page.get_by_role("button", name="No backward from d").click()
        _wait_code(page, "\nc.backward()\na.backward()\nprint(a.grad)\n")
        truth = oracle.run(editor_text(page), ["a", "b"])
        assert truth["error"] is None and truth["grads"] == {"a": 4.0, "b": 2.0}
    finally:
        context.close()
    assert not errors, errors
