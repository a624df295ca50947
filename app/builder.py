"""Builder: make a graph without typing. Each action writes its PyTorch line into the program and reruns."""

from __future__ import annotations

import panel as pn
import param
from panel.viewable import Viewer

from app import builder_code as code
from app.responsive import SHRINK, WRAP
from app.store import Store
from engine.trace.text import numel


class Builder(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        w = pn.widgets
        self.leaf_name = w.TextInput(label="leaf name", value="a", width=80, css_classes=["leaf-name"])
        self.leaf_value = w.TextInput(label="value (or list)", value="2.0", width=110, css_classes=["leaf-value"])
        self.leaf_shape = w.TextInput(label="or shape", placeholder="2, 3", width=70, css_classes=["leaf-shape"])
        self.leaf_fill = w.TextInput(label="fill", value="1.0", width=50)
        self.leaf_rg = w.Checkbox(label="requires_grad", value=True, margin=(4, 10))
        self.add_leaf = w.Button(label="Add leaf", color="primary", width=100, css_classes=["add-leaf"])
        self.op = w.Select(label="op", options=code.OPS, value="×", width=85, css_classes=["op-kind"])
        self.op_a = w.Select(label="input", options=[], width=75, css_classes=["op-a"])
        self.op_b = w.Select(label="second input", options=[], width=85, css_classes=["op-b"])
        self.op_number = w.TextInput(label="or number", placeholder="2.0", width=65, css_classes=["op-number"])
        self.op_index = w.TextInput(label="index", value="0", width=55, visible=False)
        self.op_result = w.TextInput(label="result", value="c", width=70, css_classes=["op-result"])
        self.add_op = w.Button(label="Add op", color="primary", width=100, css_classes=["add-op"])
        self.output = w.Select(label="output", options=[], width=90, css_classes=["output"])
        self.backward = w.Button(label="Call backward", color="success", width=130,
                                 css_classes=["call-backward"], stylesheets=[_DARK_GREEN])
        self.clear = w.Button(label="New empty program", color="light", width=150,
                                 css_classes=["new-program"])
        self.message = pn.pane.HTML("", css_classes=["builder-message"], margin=(0, 10),
                                    styles={"color": "#b00020", "font-size": "12px"})
        self.add_leaf.on_click(self._on_leaf)
        self.add_op.on_click(self._on_op)
        self.backward.on_click(self._on_backward)
        self.clear.on_click(self._on_clear)
        self.op.param.watch(self._on_op_kind, "value")
        self.store.param.watch(self._refresh, "timeline")
        self._refresh()

    def _tensors(self) -> dict[str, dict]:
        """Variable name -> the latest node bound to it in the final state of the program."""
        s = self.store
        if s.timeline is None or s.graph is None:
            return {}
        named: dict[str, dict] = {}
        for e in s.timeline.events:
            if e["kind"] in ("leaf", "op") and e.get("name") and e["name"].isidentifier():
                named[e["name"]] = e
        return named

    def _refresh(self, *events):
        names = list(self._tensors())
        self.op_a.options = names
        if names and self.op_a.value not in names:
            self.op_a.value = names[0]
        self.op_b.options = ["(number)", *names]
        changed = names != self.output.options
        self.output.options = names
        if names and (changed or self.output.value not in names):
            self.output.value = names[-1]  # the newest tensor: the one a learner most likely calls backward on
        if len(names) > 1 and self.op_b.value in (None, "(number)"):
            self.op_b.value = names[1] if self.op_a.value == names[0] else names[0]

    def _on_op_kind(self, event):
        unary = event.new in code.UNARY
        self.op_b.visible = self.op_number.visible = not unary
        self.op_index.visible = event.new == code.INDEX_ASSIGN
        self.op_result.visible = event.new != code.INDEX_ASSIGN

    def _write(self, lines: list[str]) -> None:
        self.message.object = ""
        self.store.load(code.append(self.store.program, lines), step="end")

    def _act(self, make_lines) -> None:
        try:
            lines = make_lines()
        except ValueError as exc:
            self.message.object = str(exc)
            return
        self._write(lines)

    def _on_leaf(self, event):
        self._act(lambda: [code.leaf_line(self.leaf_name.value, self.leaf_value.value, self.leaf_rg.value,
                                          self.leaf_shape.value, self.leaf_fill.value)])
        self.leaf_name.value = _next_name(self.leaf_name.value, self._tensors())

    def _on_op(self, event):
        b = self.op_number.value if self.op_number.value.strip() or self.op_b.value == "(number)" else self.op_b.value
        self._act(lambda: [code.op_line(self.op_result.value, self.op.value, self.op_a.value or "", b or "",
                                        self.op_index.value)])
        self.op_result.value = _next_name(self.op_result.value, self._tensors())

    def _on_backward(self, event):
        tensors = self._tensors()
        out = self.output.value or ""
        leaves = [n for n, e in tensors.items() if e["kind"] == "leaf" and e.get("requires_grad")]
        scalar = out in tensors and numel(tensors[out]["value"]) == 1
        self._act(lambda: code.backward_lines(out, scalar, leaves))

    def _on_clear(self, event):
        self.message.object = ""
        self.store.load(code.HEADER, step="end")
        self.leaf_name.value, self.op_result.value = "a", "c"

    def __panel__(self):
        return pn.Column(
            pn.pane.HTML("<b>Leaf</b>", margin=(0, 10)),
            pn.Row(self.leaf_name, self.leaf_value, self.leaf_shape, self.leaf_fill, stylesheets=[WRAP]),
            pn.Row(self.leaf_rg, self.add_leaf, stylesheets=[WRAP]),
            pn.pane.HTML("<b>Op</b>", margin=(0, 10)),
            pn.Row(self.op, self.op_a, self.op_b, self.op_number, stylesheets=[WRAP]),
            pn.Row(self.op_result, self.op_index, self.add_op, stylesheets=[WRAP]),
            pn.pane.HTML("<b>Backward</b>", margin=(0, 10)),
            pn.Row(self.output, self.backward, stylesheets=[WRAP]),
            self.message,
            self.clear,
            stylesheets=[SHRINK],
        )


def _next_name(name: str, taken: dict) -> str:
    """`a` -> `b` -> `c` … skipping names in use."""
    base = name.strip() or "a"
    if len(base) == 1 and base.isalpha():
        c = base
        for _ in range(26):
            c = chr((ord(c.lower()) - ord("a") + 1) % 26 + ord("a"))
            if c not in taken:
                return c
    i = 1
    while f"{base}{i}" in taken:
        i += 1
    return f"{base}{i}"


_DARK_GREEN = """
.bk-btn-success { background-color: #2b7a3d; border-color: #256b35; }
.bk-btn-success:hover { background-color: #225f30; }
"""  # white text on Bootstrap's green is 2.5:1, on this 5.4:1 (WCAG AA asks for 4.5:1)
