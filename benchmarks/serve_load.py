"""One `panel serve app/main.py` under load: N sessions step (arrow keys, Chromium) while R sessions run an
endless matrix-product loop. Prints the steppers' p95 / median step latency idle and loaded, their ratio, the
server's child processes during and after, and its memory before, during and after.

    .venv/bin/python benchmarks/serve_load.py [--steppers 30] [--runaways 3] [--steps 10]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "app")]

from browser import CHROMIUM, CHROMIUM_ARGS, panel_server  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402
from serve_load import SERVE_ARGS, measure, percentile  # noqa: E402


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steppers", type=int, default=30)
    parser.add_argument("--runaways", type=int, default=3)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--all", action="store_true", help="print every step's latency")
    args = parser.parse_args()
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        with panel_server(SERVE_ARGS) as url:
            m = await measure(browser, url, args.steppers, args.runaways, args.steps)
        await browser.close()
    for name in ("idle", "loaded"):
        times = m[name]
        seen = [t for t in times if t >= 0]
        print(f"{name:6s}: {len(seen)}/{len(times)} steps seen, p95 {percentile(seen, 95):.0f} ms, "
              f"median {statistics.median(seen):.0f} ms")
        if args.all:
            print("       ", " ".join(f"{t:.0f}" for t in times))
    print(f"p95 loaded / idle: {percentile(m['loaded'], 95) / percentile(m['idle'], 95):.2f}")
    print(f"children: {m['children_during']} during, {m['children_after']} after; server RSS {m['rss_before']:.0f} MB "
          f"before, {m['rss_during']:.0f} MB during, {m['rss_after']:.0f} MB after")


if __name__ == "__main__":
    asyncio.run(main())
