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

from app.site import site_hooks  # noqa: E402  (the app's import is not Panel's: it is timed with the page)

# Panel sanitizes the text parameters of ReactiveHTML components (every template has one) with nh3, a Rust
# extension that has no Pyodide build here. Without it, text is escaped instead: stricter (no tag survives),
# and identical for the plain names those parameters hold.
try:
    import nh3  # noqa: F401
except ImportError:
    import panel.util

    if panel.util.HTML_SANITIZER._sanitize is None:
        panel.util.HTML_SANITIZER._sanitize = lambda text: html.escape(text, quote=False)


_hooks = site_hooks()
_shown = {}  # the Explorer of the page shown, kept as long as its page


async def render(query_json, post_query, carry_json=None):
    """Build the page for the query (dict of the URL's query parameters) and bring it to where the page got
    without Python (carry_json: null or {"example", "k", "source", "selected"}); reports every change of
    program or step to post_query as a share query (the URL the page should show). Returns what the page
    needs to show it: (docs_json, render_items, root_ids, milliseconds spent importing Panel)."""
    t0 = time.perf_counter()
    init_doc()
    explorer = _shown["explorer"] = _hooks.explorer(json.loads(query_json))
    _hooks.follow_share_query(explorer, post_query)
    page = explorer.page()
    carry = json.loads(carry_json) if carry_json else None
    if carry:
        _hooks.carry_over(explorer, carry)
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
