"""NodeList: the graph's nodes as a row of buttons under the graph, for the keyboard: Tab reaches the row,
← → (or Home, End) move between nodes, Enter (or Space) inspects the one focused. A click does the same."""

from __future__ import annotations

import json

import param
from panel.custom import JSComponent
from panel.viewable import Viewer

from app.graph import node_list_model
from app.serving import batch
from app.store import Store


class NodeButtons(JSComponent):
    # One string, not a list of lists: Panel walks every element of a list it sends (and Bokeh encodes each),
    # which cost more than the rest of a step's view updates together when a node appears.
    items = param.String(default="[]", doc="JSON: [key, label, description] per node, in reading order.")
    selected = param.String(default=None, allow_None=True)
    pick = param.String(default=None, allow_None=True, doc="Set by Enter or a click: the key to inspect.")
    picks = param.Integer(default=0, doc="Counts the picks, so that picking the same node again is seen.")

    _debounce = 0
    _esm = """
export function render({ model }) {
  const box = document.createElement('div')
  box.className = 'node-list'
  box.setAttribute('role', 'toolbar')
  box.setAttribute('aria-label', 'Graph nodes: arrow keys move, Enter inspects')
  const label = document.createElement('span')
  label.className = 'lead'
  label.textContent = 'Nodes'
  let items = JSON.parse(model.items)
  let focusKey = null  // the node that has (or last had) the keyboard's focus
  const buttons = () => [...box.querySelectorAll('button')]
  const draw = () => {
    const hadFocus = box.contains(box.getRootNode().activeElement)
    box.replaceChildren(label)
    const keys = items.map(([key]) => key)
    if (!keys.includes(focusKey)) { focusKey = keys.includes(model.selected) ? model.selected : keys[0] }
    for (const [key, text, said] of items) {
      const b = document.createElement('button')
      b.className = 'node' + (key === model.selected ? ' selected' : '')
      b.textContent = text
      b.dataset.key = key
      b.setAttribute('aria-label', said)
      b.setAttribute('aria-pressed', key === model.selected ? 'true' : 'false')
      b.tabIndex = key === focusKey ? 0 : -1
      b.onclick = () => { model.pick = key; model.picks += 1 }
      b.onfocus = () => { focusKey = key; buttons().forEach((o) => { o.tabIndex = o === b ? 0 : -1 }) }
      box.append(b)
      if (hadFocus && key === focusKey) { b.focus() }
    }
  }
  box.addEventListener('keydown', (e) => {
    const all = buttons()
    const i = all.indexOf(box.getRootNode().activeElement)
    if (i < 0) return
    const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0,
                 End: all.length - 1 }[e.key]
    if (to === undefined) return
    e.preventDefault()
    e.stopPropagation()
    all[Math.max(0, Math.min(all.length - 1, to))].focus()
  })
  draw()
  model.on('items', () => { items = JSON.parse(model.items); draw() })
  model.on('selected', draw)
  return box
}
"""


class NodeList(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        self.buttons = NodeButtons(sizing_mode="stretch_width", height=34, margin=(2, 8), stylesheets=[_CSS],
                                   css_classes=["node-buttons"])
        # In a notebook Panel applies the page's changes one by one and drops `picks` set with `pick`: either is a pick
        self.buttons.param.watch(lambda e: self.store.select(self.buttons.pick), ["pick", "picks"])
        self.store.param.watch(self._update, ["state", "graph", "selected"])
        self._made = (None, -1, "[]")  # (graph, nodes made, its items as JSON)
        self._update()

    def _update(self, *events):
        s = self.store
        made = len(s.state["nodes"]) if s.state else -1
        if self._made[0] is not s.graph or self._made[1] != made:  # the list changes only when a node appears
            self._made = (s.graph, made, json.dumps(node_list_model.items(s.graph, s.state)))
        items = self._made[2]
        with batch():
            if items != self.buttons.items:
                self.buttons.items = items
            if s.selected != self.buttons.selected:
                self.buttons.selected = s.selected

    def __panel__(self):
        return self.buttons


_CSS = """
.node-list { display: flex; gap: 4px; align-items: center; overflow-x: auto; overflow-y: hidden;
  white-space: nowrap; padding: 3px 2px; font-size: 12px; }
.node-list .lead { color: #3b5b92; font-weight: 700; font-size: 11.5px; letter-spacing: .06em;
  text-transform: uppercase; margin-right: 4px; }
.node-list button.node { font: inherit; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; padding: 1px 7px;
  border: 1px solid #8a94a3; border-radius: 4px; background: white; color: #1f2d3d; cursor: pointer; flex: none; }
.node-list button.node.selected { background: #3b5b92; color: white; border-color: #3b5b92; }
.node-list button.node:focus-visible { outline: 3px solid #d9480f; outline-offset: 1px; }
"""
