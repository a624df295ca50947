"""Sessions of one `panel serve` stepping while others run runaway programs (benchmarks/serve_load.py and
tests/app/test_serve_load_browser.py): the steppers' step latency with and without the runaways, and what the
server holds (memory, child processes) before and after."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

RUNAWAY = "import torch\nwhile True:\n    y = torch.randn(200, 200) @ torch.randn(200, 200)\n"

# Presses a key and resolves with the ms until the step counter shows a new step, or -1 after 10 s.
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
  const counter = deep(document, '.counter'), box = counter.getRootNode(), before = counter.textContent
  const t0 = performance.now()
  const shown = new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      const now = box.querySelector('.counter')
      if (now && now.textContent !== before) { seen.disconnect(); resolve(performance.now() - t0) }
    })
    seen.observe(box, { subtree: true, childList: true, characterData: true })
    setTimeout(() => { seen.disconnect(); resolve(-1) }, 10000)
  })
  document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }))
  return await shown
}
"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def server_pid(url: str) -> int:
    """The pid of the `panel serve` listening at url (found by its --port argument)."""
    port = url.split(":")[2].split("/")[0]
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"panel" in args and b"--port" in args and args[args.index(b"--port") + 1] == port.encode():
            return int(pid)
    raise LookupError(url)


def rss_mb(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            found += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return found


async def open_session(browser, url: str, query: str):
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    await page.goto(f"{url}?{query}", timeout=120_000)
    await page.wait_for_selector(".pn-loading", state="detached", timeout=120_000)
    return context, page


async def stepper(browser, url: str, slug: str = "chain-100"):
    context, page = await open_session(browser, url, f"example={slug}&step=0")
    await page.wait_for_selector(".caption-text", timeout=120_000)
    return context, page


async def run_again(page) -> None:
    """Presses Run, and again whenever the program has ended (the wall stopped it): the runaway runs all the
    time."""
    button = page.locator(".run button")
    while True:
        if "Running" not in await button.inner_text():
            await button.click()
        await asyncio.sleep(1.0)


async def step_all(pages, steps: int) -> list[float]:
    """Every page steps `steps` times (forward, then back), all at once: the latencies in ms (-1: none seen)."""
    async def one(page) -> list[float]:
        times = []
        for i in range(steps):
            times.append(await page.evaluate(STEP_JS, "ArrowRight" if i < steps // 2 else "ArrowLeft"))
        return times

    return [t for times in await asyncio.gather(*(one(p) for p in pages)) for t in times]


async def measure(browser, url: str, steppers: int, runaways: int, steps: int, warm: bool = True) -> dict:
    """The figures of one load run: the steppers' latencies idle and while `runaways` sessions run RUNAWAY,
    the server's memory and child processes before, during and after (`warm`: a session opened and closed
    first, as the server's first session costs more)."""
    pid = server_pid(url)
    if warm:
        await (await stepper(browser, url))[0].close()
    opened = [await stepper(browser, url) for _ in range(steppers)]
    pages = [page for _, page in opened]
    await step_all(pages, 2)
    # the runaways' sessions are open (and idle) while the steppers' idle latency is measured: what the loaded
    # measure adds is their programs running
    loud = [await stepper(browser, url, "accumulate") for _ in range(runaways)]
    await asyncio.sleep(2.0)
    before = rss_mb(pid)
    idle = await step_all(pages, steps)
    for _, page in loud:
        await page.locator(".editor .ace_editor").evaluate("(el, code) => el.env.editor.setValue(code)", RUNAWAY)
    await asyncio.sleep(1.0)  # the editor's text reaches the server
    rerun = [asyncio.ensure_future(run_again(page)) for _, page in loud]
    await asyncio.sleep(2.0)
    running = len(children(pid))
    loaded = await step_all(pages, steps)
    during = rss_mb(pid)
    for task in rerun:
        task.cancel()
    for context, _ in [*loud, *opened]:
        await context.close()
    end = time.monotonic() + 60
    while children(pid) and time.monotonic() < end:
        await asyncio.sleep(0.5)
    await asyncio.sleep(SESSION_LIFETIME_S + 2)  # the server destroys the closed sessions
    return {"idle": idle, "loaded": loaded, "children_during": running, "children_after": len(children(pid)),
            "rss_before": before, "rss_during": during, "rss_after": rss_mb(pid)}


# A closed session is destroyed within SESSION_LIFETIME_S + 1 s (Bokeh's defaults: 15 s, checked every 17 s). A
# session must outlive the time from its page's request to its websocket's connecting (or it is built again).
SESSION_LIFETIME_S = 8
SERVE_ARGS = ("--check-unused-sessions", "1000", "--unused-session-lifetime", str(SESSION_LIFETIME_S * 1000))
