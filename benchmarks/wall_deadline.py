"""How long the server's wall takes to end each runaway of tests/trace/runaways.ONE_CALL_CORPUS (one C call no tick
of the guard interrupts), one at a time, with a time budget of 2 s: the seconds from run_isolated's call to its
timeline, the line its message names, and the message. Each must end within the budget + 1 s (and the kill).
With --site, the same through the browser's wall (static/wall.mjs) in headless Chromium against dist/ served on
127.0.0.1: each runaway in a program worker with the same budget and the page's 1 s margin, from `Wall.run` to its
answer. The machine's load average is printed: on a shared 2-core machine it changes the figures.

    .venv-torch/bin/python benchmarks/wall_deadline.py [--budget 2]
    .venv/bin/python benchmarks/wall_deadline.py --site [--budget 2] [--no-build]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.trace.isolated import BROWSER_MARGIN, run_isolated  # noqa: E402
from tests.trace.runaways import ONE_CALL_CORPUS  # noqa: E402

# In the page: a Wall (the app's own) runs each program in turn, once its spare worker is booted (a stopped
# program's worker is replaced by the spare, and a new spare boots).
THROUGH_THE_WALL = """
async ({ programs, seconds, margin }) => {
  const manifest = window.SITE_MANIFEST;
  const base = new URL('.', document.baseURI).href;
  const { Wall } = await import(`./static/wall.mjs?v=${manifest.version}`);
  const wall = new Wall({ manifest, base, seconds, margin, spare: true });
  await wall.run({ source: 'x = 1' });
  const results = [];
  for (const [name, source] of programs) {
    while (!wall.spare) await new Promise((resolve) => setTimeout(resolve, 100));
    await wall.spare.ready; // timed from a booted worker: the budget, not a boot
    const t = performance.now();
    const answer = await wall.run({ source });
    results.push({ name, seconds: (performance.now() - t) / 1000, stopped: answer.stopped || null });
  }
  for (const w of [wall.current, wall.spare]) if (w) w.worker.terminate();
  return results;
}
"""


def row(cls: str, name: str, seconds: float, error: dict) -> str:
    return f"{cls:14s} {name:28s} {seconds:5.2f} {error.get('line')!s:>4s}  {error.get('message', '')[:70]}"


def served(budget: float) -> None:
    for cls, entries in ONE_CALL_CORPUS.items():
        for name, entry in entries.items():
            start = time.monotonic()
            error = run_isolated(entry.source, max_seconds=budget).error or {}
            print(row(cls, name, time.monotonic() - start, error))


def site(budget: float, build: bool) -> None:
    from playwright.sync_api import sync_playwright

    from tests.site import sitekit

    programs = [(name, entry.source) for entries in ONE_CALL_CORPUS.values() for name, entry in entries.items()]
    classes = {name: cls for cls, entries in ONE_CALL_CORPUS.items() for name in entries}
    dist = sitekit.ensure_built() if build else sitekit.DIST
    with sitekit.static_server(dist) as (url, _), sync_playwright() as p:
        browser = sitekit.launch(p)
        page = browser.new_context(viewport=sitekit.VIEWPORT).new_page()
        page.goto(url + "?example=accumulate")
        sitekit.wait_ready(page)
        results = page.evaluate(THROUGH_THE_WALL, {"programs": programs, "seconds": budget, "margin": BROWSER_MARGIN})
        browser.close()
    for r in results:
        print(row(classes[r["name"]], r["name"], r["seconds"], r["stopped"] or {"message": "(not stopped)"}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--site", action="store_true", help="through the browser's wall in Chromium")
    parser.add_argument("--no-build", dest="build", action="store_false", help="use dist/ as it is")
    args = parser.parse_args()
    print(f"{'server' if not args.site else 'browser'}'s wall, budget {args.budget:g} s + 1 s "
          f"(load {os.getloadavg()[0]:.1f})")
    print(f"{'class':14s} {'program':28s} {'s':>5s} line  message")
    if args.site:
        site(args.budget, args.build)
    else:
        served(args.budget)


if __name__ == "__main__":
    main()
