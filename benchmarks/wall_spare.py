"""How long the next program waits after the browser's wall stopped one, with and without a warm spare program
worker (static/wall.mjs, `spare`), in headless Chromium against dist/ served on 127.0.0.1.

    .venv/bin/python benchmarks/wall_spare.py [--rounds 3] [--no-build]

In one page, for each setting: a Wall runs a small program (its worker boots), then a C-level runaway the wall
stops at its budget (1 s) plus the margin, then the small program again; "after a kill" is the time from the
runaway's answer to the next program's timeline. The spare boots once the first worker is ready, so the first
round waits for it (a few seconds after the page's start); each round starts after a pause of PAUSE_S. The
machine's load average is printed beside the figures: on a shared 2-core machine it changes them a lot.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.site import sitekit  # noqa: E402
from tests.trace.runaways import CORPUS as RUNAWAYS  # noqa: E402

GOOD = "import torch\nx = torch.tensor(3.0, requires_grad=True)\ny = x * x\ny.backward()\nprint(x.grad)\n"
PAUSE_S = 8  # before each round: time for a spare to boot, as a learner reads the message before the next Run

MEASURE = """
async ({ spare, rounds, good, runaway, pause }) => {
  const manifest = window.SITE_MANIFEST;
  const base = new URL('.', document.baseURI).href;
  const { Wall } = await import(`./static/wall.mjs?v=${manifest.version}`);
  const wall = new Wall({ manifest, base, seconds: 1, spare });
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const t0 = performance.now();
  const first = await wall.run({ source: good });
  const firstMs = performance.now() - t0;
  const after = [];
  for (let i = 0; i < rounds; i += 1) {
    await sleep(pause * 1000);
    const stopped = await wall.run({ source: runaway });
    if (!stopped.stopped) throw new Error('the runaway was not stopped');
    const t = performance.now();
    const next = await wall.run({ source: good });
    if (!next.json) throw new Error('the next program did not run');
    after.push(performance.now() - t);
  }
  for (const w of [wall.current, wall.spare]) if (w) w.worker.terminate();
  return { firstMs, after, ok: Boolean(first.json) };
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args()
    if args.no_build:
        os.environ["SITE_SKIP_BUILD"] = "1"
    dist = sitekit.ensure_built()
    runaway = RUNAWAYS["shared_list_str"].source
    with sitekit.static_server(dist) as (url, _), sync_playwright() as p:
        browser = sitekit.launch(p)
        for spare in (False, True):
            page = browser.new_page()
            page.goto(url + "?example=accumulate")
            sitekit.wait_ready(page)
            load = os.getloadavg()[0]
            got = page.evaluate(MEASURE, {"spare": spare, "rounds": args.rounds, "good": GOOD, "runaway": runaway,
                                          "pause": PAUSE_S})
            after = ", ".join(f"{ms / 1000:.2f}" for ms in got["after"])
            print(f"spare={str(spare):5}  first program {got['firstMs'] / 1000:.2f} s  next program after a kill: "
                  f"median {statistics.median(got['after']) / 1000:.2f} s ({after})  load {load:.1f}")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
