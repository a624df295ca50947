"""Helpers for the static-site tests and benchmarks/site.py: build dist/ once, serve it on 127.0.0.1 with a
static server that counts the bytes it sends, and drive Debian's Chromium through Playwright with every
request to another host blocked and recorded."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 800}
READY_TIMEOUT_MS = 180_000

_built = False
BUILD_LOCK = ROOT / ".cache" / "dist.lock"

TEST_LESSONS = ROOT / "tests" / "site" / "lessons"  # a teacher's own lessons (build.py --lessons): one builds, two not
BUILD_TIMEOUT_S = 900  # a cold build takes ~1.5 minutes; one that hangs (a download, Chromium) is stopped


@contextlib.contextmanager
def dist_lock(shared: bool):
    """Held (exclusively) while build.py writes dist/, and (shared) by a test reading dist/ and the test wheels
    beside it from another process: bin/test runs the engine's suite in Pyodide beside the browser tests."""
    BUILD_LOCK.parent.mkdir(parents=True, exist_ok=True)
    with open(BUILD_LOCK, "a") as f:
        fcntl.flock(f, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield


# bin/test builds dist/ once for the whole run: a build made in the same run (SITE_BUILD_RUN) from the same
# files (every file git does not ignore), with dist/ as that build left it, is not made again.
BUILT_STAMP = ROOT / ".cache" / "dist-built.json"


def _build_key() -> dict | None:
    run = os.environ.get("SITE_BUILD_RUN")
    if not run:
        return None
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    h = hashlib.sha256()
    for rel in sorted(set(listed.decode().split("\0")) - {""}):
        path = ROOT / rel
        h.update(rel.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"(none)") + b"\0")
    return {"run": run, "dist": str(DIST), "files": h.hexdigest()}


def _dist_key() -> str | None:
    manifest = DIST / "manifest.json"
    return hashlib.sha256(manifest.read_bytes()).hexdigest() if manifest.exists() else None


def ensure_built() -> Path:
    """Run build.py once per test session (it is cached, so this is quick after the first time), unless this
    bin/test run built dist/ from the same files already. Set SITE_SKIP_BUILD=1 to test the dist/ that is there."""
    global _built
    if not _built and os.environ.get("SITE_SKIP_BUILD") != "1":
        with dist_lock(shared=False):
            key = _build_key()
            stamp = json.loads(BUILT_STAMP.read_text()) if key and BUILT_STAMP.exists() else None
            if not key or stamp != {**key, "manifest": _dist_key()}:
                BUILT_STAMP.unlink(missing_ok=True)
                _build()
                if key:
                    BUILT_STAMP.write_text(json.dumps({**key, "manifest": _dist_key()}))
        _built = True
    if not (DIST / "manifest.json").exists():
        raise RuntimeError("dist/ is not built")
    return DIST


def _build() -> None:
    try:
        proc = subprocess.run([sys.executable, str(ROOT / "build.py"), "--lessons", str(TEST_LESSONS)], cwd=ROOT,
                              capture_output=True, text=True,
                              timeout=BUILD_TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        said = (e.stdout or b"")[-3000:]
        said = said.decode(errors="replace") if isinstance(said, bytes) else said
        raise RuntimeError(f"build.py did not finish within {BUILD_TIMEOUT_S} s; its last words:\n{said}") from None
    if proc.returncode != 0:
        raise RuntimeError(f"build.py failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")


@dataclass
class Served:
    """What the static server sent: (path, status, bytes) for every request."""
    log: list[tuple[str, int, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def bytes_sent(self) -> int:
        with self.lock:
            return sum(n for _, _, n in self.log)

    def mark(self) -> int:
        with self.lock:
            return len(self.log)

    def since(self, mark: int) -> list[tuple[str, int, int]]:
        with self.lock:
            return list(self.log[mark:])

    def errors(self) -> list[tuple[str, int, int]]:
        with self.lock:
            return [entry for entry in self.log if entry[1] >= 400]


class _Handler(http.server.SimpleHTTPRequestHandler):
    served: Served

    def log_message(self, format, *args):  # noqa: A002 - quiet
        pass

    def send_response(self, code, message=None):
        self._status = code
        super().send_response(code, message)

    def end_headers(self):
        self._sent = getattr(self, "_sent", 0) + 200  # roughly the header block
        super().end_headers()

    def copyfile(self, source, outputfile):
        n = 0
        while chunk := source.read(1 << 16):
            outputfile.write(chunk)
            n += len(chunk)
        self._sent = getattr(self, "_sent", 0) + n

    def handle_one_request(self):
        self._sent, self._status = 0, 0
        super().handle_one_request()
        if self._status:
            with self.served.lock:
                self.served.log.append((self.path, self._status, self._sent))


@contextlib.contextmanager
def static_server(root: Path):
    """Serve `root` on 127.0.0.1 like `python -m http.server` (no compression); yields (url, Served)."""
    served = Served()
    handler = functools.partial(type("Handler", (_Handler,), {"served": served}), directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", served
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class Watch:
    """Requests to other hosts (blocked), failed requests and errors seen by one browser context."""
    external: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)


def watch_context(context, origin: str) -> Watch:
    w = Watch()

    def route(r):
        url = r.request.url
        if url.startswith(origin) or url.startswith(("blob:", "data:")):
            r.continue_()
        else:
            w.external.append(url)
            r.abort()

    context.route("**/*", route)
    context.on("request", lambda req: None if req.url.startswith((origin, "blob:", "data:"))
               else w.external.append(req.url))
    context.on("requestfailed", lambda req: w.failed.append(f"{req.url}: {req.failure}"))
    return w


def watch_page(page, w: Watch) -> None:
    page.on("pageerror", lambda e: w.errors.append(str(e)))
    page.on("console", lambda m: w.console.append(f"{m.type}: {m.text}"))


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


def wait_ready(page, timeout_ms: float = READY_TIMEOUT_MS) -> dict:
    """Wait until the live app has replaced the prerendered view; returns window.site."""
    page.wait_for_function("() => window.site && (window.site.ready || window.site.errors.length)",
                           timeout=timeout_ms)
    site = page.evaluate("() => ({ready: site.ready, errors: site.errors, timings: site.timings, "
                         "prerendered: site.prerendered, logs: site.logs})")
    if site["errors"]:
        raise AssertionError(f"the site reported errors: {site['errors']}")
    uncarried = [line for line in site.pop("logs") if "could not carry" in line]
    assert not uncarried, f"Python did not catch up with the page: {uncarried}"
    return site


def wait_interactive(page, timeout_ms: float = READY_TIMEOUT_MS) -> None:
    """Wait until the page answers steps: with the prelude's document (before Python) or the live app."""
    page.wait_for_function("() => window.site && (window.site.interactive || window.site.ready || "
                           "window.site.errors.length)", timeout=timeout_ms)


class HeldPython:
    """Holds back the download of Pyodide's wasm (the worker's request; or of another file the worker needs
    before Python runs, `held`) until release(): the page stays without Python for as long as a test needs."""

    def __init__(self, page, held: str = "**/pyodide.asm.wasm*"):
        self.routes, self.released = [], False
        page.route(held, self._on_request)

    def _on_request(self, route) -> None:
        if self.released:
            route.fallback()
        else:
            self.routes.append(route)

    def release(self) -> None:
        self.released = True
        for route in self.routes:
            route.fallback()


def open_before_python(page, url: str) -> HeldPython:
    """Open `url` with Python held back, once the page steps with its prelude; release() lets Python start."""
    python = HeldPython(page)
    page.goto(url)
    wait_interactive(page)
    return python


def open_site(page, url: str, query: str = "") -> dict:
    t0 = time.time()
    page.goto(url + (("?" + query) if query else ""))
    site = wait_ready(page)
    site["wall"] = time.time() - t0
    return site


def fresh_profile() -> tempfile.TemporaryDirectory:
    return tempfile.TemporaryDirectory(prefix="site-profile-")
