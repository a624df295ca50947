"""Steps without Python: every step of a page's program recorded as the Bokeh document patches that move the
page from one step to the next (and back), and for small programs the clicks on its nodes.

The static site shows an example's page before Python has started in the browser; the page applies these
patches itself when the learner steps (keys, the player, its slider, the backward-call buttons) or clicks a
node, so it answers at once. Once Python runs, it takes over where the learner got to.
"""

from __future__ import annotations

import json
from collections.abc import Generator

from bokeh.core.serialization import Serializer
from bokeh.document import Document
from bokeh.document.events import DocumentPatchedEvent
from bokeh.embed.util import standalone_docs_json_and_render_items
from panel.io.state import set_curdoc

from app.graph import model as gm
from app.page import Explorer
from app.predict import model as pm

MAX_SELECTIONS = 1500  # node × step pairs of a program whose inspector works before Python


def document_parts(document: Document) -> dict:
    """What a page needs to show `document` (BokehJS's embed_items): docs_json, render_items, root_ids."""
    docs_json, render_items = standalone_docs_json_and_render_items(document)
    return {"docs_json": docs_json, "render_items": [item.to_json() for item in render_items],
            "root_ids": [root.id for root in document.roots]}


def record(explorer: Explorer, document: Document) -> dict:
    """All of `recording`, at once."""
    steps = recording(explorer, document)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def recording(explorer: Explorer, document: Document) -> Generator[None, None, dict]:
    """Yields after each patch it records (the static site records a learner's link in pieces, between the
    page's own changes) and returns the patches of every step of `explorer`'s page, built into `document`
    (which is left as it was):
    `forward[k]` moves the page from step k - 1 to k, `backward[k]` from step k to k - 1, for k in
    0 … last (step -1 is before the program's first event). For a small program also the clicks on its
    nodes: `select[k + 1][key]` is [the patch that selects node `key` at step k (nothing selected before),
    the patch that clears it again], and `tappable[k + 1]` the nodes a click selects at step k.

    Returns {"example", "lesson", "k", "last", "forward", "backward", "select", "tappable", "next_call",
    "prev_call", "next_block", "prev_block", "asks", "ids"}: `asks` are the steps predict-then-reveal asks before
    (a lesson's: those its questions ask; the page does not step past one without Python, which judges the
    guess); `next_call[k + 1]` / `prev_call[k + 1]` are where the backward-call buttons go from step k, and
    `next_block` / `prev_block` where a lesson's block buttons go (None with no lesson); `ids` names the models
    the page listens to (the player, the arrow keys, the two backward-call buttons, a lesson's two block
    buttons, Run, the code editor, the examples menu, whose values are the examples' slugs, the
    predict-then-reveal toggle, and the graph's two sources of nodes, whose "key" column names them)."""
    store = explorer.store
    start, selected = store.k, store.selected
    events: list = []

    def collect(event) -> None:
        if isinstance(event, DocumentPatchedEvent):
            events.append(event)

    def patch_of(change) -> Generator[None, None, dict]:
        yield
        events.clear()
        with set_curdoc(document):
            change()
        serializer = Serializer(references=document.models.synced_references, deferred=False)
        patch = {"events": serializer.encode(list(events))}
        document.models.flush_synced(lambda model: not serializer.has_ref(model))
        return json.loads(json.dumps(patch))

    keys = [*explorer.graph.boxes.data["key"], *explorer.graph.sinks.data["key"]]
    small = len(keys) * (store.last + 2) <= MAX_SELECTIONS
    select: list[dict] = []
    tappable: list[list[str]] = []
    with set_curdoc(document):
        store.select(None)
        store.goto(-1)
    document.on_change(collect)
    try:
        forward, backward = [], []
        for k in range(0, store.last + 1):
            forward.append((yield from patch_of(lambda k=k: store.goto(k))))
        for k in range(store.last - 1, -2, -1):
            backward.insert(0, (yield from patch_of(lambda k=k: store.goto(k))))
        for k in range(-1, store.last + 1) if small else ():
            with set_curdoc(document):
                store.goto(k)
            clicks = {}
            for key in keys:
                clicks[key] = [(yield from patch_of(lambda key=key: store.select(key))),
                               (yield from patch_of(lambda: store.select(None)))]
            select.append(clicks)
            tappable.append([key for key in keys if gm.selectable(key, store.state)])
    finally:
        document.callbacks.remove_on_change(collect)
        with set_curdoc(document):
            store.goto(start)
            store.select(selected)
    lessons = explorer.lessons
    lesson = lessons.shared_slug()
    steps = range(-1, store.last + 1)
    return {
        "example": store.example,
        "lesson": lesson,
        "k": start,
        "last": store.last,
        "next_call": [store.next_call_step(k) for k in range(-1, store.last + 1)],
        "prev_call": [store.prev_call_step(k) for k in range(-1, store.last + 1)],
        "next_block": [lessons.block_target(k, +1) for k in steps] if lesson else None,
        "prev_block": [lessons.block_target(k, -1) for k in steps] if lesson else None,
        "asks": sorted((store.asks_of or pm.asks)(store.timeline.events)),
        "forward": forward,
        "backward": backward,
        "select": select if small else None,
        "tappable": tappable if small else None,
        "ids": {**_control_ids(document), "boxes": explorer.graph.boxes.id, "sinks": explorer.graph.sinks.id},
    }


def _control_ids(document: Document) -> dict[str, str]:
    found: dict[str, list[str]] = {what: [] for what in ("player", "keys", "prev_call", "next_call", "prev_block",
                                                          "next_block", "editor", "examples", "predict", "run")}
    for model in document.models:
        name = type(model).__name__
        if name == "Player":
            found["player"].append(model.id)
        elif name == "AcePlot":
            found["editor"].append(model.id)
        elif "esm" in model.properties() and {"left", "right"} <= set(model.data.properties()):
            found["keys"].append(model.data.id)
        for css, what in (("prev-call", "prev_call"), ("next-call", "next_call"), ("prev-block", "prev_block"),
                          ("next-block", "next_block"), ("examples", "examples"), ("run", "run")):
            if css in (getattr(model, "css_classes", None) or []) and name in ("Button", "CustomSelect"):
                found[what].append(model.id)
        if name == "Checkbox" and "predict-toggle" in (model.css_classes or []):
            found["predict"].append(model.id)
    for what, ids in found.items():
        if len(ids) != 1:
            raise LookupError(f"the page should have one {what} model, it has {len(ids)}")
    return {what: ids[0] for what, ids in found.items()}
