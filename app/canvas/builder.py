"""Builder: the canvas builder. The program is the state: its graph is read from the store's program
(canvas_code.read) and drawn on the board; an edit on the board or in the node's fields makes a new graph
(canvas_model), whose program (canvas_code.write) the store then runs. Where the nodes sit and which one is
selected are the builder's own."""

from __future__ import annotations

from html import escape

import panel as pn
import param
from panel.custom import JSComponent
from panel.viewable import Viewer

from app.canvas import board_model as bm
from app.canvas import code as cc
from app.canvas import model as cm
from app.canvas.board import CSS, CanvasBoard
from app.store import Store
from app.widgets.responsive import SHRINK, WIDE, WRAP

_NOT_CONNECTED, _NUMBER = "— not connected —", "a number →"
BOARD_H = 330  # px: the palette and the board, in the sidebar
# The board's height in the sidebar; open wide, it fills the window's height (in a wide window) or most of it.
_TALL = (":host(.tall), :host(.tall) .canvas-board { height: auto !important; flex: 0 0 auto !important; }\n"
         ":host(.tall) .board { min-height: 460px; }\n"
         f"{WIDE} {{ :host(.tall) .board {{ min-height: max(300px, calc(100vh - 250px)); "
         "} }\n")


class Builder(Viewer):
    store = param.ClassSelector(class_=Store)
    graph = param.Parameter(default=None, doc="canvas_model.Graph of the program, or None when it is not one.")
    positions = param.Dict(default={}, doc="Node name -> (x, y) on the board, px.")
    selected = param.String(default=None, allow_None=True)
    wide = param.Boolean(default=False, doc="Open over the graph's area (the code stays beside it), with a taller "
                                             "board; the page (page.py) places it.")

    def __init__(self, **params):
        super().__init__(**params)
        w = pn.widgets
        self.board = CanvasBoard(sizing_mode="stretch_width", height=BOARD_H, margin=(4, 10), stylesheets=[CSS + _TALL],
                                 css_classes=["canvas-board"])
        self.title = pn.pane.HTML("", margin=(0, 10), css_classes=["node-title"])
        self.node_name = w.TextInput(label="name", width=80, css_classes=["node-name"])
        self.value = w.TextInput(label="value (number or list)", width=150, css_classes=["leaf-value"])
        self.requires_grad = w.Checkbox(label="requires_grad", margin=(26, 10, 4, 10), css_classes=["leaf-rg"])
        self.ports = [w.Select(label=f"input {p}", width=110, css_classes=[f"port-{p}"]) for p in ("a", "b")]
        self.numbers = [w.TextInput(label=f"number for {p}", width=70, css_classes=[f"number-{p}"])
                        for p in ("a", "b")]
        self.backward = w.Button(label="Backward from here", color="success", width=150,
                                 css_classes=["backward-here"], stylesheets=[_DARK_GREEN])
        self.delete = w.Button(label="Delete node", color="light", width=100, css_classes=["delete-node"])
        self.clear = w.Button(label="New canvas", color="light", width=110, css_classes=["new-program"],
                              description="Start an empty program (Undo brings the editor's program back)")
        self.undo = w.Button(label="↶ Undo new canvas", color="light", width=150, css_classes=["undo-new-canvas"],
                             visible=self.store.wiped is not None,
                             description="Bring back the program the new canvas replaced")
        self.widen = w.Button(label="⤢ Larger canvas", color="primary", width=150, css_classes=["widen-canvas"],
                              description="Give the canvas the graph's room (the code stays beside it)")
        self.message = pn.pane.HTML("", css_classes=["builder-message"], margin=(0, 10),
                                    styles={"color": "#b00020", "font-size": "12px"})
        self.reveal = Reveal(height=1, margin=0, sizing_mode="stretch_width")  # the fields' bottom
        self.fields = pn.Column(self.title, pn.Row(self.node_name, self.value, self.requires_grad, stylesheets=[WRAP]),
                                pn.Row(self.ports[0], self.numbers[0], stylesheets=[WRAP]),
                                pn.Row(self.ports[1], self.numbers[1], stylesheets=[WRAP]),
                                pn.Row(self.backward, self.delete, stylesheets=[WRAP]),
                                self.reveal,
                                visible=False, sizing_mode="stretch_width", stylesheets=[SHRINK])
        self._filling = False  # the fields are being set from the graph: their watchers stay quiet
        self.board.param.watch(self._on_action, "action")
        self.node_name.param.watch(self._on_name, "value")
        self.value.param.watch(self._on_value, "value")
        self.requires_grad.param.watch(self._on_value, "value")
        for i in (0, 1):
            self.ports[i].param.watch(lambda e, i=i: self._on_port(i, False), "value")
            self.numbers[i].param.watch(lambda e, i=i: self._on_port(i, True), "value")
        self.backward.on_click(lambda e: self._edit(cm.backward_from(self.graph, self.selected), step=None))
        self.delete.on_click(lambda e: self._delete(self.selected))
        self.clear.on_click(self._on_clear)
        self.undo.on_click(lambda e: self.store.undo_new_canvas())
        self.store.param.watch(lambda e: setattr(self.undo, "visible", e.new is not None), "wiped")
        self.widen.on_click(lambda e: setattr(self, "wide", not self.wide))
        self.param.watch(self._on_wide, "wide")
        self.store.param.watch(self._on_program, ["source", "running"])
        self.param.watch(self._draw, ["graph", "positions", "selected"])
        self.param.watch(self._on_selected, "selected")
        self._on_program()

    # The program -> the graph.
    def _on_program(self, *events):
        try:
            graph, why = cc.read(self.store.program), ""
        except cc.OutsideCanvas as exc:
            graph, why = None, (f"The canvas draws programs made of torch.tensor leaves, the palette's ops and "
                                f".backward() calls; this one is not ({exc}). “New canvas” starts one.")
        self.board.why = why
        self.board.enabled = graph is not None  # (also when the graph was None before: _draw is not called then)
        self.board.height = BOARD_H if graph is not None else None  # as tall as its note
        self._show(graph)

    def _show(self, graph: cm.Graph | None, positions: dict | None = None, selected: str | None = "") -> None:
        """Graph, places and selection together (the board draws them once)."""
        selected = self.selected if selected == "" else selected
        selected = selected if graph is not None and selected in graph.names else None
        positions = self.positions if positions is None else positions
        positions = bm.place(graph, positions) if graph is not None else positions
        self.param.update(graph=graph, positions=positions, selected=selected)

    def _draw(self, *events):
        g = self.graph
        self.board.enabled = g is not None
        self.board.view = bm.board(g or cm.Graph(), self.positions, self.selected)
        self._fill()

    def _fill(self) -> None:
        """The selected node's fields."""
        g, name = self.graph, self.selected
        self.fields.visible = g is not None and name is not None
        if not self.fields.visible:
            return
        node = g.node(name)
        leaf = node.op == cm.LEAF
        self._filling = True
        try:
            self.title.object = f"<b>{escape(bm.formula(g, name))}</b>"
            self.node_name.value = name
            self.value.visible = self.requires_grad.visible = leaf
            self.value.value, self.requires_grad.value = node.value, node.requires_grad
            candidates = [n for n in g.names if n not in cm.feeds(g, name)]
            for i, (select, number) in enumerate(zip(self.ports, self.numbers, strict=True)):
                used = i < len(node.inputs)
                select.visible = used
                number.visible = used and node.op in cm.BINARY and node.op != "@"
                if not used:
                    continue
                source = node.inputs[i]
                select.options = [_NOT_CONNECTED, *candidates] + ([_NUMBER] if number.visible else [])
                select.value = (_NOT_CONNECTED if source is None else _NUMBER if isinstance(source, float)
                                else source)
                number.value = f"{source:g}" if isinstance(source, float) else ""
            self.backward.label = (f"No backward from {name}" if name in self.graph.backwards
                                   else f"Backward from {name}")
            self.delete.label = f"Delete {name}"
        finally:
            self._filling = False

    def _on_selected(self, event):
        """A node newly selected: its fields are brought into the window (they lie under the board)."""
        if event.new is not None and self.fields.visible:
            self.reveal.n += 1

    # What the person did -> a new graph -> the program the store runs.
    def _edit(self, graph: cm.Graph, step: int | str | None = "end", **view) -> None:
        with pn.io.hold():  # the board and the graph change in one batch (see _on_clear)
            self.message.object = ""
            self._show(graph, **view)
            source = cc.write(graph)
            if source != self.store.program:
                self.store.load(source, step=step)
            elif step is None:
                self.store.goto(self.store.next_call_step(-1) - 1)

    def _try(self, make) -> None:
        try:
            graph = make()
        except ValueError as exc:
            self.message.object = str(exc)
            self._fill()
            return
        self._edit(graph)

    def _on_action(self, event):
        a = event.new
        kind, g = a.get("kind"), self.graph
        if g is None:
            return
        if kind == "select":
            self.selected = a["name"]
        elif kind == "move":
            self.positions = {**self.positions, a["name"]: (float(a["x"]), float(a["y"]))}
        elif kind == "add":
            new = cm.add(g, a["op"])
            name = new.nodes[-1].name
            at = {name: (float(a["x"]), float(a["y"]))} if "x" in a else {}
            self._edit(new, positions={**self.positions, **at}, selected=name)
        elif kind == "connect":
            self._try(lambda: cm.connect(g, a["source"], a["target"], int(a["port"])))
        elif kind == "delete":
            self._delete(a["name"])

    def _delete(self, name: str | None) -> None:
        if self.graph is not None and name in self.graph.names:
            self._edit(cm.delete(self.graph, name))

    def _on_name(self, event):
        if not self._filling and self.selected:
            old, new = self.selected, event.new.strip()
            try:
                graph = cm.rename(self.graph, old, new)
            except ValueError as exc:
                self.message.object = str(exc)
                return
            places = {(new if n == old else n): xy for n, xy in self.positions.items()}
            self._edit(graph, positions=places, selected=new)

    def _on_value(self, event):
        if not self._filling and self.selected:
            self._try(lambda: cm.set_leaf(self.graph, self.selected, self.value.value, self.requires_grad.value))

    def _on_port(self, i: int, typed: bool) -> None:
        if self._filling or not self.selected:
            return
        choice, number = self.ports[i].value, self.numbers[i].value.strip()
        if typed:
            choice = _NUMBER
        if choice == _NUMBER:
            if not number:
                return
            try:
                source = float(number)
            except ValueError:
                self.message.object = f"{number!r} is not a number"
                return
        else:
            source = None if choice == _NOT_CONNECTED else choice
        self._try(lambda: cm.connect(self.graph, source, self.selected, i))

    def _on_clear(self, event):
        with pn.io.hold():  # one batch for the browser: a graph's glyphs changed in two broke BokehJS's text
            self.message.object = ""
            self.param.update(positions={}, selected=None)
            self.store.new_canvas(cc.HEADER)

    def _on_wide(self, *events):
        self.board.css_classes = ["canvas-board", "tall"] if self.wide else ["canvas-board"]
        self.widen.label = "⤡ Smaller canvas" if self.wide else "⤢ Larger canvas"
        self.widen.description = ("Give the graph its room back" if self.wide
                                  else "Give the canvas the graph's room (the code stays beside it)")

    def __panel__(self):
        return pn.Column(pn.Row(self.widen, self.clear, self.undo, margin=(0, 0), stylesheets=[WRAP]), self.board,
                         self.message,
                         self.fields,
                         sizing_mode="stretch_width", stylesheets=[SHRINK])


class Reveal(JSComponent):
    """Scrolls itself into view (as little as it takes, in every box that scrolls) each time `n` changes."""

    n = param.Integer(default=0)

    _esm = """
export function render({ model }) {
  const mark = document.createElement('div')
  model.on('n', () => requestAnimationFrame(() => setTimeout(() => mark.scrollIntoView({ block: 'nearest' }), 30)))
  return mark
}
"""


_DARK_GREEN = """
.bk-btn-success { background-color: #2b7a3d; border-color: #256b35; }
.bk-btn-success:hover { background-color: #225f30; }
"""  # white text on Bootstrap's green is 2.5:1, on this 5.4:1 (WCAG AA asks for 4.5:1)
