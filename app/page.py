"""The whole page for one session, built from a query dict, with no server needed."""

from __future__ import annotations

from html import escape

import panel as pn

from app import timeline as tl
from app.canvas.builder import Builder
from app.grad_history.view import ROW_PX, GradHistory
from app.graph.module_toggle import ModuleToggle
from app.graph.node_list import NodeList
from app.graph.view import GraphView
from app.inspector.view import Inspector
from app.lessons.view import LessonView
from app.player.controls import Controls
from app.player.iteration_bar import IterationBar
from app.plots.view import Plots
from app.predict.view import Predict
from app.program import links
from app.program.console import Console
from app.program.editor_line import EditorLine
from app.program.view import Program
from app.store import Store
from app.widgets.responsive import MAIN, NARROW, ROOM, SIDEBAR_WIDTH, WIDE, narrow

TITLE = "Autograd Explorer"
ACCENT = "#3b5b92"

SIDE_PANEL_WIDTH = 330  # the inspector right of the graph, the console right of the .grad history
BELOW_HEIGHT = 160  # px: at most, the .grad history and the console under the graph
BELOW_TITLE = 36  # px: a card's title and margins
CONSOLE_LEAST = 100  # px: in a wide window, a console that prints shows four lines at least
LESSON_WIDTH = 400  # a lesson's prose, left of the graph


class Explorer:
    """One session's store and views; `page()` composes them (a header, the program on the left, the graph
    and its panels on the right). Panel templates cost about a second per session here, so none is used."""

    def __init__(self, query: dict | None = None, runner=None, extension: bool = True):
        """`runner`: how programs run (Store.runner); the static site runs them in its program worker.
        `extension=False`: Panel's extension is loaded already (in a notebook each load sends its JavaScript)."""
        if extension:
            pn.extension("codeeditor", notifications=False)
        link = links.parse(query or {})
        self.store = Store(runner=runner)
        self.lessons = LessonView(store=self.store)
        lesson = links.lesson_slug(query or {})
        if lesson is not None:  # the lesson's program is the first shown (the default example is not run)
            self.lessons.open_slug(lesson, step=link.step if isinstance(link.step, int) else None, runner=tl.run)
        if self.store.timeline is None:
            self.store.load(link.source, step=link.step, example=link.example)
        if link.problem:
            self.store.problem = link.problem
        self.graph = GraphView(store=self.store)
        self.controls = Controls(store=self.store)
        self.predict = Predict(store=self.store)
        self.iterations = IterationBar(store=self.store)
        self.inspector = Inspector(store=self.store)
        self.history = GradHistory(store=self.store)
        self.console = Console(store=self.store)
        self.plots = Plots(store=self.store)
        self.nodes = NodeList(store=self.store)
        self.program = Program(store=self.store, figure=self.graph.figure)
        self.builder = Builder(store=self.store)
        self.editor_line = EditorLine(store=self.store)
        self.modules = ModuleToggle(store=self.store)
        self.alert = pn.pane.HTML(
            f'<div class="link-problem">⚠ {escape(self.store.problem)}</div>', visible=bool(self.store.problem),
            sizing_mode="stretch_width", margin=(4, 10), stylesheets=[_ALERT_CSS],
        )

    def sidebar(self) -> pn.Column:
        self.builder_section = _section("Canvas builder · writes the code beside it; Run redraws it", self.builder,
                                        [_AFTER_GRAPH + _OPEN_WIDE], css_classes=["builder-section"])
        self.sidebar_column = pn.Column(
            self.lessons.picker(),
            self.program,
            self.editor_line,
            self.builder_section,
            pn.pane.HTML(_LEGEND, margin=(6, 10), stylesheets=[_LAST], css_classes=["legend"]),
            width=SIDEBAR_WIDTH, sizing_mode="stretch_height", scroll=True, css_classes=["sidebar"],
            styles={"background": "#f7f8fa", "border-right": "1px solid #e1e4e8"},
            stylesheets=[_SIDEBAR_CSS + _FOLDED],
        )
        self.lessons.panel.param.watch(self._on_lesson, "visible")
        self.lessons.param.watch(self._on_lesson, "code_shown")
        self._on_lesson()
        return self.sidebar_column

    def _on_lesson(self, *events) -> None:
        """A lesson open takes the editor's column (its code is in the lesson) unless its Code toggle brings the
        editor back: in a wide window the graph gets the room, in a narrow one the lesson comes first."""
        _mark(self.sidebar_column, folded=self.lessons.panel.visible and not self.lessons.code_shown)

    def main(self) -> pn.Column:
        graph = pn.Column(self.graph, sizing_mode="stretch_both", min_height=200, css_classes=["graph-box"],
                          styles={"border": "1px solid #e3e3e3", "border-radius": "4px"}, margin=(0, 8),
                          stylesheets=[_GRAPH_CSS])
        # Right of the graph, in a wide window, only what has something to say: the inspector once a node is
        # clicked, the figures the program draws; else the graph takes the room. Under the graph the .grad history
        # and the console of a program that prints (narrower while the column beside is there).
        self.inspector_card = _card("Inspector", self.inspector, "inspector-card", min_height=300,
                                    stylesheets=[_IDLE_WIDE])
        # no scroll=True: Panel drops its class from css_classes set later (_on_room), so the style says it
        self.side = pn.Column(
            self.inspector_card,
            _card("Plots", self.plots, "plots-card", height=268, visible=self.plots.param.drawing,
                  stylesheets=[_PLOTS_CSS]),
            width=SIDE_PANEL_WIDTH, sizing_mode="stretch_height", css_classes=["side-panels"],
            styles={"overflow-y": "auto"}, stylesheets=[_SIDE_CSS + _HIDDEN_WIDE + _NO_MIN_HEIGHT])
        self.console_card = _card("Console", self.console, "console-card", height=BELOW_HEIGHT,
                                  width=SIDE_PANEL_WIDTH, sizing_mode="fixed",
                                  stylesheets=[_IDLE_WIDE + _BESIDE_WIDE + _FULL_WIDTH_NARROW + _AS_TALL_WIDE])
        self.history_card = _card(".grad history", self.history, "history-card", height=BELOW_HEIGHT,
                                  stylesheets=[_HIDDEN_WIDE + _FIT_NARROW])
        below = pn.Row(self.history_card, self.console_card, sizing_mode="stretch_width", css_classes=["below-graph"],
                       stylesheets=[_STACK_CSS])
        work = pn.Column(graph, self.nodes, below, sizing_mode="stretch_both", css_classes=["work"],
                         stylesheets=[_WORK_CSS + _NO_MIN_HEIGHT])
        self.store.param.watch(self._on_room, ["selected", "timeline", "failed"])
        self.plots.param.watch(self._on_room, "drawing")
        self.history.param.watch(self._on_room, "lines")
        self._on_room()
        lesson = pn.Column(self.lessons, width=LESSON_WIDTH, sizing_mode="stretch_height", css_classes=["lesson-box"],
                           visible=self.lessons.panel.param.visible, stylesheets=[_LESSON_CSS])
        body = pn.Row(lesson, work, self.side, sizing_mode="stretch_both", css_classes=["graph-and-panels"],
                      stylesheets=[_STACK_CSS + _NO_MIN_HEIGHT + _NO_MIN_WIDTH])
        self.main_column = pn.Column(self.alert, self.controls, self.predict, self.iterations, self.modules, body,
                                     sizing_mode="stretch_both", css_classes=["main"],
                                     stylesheets=[MAIN + _MAIN_CSS + _COVERED])
        return self.main_column

    def _on_room(self, *events) -> None:
        s = self.store
        shown = s.failed or s.timeline
        says = shown is not None and any(e["kind"] in ("print", "warning", "error") for e in shown.events)
        picked = s.selected is not None
        _mark(self.inspector_card, idle=not picked)
        beside = picked or self.plots.drawing
        _mark(self.side, idle=not beside)
        lines = self.history.lines
        _mark(self.history_card, idle=not lines)
        _mark(self.console_card, idle=not says, beside=beside, alone=not lines)
        # as tall as its rows, set before the page is laid out (a card that grew once its text came would shrink
        # the graph after Bokeh sized it)
        height = min(BELOW_TITLE + lines * ROW_PX, BELOW_HEIGHT) if lines else BELOW_HEIGHT
        if self.history_card.height != height:
            self.history_card.height = height

    def _on_wide(self, event) -> None:
        """The builder open wide lies over the graph's area (the graph's controls are hidden under it, so Tab
        skips them); closed, it is back in the sidebar."""
        for view, css, mark in ((self.builder_section, "builder-section", "open"),
                                (self.main_column, "main", "covered")):
            view.css_classes = [css, mark] if event.new else [css]

    def page(self) -> pn.Column:
        sidebar, main = self.sidebar(), self.main()
        self.builder.param.watch(self._on_wide, "wide")
        header = pn.pane.HTML(_HEADER, sizing_mode="stretch_width", min_height=48, margin=0,
                              styles={"background": ACCENT}, css_classes=["page-header"])
        return pn.Column(header, pn.Row(sidebar, main, sizing_mode="stretch_both",
                                        css_classes=["page-body"], stylesheets=[_STACK_CSS + _BODY_CSS]),
                         sizing_mode="stretch_both", margin=0, css_classes=["page"], stylesheets=[_PAGE_CSS])


def _section(title: str, body, stylesheets=(), css_classes=()) -> pn.Column:
    return pn.Column(
        pn.pane.HTML(f'<h2 class="section-title">{title}</h2>', margin=(12, 10, 0, 10), stylesheets=[_TITLE_CSS]),
        body, sizing_mode="stretch_width", stylesheets=list(stylesheets), css_classes=list(css_classes),
    )


def _card(title: str, body, css: str, stylesheets=(), **size) -> pn.Column:
    return pn.Column(
        pn.pane.HTML(f'<h2 class="section-title">{title}</h2>', margin=(2, 8, 0, 8), stylesheets=[_TITLE_CSS]),
        body, sizing_mode=size.pop("sizing_mode", "stretch_width" if "height" in size else "stretch_both"),
        css_classes=[css], margin=(6, 4),
        styles={"border": "1px solid #e3e3e3", "border-radius": "4px", "overflow": "auto", "background": "white"},
        stylesheets=list(stylesheets), **size,
    )


def _mark(view, **marks: bool) -> None:
    """Set or clear each class of `marks` on `view` (a change only when one differs: each is a patch)."""
    classes = [c for c in view.css_classes if c not in marks] + [c for c, on in marks.items() if on]
    if classes != view.css_classes:
        view.css_classes = classes


# Wide screens: the program on the left; the graph with its node buttons and the .grad history in the middle;
# the inspector (as tall as the window allows) and the console on the right. In a narrow window every row
# becomes a column and the page scrolls: program, controls, graph, inspector, history, console, and then the
# canvas builder and the legend (the sidebar's box gives way, so its parts take their place among the page's).
_FLOW = "height: auto !important; flex: none !important; min-width: 0 !important;"  # as tall as its content
_STACK_CSS = narrow("flex-direction: column !important; " + _FLOW)
_BODY_CSS = ":host { min-width: 0 !important; }\n" + narrow("overflow: visible !important;")
# The page's root is the room the others' rules ask about (its own rule asks the window: the root spans it)
_PAGE_CSS = (":host { min-width: 0 !important; }\n" + ROOM
             + f"@media (max-width: {NARROW}px) {{ :host {{ height: auto !important; min-height: 100vh; }} }}\n")
_SIDEBAR_CSS = narrow("display: contents !important;")
_FOLDED = ":host(.folded) { display: none !important; }\n"  # (more specific than the narrow window's `contents`)
# The middle column may be narrower than its rows' widgets side by side (at 1100 px): the rows wrap instead.
_MAIN_CSS = ":host { min-width: 0 !important; }\n" + narrow(
    "width: 100% !important; order: 1; border-top: 1px solid #e1e4e8; " + _FLOW)
_WORK_CSS = _SIDE_CSS = narrow("width: 100% !important; " + _FLOW)
_AFTER_GRAPH = narrow("order: 2; background: #f7f8fa; width: 100% !important; " + _FLOW)
_LAST = narrow("order: 2;")
# Open wide: in a wide window the builder lies over the graph's area, right of the code; in a narrow one it
# already spans the page (after the graph) and only its board grows.
_OPEN_WIDE = (f"{WIDE} {{ :host(.open) {{ position: fixed !important; "
              f"top: 49px; left: {SIDEBAR_WIDTH}px; right: 0; bottom: 0; width: auto !important; "
              "height: auto !important; z-index: 40; background: white; overflow: auto; "
              "border-left: 1px solid #e1e4e8; box-shadow: -4px 0 12px rgba(0,0,0,.08); padding: 0 12px; } }\n")
_COVERED = f"{WIDE} {{ :host(.covered) {{ visibility: hidden; }} }}\n"
# A panel with nothing to say gives its room to the graph in a wide window; in a narrow one it stays, below the
# graph, saying what it is for.
_HIDDEN_WIDE = f"{WIDE} {{ :host(.idle) {{ display: none !important; }} }}\n"
_IDLE_WIDE = _HIDDEN_WIDE + narrow("height: 76px !important; min-height: 0 !important; flex: none !important;").replace(
    ":host {", ":host(.idle) {")  # as tall as its hint
# Panel makes a column at least as tall as its children's least heights, hidden ones too: the graph's row
# would push the .grad history below the window.
_NO_MIN_HEIGHT = ":host { min-height: 0 !important; }\n"
# Bokeh adds the widths of hidden children (a closed lesson's 400 px) to a row's min-width
_NO_MIN_WIDTH = ":host { min-width: 0 !important; }\n"
_BESIDE_WIDE = (f"{WIDE} {{ :host(.beside) {{ width: 230px !important; "
                "min-width: 0 !important; flex: 0 0 230px !important; } }\n")
# Under the graph, the .grad history is as tall as its rows (up to BELOW_HEIGHT, then it scrolls); in a wide window
# the console beside it is as tall as it (its own lines do not make the row taller), or CONSOLE_LEAST when it is not.
_FIT_NARROW = narrow("height: auto !important; flex: none !important;")
_AS_TALL_WIDE = (f"{WIDE} {{ :host {{ height: auto !important; align-self: stretch; "
                 f"contain: size; min-height: {CONSOLE_LEAST}px !important; }} "
                 ":host(.alone) { width: auto !important; flex: 1 1 auto !important; } }\n")
_FULL_WIDTH_NARROW = narrow("width: auto !important; flex: none !important; align-self: stretch;")
_LESSON_CSS = narrow("width: 100% !important; height: 60vh !important; flex: none !important;")
_PLOTS_CSS = narrow(_FLOW)  # the figures side by side, all of them
_GRAPH_CSS = (narrow("height: 440px !important; flex: none !important; min-width: 0 !important;")
              + narrow("height: 360px !important;", 600))


_ALERT_CSS = """
.link-problem { background: #fff4e5; border: 1px solid #f0a500; border-radius: 4px; padding: 8px 12px;
  font-size: 14px; color: #663c00; }
"""

_TITLE_CSS = """
.section-title { font-size: 11.5px; font-weight: 700; letter-spacing: .06em; text-transform: uppercase;
  color: #3b5b92; margin: 0; }
"""


def create(query: dict | None = None) -> pn.Column:
    """The full page for a query dict like {"example": slug, "code": base64url, "step": k|"end"}."""
    return Explorer(query).page()


_HEADER = f"""
<div style="display:flex;align-items:baseline;gap:4px 14px;flex-wrap:wrap;padding:10px 18px;color:white;
  font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif">
  <h1 style="font-size:20px;font-weight:600;margin:0">{TITLE}</h1>
  <span style="font-size:13px">PyTorch's autograd, one backward step at a time</span>
</div>
"""


_LEGEND = """
<div style="font-size:12px;color:#333;line-height:1.7">
<span style="background:#add8e6;border:1px solid #555;padding:0 6px;border-radius:3px">leaf</span>
<span style="background:#d3d3d3;border:1px solid #555;padding:0 6px;border-radius:3px">op (grad_fn)</span>
<span style="background:#caff70;border:1px solid #555;padding:0 6px;border-radius:3px">output</span>
<span style="background:#e2d8f3;border:1px solid #555;padding:0 6px;border-radius:3px">module call</span>
<span style="background:#ececec;border:1px solid #555;padding:0 6px;border-radius:10px">AccumulateGrad</span>
<span style="background:#ffa500;border:1px solid #555;padding:0 5px;border-radius:9px">saved</span>
<span style="color:#d62728;font-weight:bold">→ gradient flowing</span><br>
Keys: ← → step. Click a node to inspect it (or Tab to the node buttons under the graph and press Enter),
a module's box to open it; scroll to zoom. Point at a line of code to light the nodes it made.
In the editor, Escape then Tab moves on.
</div>
"""
