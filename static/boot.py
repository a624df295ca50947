"""Runs inside Pyodide, in the site's Web Worker (static/worker.mjs): builds the app's page for the visitor's
query and keeps the Python and browser documents in sync, with Panel's public Pyodide API."""

import asyncio
import functools
import gc
import html
import importlib
import json
import time

import js
import pyodide.ffi

# The imports and the page's build allocate a few hundred thousand objects that live as long as the page; the
# cyclic collector would walk them over and over (~15% of that time). It is paused until the page is built,
# and what exists then is moved out of its reach (gc.freeze) before it runs again.
gc.disable()

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
from bokeh.events import DocumentReady  # noqa: E402
from panel.io.pyodide import (  # noqa: E402
    _convert_json_patch,
    _dict_converter,
    _process_document_events,
    init_doc,
    write_doc,
)
from panel.io.state import state  # noqa: E402

_import_seconds = time.perf_counter() - _t0

from app.site.hooks import site_hooks  # noqa: E402  (the app's import is not Panel's: it is timed with the page)
from app.timeline_check import MAX_BYTES, streamed  # noqa: E402
from engine.trace.isolated import stopped  # noqa: E402

# Panel sanitizes the text parameters of ReactiveHTML components (every template has one) with nh3, a Rust
# extension that has no Pyodide build here. Without it, text is escaped instead: stricter (no tag survives),
# and identical for the plain names those parameters hold.
try:
    import nh3  # noqa: F401
except ImportError:
    import panel.util

    if panel.util.HTML_SANITIZER._sanitize is None:
        panel.util.HTML_SANITIZER._sanitize = lambda text: html.escape(text, quote=False)


# Panel counts the events it is processing, for a template's busy indicator (state.busy); the page has none,
# and the count (two parameter updates per event, each with its watchers) took a fifth of a step's Python time.
state._add_busy_event = state._remove_busy_event = lambda event_id: None

_hooks = site_hooks()
_shown = {}  # the Explorer of the page shown, kept as long as its page


def wall_runner(run_program):
    """The app's runner (Store.runner): every program runs behind the wall, in the program worker
    (static/wall.mjs); run_program(source) is its promise of {source, json, pieces} or {source, stopped, pieces}."""

    async def run(source):
        try:
            answer = (await run_program(source)).to_py()
        except Exception as e:  # noqa: BLE001 - the app always gets a timeline
            return stopped(source, f"the program could not be run ({e})", kind="Crash")
        pieces = answer.get("pieces") or []
        if "json" in answer:
            try:  # the program worker runs somebody else's program: nothing it sends is used unchecked
                return streamed(pieces, answer["json"], source)[0]
            except ValueError as e:
                answer["distrust"]()  # its worker is ended: the next program gets a fresh one
                return stopped(source, f"the program worker sent what is not a timeline ({e}) and was stopped",
                               kind="MalformedTimeline")
        why = answer["stopped"]
        recorded, message = None, why["message"]
        if pieces:  # what it recorded before it was ended, checked as a timeline
            try:
                recorded, capped = streamed(pieces, None, source)
            except ValueError as e:
                return stopped(source, f"the program worker sent what is not a timeline ({e}) and was stopped",
                               why.get("line"), kind="MalformedTimeline")
            if capped:
                message += f" (what it recorded is kept up to the timeline's limit of {MAX_BYTES // 2**20} MB)"
        return stopped(source, message, why.get("line"), kind=why["type"], recorded=recorded)

    return run


def add_lessons(lessons_json):
    """The site's own lessons (build.py --lessons), offered beside the built-in ones: [[file name, text], …]."""
    from app.lessons import library

    for name, text in json.loads(lessons_json):
        library.add(name, text)


async def render(query_json, post_query, carry_json=None, run_program=None, stop_program=None):
    """Build the page for the query (dict of the URL's query parameters) and bring it to where the page got
    without Python (carry_json: null or {"example", "k", "source", "selected", "predicting"}); reports every
    change of program or step to post_query as a share query (the URL the page should show). Programs run in the
    program worker (run_program, see wall_runner), the first one before the page is built; stop_program() ends the
    one running (Stop: the wall terminates its worker). Returns what the
    page needs to show it: (docs_json, render_items, root_ids, milliseconds spent importing Panel)."""
    t0 = time.perf_counter()
    init_doc()
    query = json.loads(query_json)
    carry = json.loads(carry_json) if carry_json else None
    if query.get("lesson") and (carry or {}).get("lesson") != query["lesson"] and not (carry or {}).get("example"):
        carry = None  # the page stepped no prelude of this lesson: it starts where the link says
    if carry and carry.get("example"):
        query = {"example": carry["example"]}  # the page moved on to another example before Python came
    run = wall_runner(run_program)
    source = _hooks.program(query)
    first = {source: await run(source)}
    _shown["first"] = (source, first[source])

    def runner(program):  # the page's first program has run already: it is built with its timeline
        timeline = first.pop(program, None)
        first.clear()
        return timeline if timeline is not None else run(program)

    runner.stop = stop_program  # Store.stop: the Stop button and Ctrl+.

    explorer = _shown["explorer"] = _hooks.explorer(query, runner=runner)
    _hooks.follow_share_query(explorer, post_query)
    page = explorer.page()
    if carry:  # a Run pressed before Python runs once the page is linked (carry_over below), not while it is built
        _hooks.carry_over(explorer, {**carry, "run": False})
    page.server_doc(doc=state.curdoc)
    docs_json, render_items, root_ids = await write_doc()
    gc.freeze()
    gc.enable()
    print(f"[site] page built in {time.perf_counter() - t0:.2f}s (panel import {_import_seconds:.2f}s)")
    return docs_json, render_items, root_ids, round(_import_seconds * 1000)


_held = None  # the changes Python makes while it answers one change from the page, sent as one patch
_send_patch = None  # the page's, once linked


def link(send_patch):
    """Start sending the Python document's changes to the page (as Panel's `_link_docs_worker`, except that
    what Python changes in answer to one change from the page goes out as one patch, painted at once)."""
    global _send_patch
    _send_patch = send_patch
    doc = state.curdoc

    def changed(event):
        if getattr(event, "setter", None) == "js":
            return
        if _held is not None:
            _held.append(event)
        else:
            _send(doc, [event])

    doc.on_change(changed)
    doc.unhold()
    doc.on_event("document_ready", functools.partial(state._schedule_on_load, doc))
    doc.callbacks.trigger_event(DocumentReady())


def _send(doc, events):
    patch, buffers = _process_document_events(doc, events)
    _send_patch(pyodide.ffi.to_js(patch, dict_converter=_dict_converter),
               js.Map.new(js.Object.entries(pyodide.ffi.to_js(buffers))))


def apply_patch(patch):
    """Apply a change made in the page (a click, a typed value) to the Python document; what Python changes in
    answer goes back as one patch."""
    global _held
    _held = []
    try:
        state.curdoc.apply_json_patch(_convert_json_patch(patch), setter="js")
    finally:
        events, _held = _held, None
        if events:
            _send(state.curdoc, events)


def carry_over(carry_json):
    """Catch up with what the page did without Python while the page was being built (carry_json as render's)."""
    _hooks.carry_over(_shown["explorer"], json.loads(carry_json))


async def record_link(query_json):
    """The prelude of the link the page was opened with (app.site.hooks.link_prelude: JSON, or None), recorded in pieces
    with the page's own changes handled between them; None too when the page went on to another program first."""
    query = json.loads(query_json)
    source, timeline = _shown["first"]
    if _hooks.program(query) != source:
        return None
    steps = _hooks.link_prelude(query, timeline)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
        await asyncio.sleep(0)
