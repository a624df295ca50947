"""Helpers shared by the browser tests and benchmarks/ui.py: a `panel serve` of the app on a free port,
Chromium through Playwright, the real-PyTorch oracle, and reading what the page shows."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
TORCH_PYTHON = ROOT / ".venv-torch" / "bin" / "python"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 800}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def panel_server(extra_args: tuple[str, ...] = (), app: str = "app/main.py"):
    """Serve a Panel script (the explorer's app/main.py) on a free port; yields the app's URL."""
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"panel-serve-{port}.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "panel", "serve", app, "--port", str(port), "--address", "127.0.0.1",
         "--allow-websocket-origin", f"127.0.0.1:{port}", *extra_args],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(ROOT)},
    )
    url = f"http://127.0.0.1:{port}/{Path(app).stem}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(url, timeout=30).read()  # a first page takes seconds on a loaded machine
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    raise RuntimeError(f"panel serve did not start; see {log.name}") from None
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def open_app(page, url: str, query: str = "") -> None:
    page.goto(url + (("?" + query) if query else ""))
    page.wait_for_selector(".caption-text", timeout=30_000)
    page.wait_for_function("() => !document.querySelector('.pn-loading')", timeout=30_000)


def counter(page) -> tuple[int, int]:
    text = page.locator(".counter").inner_text()
    shown, total = text.replace("step", "").split("/")
    return int(shown), int(total)


def wait_counter(page, shown: int, timeout_ms: float = 10_000) -> None:
    wait_for(lambda: counter(page)[0] == shown, timeout_ms)


def wait_for(check, timeout_ms: float = 10_000) -> None:
    deadline = time.time() + timeout_ms / 1000
    while not check():
        if time.time() > deadline:
            raise TimeoutError("the page did not show it in time")
        time.sleep(0.02)


def editor_text(page) -> str:
    return page.locator(".editor .ace_editor").evaluate("el => el.env.editor.getValue()")


def console_stdout(page) -> str:
    return page.locator(".console pre.stdout").text_content()


def console_stderr(page) -> str:
    el = page.locator(".console pre.stderr")
    return el.text_content() if el.count() else ""


def grads_shown(page) -> dict[str, str]:
    out = {}
    for span in page.locator(".now .g").all():
        out[span.get_attribute("data-name")] = span.locator("b").inner_text()
    return out


# Pixel position of a graph node (by its key, e.g. "t0") inside the page, from Bokeh's own scales.
NODE_XY = """
(key) => {
  for (const pv of Bokeh.index.all_views()) {
    if (!pv.frame || !pv.renderer_views) continue;
    for (const [model, rv] of pv.renderer_views) {
      const data = model.data_source && model.data_source.data;
      if (!data || !data.key) continue;
      const i = [...data.key].indexOf(key);
      if (i < 0) continue;
      const box = pv.canvas_view.el.getBoundingClientRect();
      return [box.left + pv.frame.x_scale.compute(data.x[i]), box.top + pv.frame.y_scale.compute(data.y[i])];
    }
  }
  return null;
}
"""


def node_xy(page, key: str) -> tuple[float, float]:
    xy = page.evaluate(NODE_XY, key)
    if xy is None:
        raise LookupError(f"node {key} is not on the canvas")
    return xy[0], xy[1]


class Oracle:
    """One long-lived real-PyTorch process: runs a program, returns stdout, warnings, error and .grads."""

    SCRIPT = r'''
import contextlib, io, json, re, sys, warnings
import torch
for line in sys.stdin:
    job = json.loads(line)
    ns, out = {}, io.StringIO()
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(job["source"], "<program>", "exec"), ns)
        except Exception as e:
            error = {"type": type(e).__name__, "message": str(e)}
    grads = {}
    for name in job["names"]:
        if not re.fullmatch(r"[A-Za-z_][\w.\[\]]*", name):
            continue  # a temporary's name ("0.5 #2"), not a path to a tensor of the program
        try:
            g = eval(re.sub(r"\.(\d+)", r"[\1]", name) + ".grad", ns)
            grads[name] = None if g is None else g.tolist()
        except Exception:
            continue
    warns = [{"category": w.category.__name__, "message": str(w.message)} for w in caught]
    print(json.dumps({"stdout": out.getvalue(), "error": error, "grads": grads, "warnings": warns}), flush=True)
'''

    def __init__(self):
        self.proc = subprocess.Popen([str(TORCH_PYTHON), "-c", self.SCRIPT], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=ROOT)

    def run(self, source: str, names: list[str] = ()) -> dict:
        self.proc.stdin.write(json.dumps({"source": source, "names": list(names)}) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(10)


# axe-core, the accessibility rules, as bin/setup fetched it from npm (pinned and hash-checked there).
AXE_FILES = sorted((ROOT / ".cache").glob("axe-core-*/axe.min.js"))
SERIOUS = ("serious", "critical")


def axe_violations(page, context: str = "document") -> list[dict]:
    """Run axe-core in the page (WCAG 2 A and AA rules, best practices too; it reads open shadow roots) and
    return its violations, each with its impact, rule id, help text and the nodes it failed on."""
    if not AXE_FILES:
        raise RuntimeError("axe-core is missing from .cache/: run bin/setup")
    # A text box that scrolls becomes a Tab stop 200 ms after its last new text (app/widgets/html_box.py): axe
    # reads the page once that has happened (it failed the console, read 100 ms after a failed run's text).
    page.wait_for_timeout(300)
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_FILES[-1]))
    return page.evaluate(
        """async (context) => {
          const result = await axe.run(context === 'document' ? document : document.querySelector(context),
                                       { resultTypes: ['violations'] });
          return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, summary: n.failureSummary })) }));
        }""",
        context,
    )


def active_element(page) -> dict:
    """The element that has the keyboard's focus, looked for inside shadow roots."""
    return page.evaluate(
        """() => { let a = document.activeElement;
          while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
          const host = a && a.getRootNode().host;
          return a && { tag: a.tagName, classes: [...a.classList], label: a.getAttribute('aria-label') || '',
                        text: (a.textContent || '').trim().slice(0, 60),
                        host: host ? [...host.classList] : [] } }"""
    )


# Page-script code: graphBoxes() is the graph's plot view and the data of its boxes ({view, data}), or null.
GRAPH_BOXES = """
const graphBoxes = () => {
  for (const view of Bokeh.index.all_views()) {
    if (!view.frame || !view.renderer_views) continue;
    for (const [model] of view.renderer_views) {
      const data = model.data_source && model.data_source.data;
      if (data && data.key && data.h) return {view, data};
    }
  }
  return null;
};
"""


def graph_script(body: str, args: str = "") -> str:
    """A page script `(args) => { body }` that can call graphBoxes()."""
    return f"({args}) => {{{GRAPH_BOXES}{body}}}"


# How many boxes have their centre in the graph's frame, and how many boxes there are.
BOXES_IN_VIEW = graph_script("""
  const graph = graphBoxes();
  if (!graph) return null;
  const {view: pv, data: d} = graph, f = pv.frame.bbox;
  let shown = 0;
  for (let i = 0; i < d.key.length; i++) {
    const x = pv.frame.x_scale.compute(d.x[i]), y = pv.frame.y_scale.compute(d.y[i]);
    if (x >= f.left && x <= f.right && y >= f.top && y <= f.bottom && d.title[i]) { shown += 1 }
  }
  return {shown, all: d.key.length};
""")

# The key of a box the camera shows (a box well inside the figure's frame), or null.
SHOWN_KEY = graph_script("""
  const graph = graphBoxes();
  if (!graph) return null;
  const {view: pv, data: d} = graph, f = pv.frame.bbox;
  for (let i = 0; i < d.key.length; i++) {
    const x = pv.frame.x_scale.compute(d.x[i]), y = pv.frame.y_scale.compute(d.y[i]);
    if (d.alpha[i] === 1 && x > f.left + 40 && x < f.right - 40 && y > f.top + 20 && y < f.bottom - 20) return d.key[i];
  }
  return null;
""")

# The graph's ranges, [x start, x end, y start, y end], or null.
GRAPH_RANGES = graph_script("""
  const graph = graphBoxes();
  if (!graph) return null;
  const x = graph.view.model.x_range, y = graph.view.model.y_range;
  return [x.start, x.end, y.start, y.end];
""")
