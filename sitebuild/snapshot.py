"""The first paint: a picture of the prerendered page, taken in Chromium (Playwright) from dist/ on
127.0.0.1, every other request refused. Playwright and Chromium are optional: without them the page opens
on its loading card alone."""

from __future__ import annotations

import functools
import hashlib
import http.server
import importlib.util
import shutil
import threading
from pathlib import Path

from sitebuild.base import BUILD_VERSION, CACHE, log

SNAPSHOT_JS = """() => new Promise((resolve) => {
  const done = () => window.Bokeh && Bokeh.index && Bokeh.index.roots.length > 0 &&
    Bokeh.index.roots.every((v) => v.is_idle);
  const poll = () => done() ? setTimeout(resolve, 800) : setTimeout(poll, 100);
  poll();
})"""


def snapshot(dist: Path, prerendered: str) -> bytes | None:
    """A picture of the prerendered page (Chromium, 1280x800): the first paint while Python loads. Cached
    by the page's content; None when no Chromium or Playwright is at hand (the page then opens on its
    loading screen alone)."""
    key = hashlib.sha256(f"{BUILD_VERSION}:{prerendered}".encode()).hexdigest()[:20]
    cached = CACHE / "snapshot" / f"{key}.png"
    if cached.exists():
        return cached.read_bytes()
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if importlib.util.find_spec("playwright") is None or not Path(chromium).exists():
        log("no Chromium/Playwright: the page will have no snapshot for its first paint")
        return None
    log("taking the first-paint snapshot in Chromium")
    data = _take(dist, prerendered, chromium)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    return data


def _take(dist: Path, prerendered: str, chromium: str) -> bytes:
    from playwright.sync_api import sync_playwright  # optional: snapshot() checked it is installed

    (dist / "prerender.html").write_text(prerendered)
    quiet = type("Quiet", (http.server.SimpleHTTPRequestHandler,), {"log_message": lambda *a: None})
    handler = functools.partial(quiet, directory=str(dist))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(origin) else r.abort())
            page.goto(origin + "prerender.html")
            page.wait_for_function(SNAPSHOT_JS, timeout=120_000)
            data = page.screenshot(type="png")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
        (dist / "prerender.html").unlink()
    return data
