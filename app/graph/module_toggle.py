"""ModuleToggle: the program's module calls drawn as one box for the model, as boxes for its layers (a click on
one opens it), or as ops."""

from __future__ import annotations

import panel as pn
import param
from panel.viewable import Viewer

from app.graph.module_boxes import ALL, TOP
from app.store import Store
from app.widgets.responsive import WIDE, WRAP

MODEL, BOXES, OPS = "model as one box", "layers as boxes", "all ops"
# In a wide window the toggle lies in the graph's toolbar row, left of its tools, instead of a row of its own above
# the graph (32 px more for the graph: a training script's module boxes were cut at 1280x800).
_IN_THE_GRAPHS_TOOLBAR_ROW = (f"{WIDE} {{ :host {{ width: max-content !important; "
                              "flex: none !important; margin: 0 0 -32px 12px !important; position: relative; "
                              "z-index: 5; } }\n")


class ModuleToggle(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        self.choice = pn.widgets.RadioButtonGroup(options=[MODEL, BOXES, OPS], value=self._value(), color="light",
                                                  margin=(2, 8), css_classes=["module-toggle"], height=30)
        self.hint = pn.pane.HTML("<span style='font-size:12px;color:#555'>click a module's box to open it</span>",
                                 margin=(6, 4))
        self.row = pn.Row(self.choice, self.hint, visible=self._has_modules(), sizing_mode="stretch_width",
                          stylesheets=[WRAP + _IN_THE_GRAPHS_TOOLBAR_ROW])  # on a phone the hint goes under it
        self.choice.param.watch(self._on_choice, "value")
        self.store.param.watch(self._on_store, ["timeline", "opened"])

    def _has_modules(self) -> bool:
        return bool(getattr(self.store.timeline, "modules", None))

    def _value(self) -> str:
        opened = self.store.opened or ()
        return OPS if ALL in opened else MODEL if TOP in opened else BOXES

    def _on_choice(self, event):
        self.store.open_modules({OPS: (ALL,), MODEL: (TOP,)}.get(event.new, ()))

    def _on_store(self, *events):
        self.row.visible = self._has_modules()
        if self.choice.value != self._value():
            self.choice.value = self._value()

    def __panel__(self):
        return self.row
