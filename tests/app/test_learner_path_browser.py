"""What a learner trips over (issue 26), as the page shows it under `panel serve`: the slider's range after Run,
"last" reaching the end of a training script, the player scrubbing the whole timeline; the PNG export of the whole
graph, the share row on one line, New canvas undone, the palette's words, a training loop's room for the graph and
its loss curve's ticks."""

from browser import counter, editor_text, graph_script, open_app, wait_for

from app.program.examples import BY_SLUG
from app.store import Store

TRAINING = """import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)

    def forward(self, x):
        return self.fc(x)

torch.manual_seed(0)
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
y = torch.tensor([[1.0], [2.0]])
for epoch in range(3):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
"""

SLIDER = ".stepper input[type=range]"


def run_program(page, source: str) -> None:
    page.locator(".editor .ace_editor").evaluate("(el, code) => el.env.editor.setValue(code)", source)
    wait_for(lambda: editor_text(page) == source)
    page.wait_for_timeout(400)  # the editor's text reaches the server
    before = counter(page)[1]
    page.locator(".run button").click()
    wait_for(lambda: counter(page)[1] != before, 20_000)


def slider(page) -> tuple[int, int, int]:
    return tuple(int(v) for v in page.locator(SLIDER).evaluate("e => [e.min, e.max, e.value]"))


def test_after_run_the_slider_spans_the_new_program_and_last_reaches_its_end(page, url):
    open_app(page, url, "example=mlp-step")
    shown, total = counter(page)
    assert slider(page) == (-1, total - 1, shown - 1)
    run_program(page, TRAINING)
    shown, total = counter(page)
    wait_for(lambda: slider(page) == (-1, total - 1, shown - 1), 3_000)  # not the previous program's range
    page.locator(".stepper button.last").click()
    wait_for(lambda: counter(page)[0] == total, 5_000)  # the end of the whole training script, not of an iteration
    assert "iteration 3 of 3" in page.locator(".iteration-bar .it").inner_text()
    page.locator(SLIDER).evaluate("(e) => { e.value = 5; e.dispatchEvent(new Event('change')) }")
    wait_for(lambda: counter(page)[0] == 6, 5_000)  # the slider reaches back to the start of the program


def _shadow_buttons(page) -> list[dict]:
    return page.locator(".share-export").last.evaluate(
        "bar => [...bar.querySelectorAll('button')].map((b) => { const r = b.getBoundingClientRect();"
        " return {text: b.textContent, y: r.y, h: r.height, right: r.right} })")


def test_png_export_frames_the_whole_graph_and_the_share_row_keeps_one_line(page, url):
    open_app(page, url, "example=mlp-step&step=end")
    page.wait_for_timeout(1000)
    with page.expect_download(timeout=20_000) as download:
        page.locator(".share-export").last.locator("button.export-png").click()
    assert download.value.suggested_filename == "autograd-graph.png"
    framed = page.locator("div.share-export[data-exported]").get_attribute("data-exported")
    x0, x1, y0, y1 = (float(v) for v in framed.split(","))
    centres = page.evaluate(graph_script("const {data: d} = graphBoxes(); return [[...d.x], [...d.y]];"))
    assert all(x0 < x < x1 for x in centres[0]) and all(y0 < y < y1 for y in centres[1])  # every box, not the view
    before = _shadow_buttons(page)
    page.locator(".share-export").last.locator("button.share").evaluate("b => { b.textContent = 'Copied ✓' }")
    after = _shadow_buttons(page)
    assert len({round(b["y"]) for b in after}) == 1 and [b["h"] for b in after] == [b["h"] for b in before]


def test_new_canvas_can_be_undone_and_the_palette_says_what_it_adds(page, url):
    open_app(page, url, "example=accumulate")
    page.locator(".new-program button").click()
    wait_for(lambda: editor_text(page) == "import torch\n", 20_000)
    page.wait_for_selector(".canvas-board button.pal", timeout=10_000)
    titles = page.locator(".canvas-board button.pal").evaluate_all("bs => bs.map((b) => b.title)")
    assert "Add a sum (a + b) node (click, or drag onto the canvas)" in titles
    assert not any(" a add " in t or " a exp" in t for t in titles), titles
    page.locator(".undo-new-canvas button").click()
    wait_for(lambda: editor_text(page) == BY_SLUG["accumulate"].source, 20_000)
    page.wait_for_selector(".undo-new-canvas button", state="hidden", timeout=10_000)


def test_a_training_loop_leaves_the_graph_the_room_and_its_loss_curve_ticks_whole_iterations(page, url):
    """At 1280x800 the loop's bar is one strip (label and slider on a line, the phases under them, the loss curve
    beside): the graph's box has a third of the window (the bar was 92 px tall: 0.30). The curve's axes tick whole
    iterations and the least and greatest loss, readable (on a log axis 10 and 20 lay over each other)."""
    open_app(page, url, "example=accumulate")
    run_program(page, TRAINING)
    page.wait_for_selector(".loss-curve", timeout=10_000)
    page.wait_for_timeout(800)
    bar = page.locator(".iteration-bar").bounding_box()
    graph = page.locator(".graph-box").first.bounding_box()
    assert bar["height"] <= 64 and graph["width"] * graph["height"] / (1280 * 800) >= 0.32, (bar, graph)
    ticks = page.evaluate("""() => {
      const views = [...Bokeh.index.all_views()];
      const plot = views.find((v) => v.model.left && v.model.left.some((a) => a.axis_label === 'loss'));
      const [x, y] = [plot.model.below[0], plot.model.left[0]].map((a) => views.find((v) => v.model === a));
      return [[...x.tick_coords.major[0]], [...y.tick_coords.major[1]]];
    }""")
    assert ticks[0] and all(float(t).is_integer() for t in ticks[0]), ticks
    store = Store()
    store.load(TRAINING)
    losses = store.iterations.loss
    assert ticks[1] == [float(f"{min(losses):.2g}"), float(f"{max(losses):.2g}")], (ticks, losses)
