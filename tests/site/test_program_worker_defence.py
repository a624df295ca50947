"""Defence in depth in the browser (docs/security.md): code that got past the guard in the program worker still
reaches no network, none of the origin's storage, no code from text and no other worker, and the app shows
nothing from it but a checked timeline. The test-only entry runs a program whose first line is `# unguarded`
in the program worker with Pyodide and no guard; only a test turns it on (window.SITE_TEST_UNGUARDED, set
before the page's scripts), and the site as a visitor gets it runs such a program under the guard."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("playwright")

from tests.app.browser import console_stderr, console_stdout, counter, editor_text, wait_for  # noqa: E402
from tests.site.conftest import open_page  # noqa: E402

GOOD = "import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x * 3).backward()\nprint(x.grad)\n"

# Every way out it tries is written as a line "name: refused (why)" or "name: REACHED ..."; the lines are the
# timeline's print events (it makes its own, as a program past the guard could).
PROBES = '''# unguarded
import inspect
import js
import pyodide_js
from pyodide.ffi import create_proxy, to_js
from engine.trace.so_far import Stream
from engine.trace.timeline import Timeline

URL = str(js.location.origin) + "/probe-"
said = []

async def attempt(name, how):
    try:
        got = how()
        if hasattr(got, "then") or inspect.isawaitable(got):
            got = await got
        said.append(f"{name}: REACHED {str(got)[:60]}")
    except BaseException as e:
        said.append(f"{name}: refused ({type(e).__name__}: {str(e)[:80]})".replace(chr(10), " "))

def new(name, *args):
    return getattr(js, name).new(*args)

def xhr():
    request = new("XMLHttpRequest")
    request.open("GET", URL + "xhr", False)
    request.send()
    return request.status

async def load_package():  # Pyodide reports a package it could not load to errorCallback
    errors = []
    options = {"errorCallback": create_proxy(errors.append), "messageCallback": create_proxy(lambda text: None)}
    await pyodide_js.loadPackage(URL + "package-1.0-py3-none-any.whl", js.Object.fromEntries(to_js(options)))
    if errors:
        raise RuntimeError(errors[0])

def storage():
    return js.navigator.storage.getDirectory()

await attempt("fetch", lambda: js.fetch(URL + "fetch"))
await attempt("XMLHttpRequest", xhr)
await attempt("WebSocket", lambda: new("WebSocket", "ws" + URL[4:] + "ws"))
await attempt("EventSource", lambda: new("EventSource", URL + "events"))
await attempt("importScripts", lambda: js.importScripts(URL + "script.js"))
await attempt("sendBeacon", lambda: js.navigator.sendBeacon(URL + "beacon", "x"))
await attempt("Worker", lambda: new("Worker", URL + "worker.js"))
await attempt("eval import()", lambda: js.eval(f"import('{URL}eval.js')"))
await attempt("Function import()", lambda: js.Object.constructor.new(f"return import('{URL}function.js')")())
await attempt("AsyncFunction import()", lambda: js.Object.getPrototypeOf(pyodide_js.loadPackage).constructor.new(
    f"return await import('{URL}async.js')")())
await attempt("string timer", lambda: js.setTimeout(f"import('{URL}timer.js')", 0))
await attempt("loadPackage", load_package)
await attempt("pyfetch", lambda: __import__("pyodide.http").http.pyfetch(URL + "pyfetch"))
await attempt("open_url", lambda: __import__("pyodide.http").http.open_url(URL + "open_url"))
await attempt("caches", lambda: js.caches.keys())
await attempt("indexedDB", lambda: js.indexedDB.open("autograd-explorer-probe"))
await attempt("storage", storage)
await attempt("BroadcastChannel", lambda: new("BroadcastChannel", "autograd-explorer").postMessage("x"))
init = js.Object.fromEntries(to_js({"type": "init", "manifest": js.Object.new(), "base": URL + "base/"}))
event = new("MessageEvent", "message", js.Object.fromEntries(to_js({"data": init})))
js.self.dispatchEvent(event)  # not the wall's: ignored (had it been honoured, it would fetch from URL + "base/")

events = [{"kind": "print", "line": 1, "text": line + "\\n"} for line in said]
Stream().tail(Timeline(source=source, events=events, output="".join(e["text"] for e in events))).decode()
'''
WAYS = ["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "importScripts", "sendBeacon", "Worker",
        "eval import()", "Function import()", "AsyncFunction import()", "string timer", "loadPackage", "pyfetch",
        "open_url", "caches", "indexedDB", "storage", "BroadcastChannel"]


def forged(*messages: str) -> str:
    """A program past the guard that posts `messages` (Python dict text) to the wall, as if they were the worker's."""
    posts = "".join(f"js.postMessage(js.Object.fromEntries(to_js({message})))\n" for message in messages)
    return ("# unguarded\nimport asyncio\nimport json\nimport js\nfrom pyodide.ffi import to_js\n"
            f"{posts}await asyncio.sleep(30)\n")


# A piece of a timeline (so_far.Stream) and a last one, as the program worker posts them (Python dict text)
EMPTY = ('"keys": [], "table": [], "events": [], "renames": [], "iterations": [], "open": [], "calls": [], '
         '"ends": []')
HTML_PIECE = ('json.dumps({"keys": [["kind", "line", "html"]], "table": [], "events": [[0, "html", 1, "<b>x</b>"]],'
              ' "renames": [], "iterations": [], "open": [], "calls": [], "ends": []})')
LAST = f'json.dumps({{{EMPTY}, "source": source, "output": ""}})'



@pytest.fixture(scope="module")
def site(served_site):
    return served_site


@pytest.fixture(scope="module")
def page(chromium, site):
    # (a budget of 60 s: forging 34 MB of pieces takes a loaded machine more than the page's 15 s)
    context, page, watch = open_page(chromium, site[0],
                                     "window.SITE_TEST_UNGUARDED = true; window.SITE_PROGRAM_SECONDS = 60")
    yield page
    context.close()
    assert watch.external == [] and watch.errors == [], (watch.external, watch.errors)


def run(page, source: str) -> None:
    runs = (page.evaluate("window.site.wall") or {"runs": 0})["runs"]
    page.locator(".editor .ace_editor").evaluate("(el, code) => el.env.editor.setValue(code, 1)", source)
    wait_for(lambda: editor_text(page) == source)
    page.wait_for_timeout(700)  # the editor's text reaches Python (the editor sends it a moment after a change)
    page.locator(".run button").click()
    wait_for(lambda: (page.evaluate("window.site.wall") or {"runs": 0})["runs"] > runs, 30_000)


def origin_storage(page) -> dict:
    return page.evaluate("""async () => {
        const caches_ = {};
        for (const name of await caches.keys()) {
            caches_[name] = (await (await caches.open(name)).keys()).map((r) => r.url).sort();
        }
        const dbs = (await indexedDB.databases()).map((d) => d.name).sort();
        return {caches: caches_, dbs};
    }""")


def test_code_past_the_guard_reaches_no_network_no_storage_no_code_from_text(page, site):
    url, served = site
    before, mark = origin_storage(page), served.mark()
    run(page, PROBES)
    try:
        wait_for(lambda: "BroadcastChannel" in console_stdout(page), 30_000)
    except Exception:
        raise AssertionError(page.locator(".console").inner_text()) from None
    said = dict(line.split(": ", 1) for line in console_stdout(page).splitlines())
    assert sorted(said) == sorted(WAYS), said
    assert {name: why for name, why in said.items() if not why.startswith("refused")} == {}
    page.wait_for_timeout(500)  # anything that got out would have arrived by now
    assert [path for path, _, _ in served.since(mark) if "probe" in path] == []
    assert origin_storage(page) == before


FORGED = [
    ('{"type": "ran", "id": run_id, "source": source, "json": "{}", "heap": 0, "html": "<b>x</b>"}',
     "MalformedMessage: the program worker sent a ran message with a field html"),
    ('{"type": "line", "id": run_id, "line": "<img src=x onerror=alert(1)>"}',
     "MalformedMessage: the program worker sent a line message whose line is not one"),
    ('{"type": "ran", "id": run_id + 1, "source": source, "json": "{}", "heap": 0}',
     "MalformedMessage: the program worker sent a ran message of no program it runs"),
    ('{"type": "ran", "id": run_id, "source": "print(1)\\n", "json": "{}", "heap": 0}',
     "MalformedMessage: the program worker sent a ran message of a program it was not given"),
    ('{"type": "ran", "id": run_id, "source": source, "heap": 0, "json": json.dumps({"source": source, "output": "",'
     ' "keys": [["kind", "line", "html"]], "table": [], "events": [[0, "html", 1, "<b>x</b>"]], "renames": [],'
     ' "iterations": [], "open": [], "calls": [], "ends": []})}',
     "MalformedTimeline: the program worker sent what is not a timeline (event 0 is of no kind a timeline has)"),
    # the pieces of what a program records, sent as it runs
    (('{"type": "piece", "id": run_id, "json": ' + HTML_PIECE + '}',
      '{"type": "ran", "id": run_id, "source": source, "heap": 0, "json": ' + LAST + '}'),
     "MalformedTimeline: the program worker sent what is not a timeline (event 0 is of no kind a timeline has)"),
    (('{"type": "piece", "id": run_id, "json": json.dumps({' + EMPTY + ', "renames": [[0, ["<b>x</b>"]]]})}',
      '{"type": "ran", "id": run_id, "source": source, "heap": 0, "json": ' + LAST + '}'),
     "MalformedTimeline: the program worker sent what is not a timeline (a piece's renames are not [node id, name])"),
    ('{"type": "piece", "id": run_id, "json": ["<b>x</b>"]}',
     "MalformedMessage: the program worker sent a piece message whose json is not one"),
    (('{"type": "piece", "id": run_id, "json": " " * (17 * 2 ** 20)}',) * 2,
     "MalformedMessage: the program worker sent pieces past the timeline's cap of 32 MB"),
]


def test_the_app_shows_only_checked_messages_and_then_runs_the_next_program(page):
    for message, says in FORGED:
        stopped = page.evaluate("window.site.wall.stopped")
        run(page, forged(*message) if isinstance(message, tuple) else forged(message))
        try:
            wait_for(lambda: says in console_stderr(page), 30_000)  # noqa: B023 - waited for here
        except Exception:
            shown = (page.locator(".console").inner_text(), page.evaluate("window.site.wall"),
                     page.locator(".run button").inner_text(), page.evaluate("window.site.logs.slice(-5)"))
            raise AssertionError(f"{says!r} not in {shown!r}") from None
        assert "<b>" not in page.locator(".console").inner_html()
        assert page.evaluate("window.site.wall.stopped") == stopped + 1  # its worker was ended
    run(page, GOOD)
    wait_for(lambda: counter(page)[1] == 8, 30_000)


def test_the_entry_is_off_in_the_site_as_visitors_get_it(plain_page):
    run(plain_page, "# unguarded\nimport js\njs.fetch('/probe')\n")
    try:
        wait_for(lambda: re.search(r"line 2: GuardError: .*'js'", console_stderr(plain_page)) is not None, 40_000)
    except Exception:
        raise AssertionError(plain_page.locator(".console").inner_text()) from None
    assert json.dumps(plain_page.evaluate("window.site.wall.why")) == "null"

