"""HtmlBox in Python: a new text reaches the browser's model, and a new stylesheet still comes with the design's
own sheets (Panel's design is worked out only for stylesheet changes)."""

from bokeh.document import Document

from app.widgets.html_box import HtmlBox


def _sheets(model) -> list[str]:
    return [s if isinstance(s, str) else s.url for s in model.stylesheets]


def test_a_new_text_reaches_the_model():
    box = HtmlBox("<b>a</b>")
    model = box.get_root(Document())
    box.text = "<i>b</i>"
    assert model.data.text == "<i>b</i>"


def test_a_new_stylesheet_comes_with_the_designs_own():
    box = HtmlBox("x", css=".a { color: red; }")
    model = box.get_root(Document())
    before = _sheets(model)
    assert any(".a { color: red; }" in (s or "") for s in before)
    box.stylesheets = [".b { color: blue; }"]
    after = _sheets(model)
    assert after[:-1] == before[:-1] and after[-1] == ".b { color: blue; }"
