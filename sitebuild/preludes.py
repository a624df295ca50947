"""The app run natively, here: its page as a Bokeh document, and every example's steps recorded as the
patches the page applies before Python has started in the browser (app/prelude.py; docs/site.md)."""

from __future__ import annotations

import importlib

from sitebuild.ids import stabilize

MAX_PRELUDE_STEPS = 500  # longer programs (the 1,000-node MLP) wait for Python


def load_entry(entry: str):
    module, _, func = entry.partition(":")
    return getattr(importlib.import_module(module), func)


def build_document(entry: str, query: dict[str, str]):
    """Run the app natively for `query`: (its Bokeh document, the app's Explorer or None when the entry
    module has none)."""
    from bokeh.document import Document
    from panel.io.document import MockSessionContext
    from panel.io.state import set_curdoc, state

    module = importlib.import_module(entry.partition(":")[0])
    explorer = getattr(module, "Explorer", None)
    explorer = explorer if hasattr(explorer, "page") else None
    document = Document()
    document._session_context = lambda: MockSessionContext(document=document)
    with set_curdoc(document):
        if explorer is not None:
            explorer = explorer(dict(query))
            page = explorer.page()
        else:
            page = load_entry(entry)(dict(query))
        page.server_doc(doc=document)
        state._on_load(None)
    return document, explorer


def prelude_json(entry: str, document, explorer) -> str:
    """The page's document and the patches of its every step (app/prelude.py) as JSON, for the page to
    step before Python has started; "" when the app records none or the program is too long."""
    from bokeh.core.json_encoder import serialize_json
    from bokeh.embed.util import standalone_docs_json_and_render_items

    if explorer is None or explorer.store.last > MAX_PRELUDE_STEPS:
        return ""
    package = importlib.import_module(entry.partition(":")[0]).__package__
    docs_json, render_items = standalone_docs_json_and_render_items(document)
    steps = importlib.import_module(f"{package}.prelude").record(explorer, document)
    return serialize_json({"docs_json": docs_json, "render_items": [r.to_json() for r in render_items],
                           "root_ids": [root.id for root in document.roots], **steps})


def example_preludes(entry: str, skip: str | None) -> dict[str, str]:
    """The prelude of every example of the app but `skip` (already recorded with the default page)."""
    package = importlib.import_module(entry.partition(":")[0]).__package__
    try:
        examples = importlib.import_module(f"{package}.examples").EXAMPLES
    except ModuleNotFoundError:
        return {}
    out = {}
    for example in examples:
        if example.slug != skip:
            document, explorer = build_document(entry, {"example": example.slug})
            text = prelude_json(entry, document, explorer)
            if text:
                out[example.slug] = stabilize([text])[0]
    return out
