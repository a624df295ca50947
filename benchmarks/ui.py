"""UI latency of the explorer, measured in Chromium against `panel serve app/main.py`, or with --site against the
static site (dist/, built if missing), once its Python is live.

    .venv/bin/python benchmarks/ui.py [--steps 40] [--sessions 20] [--site]

Prints, for a ~100-node graph, a ~1,000-node scalar-op MLP and a learner's 2,000-iteration training script
(benchmarks/loops/learner.py: stepping inside an iteration, and jumping to the next iteration): the median
and p95 time from a step (→ key) to the frame that shows the graph and the inspector (a node is selected)
repainted, laid out (see STEP_JS); the time to lay the big graph out; and for N concurrent sessions stepping
at once, the p95 step latency, errors, and whether any session saw another's program. First it measures the
floor: the same key → repaint round trip for a trivial Panel app (one text box), which says how fast this
machine is right now.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "app"), str(ROOT / "tests" / "site")]

from browser import CHROMIUM, CHROMIUM_ARGS, NODE_XY, SHOWN_KEY, VIEWPORT, panel_server  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402
from sitekit import ensure_built, static_server  # noqa: E402

from app import timeline as tl  # noqa: E402
from app.graph import model as graph_model  # noqa: E402
from app.program.examples import BY_SLUG  # noqa: E402
from app.program.links import encode_code  # noqa: E402

# Presses → (or ←) and resolves with the milliseconds until the frame that shows the step has been laid out:
# the step counter's change is caught as it lands (a MutationObserver on its box), and a ResizeObserver then
# reports that frame, after its animation-frame callbacks (where Bokeh paints its canvas) and its layout. The
# counter, graph sources and inspector arrive in one patch. (Polling the counter with timers instead missed a
# frame whenever that frame ran before the poll's timer: then it counted up to the frame after.)
STEP_JS = """
async (key) => {
  const deep = (root, sel) => {
    if (root.shadowRoot) { root = root.shadowRoot }
    const hit = root.querySelector(sel)
    if (hit) return hit
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) { const found = deep(el.shadowRoot, sel); if (found) return found }
    }
    return null
  }
  window.__counter = window.__counter && window.__counter.isConnected ? window.__counter : deep(document, '.counter')
  const box = window.__counter.getRootNode(), before = window.__counter.textContent
  let t0, timer
  const shown = new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      const now = box.querySelector('.counter')
      if (!now || now.textContent === before) return
      seen.disconnect()
      window.__counter = now
      const laid = new ResizeObserver(() => { laid.disconnect(); resolve(performance.now() - t0) })
      laid.observe(now)
    })
    seen.observe(box, { subtree: true, childList: true, characterData: true })
    timer = setTimeout(() => { seen.disconnect(); resolve(-1) }, 10000)
  })
  t0 = performance.now()
  document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }))
  const ms = await shown
  clearTimeout(timer)
  return ms
}
"""

# The same, for a click on the iteration bar's "next iteration" button instead of a key.
NEXT_ITERATION_JS = STEP_JS.replace(
    "document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }))",
    "deep(deep(document, '.next-iteration'), 'button').click()")
LEARNER = ROOT / "benchmarks" / "loops" / "learner.py"


async def open_page(browser, url: str, query: str):
    context = await browser.new_context(viewport=VIEWPORT)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    await page.goto(f"{url}?{query}", timeout=180_000)  # a 2,000-iteration program is traced first
    await page.wait_for_selector(".caption-text", timeout=180_000)
    if await page.evaluate("() => 'site' in window"):  # the static site: wait for its Python
        await page.wait_for_function("() => window.site.ready || window.site.errors.length", timeout=180_000)
        await page.wait_for_selector(".caption-text", timeout=180_000)
    return context, page, errors


async def select_node(page, key: str | None = None) -> None:
    """Click node `key`, or a node the camera shows."""
    await page.wait_for_timeout(500)  # the camera settles
    key = key or await page.evaluate(SHOWN_KEY)
    xy = await page.evaluate(NODE_XY, key)
    if xy:
        await page.mouse.click(*xy)
        await page.wait_for_selector(".inspector h3", timeout=10_000)


async def step_times(page, steps: int, key: str = "ArrowRight", script: str = STEP_JS) -> list[float]:
    times = []
    for _ in range(steps):
        ms = await page.evaluate(script, key)
        if ms >= 0:
            times.append(ms)
    return times


FLOOR_APP = """
import panel as pn
from app.widgets.html_box import HtmlBox
from app.player.keys import ArrowKeys
from app.serving import send_without_delay

send_without_delay()
keys = ArrowKeys(width=0, height=0)
box = HtmlBox('<span class="counter">step 0 / 1</span><div class="caption-text">-</div>', width=200, height=30)


def step(event):
    box.text = f'<span class="counter">step {event.new} / 1</span><div class="caption-text">-</div>'


keys.param.watch(step, "right")
pn.Column(keys, box).servable()
"""


async def floor(browser, steps: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "main.py"
        script.write_text(FLOOR_APP)
        with panel_server(app=str(script)) as url:
            context, page, _ = await open_page(browser, url, "")
            await step_times(page, 3)
            times = await step_times(page, steps)
            print(f"floor: a trivial Panel app, key → repaint: median {statistics.median(times):6.1f} ms,"
                  f" p95 {percentile(times, 95):6.1f} ms")
            await context.close()


def start_step(slug: str) -> int:
    """Just before the first backward call, as a link's step=n counts: the steps measured then cover backward
    node steps."""
    events = tl.run(BY_SLUG[slug].source).events
    return max(tl.backward_starts(events)[0] - 1, 0)


def layout_ms(slug: str) -> tuple[int, float]:
    timeline = tl.run(BY_SLUG[slug].source)
    nodes = tl.state_at(timeline, len(timeline.events) - 1)["nodes"]
    start = time.perf_counter()
    model = graph_model.build(timeline.events, nodes)
    return len(model.boxes) + len(model.sinks), (time.perf_counter() - start) * 1000


async def single(browser, url: str, slug: str, steps: int) -> None:
    context, page, errors = await open_page(browser, url, f"example={slug}&step={start_step(slug)}")
    await select_node(page)
    await step_times(page, 3)  # warm up
    times = await step_times(page, steps)
    nodes, lay = layout_ms(slug)
    print(f"{slug:12s} {nodes:5d} graph nodes: step → graph + inspector painted:"
          f" median {statistics.median(times):6.1f} ms, p95 {percentile(times, 95):6.1f} ms over {len(times)} steps;"
          f" layout {lay:.1f} ms;"
          f" page errors: {len(errors)}")
    await context.close()


async def loop(browser, url: str, steps: int) -> None:
    """A learner's training script: steps inside an iteration, then jumps to the next iteration."""
    source = LEARNER.read_text()
    timeline = tl.run(source)
    k = max(tl.backward_starts(timeline.events)[0] - 2, 0)
    context, page, errors = await open_page(browser, url, f"code={encode_code(source)}&step={k}")
    await select_node(page)
    await step_times(page, 3)
    inside = await step_times(page, steps)
    await step_times(page, 3, script=NEXT_ITERATION_JS)
    jumps = await step_times(page, steps, script=NEXT_ITERATION_JS)
    for name, times in (("step inside an iteration", inside), ("next iteration", jumps)):
        print(f"learner loop ({len(timeline.events)} events) {name}: median {statistics.median(times):6.1f} ms,"
              f" p95 {percentile(times, 95):6.1f} ms over {len(times)}; page errors: {len(errors)}")
    await context.close()


@contextlib.contextmanager
def served_site():
    with static_server(ensure_built()) as (url, _):
        yield url.rstrip("/") + "/index.html"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def session_program(i: int) -> str:
    return f"import torch\n\nx = torch.tensor({i}.0, requires_grad=True)\ny = x * x * {i + 1}\ny.backward()\n" \
           f"print('session {i}', x.grad)\n"


async def concurrent(browser, url: str, sessions: int, steps: int) -> None:
    opened = [await open_page(browser, url, f"code={encode_code(session_program(i))}&step=0")
              for i in range(sessions)]

    async def run(page) -> list[float]:
        forward = await step_times(page, steps)
        back = await step_times(page, steps // 2, "ArrowLeft")
        return forward + back

    start = time.perf_counter()
    results = await asyncio.gather(*(run(page) for _, page, _ in opened))
    wall = time.perf_counter() - start
    leaks = 0
    for i, (_, page, _) in enumerate(opened):
        await page.keyboard.press("End")
        source = await page.locator(".editor .ace_editor").evaluate("el => el.env.editor.getValue()")
        leaks += source != session_program(i)
    times = [t for r in results for t in r]
    errors = sum(len(e) for _, _, e in opened)
    print(f"{sessions} concurrent sessions, {len(times)} steps in {wall:.1f} s: p95 {percentile(times, 95):.1f} ms,"
          f" median {statistics.median(times):.1f} ms; page errors: {errors}; sessions showing another's program: "
          f"{leaks}")
    for context, _, _ in opened:
        await context.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--only", choices=["floor", "small", "big", "loop", "sessions"], help="run one measure only")
    parser.add_argument("--site", action="store_true", help="against the static site (no floor, no sessions)")
    args = parser.parse_args()
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        if args.only in (None, "floor") and not args.site:
            await floor(browser, args.steps)
        with (served_site() if args.site else panel_server()) as url:
            if args.only in (None, "small"):
                await single(browser, url, "chain-100", args.steps)
            if args.only in (None, "big"):
                await single(browser, url, "scalar-mlp", args.steps)
            if args.only in (None, "loop"):
                await loop(browser, url, args.steps)
            if args.only in (None, "sessions") and not args.site:
                await concurrent(browser, url, args.sessions, 10)
        await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
