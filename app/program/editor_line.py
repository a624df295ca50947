"""EditorLine: the code editor's line of step k, highlighted (and scrolled to), and the line the pointer is on,
told to the store so the graph lights the nodes that line made. It draws nothing of its own: it reaches the
page's Ace editor (Panel's CodeEditor) in the browser."""

from __future__ import annotations

import param
from panel.custom import JSComponent
from panel.viewable import Viewer

from app.store import Store


class AceLine(JSComponent):
    line = param.Integer(default=0, doc="1-based line to highlight; 0: none.")
    hovered = param.Integer(default=0, doc="1-based line under the pointer; 0: none.")

    _esm = """
const CSS = `.ace_marker-layer .step-line { position: absolute; background: rgba(255, 196, 0, 0.32);
  border-left: 3px solid #d99a00; } .ace_gutter-cell.step-gutter { background: rgba(255, 196, 0, 0.55); }`

function findEditor(root) {
  const todo = [root]
  while (todo.length) {
    const node = todo.pop()
    for (const el of node.querySelectorAll('*')) {
      if (el.env && el.env.editor) { return el.env.editor }
      if (el.shadowRoot) { todo.push(el.shadowRoot) }
    }
  }
  return null
}

export function render({ model, el }) {
  let editor = null, marker = null, gutter = null
  function show() {
    if (!editor) { return }
    const session = editor.session
    if (marker !== null) { session.removeMarker(marker); marker = null }
    if (gutter !== null) { session.removeGutterDecoration(gutter, 'step-gutter'); gutter = null }
    const row = model.line - 1
    if (row < 0) { return }
    const Range = ace.require('ace/range').Range
    marker = session.addMarker(new Range(row, 0, row, 1), 'step-line', 'fullLine', false)
    session.addGutterDecoration(row, 'step-gutter')
    gutter = row
    requestAnimationFrame(() => {
      const first = editor.getFirstVisibleRow(), last = editor.getLastVisibleRow()
      if (row < first + 1 || row > last - 1) { editor.scrollToLine(row, true, false, () => {}) }
    })
  }
  function attach() {
    editor = findEditor(document)
    if (!editor) { setTimeout(attach, 200); return }
    const root = editor.container.getRootNode()
    if (!root.querySelector || !root.querySelector('style.step-line-css')) {
      const style = document.createElement('style')
      style.className = 'step-line-css'
      style.textContent = CSS
      ;(root.head || root).appendChild(style)
    }
    editor.on('mousemove', (e) => {
      const row = e.getDocumentPosition().row + 1
      if (row !== model.hovered) { model.hovered = row }
    })
    editor.container.addEventListener('mouseleave', () => { if (model.hovered) { model.hovered = 0 } })
    setTimeout(show, 300)
  }
  model.on('line', show)
  attach()
  el.style.display = 'none'
  return document.createElement('span')
}
"""


class EditorLine(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        self.link = AceLine(line=self._line(), width=0, height=0, margin=0)
        self.store.param.watch(self._on_state, "state")
        self.link.param.watch(self._on_hover, "hovered")

    def _line(self) -> int:
        event = (self.store.state or {}).get("event") or {}
        return event.get("line") or 0

    def _on_state(self, *events):
        self.link.line = self._line()

    def _on_hover(self, event):
        self.store.light(event.new or None)

    def __panel__(self):
        return self.link
