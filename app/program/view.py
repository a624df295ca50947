"""Program: the examples menu, the code editor (the source of truth), Run, Share and the exports."""

from __future__ import annotations

import io

import panel as pn
import param
from panel.viewable import Viewer

from app.program import links
from app.program.examples import BY_SLUG, EXAMPLES
from app.program.share import ShareExport
from app.store import Store
from app.timeline import error_of
from app.widgets.responsive import PHONE, SHRINK, WRAP, narrow


class Program(Viewer):
    store = param.ClassSelector(class_=Store)
    figure = param.Parameter(doc="The graph's Bokeh figure, for the PNG/SVG export.")

    def __init__(self, **params):
        super().__init__(**params)
        s = self.store
        options = {"Custom program": ""} | {e.title: e.slug for e in EXAMPLES}
        self.examples = pn.widgets.Select(label="Example", options=options, value=s.example or "",
                                          sizing_mode="stretch_width", css_classes=["examples"])
        self.editor = pn.widgets.CodeEditor(value=s.source, language="python", theme="tomorrow",
                                            sizing_mode="stretch_width", height=270, css_classes=["editor"],
                                            print_margin=False, stylesheets=[_SHORTER_ON_PHONES])
        self.run = pn.widgets.Button(label="▶ Run", color="primary", width=72, css_classes=["run"])
        # Stop takes the place of the .py download while a program runs (the row stays within the sidebar); no
        # tooltip: one shown as the button hides would stay on the page
        self.stop = pn.widgets.Button(label="■ Stop", color="danger", width=62, margin=(5, 3), css_classes=["stop"],
                                      visible=s.running is not None)
        self.share = ShareExport(figure=self.figure.id, height=36, width=230, margin=(5, 5))
        self.download = pn.widgets.FileDownload(callback=self._py_file, filename="program.py", label="⤓ .py",
                                                color="light", width=62, margin=(5, 3),
                                                css_classes=["export-py"], embed=False)
        self.run.on_click(self._on_run)
        self.stop.on_click(lambda event: s.stop())
        self.examples.param.watch(self._on_example, "value")
        s.param.watch(self._on_source, "source")
        s.param.watch(self._on_link, ["source", "k", "example"])
        s.param.watch(self._on_errors, ["timeline", "run_error"])
        s.param.watch(self._on_running, "running")
        self._on_link()
        self._on_errors()

    def _py_file(self):
        return io.StringIO(self.store.source)

    def _on_run(self, event):
        self.store.load(self.editor.value, example=None)
        if self.examples.value and BY_SLUG[self.examples.value].source != self.editor.value:
            self.examples.value = ""

    def _on_example(self, event):
        if event.new and self.store.example != event.new:
            self.store.load(BY_SLUG[event.new].source, example=event.new)

    def _on_source(self, event):
        if self.editor.value != event.new:
            self.editor.value = event.new
        example = self.store.example or ""
        if self.examples.value != example:
            self.examples.value = example

    def _on_running(self, event):
        self.run.label = "Running…" if event.new is not None else "▶ Run"
        self.run.width = 100 if event.new is not None else 72
        self.stop.visible = event.new is not None
        self.download.visible = event.new is None

    def _on_link(self, *events):
        s = self.store
        self.share.query = links.query_string(s.source, s.k, s.example)

    def _on_errors(self, *events):
        s = self.store
        error = s.run_error or (error_of(s.timeline) if s.timeline is not None else None)
        if error and error.get("line"):
            self.editor.annotations = [{"row": error["line"] - 1, "column": 0, "type": "error",
                                        "text": f"{error.get('type')}: {error.get('message')}"}]
        else:
            self.editor.annotations = []

    def __panel__(self):
        return pn.Column(
            self.examples,
            self.editor,
            pn.Row(self.run, self.stop, self.download, self.share, stylesheets=[WRAP]),
            sizing_mode="stretch_width", stylesheets=[SHRINK],
        )


# On a phone the graph comes into view sooner.
_SHORTER_ON_PHONES = narrow("height: 180px !important; flex: 0 0 180px !important;", PHONE)
