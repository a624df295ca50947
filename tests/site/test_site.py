"""The static site (dist/, from build.py) in Debian's Chromium, served on 127.0.0.1, with every request to
another host blocked and counted: the prerendered view, the live app in Pyodide, deep links checked against
real PyTorch, the inspector, rewinding, and a reload that restores the program and step from the cache.

Screenshots land in test-artifacts/site-*.png.
"""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright")

from app.program.links import encode_code  # noqa: E402
from tests.app.browser import (  # noqa: E402
    GRAPH_RANGES,
    SERIOUS,
    TORCH_PYTHON,
    Oracle,
    active_element,
    axe_violations,
    console_stdout,
    counter,
    editor_text,
    grads_shown,
    graph_script,
    node_xy,
)
from tests.site import sitekit  # noqa: E402

# The longest time between two animation frames while Python loads: the page must never freeze.
FRAME_GAPS = """
(() => {
  window.__gaps = {max: 0, last: performance.now()};
  const tick = (t) => { const g = window.__gaps; g.max = Math.max(g.max, t - g.last); g.last = t;
                        requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})();
"""


@pytest.fixture(scope="module")
def site():
    dist = sitekit.ensure_built()
    with sitekit.static_server(dist) as (url, served):
        yield url, served


@pytest.fixture(scope="module")
def browser(chromium):
    return chromium  # the session's one Chromium (conftest.py): playwright's sync API runs once per thread


@pytest.fixture(scope="module")
def oracle():
    if not TORCH_PYTHON.exists():
        pytest.skip("the real-PyTorch oracle (.venv-torch) is not set up")
    o = Oracle()
    yield o
    o.close()


@pytest.fixture
def tab(browser, site, request):
    """A fresh browser context (empty cache, no service worker) with a page, watched."""
    url, served = site
    context = browser.new_context(viewport=sitekit.VIEWPORT)
    watch = sitekit.watch_context(context, url)
    page = context.new_page()
    page.add_init_script(FRAME_GAPS)
    sitekit.watch_page(page, watch)
    mark = served.mark()
    yield page, watch
    sitekit.ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(sitekit.ARTIFACTS / f"site-{request.node.name.replace('/', '_')}.png"))
    context.close()
    assert watch.external == [], f"requests to other hosts: {watch.external}"
    assert not [e for e in served.since(mark) if e[1] >= 400], f"missing files: {served.since(mark)}"
    assert watch.errors == [], watch.errors


def shot(page, name: str) -> None:
    sitekit.ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(sitekit.ARTIFACTS / f"site-{name}.png"))


def wait_counter(page, shown: int, timeout_s: float = 30) -> None:
    deadline = time.time() + timeout_s
    while counter(page)[0] != shown:
        if time.time() > deadline:
            raise AssertionError(f"the page shows step {counter(page)[0]}, not {shown}")
        time.sleep(0.02)


def test_default_page_shows_a_prerendered_view_then_the_live_app(tab, site):
    page, watch = tab
    url, served = site
    page.goto(url)
    page.wait_for_function("() => window.site && (window.site.prerendered || window.site.ready)", timeout=30_000)
    assert page.locator("#site-loading").count() == 1 or page.evaluate("site.ready")
    shot(page, "loading")
    info = sitekit.wait_ready(page)
    assert info["prerendered"] is not None and info["prerendered"] < info["timings"]["ready"]
    assert page.locator("#site-loading").count() == 0
    gap = page.evaluate("window.__gaps.max")
    assert gap < 3000, f"the page froze for {gap:.0f} ms while Python loaded"
    shown, total = counter(page)
    assert total > 0
    shot(page, "ready")
    # The live app answers: clicking a graph node fills the inspector.
    x, y = node_xy(page, "t0")
    page.mouse.click(x, y)
    page.wait_for_selector(".inspector h3", timeout=30_000)
    assert page.locator(".inspector h3").inner_text() == "x"
    shot(page, "inspector")
    print(f"\nprerendered view at {info['prerendered']} ms, ready at {info['timings']['ready']} ms, "
          f"{served.bytes_sent() / 1e6:.1f} MB served, longest frame gap {gap:.0f} ms, timings {info['timings']}")


def caption(page) -> str:
    return page.locator(".caption-text").inner_text()


def test_default_example_steps_before_python_then_python_goes_on_from_there(tab, site):
    """The prelude: the default page steps at once, without Python, and a click on a node fills the
    inspector; Python then shows the same step, caption, .grad values and inspector, and keeps what was
    typed in the editor."""
    page, watch = tab
    url, _ = site
    python = sitekit.open_before_python(page, url)
    assert page.evaluate("site.interactive") and not page.evaluate("site.ready"), "no steps before Python"
    start, total = counter(page)
    page.keyboard.press("ArrowRight")
    wait_counter(page, start + 1)
    page.locator(".next-call button").click()  # to the start of the second backward call
    deadline = time.time() + 10
    while counter(page)[0] == start + 1:
        assert time.time() < deadline, "the backward-call button did not move the step"
        time.sleep(0.02)
    jumped = counter(page)[0]
    assert start + 1 < jumped < total
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    wait_counter(page, jumped + 1)
    x, y = node_xy(page, "t0")
    page.mouse.click(x, y)
    page.wait_for_selector(".inspector h3", timeout=10_000)  # the inspector, before Python too
    assert page.locator(".inspector h3").inner_text() == "x"
    time.sleep(0.3)
    before = counter(page), caption(page), grads_shown(page), page.locator(".inspector").inner_text()
    typed = editor_text(page) + "print('kept')\n"
    page.locator(".editor .ace_editor").evaluate("(el, text) => el.env.editor.setValue(text, 1)", typed)
    shot(page, "prelude-stepped")
    assert not page.evaluate("site.ready")

    python.release()
    sitekit.wait_ready(page)
    time.sleep(0.5)
    assert (counter(page), caption(page), grads_shown(page), page.locator(".inspector").inner_text()) == before
    assert editor_text(page) == typed
    page.keyboard.press("ArrowRight")
    wait_counter(page, jumped + 2)
    shot(page, "prelude-handed-over")


def test_another_example_before_python_is_kept_by_python(tab, site):
    from app.program.examples import BY_SLUG

    page, watch = tab
    url, _ = site
    python = sitekit.open_before_python(page, url + "?example=accumulate")
    page.locator(".examples select").select_option(label=BY_SLUG["pow-sum"].title)
    page.wait_for_function("() => location.search.includes('example=pow-sum')", timeout=10_000)
    assert editor_text(page) == BY_SLUG["pow-sum"].source
    start = counter(page)[0]
    page.keyboard.press("ArrowRight")
    wait_counter(page, start + 1)
    before = counter(page), caption(page)
    assert not page.evaluate("site.ready")

    python.release()
    sitekit.wait_ready(page)
    time.sleep(0.5)
    assert (counter(page), caption(page)) == before
    assert editor_text(page) == BY_SLUG["pow-sum"].source and "example=pow-sum" in page.evaluate("location.search")
    shot(page, "prelude-other-example")


@pytest.mark.parametrize("slug", ["square-of-sum", "accumulate"])
def test_example_deep_link_matches_pytorch_then_rewinds(tab, site, oracle, slug):
    from app.program.examples import BY_SLUG
    from engine.trace.text import short

    page, watch = tab
    url, _ = site
    sitekit.open_site(page, url, f"example={slug}&step=end")
    assert page.evaluate("site.interactive < site.timings.ready"), "the deep link did not step before Python"
    shown, total = counter(page)
    assert shown == total
    grads = grads_shown(page)
    truth = oracle.run(BY_SLUG[slug].source, list(grads))
    assert console_stdout(page) == truth["stdout"]
    expected = {name: short(value, limit=8) for name, value in truth["grads"].items()}
    assert expected and {name: grads[name] for name in expected} == expected
    assert f"example={slug}" in page.evaluate("location.search")
    shot(page, f"{slug}-end")
    # Rewind, one backward call at a time, until the leaves are shown without a .grad: before any backward.
    for _ in range(4):
        before = counter(page)[0]
        page.locator(".prev-call button").click()
        deadline = time.time() + 30
        while counter(page)[0] == before:
            assert time.time() < deadline, "the rewind button did not move the step"
            time.sleep(0.02)
        time.sleep(0.3)  # the graph and .grad views follow the counter
        shown_now = grads_shown(page)
        if shown_now and all(v == "None" for v in shown_now.values()):
            break
    assert shown_now and all(v == "None" for v in shown_now.values()), f"after rewinding: {shown_now}"
    assert 0 < counter(page)[0] < total
    shot(page, f"{slug}-rewound")


def test_a_deep_link_past_step_100_shows_its_knob_there(tab, site):
    """(Panel's player drew the knob of a step past 100 at 100, its range input's default max.) Live, and the page
    built without errors."""
    page, watch = tab
    url, _ = site
    sitekit.open_site(page, url, "example=chain-100&step=end")
    shown, total = counter(page)
    assert shown == total > 100
    knob = page.locator(".stepper input[type=range]")
    deadline = time.time() + 10
    while knob.evaluate("el => [el.value, el.max]") != [str(total - 1)] * 2:
        assert time.time() < deadline, knob.evaluate("el => [el.value, el.max]")
        time.sleep(0.05)


def test_reload_restores_program_and_step_from_the_cache(tab, site):
    page, watch = tab
    url, served = site
    first = sitekit.open_site(page, url, "example=accumulate&step=5")
    start = counter(page)[0]
    page.locator(".next-call button").click()
    page.wait_for_function("() => !location.search.includes('step=5')", timeout=30_000)
    deadline = time.time() + 30
    while counter(page)[0] == start:
        assert time.time() < deadline, "the next-call button did not move the step"
        time.sleep(0.02)
    step = counter(page)[0]
    assert step > start and "example=accumulate" in page.evaluate("location.search")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    # A second visit, with no query at all: the same program and step come back, from the cache.
    mark = served.mark()
    second = sitekit.open_site(page, url)
    wait_counter(page, step)
    assert "example=accumulate" in page.evaluate("location.search")
    again = sum(n for _, _, n in served.since(mark))
    shot(page, "second-visit")
    print(f"\nfirst visit ready in {first['wall']:.1f}s, second visit in {second['wall']:.1f}s "
          f"with {again / 1e3:.0f} kB from the server")
    assert again < 1_000_000, f"the second visit downloaded {again} bytes again"


def test_a_shared_step_opens_at_that_step_and_the_page_passes_axe_and_works_by_keyboard(tab, site):
    """`step=n` shows "step n" both before Python (the prelude) and after; axe-core finds nothing serious; Tab
    reaches the node buttons and Enter inspects one."""
    page, watch = tab
    url, _ = site
    page.goto(url + "?example=square-of-sum&step=4")
    page.wait_for_selector(".counter", timeout=60_000)
    wait_counter(page, 4)
    sitekit.wait_ready(page)
    wait_counter(page, 4)
    assert "step=4" in page.evaluate("location.search")
    serious = [v for v in axe_violations(page) if v["impact"] in SERIOUS]
    assert serious == [], serious
    page.locator(".node-buttons button.node").first.focus()
    page.keyboard.press("ArrowRight")
    name = active_element(page)["text"]
    page.keyboard.press("Enter")
    page.wait_for_selector(".inspector h3", timeout=30_000)
    assert page.locator(".inspector h3").inner_text().startswith(name.rstrip("…"))
    shot(page, "keyboard-inspect")


def _predict_panel(page) -> str:
    return page.locator(".predict").inner_text()


def _wait_text(page, text: str, timeout_s: float = 30) -> None:
    deadline = time.time() + timeout_s
    while not (page.locator(".predict").count() and text in _predict_panel(page)):
        assert time.time() < deadline, f"the prediction panel never said {text!r}"
        time.sleep(0.05)


def _guess(page, text: str) -> None:
    field = page.get_by_role("textbox", name="Your prediction")
    field.fill(text)
    field.press("Enter")


def test_predict_then_reveal_ticked_before_python_is_on_once_python_runs_and_keeps_score(tab, site):
    """The toggle ticked while the page steps without Python waits for Python (the loading card says so), and
    the mode is on when Python takes over; then a wrong guess is marked, a right one scores."""
    page, watch = tab
    url, _ = site
    python = sitekit.open_before_python(page, url + "?example=accumulate")
    start, _ = counter(page)
    page.get_by_role("checkbox", name="Predict, then reveal").check()
    assert not page.evaluate("site.ready")
    python.release()
    sitekit.wait_ready(page)
    _wait_text(page, "Score 0 / 0")
    assert page.get_by_role("checkbox", name="Predict, then reveal").is_checked()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    _wait_text(page, "What does it send to x (as self)?")
    assert counter(page)[0] == start + 1
    _guess(page, "2")
    _wait_text(page, "✗ not quite")
    assert "→ x (as self) = 3.0, you said 2" in _predict_panel(page)
    _guess(page, "3")
    _wait_text(page, "Score 1 / 2")
    wait_counter(page, start + 2)
    shot(page, "predict")


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 1920, "height": 1080},
                                      {"width": 800, "height": 900}], ids=["1280x800", "1920x1080", "800"])
def test_predict_then_reveal_before_python_holds_the_step_that_asks_until_python_asks_it(tab, site, viewport):
    """Ticked while the page steps without Python: → steps on up to the step that asks, and no further (its
    value is not shown before the learner can predict it); the loading card says why. Once Python runs, the
    question is there at that very step."""
    page, watch = tab
    url, _ = site
    page.set_viewport_size(viewport)
    python = sitekit.open_before_python(page, url + "?example=accumulate")
    start, _ = counter(page)
    page.get_by_role("checkbox", name="Predict, then reveal").check()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    time.sleep(0.5)
    assert counter(page)[0] == start + 1  # onto backward(), not into MulBackward0's step
    page.get_by_role("button", name="Last step").click()  # nor by a jump
    time.sleep(0.5)
    assert counter(page)[0] == start + 1
    slider = page.locator(".stepper input[type=range]")  # the player's slider went back too (counter = k + 1)
    deadline = time.time() + 5
    while slider.input_value() != str(start):
        assert time.time() < deadline, slider.input_value()
        time.sleep(0.05)
    assert "asks for your prediction" in page.locator(".site-loading-note").inner_text()
    assert not page.evaluate("site.ready")
    page.screenshot(path=str(sitekit.ARTIFACTS / f"site-predict-held-{viewport['width']}.png"))
    python.release()
    sitekit.wait_ready(page)
    _wait_text(page, "What does it send to x (as self)?")
    assert counter(page)[0] == start + 1
    _guess(page, "3")
    _wait_text(page, "Score 1 / 1")
    _guess(page, "3")
    _wait_text(page, "Score 2 / 2")
    wait_counter(page, start + 2)
    page.screenshot(path=str(sitekit.ARTIFACTS / f"site-predict-asked-{viewport['width']}.png"))


def test_predict_then_reveal_on_a_learners_own_program_in_the_static_site(tab, site):
    page, watch = tab
    url, _ = site
    source = "import torch\na = torch.tensor([1.0, 2.0], requires_grad=True)\nb = (a * a).sum()\nb.backward()\n"
    sitekit.open_site(page, url, "code=" + encode_code(source))
    page.get_by_role("checkbox", name="Predict, then reveal").check()
    _wait_text(page, "Score 0 / 0")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    _wait_text(page, "SumBackward0 (b) receives its grad. What does it send to a * a?")
    _guess(page, "one")
    _wait_text(page, "Cannot read “one” as a number or a tensor")
    _guess(page, "[1, 1]")
    _wait_text(page, "Score 1 / 1")


def test_a_program_that_draws_shows_its_figures_in_the_static_site(tab, site):
    page, watch = tab
    url, _ = site
    source = ("import torch\nimport matplotlib.pyplot as plt\nw = torch.tensor(2.0, requires_grad=True)\n"
              "losses = []\nfor i in range(5):\n    loss = (w - 1) ** 2\n    loss.backward()\n"
              "    with torch.no_grad():\n        w -= 0.2 * w.grad\n        w.grad = None\n"
              "    losses.append(loss.item())\nplt.plot(losses, label='loss')\nplt.legend()\nplt.show()\n")
    sitekit.open_site(page, url, "code=" + encode_code(source) + "&step=end")
    card = page.locator(".plots-card")
    card.locator("canvas").first.wait_for(timeout=30_000)
    card.scroll_into_view_if_needed()
    assert card.locator(".section-title").inner_text().upper() == "PLOTS"
    shot(page, "plots")


# Counts the messages between the page and its Python worker: the page's changes sent to Python ("out") and
# Python's patches back ("patch"), with the names of the attributes each one changes.
WORKER_MESSAGES = """
(() => {
  const Native = window.Worker;
  window.__worker = [];
  window.Worker = function (url, options) {
    const worker = new Native(url, options);
    const attrs = (patch) => patch.events.map((e) => e.attr || e.kind);
    worker.addEventListener('message', (e) => {
      if (e.data && e.data.type === 'patch') window.__worker.push(['patch', attrs(e.data.patch)]);
    });
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (msg, ...rest) => {
      if (msg && msg.type === 'patch') window.__worker.push(['out', attrs(msg.patch)]);
      return post(msg, ...rest);
    };
    return worker;
  };
  window.Worker.prototype = Native.prototype;
})();
"""

# Counts the page's writes of its URL from now on.
URL_WRITES = """
() => {
  window.__writes = [];
  if (!window.__counting_writes) {
    const replace = history.replaceState;
    history.replaceState = function (...args) {
      window.__writes.push(String(args[2]));
      return replace.apply(this, args);
    };
    window.__counting_writes = true;
  }
}
"""


def test_a_step_is_one_message_each_way_and_the_camera_glides_without_python(tab, site):
    """Python answers a step with one patch (painted at once, not in a dozen pieces), and the camera's glide to
    the node a step acts on stays in the page (nothing in Python reads the view's ranges). While a key is held,
    the URL is written once, when the steps pause."""
    page, _ = tab
    url, _ = site
    page.add_init_script(WORKER_MESSAGES)
    sitekit.open_site(page, url, "example=chain-100&step=60")
    time.sleep(1)
    start = counter(page)[0]
    page.evaluate("() => { window.__worker = [] }")
    views = [page.evaluate(GRAPH_RANGES)[0]]
    for n in range(1, 7):
        page.keyboard.press("ArrowRight")
        wait_counter(page, start + n)
        time.sleep(0.6)  # a calm step: the camera glides
        views.append(page.evaluate(GRAPH_RANGES)[0])
    messages = page.evaluate("() => window.__worker")
    assert len(set(views)) > 1, "the camera never moved: nothing was tested"
    assert [m for m in messages if m[0] == "out"] == [["out", ["right"]]] * 6, messages
    assert len([m for m in messages if m[0] == "patch"]) == 6, messages
    page.evaluate(URL_WRITES)
    for _ in range(8):  # a key held: steps as fast as the page takes them (far inside the 250 ms calm)
        page.keyboard.press("ArrowRight")
    wait_counter(page, start + 14)
    page.wait_for_function(f"() => location.search.includes('step={start + 14}')", timeout=10_000)
    writes = page.evaluate("() => window.__writes")
    assert len(writes) == 1 and f"step={start + 14}" in writes[0], writes


def test_a_learners_link_steps_at_once_on_its_next_visit(browser, site):
    """After a visit of a ?code= link, Python records its steps as the build records an example's, into the page's
    cache; the next visit of the link shows its graph and steps it before Python has started, and Python goes on
    from the step reached."""
    url, _ = site
    context = browser.new_context(viewport=sitekit.VIEWPORT, service_workers="block")  # the worker's files: held
    watch = sitekit.watch_context(context, url)
    page = context.new_page()
    sitekit.watch_page(page, watch)
    source = "import torch\nx = torch.tensor([1.0, -2.0], requires_grad=True)\ny = (x * x).sum()\ny.backward()\n"
    link = f"{url}?code={encode_code(source)}&step=2"
    try:
        page.goto(link)
        sitekit.wait_ready(page)
        assert page.evaluate("site.linkPrelude") == "none"
        first = counter(page)
        page.wait_for_function("() => window.site.linkPrelude === 'kept'", timeout=60_000)
        python = sitekit.HeldPython(page, "**/static/python.mjs*")
        page.goto(link)
        sitekit.wait_interactive(page)
        assert page.evaluate("site.linkPrelude") == "shown" and not page.evaluate("site.ready")
        assert counter(page) == first and first[0] == 2 and editor_text(page) == source
        page.keyboard.press("ArrowRight")
        wait_counter(page, 3)
        x, y = node_xy(page, "t0")
        page.mouse.click(x, y)
        page.wait_for_selector(".inspector h3", timeout=10_000)
        before = counter(page), caption(page), page.locator(".inspector").inner_text()
        shot(page, "link-second-visit")
        assert not page.evaluate("site.ready")

        python.release()
        sitekit.wait_ready(page)
        time.sleep(0.5)
        assert (counter(page), caption(page), page.locator(".inspector").inner_text()) == before
        page.keyboard.press("ArrowRight")
        wait_counter(page, 4)
    finally:
        context.close()
    assert watch.external == [] and watch.errors == [], (watch.external, watch.errors)


# Counts, once window.__watchBlank is set, the animation frames in which no page is on screen (no Bokeh root view
# attached, visible and taller than a line).
BLANK_FRAMES = """
(() => {
  window.__blank = 0;
  const tick = () => {
    if (window.__watchBlank) {
      const roots = window.Bokeh && Bokeh.index ? Bokeh.index.roots : [];
      const shown = roots.some((v) => v.el.isConnected && v.el.checkVisibility({ visibilityProperty: true })
                                && v.el.getBoundingClientRect().height > 100);
      if (!shown) window.__blank += 1;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();
"""

# Zooms the graph in as the wheel does (its ranges a half of what they were, about their middle); returns them.
ZOOM_IN = graph_script("""
  const graph = graphBoxes();
  const x = graph.view.model.x_range, y = graph.view.model.y_range;
  const w = (x.end - x.start) / 4, h = (y.end - y.start) / 4;
  x.setv({start: x.start + w, end: x.end - w});
  y.setv({start: y.start + h, end: y.end - h});
  return [x.start, x.end, y.start, y.end];
""")


def test_the_hand_over_to_python_shows_no_blank_frame_and_keeps_the_view(tab, site):
    """When Python's page replaces the recorded one, every frame shows a page (the live one is built out of sight
    and swapped in), and the graph keeps the view the learner had zoomed to."""
    page, _ = tab
    url, _ = site
    page.add_init_script(BLANK_FRAMES)
    python = sitekit.open_before_python(page, url + "?example=vector&step=4")
    time.sleep(0.5)
    zoomed = page.evaluate(ZOOM_IN)
    assert zoomed and page.evaluate(GRAPH_RANGES) == zoomed
    page.evaluate("() => { window.__watchBlank = true }")
    python.release()
    sitekit.wait_ready(page)
    time.sleep(0.3)
    assert page.evaluate("window.__blank") == 0
    assert page.evaluate(GRAPH_RANGES) == pytest.approx(zoomed)
    assert counter(page)[0] == 4
    shot(page, "handed-over-zoomed")
