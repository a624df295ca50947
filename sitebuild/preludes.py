"""Every example's steps recorded, for the page to step before Python has started in the browser: the
page's document and the patches of each step, built by running the app here (app/site/hooks.py's hooks;
app/site/prelude.py records; docs/site.md)."""

from __future__ import annotations

from bokeh.core.json_encoder import serialize_json
from bokeh.document import Document

from app.page import Explorer
from app.site.hooks import SiteHooks
from app.site.prelude import document_parts
from sitebuild.ids import stabilize

MAX_PRELUDE_STEPS = 500  # longer programs (the 1,000-node MLP) wait for Python


def prelude_json(hooks: SiteHooks, explorer: Explorer, document: Document) -> str:
    """The page's document and the patches of its every step as JSON; "" when the program is too long."""
    if explorer.store.last > MAX_PRELUDE_STEPS:
        return ""
    parts = document_parts(document)
    return serialize_json({**parts, **hooks.record_prelude(explorer, document)})


def example_preludes(hooks: SiteHooks, skip: str | None) -> dict[str, str]:
    """The prelude of every example but `skip` (already recorded with the default page), by slug."""
    out = {}
    for slug in hooks.examples:
        if slug != skip:
            explorer, document = hooks.document({"example": slug})
            text = prelude_json(hooks, explorer, document)
            if text:
                out[slug] = stabilize([text])[0]
    return out
