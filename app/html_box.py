"""HtmlBox: HTML text that changes every step. A bare Bokeh Div behind a Panel pane: setting its text costs
microseconds, where a Panel HTML pane costs milliseconds per update."""

from __future__ import annotations

import panel as pn
from bokeh.models import Div, InlineStyleSheet

_FILL = ".bk-clearfix { display: block; width: 100%; }\n"  # Bokeh shrink-wraps a Div's text otherwise


class HtmlBox:
    def __init__(self, text: str = "", css: str = "", **layout):
        sizing = layout.get("sizing_mode")
        css = _FILL + css if sizing in ("stretch_width", "stretch_both") else css
        self.div = Div(
            text=text, stylesheets=[InlineStyleSheet(css=css)] if css else [], sizing_mode=sizing,
            width=layout.get("width"), height=layout.get("height"), styles={"overflow": "auto"},
        )
        self.pane = pn.pane.Bokeh(self.div, **layout)

    @property
    def text(self) -> str:
        return self.div.text

    @text.setter
    def text(self, value: str) -> None:
        if value != self.div.text:
            self.div.text = value
