"""Runs inside Pyodide, in the site's Web Worker (static/worker.mjs): builds the app's page for the visitor's
query and keeps the Python and browser documents in sync, with Panel's public Pyodide API."""

import html
import importlib
import json
import time

import pyodide.ffi

# Panel 1.10 compares against pyodide.ffi.jsnull, which only exists from Pyodide 0.28 on. On 0.27 a JS null
# already arrives as None, so a sentinel nothing is ever identical to is exact.
if not hasattr(pyodide.ffi, "jsnull"):
    pyodide.ffi.jsnull = object()

_t0 = time.perf_counter()
_steps = {}
for _name in ("numpy", "bokeh", "bokeh.models", "param", "panel"):
    _s = time.perf_counter()
    importlib.import_module(_name)
    _steps[_name] = round(time.perf_counter() - _s, 2)
print("[site] imports", _steps)
from panel.io.pyodide import _convert_json_patch, _link_docs_worker, init_doc, write_doc  # noqa: E402
from panel.io.state import state  # noqa: E402

_import_seconds = time.perf_counter() - _t0

# Panel sanitizes the text parameters of ReactiveHTML components (every template has one) with nh3, a Rust
# extension that has no Pyodide build here. Without it, text is escaped instead: stricter (no tag survives),
# and identical for the plain names those parameters hold.
try:
    import nh3  # noqa: F401
except ImportError:
    import panel.util

    if panel.util.HTML_SANITIZER._sanitize is None:
        panel.util.HTML_SANITIZER._sanitize = lambda text: html.escape(text, quote=False)


_shown = {}


def _build(entry, query, post_query):
    """The page for `query`. When the app exposes `Explorer(query)` with a `.store` (app/__init__.py), the
    page also reports every change of program or step as a share query (the URL the page should show)."""
    module_name, _, func = entry.partition(":")
    module = importlib.import_module(module_name)
    explorer_cls = getattr(module, "Explorer", None)
    if explorer_cls is None or not hasattr(explorer_cls, "page"):
        return getattr(module, func)(query)
    from app.links import query_string

    explorer = explorer_cls(query)
    store = explorer.store
    _shown["explorer"] = explorer

    def report(*_):
        post_query(query_string(store.source, store.k, store.example))

    store.param.watch(report, ["source", "k", "example"])
    report()
    return explorer.page()


async def render(entry, query_json, post_query, carry_json=None):
    """Build the page for `query` (dict of the URL's query parameters), then bring it to where the page got
    without Python (see carry_over); returns what the page needs to show it: (docs_json, render_items,
    root_ids, milliseconds spent importing Panel)."""
    t0 = time.perf_counter()
    init_doc()
    page = _build(entry, json.loads(query_json), post_query)
    carry_over(carry_json)
    page.server_doc(doc=state.curdoc)
    docs_json, render_items, root_ids = await write_doc()
    print(f"[site] page built in {time.perf_counter() - t0:.2f}s (panel import {_import_seconds:.2f}s)")
    return docs_json, render_items, root_ids, round(_import_seconds * 1000)


def link(send_patch):
    """Start sending the Python document's changes to the page."""
    _link_docs_worker(state.curdoc, send_patch, setter="js")


def apply_patch(patch):
    """Apply a change made in the page (a click, a typed value) to the Python document."""
    state.curdoc.apply_json_patch(_convert_json_patch(patch), setter="js")


def carry_over(carry_json):
    """Go on from where the page got while it stepped without Python: carry_json is null or
    {"example", "k", "source", "selected"}: the example, step, editor text (not run) and inspected node it
    shows."""
    explorer = _shown.get("explorer")
    carry = json.loads(carry_json) if carry_json else None
    if not carry or explorer is None:
        return
    store, program = explorer.store, getattr(explorer, "program", None)
    if carry.get("example") and carry["example"] != store.example and program is not None:
        program.examples.value = carry["example"]
    if carry.get("source") is not None and program is not None and program.editor.value != carry["source"]:
        program.editor.value = carry["source"]
    if carry.get("k") is not None and carry["k"] != store.k:
        store.goto(int(carry["k"]))
    if carry.get("selected") != store.selected:
        store.select(carry.get("selected"))
