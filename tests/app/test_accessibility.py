"""A page anyone can use, driven as a person would: with the keyboard alone, at 800 and 390 px wide, and checked
by axe-core (the accessibility rules, from npm) for serious and critical violations.

Screenshots land in test-artifacts/ (a11y-*.png).
"""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")
import graph_fit  # noqa: E402
from browser import (  # noqa: E402
    ARTIFACTS,
    SERIOUS,
    active_element,
    axe_violations,
    counter,
    open_app,
    wait_counter,
    wait_for,
)

from app.program.examples import EXAMPLES  # noqa: E402
from app.program.links import encode_code  # noqa: E402

_OWN = "import torch\na = torch.tensor([1.0, 2.0], requires_grad=True)\nb = (a * a).sum()\nb.backward()\n"
SIZES = {"1280x800": (1280, 800), "1920x1080": (1920, 1080), "800": (800, 900), "390": (390, 844)}


def _page(browser, size: str):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def _resize(page, size: str | tuple[int, int]) -> None:
    """The same page at another size, once the page has laid itself out again (Bokeh lays out on resize)."""
    width, height = SIZES[size] if isinstance(size, str) else size
    page.set_viewport_size({"width": width, "height": height})
    wait_for(lambda: page.evaluate("() => innerWidth") == width, 3_000)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.wait_for_timeout(200)


def _serious(violations: list[dict]) -> list[dict]:
    return [v for v in violations if v["impact"] in SERIOUS]


def _wait_labelled(page) -> None:
    """The player's buttons are named once the page's accessibility component has found them."""
    page.wait_for_selector(".stepper button.play[aria-label=Play]", timeout=10_000)


def _tab_to(page, matches, presses: int = 60) -> dict:
    for _ in range(presses):
        page.keyboard.press("Tab")
        now = active_element(page)
        if now and matches(now):
            return now
    raise AssertionError(f"Tab never reached it; focus ended on {active_element(page)}")


@pytest.mark.parametrize("size", list(SIZES))
def test_axe_finds_nothing_serious_and_the_page_fits(browser, url, size):
    context, page, errors = _page(browser, size)
    try:
        open_app(page, url, "example=square-of-sum&step=9")
        _wait_labelled(page)
        if size == "390":  # a graph wider than a phone: whole layers in view, as it steps, no box cut at the sides
            for _ in range(4):
                wait_for(lambda: (page.evaluate(_TOOLBAR_AND_NODES) or {}).get("nodes"))
                wait_for(lambda: _cut_at_the_sides(page.evaluate(_TOOLBAR_AND_NODES)) == [], 3_000)
                page.locator(".stepper button.next").click()
        page.locator(".node-buttons button.node").nth(1).click()
        page.wait_for_selector(".inspector h3", timeout=10_000)
        width, client = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        page.screenshot(path=str(ARTIFACTS / f"a11y-{size}.png"))
        page.screenshot(path=str(ARTIFACTS / f"a11y-{size}-full.png"), full_page=True)
        assert width <= client, f"the page scrolls sideways at {size}: {width} > {client} px"
        assert _serious(axe_violations(page)) == []
    finally:
        context.close()
    assert not errors, errors


def test_inspector_shows_every_row_without_scrolling_at_1280x800(browser, url):
    context, page, _ = _page(browser, "1280x800")
    try:
        open_app(page, url, "example=square-of-sum&step=end")
        page.locator(".node-buttons button.node[data-key=t4]").click()
        page.wait_for_selector(".inspector td.v-vjp", timeout=10_000)
        card = page.locator(".inspector-card").bounding_box()
        for cell in ("v-value", "v-grad", "v-saved-tensors", "v-version", "v-vjp"):
            box = page.locator(f".inspector td.{cell}").bounding_box()
            assert box["y"] + box["height"] <= min(card["y"] + card["height"], 800), cell
    finally:
        context.close()


def test_keyboard_alone_leaves_the_editor_plays_and_inspects_a_node(browser, url):
    context, page, errors = _page(browser, "1280x800")
    try:
        open_app(page, url, "example=square-of-sum&step=0")
        _wait_labelled(page)
        page.locator(".examples select").focus()
        editor = _tab_to(page, lambda a: "ace_scroller" in a["classes"])
        assert "Enter" in editor["label"]
        page.keyboard.press("Enter")  # edit: Tab now indents
        page.keyboard.press("Home")
        page.keyboard.press("Tab")
        assert page.locator(".editor .ace_editor").evaluate("el => el.env.editor.getValue()").startswith("\t")
        page.keyboard.press("Control+z")
        page.keyboard.press("Escape")  # stop editing: the next Tab moves on, to Run
        page.keyboard.press("Tab")
        assert active_element(page)["text"] == "▶ Run"

        play = _tab_to(page, lambda a: a["label"] == "Play")
        assert "play" in play["classes"]
        names = page.locator(".stepper button").evaluate_all(
            "bs => bs.filter((b) => b.offsetParent).map((b) => b.getAttribute('aria-label'))")
        assert names == ["Slower", "First step", "Previous step", "Pause", "Play", "Next step", "Last step",
                         "Faster"]
        pressed = page.locator(".stepper button[aria-pressed=true]")
        assert pressed.count() == 1 and pressed.get_attribute("aria-label") == "Pause"
        page.keyboard.press("Enter")
        wait_for(lambda: counter(page)[0] >= 2)
        assert pressed.count() == 1 and pressed.get_attribute("aria-label") == "Play"
        page.locator(".stepper button.pause").focus()
        page.keyboard.press("Enter")
        assert page.locator(".stepper button[aria-pressed=true]").get_attribute("aria-label") == "Pause"

        node = _tab_to(page, lambda a: "node" in a["classes"])
        first = node["text"]
        page.keyboard.press("ArrowRight")  # moves between the nodes; does not step the program
        second = active_element(page)["text"]
        assert second != first
        shown = counter(page)[0]
        page.keyboard.press("Enter")
        page.wait_for_selector(".inspector h3", timeout=10_000)
        heading = page.locator(".inspector h3").inner_text()
        if second.startswith("AccumulateGrad"):
            assert heading == "AccumulateGrad"
        else:
            assert heading.startswith(second.rstrip("…"))
        assert counter(page)[0] == shown
        page.screenshot(path=str(ARTIFACTS / "a11y-keyboard.png"))
    finally:
        context.close()
    assert not errors, errors


def test_at_800_px_the_slider_is_wide_and_steps(browser, url):
    context, page, errors = _page(browser, "800")
    try:
        open_app(page, url, "example=square-of-sum&step=3")
        _wait_labelled(page)
        slider = page.locator(".stepper input[type=range]")
        assert slider.bounding_box()["width"] >= 300
        slider.focus()
        page.keyboard.press("ArrowRight")
        wait_counter(page, 4)
        box = slider.bounding_box()
        page.mouse.click(box["x"] + box["width"] - 3, box["y"] + box["height"] / 2)
        shown, total = counter(page)
        wait_counter(page, total)
    finally:
        context.close()
    assert not errors, errors


def test_a_failed_run_shows_its_own_error_length_and_output(browser, url):
    context, page, errors = _page(browser, "1280x800")
    try:
        open_app(page, url, "example=square-of-sum&step=end")
        page.locator(".editor .ace_editor").evaluate(
            "el => el.env.editor.setValue('print(\"before\")\\nprint(undefined_name)\\n')")
        page.locator(".run button").click()
        page.wait_for_selector(".caption-text.failed", timeout=20_000)
        caption = page.locator(".caption-text").inner_text()
        assert "Line 2: NameError" in caption and "last program that ran" in caption
        assert counter(page) == (2, 2)
        assert page.locator(".stepper input[type=range]").is_disabled()
        assert page.locator(".console pre.stdout").text_content() == "before\n"
        assert "NameError" in page.locator(".console pre.stderr").text_content()
        assert _serious(axe_violations(page)) == []
        page.screenshot(path=str(ARTIFACTS / "a11y-failed-run.png"))
    finally:
        context.close()
    assert not errors, errors


def test_a_training_loop_fits_a_narrow_window(browser, url):
    context, page, errors = _page(browser, "800")
    try:
        open_app(page, url, "example=gradient-descent&step=40")
        page.wait_for_selector(".iteration-bar", timeout=10_000)
        for size in ("800", "390"):  # one page, narrowed (a page load per width took most of this test)
            _resize(page, size)
            width, client = page.evaluate(
                "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            page.screenshot(path=str(ARTIFACTS / f"a11y-loop-{size}-full.png"), full_page=True)
            assert width <= client, f"the page scrolls sideways at {size}: {width} > {client} px"
            curve = page.locator(".loss-curve").bounding_box()
            assert curve["x"] >= 0 and curve["x"] + curve["width"] <= client + 1, size
    finally:
        context.close()
    assert not errors, errors


def test_at_800_px_the_graph_and_player_come_right_after_the_editor_and_the_builder_below(browser, url):
    context, page, errors = _page(browser, "800")
    try:
        open_app(page, url, "example=square-of-sum&step=9")
        tops = {name: page.locator(css).first.bounding_box()["y"] for name, css in (
            ("editor", ".editor .ace_editor"), ("player", ".stepper"), ("graph", ".graph-box"),
            ("inspector", ".inspector-card"), ("builder", ".builder-section"), ("legend", ".legend"))}
        assert sorted(tops, key=tops.get) == ["editor", "player", "graph", "inspector", "builder", "legend"], tops
        page.screenshot(path=str(ARTIFACTS / "a11y-800-order.png"), full_page=True)
    finally:
        context.close()
    assert not errors, errors


# The graph's toolbar, its plotting frame and every node box, in page pixels (Bokeh's own views and scales).
_TOOLBAR_AND_NODES = """
() => {
  for (const pv of Bokeh.index.all_views()) {
    if (!pv.frame || !pv.renderer_views || !pv.model.toolbar) continue;
    let boxes = null;
    for (const [model] of pv.renderer_views) {
      const data = model.data_source && model.data_source.data;
      if (data && data.key && data.h && model.glyph.width) { boxes = [model, data]; break }
    }
    if (!boxes) continue;
    const canvas = pv.canvas_view.el.getBoundingClientRect();
    const f = pv.frame.bbox, xs = pv.frame.x_scale, ys = pv.frame.y_scale;
    const tool = [...Bokeh.index.all_views()].find((v) => v.model === pv.model.toolbar);
    const t = tool.el.getBoundingClientRect();
    const [model, data] = boxes, w = model.glyph.width.value;
    const nodes = [...data.key].map((key, i) => {
      const x0 = xs.compute(data.x[i] - w / 2), x1 = xs.compute(data.x[i] + w / 2);
      const y0 = ys.compute(data.y[i] + data.h[i] / 2), y1 = ys.compute(data.y[i] - data.h[i] / 2);
      return [key, canvas.left + x0, canvas.top + y0, canvas.left + x1, canvas.top + y1];
    });
    return {toolbar: [t.left, t.top, t.right, t.bottom],
            frame: [canvas.left + f.left, canvas.top + f.top, canvas.left + f.right, canvas.top + f.bottom], nodes};
  }
  return null;
}
"""


def _cut_at_the_sides(seen: dict) -> list[str]:
    """The node boxes the graph's frame cuts at its left or right side."""
    left, top, right, bottom = seen["frame"]
    return [key for key, x0, y0, x1, y1 in seen["nodes"] if y0 < bottom and y1 > top
            and any(x0 < side - 1 and x1 > side + 1 for side in (left, right))]


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_the_graph_toolbar_covers_no_node(browser, url):
    context, page, errors = _page(browser, "1280x800")
    try:
        for query in ("example=square-of-sum&step=9", "example=mlp-step&step=end", "example=chain-100&step=end"):
            _resize(page, "1280x800")
            open_app(page, url, query)
            for size in ("1280x800", "800"):  # one page load a query, narrowed
                _resize(page, size)
                seen = _settled(page, _TOOLBAR_AND_NODES)
                at = (query, size)
                assert seen["toolbar"][2] > seen["toolbar"][0] and seen["toolbar"][3] > seen["toolbar"][1], at
                assert not _overlap(seen["toolbar"], seen["frame"]), (at, seen["toolbar"], seen["frame"])
                assert not [n for n in seen["nodes"] if _overlap(seen["toolbar"], n[1:])], at
                toggle = page.locator(".module-toggle")  # in a wide window it lies in the toolbar's row
                if toggle.count() and toggle.first.is_visible():
                    t = toggle.first.bounding_box()
                    t = [t["x"], t["y"], t["x"] + t["width"], t["y"] + t["height"]]
                    assert not _overlap(t, seen["frame"]) and not _overlap(t, seen["toolbar"]), (at, t, seen["frame"])
    finally:
        context.close()
    assert not errors, errors


def _settled(page, script: str) -> dict:
    """What `script` reads once the graph is drawn and reads the same twice running (its layout has settled)."""
    last = None

    def same() -> bool:
        nonlocal last
        now = page.evaluate(script)
        steady, last = bool(now and now.get("nodes")) and now == last, now
        if not steady:
            page.wait_for_timeout(100)
        return steady

    wait_for(same)
    return last


_BAND_SIZES = ((800, 800), (1000, 800), (1150, 800), (1280, 800), (1920, 1080))


def test_no_empty_band_under_the_player(browser, url):
    """Where the control row wraps, the prediction toggle sits right under the player's buttons (no ~40 px band
    of nothing), and the caption right under it; where it does not wrap, the caption follows the row (at each
    width of _BAND_SIZES: one page load a program, resized)."""
    context = browser.new_context(viewport={"width": 800, "height": 800})
    page = context.new_page()
    try:
        for query in ("example=accumulate", "code=" + encode_code(_OWN)):
            _resize(page, _BAND_SIZES[0])
            open_app(page, url, query)
            _wait_labelled(page)
            for width, height in _BAND_SIZES:
                _resize(page, (width, height))
                buttons = max(b["y"] + b["height"] for b in
                              (page.locator(f".stepper button.{n}").bounding_box() for n in ("play", "next", "last")))
                toggle = page.locator(".predict-toggle").bounding_box()
                caption = page.locator(".caption-text").bounding_box()
                below = toggle["y"] if toggle["y"] >= buttons else caption["y"]
                assert 4 <= below - buttons <= 24, (query, width, buttons, toggle, caption)
                if toggle["y"] >= buttons:
                    assert caption["y"] - (toggle["y"] + toggle["height"]) <= 12, (query, width, toggle, caption)
                page.screenshot(path=str(ARTIFACTS / f"a11y-player-{width}-{query[:4]}.png"))
    finally:
        context.close()


_AXE_SIZES = {"1280x800": (1280, 800), "1920x1080": (1920, 1080), "800": (800, 900)}
# At the other sizes, the examples whose pages differ most: axe's serious findings on text (contrast, names,
# roles) are the same at every width; what the width changes is the layout of these.
_AXE_AT_EVERY_SIZE = ("x2-then-x3", "pitfall-backward-twice", "gradient-descent", "mlp-step", "scalar-mlp")


_TOO_BIG = ("chain-100", "scalar-mlp")  # hundreds of nodes: the camera follows the step at the default zoom


def test_axe_finds_nothing_serious_on_every_example(browser, url):
    """Each example at its last step with a node inspected, at 1280x800 (and those of _AXE_AT_EVERY_SIZE on the
    same page resized to each of _AXE_SIZES): axe-core's serious and critical violations, none, and no sideways
    scroll. At 1280x800, before the click, the graph is also whole in its view with nothing on it overlapping
    (graph_fit.py; not the two graphs too big to read whole), it has most of the room (_GRAPH_SHARE), and the
    .grad history shows each leaf's value without scrolling (up to 6 leaves)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    found, cut, room, hidden_grads, sideways = {}, {}, {}, {}, {}
    try:
        for example in EXAMPLES:
            _resize(page, "1280x800")
            open_app(page, url, f"example={example.slug}&step=end")
            _wait_labelled(page)
            box = page.locator(".graph-box").first.bounding_box()
            share = box["width"] * box["height"] / (1280 * 800)
            least = _GRAPH_SHARE_LOOP if page.locator(".iteration-bar").first.is_visible() else _GRAPH_SHARE
            if share < least:
                room[example.slug] = round(share, 3)
            grads = page.locator(".now .g b")
            if 0 < grads.count() <= 6:  # (the benchmarks' hundreds of leaves scroll)
                hidden_grads[example.slug] = grads.evaluate_all(_SCROLLED_AWAY)
            if example.slug not in _TOO_BIG:
                try:  # the camera settles
                    wait_for(lambda: not graph_fit.problems(page.evaluate(graph_fit.DRAWN) or _NO_GRAPH), 3_000)
                except TimeoutError:
                    pass
                cut[example.slug] = graph_fit.problems(page.evaluate(graph_fit.DRAWN) or _NO_GRAPH)
            nodes = page.locator(".node-buttons button.node")
            if nodes.count():  # (a graph of hundreds of nodes has no row of node buttons)
                nodes.last.click()
                page.wait_for_selector(".inspector h3", timeout=10_000)
            for size in _AXE_SIZES if example.slug in _AXE_AT_EVERY_SIZE else ["1280x800"]:
                _resize(page, _AXE_SIZES[size])
                found[example.slug, size] = _serious(axe_violations(page))
                scroll, client = page.evaluate(
                    "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
                if scroll > client:
                    sideways[example.slug, size] = (scroll, client)
                if example is EXAMPLES[-1]:
                    page.screenshot(path=str(ARTIFACTS / f"a11y-axe-last-example-{size}.png"))
    finally:
        context.close()
    assert {k: v for k, v in found.items() if v} == {}
    assert {k: v for k, v in cut.items() if v} == {}
    assert {size for _, size in found} == set(_AXE_SIZES)
    assert room == {}, f"the graph's share of the window at 1280x800, less than {_GRAPH_SHARE} " \
                       f"({_GRAPH_SHARE_LOOP} under a training loop's bar)"
    assert {k: v for k, v in hidden_grads.items() if v} == {}, "a leaf's .grad in the history is scrolled away"
    assert sideways == {}, "the page scrolls sideways"
    assert not errors, errors


# At 1280x800 the graph's box has this share of the window at least (of the room right of the editor's column
# and under the header: about 0.5 and 0.4); before, it had 0.30 and 0.19 (0.27 under a taller loop bar).
_GRAPH_SHARE, _GRAPH_SHARE_LOOP = 0.32, 0.28
# The .grad values (`.now .g b`) that lie outside a box of theirs that scrolls or clips: seen only by scrolling.
_SCROLLED_AWAY = """(values) => values.filter((b) => {
  const r = b.getBoundingClientRect();
  for (let el = b.parentElement || b.getRootNode().host; el; el = el.parentElement || el.getRootNode().host) {
    const style = getComputedStyle(el);
    if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
    const box = el.getBoundingClientRect();
    if (r.top < box.top - 1 || r.bottom > box.bottom + 1) return true;
    if (r.left < box.left - 1 || r.right > box.right + 1) return true;
  }
  return r.bottom > window.innerHeight;
}).map((b) => b.closest('.g').dataset.name)"""


_NO_GRAPH = {"frame": [0, 0, 0, 0], "shapes": [], "labels": []}  # a view with no node (after a training loop)


def test_axe_finds_nothing_serious_on_a_learners_program_asking_for_a_prediction(browser, url):
    """At each of _AXE_SIZES (one page, resized)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    found = {}
    try:
        open_app(page, url, "code=" + encode_code(_OWN))
        _wait_labelled(page)
        page.get_by_role("checkbox", name="Predict, then reveal").check()
        wait_for(lambda: page.locator(".predict").count() and "Score 0 / 0" in page.locator(".predict").inner_text())
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        field = page.get_by_role("textbox", name="Your prediction")
        field.fill("[2, 2]")
        field.press("Enter")
        wait_for(lambda: "not quite" in page.locator(".predict").inner_text())
        for size, (width, _) in _AXE_SIZES.items():
            _resize(page, _AXE_SIZES[size])
            found[size] = _serious(axe_violations(page))
            page.screenshot(path=str(ARTIFACTS / f"a11y-axe-own-{size}.png"), full_page=width < 1000)
    finally:
        context.close()
    assert {k: v for k, v in found.items() if v} == {}
    assert not errors, errors
