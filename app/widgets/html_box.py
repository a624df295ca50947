"""HtmlBox: HTML text that changes every step. A new text only replaces the box's innerHTML in the
browser: a Bokeh Div (or Panel HTML pane) also recomputes the page's layout on every change, which
costs about 25 ms per step here.

In Python too, a new text takes Panel's shortest way: the design's stylesheets are worked out again only when
they change, and Bokeh's diagnostics for developers are off. Panel looks each changed parameter up on the
box's model, where it is not (it is on the model's data), and Bokeh answered every such miss with a list of
similar names made with difflib. The two took a fifth of a step's Python time (benchmarks/step_python.py)."""

from __future__ import annotations

from typing import ClassVar

import param
from bokeh.settings import settings
from panel.custom import JSComponent
from panel.viewable import Viewer

from app.store import Store

settings.perform_error_diagnostics.set_value(False)

_FILL = """
:host { overflow: auto; }
.html-box { width: 100%; height: 100%; box-sizing: border-box; }
"""


class HtmlBox(JSComponent):
    text = param.String(default="")

    _esm = """
export function render({ model }) {
  const box = document.createElement('div')
  box.className = 'html-box'
  box.innerHTML = model.text
  // A box (or a block in it, such as the console's <pre>) whose text runs past it scrolls: then it is a stop
  // for Tab, so that the keyboard can scroll it too.
  const focusable = () => {
    const host = box.getRootNode().host
    if (!host) return
    for (const el of [host, ...box.querySelectorAll(':scope > *, :scope > * > *')]) {
      const scrolls = (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
        && (el === host || /auto|scroll/.test(getComputedStyle(el).overflow))
      if (scrolls && !el.hasAttribute('data-scroll-stop')) { el.tabIndex = 0; el.setAttribute('data-scroll-stop', '') }
      if (!scrolls && el.hasAttribute('data-scroll-stop')) {
        el.removeAttribute('tabindex')
        el.removeAttribute('data-scroll-stop')
      }
    }
  }
  // After a new text, once the texts pause (a key held): then the page's layout is done, and reading it is free.
  let soon = null
  model.on('text', () => { box.innerHTML = model.text; clearTimeout(soon); soon = setTimeout(focusable, 200) })
  requestAnimationFrame(() => {
    focusable()
    const host = box.getRootNode().host
    if (host) new ResizeObserver(focusable).observe(host)
  })
  return box
}
"""

    def __init__(self, text: str = "", css: str = "", **layout):
        layout.setdefault("margin", (5, 10))  # as a Panel pane's
        super().__init__(text=text, stylesheets=[_FILL + css], **layout)

    def _update_properties(self, *events, doc):
        if any(event.name == "stylesheets" for event in events):
            return super()._update_properties(*events, doc=doc)
        return self._process_param_change({event.name: event.new for event in events})


class HtmlView(Viewer):
    """A view that is one HtmlBox of `_html()`, drawn again when the store's params in `watches` change."""

    store = param.ClassSelector(class_=Store)
    watches: ClassVar[list[str]] = []
    css: ClassVar[str] = ""

    def __init__(self, **params):
        super().__init__(**params)
        self.box = HtmlBox(self._html(), css=self.css, sizing_mode="stretch_both")
        self.store.param.watch(self._update, self.watches)

    def _html(self) -> str:
        raise NotImplementedError

    def _update(self, *events):
        self.box.text = self._html()

    def __panel__(self):
        return self.box
