"""`%%explore` in a real JupyterLab and Notebook 7 (one Jupyter server serves both) in Chromium: the cell runs
through the runner and the explorer shows under it, its graph's nodes, its steps taken with its controls and
its keys, laid out by the output area's width; a runaway cell is stopped and said so at its line. Notebook 7
opens the same notebook on the same kernel, warm."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser import wait_for
from jupyter_server import jupyter_server, notebook

SHOTS = Path("/tmp/shots/jupyter")

PROGRAM = """%%explore
import torch
x = torch.tensor(3.0, requires_grad=True)
y = x * x + 2 * x
y.backward()
print(x.grad)
"""
RUNAWAY = """%%explore --budget 1
print("started")
while True:
    pass
"""


@pytest.fixture(scope="module")
def jupyter():
    with jupyter_server({"explore.ipynb": notebook("%load_ext autograd_explorer", PROGRAM, RUNAWAY)}) as server:
        yield server


@pytest.fixture
def page(browser, request):
    """A page at 1280×800 that fails the test on an error raised by the page, but for Notebook 7's own on start-up
    (its notebook page has no file browser; Jupyter's, not the explorer's)."""
    from browser import ARTIFACTS, VIEWPORT

    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"))
    context.close()
    jupyters = ("Command 'filebrowser:open-path' not registered.",
                "Cannot read properties of undefined (reading 'schema')")
    assert [e for e in errors if e not in jupyters] == []


def run_all(page, url: str, first_cell: str | None = None):
    """Open the notebook, wait for its kernel, run all its cells (the first one's text replaced by `first_cell`);
    the two explorers' outputs, once shown."""
    page.goto(url)
    page.wait_for_function("() => window.jupyterapp && jupyterapp.shell.currentWidget &&"
                           " jupyterapp.shell.currentWidget.sessionContext?.session?.kernel?.status === 'idle'",
                           timeout=60_000)
    if first_cell is not None:
        page.evaluate("(text) => jupyterapp.shell.currentWidget.content.widgets[0].model.sharedModel.setSource(text)",
                      first_cell)
    page.evaluate("() => jupyterapp.commands.execute('notebook:run-all-cells')")
    outputs = page.locator(".jp-OutputArea-output:has(.counter)")
    wait_for(lambda: outputs.count() == 2, 60_000)
    page.wait_for_function(SETTLED, timeout=30_000)
    return outputs.nth(0), outputs.nth(1)


# Each shown explorer sends its first layout to the kernel (its figures' sizes, ranges and label sizes) and Panel's
# comm holds every later change, a click too, until the kernel has acknowledged that message: on a cold kernel a
# click made before then waited behind it. A comm sends a new change at once when it is neither waiting for an
# acknowledgement nor holding changes, or when its wait (5 s) is over: then the held changes go with the click.
# A cold kernel can lose an acknowledgement, and the changes held behind it stay held until the next change.
SETTLED = """() => Bokeh.documents.length >= 2 && Bokeh.documents.every(doc =>
    [...doc._all_models.values()].filter(m => m.process_events && m._event_buffer)
        .every(comm => (!comm._blocked && comm._event_buffer.length === 0) || Date.now() > comm._timeout))"""


def shown(output) -> tuple[int, int]:
    text = output.locator(".counter").inner_text()
    step, total = text.replace("step", "").split("/")
    return int(step), int(total)


def test_explore_in_jupyterlab_shows_the_graph_steps_and_a_runaway_at_its_line(jupyter, page):
    base, token = jupyter
    program, runaway = run_all(page, f"{base}/lab/tree/explore.ipynb?token={token}")
    nodes = program.locator(".node-list button.node")
    wait_for(lambda: nodes.count() >= 5, 20_000)
    assert {"x", "x * x", "x * 2", "y", "AccumulateGrad (x)"} <= set(nodes.all_inner_texts())
    first, total = shown(program)
    assert 0 < first < total  # opened before the backward call, as the site does

    program.locator(".next-call button").click()  # the backward call's first step
    wait_for(lambda: shown(program)[0] > first)
    at = shown(program)[0]
    program.locator(".graph-box").click(position={"x": 20, "y": 20})
    page.keyboard.press("ArrowRight")  # the keys step the explorer clicked
    wait_for(lambda: shown(program)[0] == at + 1)
    nodes.filter(has_text=re.compile(r"^x$")).click()  # the leaf x: the inspector opens on it
    program.locator(".inspector-card:not(.idle)").wait_for(timeout=10_000)
    # laid out by its output area (beside the file browser, ~850 px), not by the 1280 px window: one column, as
    # wide as the output area
    room = program.bounding_box()
    stacked = program.locator(".graph-and-panels").evaluate("el => getComputedStyle(el).flexDirection")
    assert room["width"] < 1100 and stacked == "column", (room, stacked)
    for part in (".control-row", ".graph-box"):
        box = program.locator(part).first.bounding_box()
        assert box["x"] + box["width"] <= room["x"] + room["width"] + 1, (part, box, room)

    page.locator(".jp-Cell").nth(1).locator(".cm-content").click()  # typing in a cell: the keys are the editor's
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(300)
    assert shown(program)[0] == at + 1

    caption = runaway.locator(".caption-text").inner_text()  # cell line 3 is `while True:`
    assert "Line 3: BudgetExceeded: the program ran longer than 1 s" in caption, caption
    assert "started" in runaway.locator(".console").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    program.locator(".counter").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "lab_1280.png"))
    runaway.locator(".caption-text").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "lab_runaway_1280.png"))


def test_explore_in_notebook_7(jupyter, page):
    base, token = jupyter
    # The same kernel, warm: its extension is loaded, and this page needs Panel's JavaScript sent again.
    program, runaway = run_all(page, f"{base}/notebooks/explore.ipynb?token={token}",
                               first_cell="%reload_ext autograd_explorer")
    first, total = shown(program)
    program.locator(".next-call button").click()
    wait_for(lambda: shown(program)[0] > first)
    assert "BudgetExceeded" in runaway.locator(".caption-text").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    program.locator(".counter").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "notebook7_1280.png"))
