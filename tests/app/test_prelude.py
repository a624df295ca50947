"""The recorded step patches take a copy of the page's document to exactly the document Python shows."""

import json

import pytest
from bokeh.document import Document
from bokeh.embed.util import standalone_docs_json_and_render_items
from bokeh.models import ColumnDataSource
from panel.io.state import set_curdoc

from app.program.examples import BY_SLUG
from app.site import prelude
from app.site.hooks import native_document


def as_json(document: Document) -> str:
    """The document's models as text, as a page would read them; a number is a number (0 and 0.0 agree)."""
    (doc_json,) = standalone_docs_json_and_render_items(replica(document))[0].values()
    return json.dumps(_unordered(json.loads(json.dumps(doc_json["roots"]), parse_int=float)), sort_keys=True)


def _unordered(value):
    """Maps (a source's columns) as dicts and sets (a model's subscribed events) sorted: the order of their entries
    does not matter (a set's follows the hash seed)."""
    if isinstance(value, dict):
        if value.get("type") == "map" and "entries" in value:
            return {str(k): _unordered(v) for k, v in value["entries"]}
        if value.get("type") == "set" and "entries" in value:
            return sorted(json.dumps(_unordered(v), sort_keys=True) for v in value["entries"])
        return {k: _unordered(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unordered(v) for v in value]
    return value


def replica(document: Document) -> Document:
    (doc_json,) = standalone_docs_json_and_render_items(document)[0].values()
    return Document.from_json(json.loads(json.dumps(doc_json)))


def apply(document: Document, patch: dict) -> None:
    """As BokehJS applies a patch: new data for some columns of a source keeps its other columns."""
    patch = json.loads(json.dumps(patch))
    for event in patch["events"]:
        if event["kind"] == "ColumnDataChanged" and event.get("cols"):
            current = document.get_model_by_id(event["model"]["id"]).data
            entries = event["data"]["entries"]
            named = {name for name, _ in entries}
            entries += [[name, list(column)] for name, column in current.items() if name not in named]
    document.apply_json_patch(patch)


@pytest.mark.parametrize("query", [{}, {"example": "vector", "step": "end"}, {"example": "chain-100"}])
def test_replaying_the_patches_reaches_the_document_python_shows(query):
    explorer, document = native_document(query)
    copy = replica(document)
    steps = prelude.record(explorer, document)
    store = explorer.store
    assert steps["k"] == store.k and steps["last"] == store.last
    assert len(steps["forward"]) == len(steps["backward"]) == store.last + 1
    assert as_json(copy) == as_json(document)  # recording left the page where it was

    k = steps["k"]
    for target in (k - 1, store.last, -1, min(2, store.last), store.last // 2, store.last):
        while k < target:
            k += 1
            apply(copy, steps["forward"][k])
        while k > target:
            apply(copy, steps["backward"][k])
            k -= 1
        with set_curdoc(document):
            store.goto(target)
        assert as_json(copy) == as_json(document), f"step {target}"


@pytest.fixture(scope="module")
def default_page():
    """The default page, a copy of its document and its recording (seconds of work), shared: the test that only
    reads them comes first, the one that clicks and steps after it."""
    explorer, document = native_document({})
    copy = replica(document)
    return explorer, document, copy, prelude.record(explorer, document)


def test_the_models_the_page_listens_to_are_found(default_page):
    explorer, document, _, steps = default_page
    ids = steps["ids"]
    assert document.get_model_by_id(ids["player"]).value == explorer.store.k
    assert document.get_model_by_id(ids["editor"]).code == explorer.store.source
    assert "right" in document.get_model_by_id(ids["keys"]).properties()
    assert "next-call" in document.get_model_by_id(ids["next_call"]).css_classes
    assert document.get_model_by_id(ids["predict"]).active is False
    menu = document.get_model_by_id(ids["examples"])
    assert menu.value == explorer.store.example and ("pow-sum", BY_SLUG["pow-sum"].title) in menu.options


def test_clicking_a_node_replays_the_inspector_python_shows(default_page):
    explorer, document, copy, steps = default_page
    store = explorer.store
    k = steps["k"]
    key = steps["tappable"][k + 1][0]
    apply(copy, steps["select"][k + 1][key][0])
    with set_curdoc(document):
        store.select(key)
    assert as_json(copy) == as_json(document)
    # A step with the node still selected: clear it, step, select it again.
    for patch in (steps["select"][k + 1][key][1], steps["forward"][k + 1], steps["select"][k + 2][key][0]):
        apply(copy, patch)
    with set_curdoc(document):
        store.goto(k + 1)
    assert as_json(copy) == as_json(document) and "<h3>" in explorer.inspector.box.text
    assert not [t for t in steps["tappable"][0] if t.startswith("t")], "no node exists before the program runs"


LINK = "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\ny.backward()\n" \
       "print(x.grad)\n"


def test_a_learners_link_is_recorded_in_pieces_from_its_timeline_without_running_it_again(monkeypatch):
    from app import timeline as tl
    from app.program import links
    from app.site.hooks import link_prelude

    query = {"code": links.encode_code(LINK), "step": "3"}
    timeline = tl.run(LINK)
    monkeypatch.setattr(tl, "run", lambda source: pytest.fail("the program ran again"))
    steps = link_prelude(query, timeline)
    pieces = 0
    while True:
        try:
            next(steps)
            pieces += 1
        except StopIteration as done:
            recorded = json.loads(done.value)
            break
    explorer, document = native_document(query, runner=lambda source: timeline)
    assert pieces > 2 * len(timeline.events)  # a piece per step each way, and the clicks
    assert recorded["example"] is None and recorded["k"] == explorer.store.k == 2
    assert len(recorded["forward"]) == explorer.store.last + 1 and recorded["select"]
    (doc_json,) = recorded["docs_json"].values()
    copy = Document.from_json(json.loads(json.dumps(doc_json)))
    assert shown(copy) == shown(replica(document))
    for k in range(recorded["k"] + 1, explorer.store.last + 1):
        apply(copy, recorded["forward"][k])
    with set_curdoc(document):
        explorer.store.goto(explorer.store.last)
    assert shown(copy) == shown(replica(document)) and "step <b>" in " ".join(shown(copy)[0])


def shown(document: Document) -> tuple[list[str], list[str]]:
    """What two documents built apart (their model ids differ) show alike: every text, and the graph's nodes."""
    texts = sorted(model.text for model in document.models if isinstance(getattr(model, "text", None), str))
    nodes = sorted(json.dumps({name: list(map(str, column)) for name, column in model.data.items()}, sort_keys=True)
                   for model in document.models if isinstance(model, ColumnDataSource) and "key" in model.data)
    return texts, nodes


def test_a_link_too_long_to_record_in_the_browser_is_not_recorded():
    from app import timeline as tl
    from app.program import links
    from app.site.hooks import LINK_STEPS, link_prelude

    source = (f"import torch\nx = torch.tensor(1.0, requires_grad=True)\nfor i in range({2 * LINK_STEPS}):\n"
              "    x = x * 1.0\n")
    steps = link_prelude({"code": links.encode_code(source)}, tl.run(source))
    with pytest.raises(StopIteration) as done:
        next(steps)
    assert done.value.value is None
