"""What the snapshots of what a program has recorded so far (engine/trace/so_far.py) cost a 2,000-iteration loop,
and how long Stop takes, here and in headless Chromium against dist/ served on 127.0.0.1.

    .venv/bin/python benchmarks/so_far_cost.py [--rounds 3] [--no-build] [--no-site]

Here: `run` of the loop without snapshots, with snapshots sent to a callback (what the static site's program worker
does) and into shared memory (SharedSlots, what the server's child does), rounds alternating: CPU time, and the
share of the run's (wall-clock) time the snapshots took. In Chromium: a Wall in the page runs the loop with
`snapshots` on and off (the time from run to its timeline), then another (with a spare worker, as the page's) a loop
that records steps and never ends, stopped 3 s after it started (the time from Stop to the answer, and the steps
kept). The machine's load average is printed beside the figures: on a shared 2-core machine it changes them a lot.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.trace import run  # noqa: E402
from engine.trace.so_far import SharedSlots, Snapshots  # noqa: E402

LOOP = """import torch
w = torch.tensor([1.0, -1.0], requires_grad=True)
x = torch.tensor([0.5, 2.0])
for i in range(2000):
    loss = ((w * x).sum() - 1.0) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.01 * w.grad
    w.grad.zero_()
print(w)
"""
ENDLESS = ("import torch\nx = torch.ones(2, requires_grad=True)\nprint('before')\nfor i in range(20):\n"
           "    y = (x * i).sum()\nwhile True:\n    i += 1\n")

MEASURE = """
async ({ rounds, loop, endless }) => {
  const manifest = window.SITE_MANIFEST;
  const base = new URL('.', document.baseURI).href;
  const { Wall } = await import(`./static/wall.mjs?v=${manifest.version}`);
  const walls = { with: new Wall({ manifest, base, seconds: 120, spare: false }),
    without: new Wall({ manifest, base, seconds: 120, spare: false, snapshots: false }) };
  for (const wall of Object.values(walls)) {
    wall.config.send_margin = 120; // a loaded machine: the loop's timeline is not cut by the wall
    await wall.run({ source: 'x = 1\\n' }); // booted
  }
  const times = { with: [], without: [] };
  for (let i = 0; i < rounds; i += 1) {
    for (const name of i % 2 ? ['without', 'with'] : ['with', 'without']) {
      const t = performance.now();
      const answer = await walls[name].run({ source: loop });
      if (!answer.json || answer.json.includes('"error"')) {
        const said = (answer.json || JSON.stringify(answer.stopped)).slice(-300);
        throw new Error(`the loop did not end well (${name}): ${said}`);
      }
      times[name].push(performance.now() - t);
    }
  }
  for (const wall of Object.values(walls)) for (const w of [wall.current, wall.spare]) if (w) w.worker.terminate();
  const stops = [];
  const wall = new Wall({ manifest, base, spare: true }); // as the page's: a spare takes over after a stop
  await wall.run({ source: 'x = 1\\n' });
  for (let i = 0; i < rounds; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 8000)); // the spare boots
    const running = wall.run({ source: endless });
    while (!wall.current) await new Promise((resolve) => setTimeout(resolve, 10));
    await wall.current.ready;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const t = performance.now();
    wall.stopRunning();
    const answer = await running;
    stops.push({ ms: performance.now() - t, kept: answer.recorded ? JSON.parse(answer.recorded).events.length : 0 });
  }
  for (const w of [wall.current, wall.spare]) if (w) w.worker.terminate();
  return { times, stops };
}
"""


def here(rounds: int) -> None:
    """CPU time of the loop's run (the machine's load changes wall-clock times a lot, CPU time less), and the share
    of it the snapshots took (Snapshots.spent)."""
    settings = {"no snapshots": None, "snapshots sent (the browser's)": "sent",
                "snapshots into shared memory (the server's)": "shared"}
    cpu = {name: [] for name in settings}
    share = {name: [] for name in settings}
    for i in range(rounds):
        for name, kind in (settings.items() if i % 2 == 0 else reversed(settings.items())):
            slots = SharedSlots(32 * 2**20) if kind == "shared" else None
            snapshots = None if kind is None else Snapshots(slots.write if slots else (lambda text: None), 32 * 2**20)
            t, wall = time.process_time(), time.perf_counter()
            timeline = run(LOOP, snapshots=snapshots, max_seconds=300)
            cpu[name].append(time.process_time() - t)
            wall = time.perf_counter() - wall
            assert timeline.error is None, timeline.error
            if snapshots is not None:  # (Snapshots.spent is wall-clock time, as the run's budget)
                share[name].append(snapshots.spent / wall)
                assert snapshots.sent > 0
            if slots:
                slots.close()
    print(f"here (load {os.getloadavg()[0]:.1f}), the 2,000-iteration loop ({len(timeline.events):,} events), CPU "
          f"time, median of {rounds}:")
    base = statistics.median(cpu["no snapshots"])
    for name, ts in cpu.items():
        spent = f", snapshots {100 * statistics.median(share[name]):.1f}% of the run's time" if share[name] else ""
        print(f"  {name:44s} {statistics.median(ts):6.2f} s  x{statistics.median(ts) / base:.3f}{spent}  "
              f"({', '.join(f'{t:.2f}' for t in ts)})")


def site(rounds: int, build: bool) -> None:
    from playwright.sync_api import sync_playwright

    from tests.site import sitekit

    dist = sitekit.ensure_built() if build else sitekit.DIST
    with sitekit.static_server(dist) as (url, _), sync_playwright() as p:
        browser = sitekit.launch(p)
        page = browser.new_context(viewport=sitekit.VIEWPORT).new_page()
        page.goto(url + "?example=accumulate")
        sitekit.wait_ready(page)
        result = page.evaluate(MEASURE, {"rounds": rounds, "loop": LOOP, "endless": ENDLESS})
        browser.close()
    load = os.getloadavg()[0]
    print(f"Chromium (load {load:.1f}), the 2,000-iteration loop from run to timeline, median of {rounds}:")
    for name, ts in result["times"].items():
        each = ", ".join(f"{t / 1000:.2f}" for t in ts)
        print(f"  snapshots {name:8s} {statistics.median(ts) / 1000:6.2f} s  ({each})")
    ratio = statistics.median(result["times"]["with"]) / statistics.median(result["times"]["without"])
    print(f"  with / without: {ratio:.3f}")
    print("Stop 3 s into a loop that recorded 42 steps: from Stop to the wall's answer, and the events kept:")
    for stop in result["stops"]:
        print(f"  {stop['ms']:7.1f} ms, {stop['kept']} events kept")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--no-site", action="store_true")
    args = parser.parse_args()
    here(args.rounds)
    if not args.no_site:
        site(args.rounds, not args.no_build)


if __name__ == "__main__":
    main()
