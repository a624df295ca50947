"""What the static site takes from the app, all in one place: `site_hooks()`.

The site's build (sitebuild/) runs the app here to render the first page and record every example's steps
(the preludes); static/boot.py builds the page for the visitor's query inside Pyodide, carries over what the
visitor did before Python had started, and reports what the page shows as a share query. Neither looks a
name up by string: both call these.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass

from bokeh.core.json_encoder import serialize_json
from bokeh.document import Document
from panel.io.document import MockSessionContext
from panel.io.state import set_curdoc, state

from app.page import Explorer
from app.program import links
from app.program.examples import EXAMPLES
from app.program.links import query_string
from app.site import prelude


@dataclass(frozen=True)
class SiteHooks:
    explorer: Callable[..., Explorer]  # the page's parts for a URL query: {"example": slug}, {"code": …}, "step";
    # and runner=: how its programs run (the site's program worker)
    program: Callable[[dict], str]  # the program a URL query shows (what the page runs first)
    document: Callable[[dict], tuple[Explorer, Document]]  # the same, its page built into a Bokeh document here
    record_prelude: Callable[[Explorer, Document], dict]  # every step as document patches (app/site/prelude.py)
    follow_share_query: Callable[[Explorer, Callable[[str], None]], None]
    carry_over: Callable[[Explorer, dict], None]
    link_prelude: Callable[..., Generator[None, None, str | None]]  # a link's prelude, recorded in the browser
    examples: tuple[str, ...]  # the built-in programs' slugs, the default first


def site_hooks() -> SiteHooks:
    return SiteHooks(explorer=Explorer, program=lambda query: links.parse(query).source,
                     document=native_document, record_prelude=prelude.record,
                     follow_share_query=follow_share_query, carry_over=carry_over, link_prelude=link_prelude,
                     examples=tuple(example.slug for example in EXAMPLES))


def native_document(query: dict, runner=None) -> tuple[Explorer, Document]:
    """The page for `query` built into a new document as `panel serve` would build it, with no server
    (`runner`: as Explorer's)."""
    document = Document()
    document._session_context = lambda: MockSessionContext(document=document)
    with set_curdoc(document):
        explorer = Explorer(dict(query), runner=runner)
        explorer.page().server_doc(doc=document)
        state._on_load(None)
    return explorer, document


LINK_STEPS = 200  # a longer program's link is not recorded in the browser: it would take the tab's CPU for minutes


def link_prelude(query: dict, timeline) -> Generator[None, None, str | None]:
    """A learner's link (`query`, whose program ran into `timeline`) recorded as the build records an example's
    prelude, for the next visit of the link to step at once: its page built into a document of its own (the
    program is not run again), then every step's patches; yields between pieces of the work. Returns the
    prelude as JSON, or None for a program of more than LINK_STEPS steps."""
    explorer, document = native_document(query, runner=lambda source: timeline)
    if explorer.store.last > LINK_STEPS:
        return None
    yield
    parts = prelude.document_parts(document)
    steps = yield from prelude.recording(explorer, document)
    return serialize_json({**parts, **steps})


def follow_share_query(explorer: Explorer, post: Callable[[str], None]) -> None:
    """Call `post` with the query of a share link to what the page shows, now and whenever the program or
    the step changes."""
    store = explorer.store

    def report(*_) -> None:
        post(query_string(store.source, store.k, store.example))

    store.param.watch(report, ["source", "k", "example"])
    report()


def carry_over(explorer: Explorer, carry: dict) -> None:
    """Go on from where the page got while it stepped without Python: `carry` holds the example, step
    ("k"), editor text (not run), inspected node ("selected") it shows, whether the predict-then-reveal
    toggle was ticked ("predicting"), whether the player was playing ("playing": 1, or -1 in reverse) and whether
    Run was pressed ("run": the editor's program runs now, unless it is the one shown or running). (Its
    "view", the graph's ranges, the page keeps itself.)"""
    store, program = explorer.store, explorer.program
    if carry.get("example") and carry["example"] != store.example:
        program.examples.value = carry["example"]
    if carry.get("source") is not None and program.editor.value != carry["source"]:
        program.editor.value = carry["source"]
    if carry.get("run") and program.editor.value != store.program:  # Run was pressed before Python: it runs now
        program.run.clicks += 1
    if carry.get("k") is not None and carry["k"] != store.k:
        store.goto(int(carry["k"]))
    if carry.get("selected") != store.selected:
        store.select(carry.get("selected"))
    if carry.get("predicting") and not store.predicting:
        store.predict(True)
    player = explorer.controls.player
    if carry.get("playing") in (1, -1) and player.direction != carry["playing"]:
        player.direction = carry["playing"]
