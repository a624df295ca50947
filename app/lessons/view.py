"""The lesson panel: the lesson's prose beside the graph, the block being stepped highlighted, each block's output
under it, buttons that move the player from block to block, the questions (the predict feature, kept to the
lesson's), a "why" after a wrong guess, and the score kept in the browser (localStorage). Opening a lesson: the
menu of built-in ones, `?lesson=<slug>`, or a .md / .ipynb file dropped on (or picked in) the file field."""

from __future__ import annotations

from html import escape

import panel as pn
import param
from panel.custom import JSComponent
from panel.viewable import Viewer

from app.lessons import asking, library, render
from app.lessons.library import read
from app.lessons.model import Lesson
from app.lessons.notebook import NotebookError
from app.lessons.questions import QuestionError
from app.lessons.run import LessonRun, lesson_runs, run_lesson
from app.predict import model as pm
from app.serving import batch, on_loop
from app.store import Store
from app.widgets.responsive import WRAP

MAX_FILE = 2_000_000  # bytes of a dropped lesson


class LessonText(JSComponent):
    """The lesson's HTML; it scrolls itself to the block being stepped (not the page)."""

    text = param.String(default="")

    _esm = """
export function render({ model }) {
  const box = document.createElement('div')
  box.className = 'lesson'
  box.tabIndex = 0
  box.setAttribute('role', 'region')
  box.setAttribute('aria-label', 'Lesson text')
  box.innerHTML = model.text
  let last = null
  const follow = () => {
    const cur = box.querySelector('.block.current')
    if (!cur || cur.id === last) { return }
    last = cur.id
    const top = cur.offsetTop, bottom = top + cur.offsetHeight
    if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) { box.scrollTop = Math.max(0, top - 8) }
  }
  model.on('text', () => { box.innerHTML = model.text; follow() })
  requestAnimationFrame(follow)
  // The static site builds a page out of sight and then moves it in, which scrolls the box back to its top: for
  // a few seconds, a box at its top is brought to the block being stepped again.
  const settle = setInterval(() => { if (box.isConnected && box.scrollTop === 0) { last = null; follow() } }, 300)
  setTimeout(() => clearInterval(settle), 5000)
  return box
}
"""


class ScoreKeeper(JSComponent):
    """A lesson's record (score, whys) in the browser's localStorage; `saved` is what was kept before."""

    key = param.String(default="")
    record = param.Dict(default={})
    saved = param.Dict(default={})

    _esm = """
export function render({ model }) {
  const name = () => 'autograd-explorer/lesson/' + model.key
  const load = () => {
    let kept = {}
    try { kept = JSON.parse(window.localStorage.getItem(name()) || '{}') || {} } catch (e) { kept = {} }
    model.saved = kept
  }
  setTimeout(load, 0)  // not while the page applies the patch that drew it
  model.on('key', load)
  model.on('record', () => {
    if (!model.key) { return }
    try { window.localStorage.setItem(name(), JSON.stringify(model.record)) } catch (e) {}
  })
  return document.createElement('span')
}
"""


class LessonView(Viewer):
    store = param.ClassSelector(class_=Store)
    lesson = param.Parameter(default=None, doc="The lesson open (model.Lesson), or None.")
    run = param.Parameter(default=None, doc="Its run (run.LessonRun).")
    problem = param.String(default="")
    code_shown = param.Boolean(default=False, doc="The editor's column shown beside the lesson (a wide window).")

    def __init__(self, **params):
        super().__init__(**params)
        s = self.store
        options = {"—": ""} | {library.title(slug): slug for slug in library.slugs()}
        self.menu = pn.widgets.Select(name="Lesson", options=options, value="", sizing_mode="stretch_width",
                                      css_classes=["lesson-menu"])
        self.file = pn.widgets.FileInput(name="Or open a lesson file (.md, .ipynb): pick or drop it here",
                                         accept=".md,.markdown,.ipynb", multiple=False, sizing_mode="stretch_width",
                                         css_classes=["lesson-file"], margin=(0, 10, 5, 10),
                                         description="Drop or pick a .md or .ipynb lesson")
        self.prev_block = pn.widgets.Button(label="◀ block", color="light", width=80, css_classes=["prev-block"],
                                            description="Go to the start of the block before")
        self.next_block = pn.widgets.Button(label="block ▶", color="light", width=80, css_classes=["next-block"],
                                            description="Go to the start of the next block")
        self.where = pn.pane.HTML("", css_classes=["lesson-where"], margin=(12, 6, 0, 6))
        # The lesson takes the editor's column (its code is in the lesson): pressed, the editor is back
        self.code = pn.widgets.Toggle(label="Code", value=False, button_type="light", width=64,
                                      css_classes=["lesson-code"])
        self.close = pn.widgets.Button(label="✕", color="light", width=36, css_classes=["close-lesson"],
                                       description="Close the lesson")
        self.text = LessonText(sizing_mode="stretch_both", stylesheets=[_TEXT_CSS + render.CSS], margin=(0, 6))
        self.why = pn.widgets.TextAreaInput(name="Why? (in your words; kept in this browser)", height=70,
                                            sizing_mode="stretch_width", css_classes=["lesson-why"], visible=False)
        self.why_save = pn.widgets.Button(label="Keep", color="primary", width=60, visible=False,
                                          css_classes=["lesson-why-save"])
        self.keeper = ScoreKeeper(width=0, height=0, margin=0)
        self.alert = pn.pane.HTML("", visible=False, sizing_mode="stretch_width", css_classes=["lesson-problem"],
                                  stylesheets=[_ALERT_CSS])
        self._asks: dict = {}
        self._why: set[int] = set()
        self._steps_of: dict = {}
        self._whys: dict[str, str] = {}
        # On the server's loop, as an example's program arrives (serving.on_loop): the new graph's changes reach the
        # page as one message (sent one by one from Bokeh's thread, a text glyph read colours out of its bounds)
        self.menu.param.watch(on_loop(self._on_menu), "value")
        self.file.param.watch(on_loop(self._on_file), "value")
        self.prev_block.on_click(on_loop(lambda e: self.goto_block(-1)))
        self.next_block.on_click(on_loop(lambda e: self.goto_block(+1)))
        self.close.on_click(lambda e: self.shut())
        self.code.link(self, value="code_shown")
        self.why_save.on_click(lambda e: self._keep_why())
        self.keeper.param.watch(lambda e: self._render(), "saved")
        s.param.watch(self._render, ["k", "answers", "answered"])
        s.param.watch(self._on_timeline, "timeline")
        self.panel = pn.Column(
            pn.Row(self.prev_block, self.next_block, self.where, pn.layout.HSpacer(), self.code, self.close,
                   sizing_mode="stretch_width", margin=(2, 4), stylesheets=[WRAP]),
            self.text, pn.Row(self.why, self.why_save, sizing_mode="stretch_width"), self.keeper,
            sizing_mode="stretch_both", visible=False, css_classes=["lesson-panel"],
            styles={"border-right": "1px solid #e1e4e8", "background": "white"}, stylesheets=[_PANEL_CSS])

    # Opening ---------------------------------------------------------------------------------------------
    def open_slug(self, slug: str, step: int | None = None, runner=None) -> None:
        if not library.known(slug):
            self._problem(f"There is no lesson {slug!r} here. The lessons: {', '.join(library.slugs())}.")
            return
        self.open(library.builtin(slug), runner=runner, step=step)

    def shared_slug(self) -> str | None:
        """The slug a link to the lesson shown names (a built-in one's), or None."""
        return self.lesson.slug if self.lesson is not None and library.known(self.lesson.slug) else None

    def open_text(self, name: str, text: str) -> None:
        try:
            lesson = read(name, text)
        except (NotebookError, QuestionError) as e:
            self._problem(f"{name} cannot be opened as a lesson: {e}")
            return
        if not lesson.code:
            self._problem(f"{name} has no ```python block (or code cell) to run.")
            return
        self.open(lesson)

    def open(self, lesson: Lesson, runner=None, step: int | None = None) -> None:
        """Run the lesson and show it: with `runner` (source -> Timeline) at once; else as the store runs a
        program (served: off the server's loop; static: in the program worker), shown when its runs are done."""
        if runner is not None:
            self._show(lesson, run_lesson(lesson, run=runner), step)
            return
        runs = lesson_runs(lesson)

        def arrive(timeline) -> None:
            try:
                self.store.start(runs.send(timeline), arrive)
            except StopIteration as done:
                self._show(lesson, done.value, step)

        self.store.start(next(runs), arrive)

    def _show(self, lesson: Lesson, r: LessonRun, step: int | None) -> None:
        asks, why, steps_of = asking.lesson_asks(lesson, r)
        self._asks, self._why, self._steps_of, self._whys = asks, why, steps_of, {}
        with batch():  # one message (called on the server's loop: on_loop)
            self.param.update(lesson=lesson, run=r, problem="")
            self.alert.visible = False
            self.store.asks_of = self._lesson_asks
            self.keeper.key = lesson.slug
            self.panel.visible = True
            self.store.show(r.timeline, r.timeline.source, step=-1 if not isinstance(step, int) else step)
            self.store.predict(bool(asks))
            offered = lesson.slug if library.known(lesson.slug) else ""
            if self.menu.value != offered:
                self.menu.value = offered
            self._render()

    def shut(self) -> None:
        with batch():
            self.param.update(lesson=None, run=None)
            self.store.asks_of = None
            self.panel.visible = False
            self.menu.value = ""

    def _lesson_asks(self, events):
        return self._asks if self.run is not None and events is self.run.timeline.events else pm.asks(events)

    def _on_menu(self, event):
        if event.new and (self.lesson is None or self.lesson.slug != event.new):
            self.open_slug(event.new)

    def _on_file(self, event):
        data = event.new
        if not data:
            return
        name = self.file.filename or "lesson.md"
        if len(data) > MAX_FILE:
            self._problem(f"{name} is larger than {MAX_FILE // 1_000_000} MB.")
            return
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            self._problem(f"{name} is not UTF-8 text.")
            return
        self.open_text(name, text)

    def _on_timeline(self, event):
        if self.run is not None and event.new is not self.run.timeline:
            self.shut()  # another program was run or picked: the lesson closes

    def _problem(self, text: str) -> None:
        self.problem = text
        self.alert.object = f'<div class="lesson-problem-text" role="alert">⚠ {escape(text)}</div>'
        self.alert.visible = True

    # Stepping --------------------------------------------------------------------------------------------
    def goto_block(self, delta: int) -> None:
        target = self.block_target(self.store.k, delta)
        if target is not None:
            self.store.goto(target)

    def block_target(self, k: int, delta: int) -> int | None:
        """Where the block buttons go from step k: the start of the next block (+1; the end after the last), or
        of the block before the one being stepped (-1; before the first step from the first block). None with
        no lesson open."""
        r, s = self.run, self.store
        if r is None:
            return None
        starts = [b.start for b in r.blocks if b.start is not None]
        now = r.block_at(max(k, 0)) if k >= 0 else None
        if delta > 0:
            later = [at for at in starts if at > k]
            return later[0] if later else s.last
        before = [at for at in starts if at < k and (now is None or at < r.blocks[now].start)]
        return before[-1] if before else -1

    # Rendering -------------------------------------------------------------------------------------------
    def _render(self, *events) -> None:
        r, s = self.run, self.store
        if r is None or self.lesson is None or s.timeline is not r.timeline:
            return
        current = r.block_at(s.k) if s.k >= 0 else None
        event = s.timeline.events[s.k] if 0 <= s.k < len(s.timeline.events) else None
        line = event.get("line") if event is not None else None
        answered = asking.marks(self._steps_of, s.answers)
        score = asking.score_text(s.answers) + f" (the lesson asks {sum(len(v) for v in self._asks.values())})"
        kept = self.keeper.saved or {}
        saved = kept.get("score", "")
        with batch():
            self.text.text = render.html(self.lesson, r, current, line, answered, score, saved)
            n = len(r.blocks)
            self.where.object = (f'<span class="lesson-where-text">block {current + 1} of {n}</span>'
                                 if current is not None else f'<span class="lesson-where-text">{n} blocks</span>')
            wrong = s.answered is not None and s.answered in self._why and str(s.answered) not in self._whys and any(
                v.right is False for v in s.answers.get(s.answered, ()))
            self.why.visible = self.why_save.visible = wrong
            if s.answers:
                self.keeper.record = {"score": asking.score_text(s.answers), "whys": dict(self._whys)}

    def _keep_why(self) -> None:
        at = self.store.answered
        if at is not None and self.why.value.strip():
            self._whys[str(at)] = self.why.value.strip()[:2000]
            self.why.value = ""
            self.why.visible = self.why_save.visible = False
            self._render()

    def picker(self) -> pn.Column:
        """The sidebar's part: the menu of lessons and the file field."""
        return pn.Column(self.menu, self.file, self.alert, sizing_mode="stretch_width", css_classes=["lesson-open"])

    def __panel__(self):
        return self.panel


_TEXT_CSS = """
:host { overflow: hidden; }
.lesson { position: relative; height: 100%; overflow: auto; padding: 0 6px 12px; box-sizing: border-box;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
"""
_PANEL_CSS = ":host { min-height: 0 !important; }\n"
_ALERT_CSS = """
.lesson-problem-text { background: #fff4e5; border: 1px solid #f0a500; border-radius: 4px; padding: 6px 10px;
  font-size: 13px; color: #663c00; }
"""


__all__ = ["LessonRun", "LessonView"]
