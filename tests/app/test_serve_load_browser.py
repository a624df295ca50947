"""One learner's runaway program does not hold the server: the sessions stepping beside it stay as fast as on an
idle server (benchmarks/serve_load.py runs the issue's 30 steppers beside 3 runaways), and the server's
memory and processes come back when the sessions close."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from browser import CHROMIUM, CHROMIUM_ARGS, panel_server
from playwright.async_api import async_playwright
from serve_load import SERVE_ARGS, measure, percentile


def test_steppers_stay_fast_while_runaways_run_and_everything_returns():
    async def load():
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            with panel_server(SERVE_ARGS) as url:
                figures = await measure(browser, url, steppers=2, runaways=1, steps=6, warm=False)
            await browser.close()
        return figures

    with ThreadPoolExecutor(1) as thread:  # (the run's sync Playwright owns this thread's event loop)
        m = thread.submit(asyncio.run, load()).result()
    assert m["children_during"] == 1, "the runaway runs in a child process of its own"
    assert -1 not in m["loaded"], "every step was answered while the runaway ran (10 s each at most)"
    idle, loaded = percentile(m["idle"], 95), percentile(m["loaded"], 95)
    assert loaded <= 2 * idle + 500, (idle, loaded)  # (+0.5 s: the machine's other load, not the runaway's)
    assert m["children_after"] == 0
    assert m["rss_after"] - m["rss_before"] < 40, (m["rss_before"], m["rss_after"])
