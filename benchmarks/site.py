"""How fast the static site starts: cold first paint, time to interactive, bytes transferred, wasm heap, and a
second visit, in headless Chromium with a fresh profile against dist/ served on 127.0.0.1.

    .venv/bin/python benchmarks/site.py [--runs 3] [--no-build | --dist DIR] [--only page|code]

Time to interactive: from navigation until the page has answered a click (the "backward call ⇥" button
moves the step counter); for the default example the page steps before Python has started (the prelude,
app/site/prelude.py). "Python answers at": until the live app, with Python running, has answered the same
click. Bytes: what the static server sent (no compression on the wire beyond the .gz files the build made).
The machine's load average is printed beside the figures: on a shared 2-core machine it changes them a lot.

A `?code=` link of a 10-line program (CODE) is measured too, cold and on a second visit: "its graph" is when
the page shows the program's graph and has answered a step (→): cold, that is the live app; on a second visit
the link's prelude, which Python recorded into the page's cache after the first visit (app.site.hooks.link_prelude),
steps it before Python has started, and "Python" is when the live app is up. "program ran" is when the program
worker's timeline was in (window.site.timings.program, ms from the app worker's start; it runs beside the
app's start, behind the wall, static/wall.mjs).
"""

from __future__ import annotations

import argparse
import base64
import os
import signal
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.site import sitekit  # noqa: E402

LCP = """
(() => {
  window.__lcp = null;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__lcp = e.startTime; })
    .observe({type: 'largest-contentful-paint', buffered: true});
})();
"""


CODE = """import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * w
z = y.relu()
loss = (z ** 2).sum()
loss.backward()
print(loss)
print(x.grad)
print(w.grad)
"""


def code_query() -> str:
    return "code=" + base64.urlsafe_b64encode(CODE.encode()).decode().rstrip("=")


def counter(page) -> int:
    text = page.locator(".counter").inner_text()
    return int(text.replace("step", "").split("/")[0])


def answer_a_click(page, timeout_s: float = 60) -> float:
    """Click "backward call ⇥" and wait until the step counter moves; returns the seconds it took."""
    before = counter(page)
    t0 = time.time()
    page.locator(".next-call button").click()
    while counter(page) == before:
        if time.time() - t0 > timeout_s:
            raise TimeoutError("the app did not answer the click")
        time.sleep(0.005)
    return time.time() - t0


def one_run(pw, url: str, served: sitekit.Served) -> dict:
    profile = sitekit.fresh_profile()
    context = pw.chromium.launch_persistent_context(profile.name, executable_path=sitekit.CHROMIUM,
                                                    args=sitekit.CHROMIUM_ARGS, headless=True,
                                                    viewport=sitekit.VIEWPORT)
    watch = sitekit.watch_context(context, url)
    page = context.pages[0] if context.pages else context.new_page()
    page.add_init_script(LCP)
    mark = served.mark()
    t0 = time.time()
    page.goto(url)
    sitekit.wait_interactive(page)
    click = answer_a_click(page)
    tti = time.time() - t0
    site = sitekit.wait_ready(page)
    python_s = time.time() - t0
    answer_a_click(page)
    cold = served.since(mark)
    cold_bytes = sum(n for _, _, n in cold)
    if os.environ.get("SITE_BENCH_DEBUG"):
        seen = {}
        for path, _, n in cold:
            seen.setdefault(path.split("?")[0], []).append(n)
        print({k: v for k, v in seen.items() if len(v) > 1 or v[0] > 300_000})
    paint = page.evaluate("() => ({lcp: window.__lcp, fcp: performance.getEntriesByName('first-contentful-paint')"
                          "[0]?.startTime, snapshot: window.site.prerendered, interactive: window.site.interactive})")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    time.sleep(1.0)  # let the service worker finish storing
    mark = served.mark()
    t1 = time.time()
    page.goto(url)
    sitekit.wait_interactive(page)
    answer_a_click(page)
    second = time.time() - t1
    again = sitekit.wait_ready(page)
    second_python = time.time() - t1
    second_bytes = sum(n for _, _, n in served.since(mark))
    context.close()
    profile.cleanup()
    if watch.external:
        raise AssertionError(f"requests to other hosts: {watch.external}")
    return {
        "first_paint_ms": paint["snapshot"], "lcp_ms": paint["lcp"], "fcp_ms": paint["fcp"],
        "ready_s": site["timings"]["ready"] / 1000, "click_s": click, "tti_s": tti, "python_s": python_s,
        "stepping_s": (paint["interactive"] or site["timings"]["ready"]) / 1000, "second_python_s": second_python,
        "bytes": cold_bytes, "heap": site["timings"]["heap"], "phases": site["timings"],
        "second_tti_s": second, "second_bytes": second_bytes, "second_phases": again["timings"],
    }


def graph_shown(page, t0: float, timeout_s: float = sitekit.READY_TIMEOUT_MS / 1000) -> float:
    """Seconds from t0 until the page shows a graph that steps (the counter has steps) with Python live.
    Raises, saying what the page shows, if the program failed (its caption says why; one that failed before its
    first step shows "step 0 / 0" for good, and the wait for steps never ended) or no graph came within
    timeout_s."""
    sitekit.wait_ready(page)
    page.wait_for_function("() => window.site.ready", timeout=60_000)
    while True:
        text = page.locator(".counter").inner_text()
        failed = page.locator(".caption-text.failed")
        if failed.count():
            raise RuntimeError(f"the program failed in the page: {failed.first.inner_text()!r} (counter {text!r})")
        if int(text.replace("step", "").split("/")[1]) > 0:
            return time.time() - t0
        if time.time() - t0 > timeout_s:
            raise TimeoutError(f"no graph within {timeout_s:.0f} s (counter {text!r})")
        time.sleep(0.01)


def steps_shown(page, t0: float, timeout_s: float = sitekit.READY_TIMEOUT_MS / 1000) -> float:
    """Seconds from t0 until the page shows a graph (the counter has steps) and has answered → (with the link's
    prelude, or the live app)."""
    sitekit.wait_interactive(page)
    while True:
        text = page.locator(".counter").inner_text()
        if int(text.replace("step", "").split("/")[1]) > 0:
            break
        if time.time() - t0 > timeout_s:
            raise TimeoutError(f"no graph within {timeout_s:.0f} s (counter {text!r})")
        time.sleep(0.01)
    before = counter(page)
    page.keyboard.press("ArrowRight")
    while counter(page) == before:
        if time.time() - t0 > timeout_s:
            raise TimeoutError("the page did not answer →")
        time.sleep(0.005)
    return time.time() - t0


def code_run(pw, url: str, served: sitekit.Served) -> dict:
    """A ?code= link, cold (fresh profile) then a second visit."""
    profile = sitekit.fresh_profile()
    context = pw.chromium.launch_persistent_context(profile.name, executable_path=sitekit.CHROMIUM,
                                                    args=sitekit.CHROMIUM_ARGS, headless=True,
                                                    viewport=sitekit.VIEWPORT)
    watch = sitekit.watch_context(context, url)
    page = context.pages[0] if context.pages else context.new_page()
    link = f"{url}?{code_query()}"
    mark = served.mark()
    t0 = time.time()
    page.goto(link)
    cold = graph_shown(page, t0)
    cold_bytes = sum(n for _, _, n in served.since(mark))
    timings = page.evaluate("window.site.timings")
    logs = page.evaluate("window.site.logs.filter((t) => t.startsWith('[site]'))")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null && window.site.linkPrelude === 'kept'",
                           timeout=60_000)
    time.sleep(1.0)
    mark = served.mark()
    t1 = time.time()
    page.goto(link)
    second = steps_shown(page, t1)
    shown_by = page.evaluate("site.linkPrelude")
    second_python = graph_shown(page, t1)
    second_bytes = sum(n for _, _, n in served.since(mark))
    again = page.evaluate("window.site.timings")
    context.close()
    profile.cleanup()
    if watch.external:
        raise AssertionError(f"requests to other hosts: {watch.external}")
    return {"cold_s": cold, "bytes": cold_bytes, "second_s": second, "second_bytes": second_bytes,
            "second_python_s": second_python, "shown_by": shown_by,
            "program_ms": timings.get("program"), "second_program_ms": again.get("program"),
            "phases": timings, "second_phases": again, "logs": logs}


def print_code(i: int, r: dict) -> None:
    print(f"?code= link {i}: its graph at {r['cold_s']:.1f} s cold (program ran at "
          f"{r['program_ms']} ms of the app worker), {r['bytes'] / 1e6:.1f} MB; second visit "
          f"{r['second_s']:.1f} s (its prelude: {r['shown_by']}; Python {r['second_python_s']:.1f} s, program "
          f"{r['second_program_ms']} ms), {r['second_bytes'] / 1e3:.0f} kB; "
          f"load average {r['load']:.1f}", flush=True)
    print(f"       phases (ms from worker start): {r['phases']}", flush=True)
    print(f"       second visit phases: {r['second_phases']}", flush=True)
    print(f"       the app worker said: {r['logs']}", flush=True)


def print_page(i: int, r: dict) -> None:
    print(f"run {i}: first paint {r['first_paint_ms']} ms (LCP {r['lcp_ms'] or 0:.0f} ms), "
          f"interactive {r['tti_s']:.1f} s (steps from {r['stepping_s']:.1f} s + click {r['click_s']:.2f} s),"
          f" Python answers at {r['python_s']:.1f} s, "
          f"{r['bytes'] / 1e6:.1f} MB, wasm heap {r['heap'] / 2**20:.0f} MiB; second visit "
          f"{r['second_tti_s']:.1f} s (Python {r['second_python_s']:.1f} s), {r['second_bytes'] / 1e3:.0f} kB;"
          f" load average {r['load']:.1f}", flush=True)
    print(f"       phases (ms from worker start): {r['phases']}", flush=True)
    print(f"       second visit phases: {r['second_phases']}", flush=True)


def spread(rows: list[dict], key: str) -> tuple[float, float, float]:
    values = [r[key] for r in rows]
    return min(values), statistics.median(values), max(values)


def print_tables(codes: list[dict], runs: list[dict], failures: list[str]) -> None:
    """The summary of the runs that completed, and what went wrong in the others."""
    if codes:
        cold, second, load = spread(codes, "cold_s"), spread(codes, "second_s"), spread(codes, "load")
        python = spread(codes, "second_python_s")
        print("\n?code= link (min-median-max of {}): its graph cold {:.1f}-{:.1f}-{:.1f} s, second visit "
              "{:.1f}-{:.1f}-{:.1f} s (Python {:.1f}-{:.1f}-{:.1f} s), {:.1f} MB transferred cold, load average "
              "{:.1f}-{:.1f}-{:.1f}".format(len(codes), *cold, *second, *python, spread(codes, "bytes")[1] / 1e6,
                                            *load), flush=True)
    if runs:
        med = {k: spread(runs, k)[1] for k in ("first_paint_ms", "tti_s", "python_s", "bytes", "heap", "second_tti_s",
                                               "second_bytes", "load")}
        print(f"\nsite (median of {len(runs)}): cold first paint {med['first_paint_ms']:.0f} ms · time to interactive "
              f"{med['tti_s']:.1f} s · Python answers at {med['python_s']:.1f} s · {med['bytes'] / 1e6:.1f} MB "
              f"transferred · wasm heap {med['heap'] / 2**20:.0f} MiB · second visit {med['second_tti_s']:.1f} s, "
              f"{med['second_bytes'] / 1e3:.0f} kB · load average {med['load']:.1f} on {os.cpu_count()} cores",
              flush=True)
    if failures:
        print(f"\n{len(failures)} run(s) failed (not in the figures above):", *failures, sep="\n  ", flush=True)


def _terminated(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--no-build", action="store_true", help="measure the dist/ that is there")
    parser.add_argument("--dist", type=Path, help="measure another build's dist/ (implies --no-build)")
    parser.add_argument("--only", choices=("page", "code"), help="measure only the default page or the ?code= link")
    args = parser.parse_args()
    # A run that fails, or the benchmark stopped (Ctrl-C, `timeout`'s SIGTERM), still prints what was measured.
    signal.signal(signal.SIGTERM, _terminated)
    if args.no_build:
        os.environ["SITE_SKIP_BUILD"] = "1"
    if not args.dist and not args.no_build:
        print("building dist/ (build.py; a minute or two) ...", flush=True)
    try:
        dist = args.dist or sitekit.ensure_built()
    except RuntimeError as e:
        print(f"benchmarks/site.py: {e}", file=sys.stderr, flush=True)
        return 2
    runs, codes, failures = [], [], []
    plan = [("code", i + 1) for i in range(args.runs if args.only != "page" else 0)]
    plan += [("page", i + 1) for i in range(args.runs if args.only != "code" else 0)]
    try:
        with sitekit.static_server(dist) as (url, served), sync_playwright() as pw:
            for kind, i in plan:
                load = os.getloadavg()[0]
                try:
                    r = (code_run if kind == "code" else one_run)(pw, url, served)
                except Exception as e:  # noqa: BLE001 - reported, and the other runs go on
                    name = "?code= link" if kind == "code" else "run"
                    failures.append(f"{name} {i}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
                    print(f"{name} {i} failed at load average {load:.1f}: {type(e).__name__}: {e}", flush=True)
                    continue
                r["load"] = load
                (codes if kind == "code" else runs).append(r)
                (print_code if kind == "code" else print_page)(i, r)
    except KeyboardInterrupt as e:
        failures.append(f"stopped ({e or 'interrupted'}) after {len(codes) + len(runs)} of {len(plan)} runs")
    print_tables(codes, runs, failures)
    if not codes and not runs:
        print("no run completed: nothing measured", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
