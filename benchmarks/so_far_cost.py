"""What streaming what a program records (engine/trace/so_far.py) costs a 2,000-iteration loop, and how long Stop
takes to show the steps of a long run, here and in headless Chromium against dist/ served on 127.0.0.1.

    .venv/bin/python benchmarks/so_far_cost.py [--rounds 3] [--no-build] [--no-site]

Here: `run` of the loop and its timeline's JSON, all at the end (Stream without pieces: what a run cost before), and
streamed in pieces as it runs (to a callback, what the static site's program worker does; through the server's wall,
run_isolated, whole), rounds alternating: CPU time of the process (the wall's: parent and child), and the share of
the run's time the pieces took. Then Stop in the server's wall: a program that records 10,002 events, ticks for a
second and enters one C call that never ends is stopped (the child is killed 0.3 s later): the time from Stop to the
timeline, and the events kept. In Chromium: a Wall in the page runs the loop with `stream` on and off (the time from
run to its answer), then the page's own Run and Stop on the 10,002-event program: the time from the press of Stop to
the steps shown (the step counter), and how many. The machine's load average is printed beside the figures: on a
shared 2-core machine it changes them a lot.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.trace import isolated, run, so_far  # noqa: E402
from engine.trace.isolated import run_isolated  # noqa: E402
from engine.trace.so_far import Pieces, Stream  # noqa: E402

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
# 10,002 events (x, the print, 10,000 ops), a second of ticks (the last piece is sent), then one C call that never ends
LONG = ("import torch\nimport time\nx = torch.ones(2)\nprint('before')\nfor i in range(10000):\n    y = x * i\n"
        "t = time.time()\nwhile time.time() - t < 1:\n    pass\na = [0]\nb = [0]\nfor i in range(40):\n"
        "    a = [a, a]\n    b = [b, b]\na == b\n")
LONG_EVENTS = 10_002

MEASURE = """
async ({ rounds, loop }) => {
  const manifest = window.SITE_MANIFEST;
  const base = new URL('.', document.baseURI).href;
  const { Wall } = await import(`./static/wall.mjs?v=${manifest.version}`);
  const walls = { with: new Wall({ manifest, base, seconds: 120, spare: false }),
    without: new Wall({ manifest, base, seconds: 120, spare: false, stream: false }) };
  for (const wall of Object.values(walls)) {
    wall.config.send_margin = 120; // a loaded machine: the loop's timeline is not cut by the wall
    await wall.run({ source: 'x = 1\\n' }); // booted
  }
  const times = { with: [], without: [] };
  const pieces = [];
  for (let i = 0; i < rounds; i += 1) {
    for (const name of i % 2 ? ['without', 'with'] : ['with', 'without']) {
      const t = performance.now();
      const answer = await walls[name].run({ source: loop });
      if (!answer.json || answer.json.includes('"error"')) {
        const said = (answer.json || JSON.stringify(answer.stopped)).slice(-300);
        throw new Error(`the loop did not end well (${name}): ${said}`);
      }
      times[name].push(performance.now() - t);
      if (name === 'with') pieces.push(answer.pieces.length);
    }
  }
  for (const wall of Object.values(walls)) for (const w of [wall.current, wall.spare]) if (w) w.worker.terminate();
  return { times, pieces };
}
"""


def cpu() -> float:
    """CPU time of this process and of its children that have ended (run_isolated's)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def here(rounds: int) -> None:
    """CPU time of the loop's run and its timeline's JSON (the machine's load changes wall-clock times a lot, CPU
    time less), and the share of the run's time the pieces took (Stream.spent)."""
    settings = {"all at the end (no pieces)": "end", "streamed to a callback (the browser's)": "sent",
                "run_isolated, streamed through its pipe": "wall", "run_isolated, all at the end": "wall-end"}
    times = {name: [] for name in settings}
    share = {name: [] for name in settings}
    counts = []
    isolated.SEND_SECONDS = 300  # a loaded machine: the timeline sent all at the end is not cut by the wall
    for i in range(rounds):
        for name, kind in (settings.items() if i % 2 == 0 else reversed(settings.items())):
            t, wall = cpu(), time.perf_counter()
            if kind.startswith("wall"):
                every = so_far.PIECE_EVERY
                so_far.PIECE_EVERY = float("inf") if kind == "wall-end" else every  # (read by Stream's default)
                try:
                    timeline = run_isolated(LOOP, max_seconds=300)
                finally:
                    so_far.PIECE_EVERY = every
            else:
                sent = []
                stream = Stream(sent.append if kind == "sent" else None)
                timeline = run(LOOP, stream=stream, max_seconds=300)
                Pieces().add(stream.tail(timeline)) if kind == "end" else None
                if kind == "sent":
                    stream.tail(timeline)
                    counts.append(len(sent))
                    share[name].append(stream.spent / (time.perf_counter() - wall))
            times[name].append(cpu() - t)
            assert timeline.error is None, timeline.error
    print(f"here (load {os.getloadavg()[0]:.1f}), the 2,000-iteration loop ({len(timeline.events):,} events, "
          f"{statistics.median(counts):.0f} pieces), CPU time of the run and its JSON, median of {rounds}:")
    base = statistics.median(times["all at the end (no pieces)"])
    for name, ts in times.items():
        spent = f", pieces {100 * statistics.median(share[name]):.1f}% of the run's time" if share[name] else ""
        print(f"  {name:42s} {statistics.median(ts):6.2f} s  x{statistics.median(ts) / base:.3f}{spent}  "
              f"({', '.join(f'{t:.2f}' for t in ts)})")


def served_stop(rounds: int) -> None:
    """Stop in the server's wall while the program is in a C call: from Stop to the timeline, and the events kept."""
    print(f"server's wall (load {os.getloadavg()[0]:.1f}): Stop in a C call after {LONG_EVENTS:,} events:")
    for _ in range(rounds):
        stop = threading.Event()
        pressed = []
        threading.Timer(12.0, lambda: pressed.append(time.perf_counter()) or stop.set()).start()  # noqa: B023
        timeline = run_isolated(LONG, stop=stop)
        ms = (time.perf_counter() - pressed[0]) * 1000
        print(f"  {ms:7.1f} ms from Stop to the timeline, {len(timeline.events) - 1:,} events kept "
              f"({timeline.error['type']} at line {timeline.error['line']})")


STOP_PAGE = 20.0  # s from Run to Stop on the page: the 10,002 events are recorded by then (Pyodide, a loaded machine)


def site(rounds: int, build: bool) -> None:
    from playwright.sync_api import sync_playwright

    from tests.app.browser import counter, editor_text, wait_for
    from tests.site import sitekit

    dist = sitekit.ensure_built() if build else sitekit.DIST
    with sitekit.static_server(dist) as (url, _), sync_playwright() as p:
        browser = sitekit.launch(p)
        page = browser.new_context(viewport=sitekit.VIEWPORT).new_page()
        page.add_init_script(f"window.SITE_PROGRAM_SECONDS = {STOP_PAGE + 30}")
        page.goto(url + "?example=accumulate")
        sitekit.wait_ready(page)
        result = page.evaluate(MEASURE, {"rounds": rounds, "loop": LOOP})
        load = os.getloadavg()[0]
        print(f"Chromium (load {load:.1f}), the 2,000-iteration loop from run to its answer, median of {rounds} "
              f"({statistics.median(result['pieces']):.0f} pieces):")
        for name, ts in result["times"].items():
            each = ", ".join(f"{t / 1000:.2f}" for t in ts)
            print(f"  streamed {name:8s} {statistics.median(ts) / 1000:6.2f} s  ({each})")
        ratio = statistics.median(result["times"]["with"]) / statistics.median(result["times"]["without"])
        print(f"  with / without: {ratio:.3f}", flush=True)
        stops = []
        for _ in range(rounds):
            page.locator(".editor .ace_editor").evaluate("(el, code) => el.env.editor.setValue(code, 1)", LONG)
            wait_for(lambda: editor_text(page) == LONG)
            page.wait_for_timeout(700)
            page.locator(".run button").click()
            page.wait_for_selector(".stop button", state="visible", timeout=60_000)
            page.wait_for_timeout(STOP_PAGE * 1000)
            t = time.perf_counter()
            page.locator(".stop button").click()
            wait_for(lambda: counter(page)[1] > 1 and "Run" in page.locator(".run button").inner_text(), 60_000)
            stops.append(((time.perf_counter() - t) * 1000, counter(page)[1] - 1))
            page.wait_for_timeout(8000)  # the spare worker boots again
        browser.close()
    print(f"The page's Stop, {STOP_PAGE:g} s into the {LONG_EVENTS:,}-event program: from Stop to its steps shown:")
    for ms, kept in stops:
        print(f"  {ms:7.1f} ms, {kept:,} events kept")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--no-site", action="store_true")
    args = parser.parse_args()
    here(args.rounds)
    served_stop(args.rounds)
    if not args.no_site:
        site(args.rounds, not args.no_build)


if __name__ == "__main__":
    main()
