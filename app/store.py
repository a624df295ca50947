"""The one store of a session: the program, its timeline, the step k and the clicked node, as params.

Views watch it and render; only the store changes state. One Store per session (nothing module-level).
"""

from __future__ import annotations

import inspect
import threading
from bisect import bisect_left, bisect_right

import panel as pn
import param

from app import timeline as tl
from app.grad_history import model as history_model
from app.graph.views import GraphViews, same_place
from app.player import iterations
from app.predict import model as pm
from app.serving import batch, served, when_done


class Store(param.Parameterized):
    source = param.String(default="", doc="The program text: the source of truth.")
    example = param.String(default=None, allow_None=True, doc="Slug of the example the program came from.")
    timeline = param.Parameter(default=None, doc="The last timeline that has a graph to show.")
    iterations = param.Parameter(default=None, doc="iterations.Iterations: the timeline's training loop, if any.")
    segment = param.Integer(default=0, doc="The segment of the timeline shown: an iteration, or what is around.")
    graph = param.Parameter(default=None, doc="graph_model.GraphModel of the segment shown.")
    history = param.Parameter(default=None, doc="history_model.History of the timeline.")
    k = param.Integer(default=-1, doc="Step shown: events 0..k have happened.")
    state = param.Dict(default=None, doc="state_at(timeline, k).")
    selected = param.String(default=None, allow_None=True, doc="Key of the clicked node (t<id> or a<id>).")
    lit = param.Integer(default=None, allow_None=True, doc="A program line whose nodes the graph lights (hovered).")
    opened = param.Parameter(default=(), doc="Names of the modules drawn as their ops (module_boxes.ALL: every one).")
    problem = param.String(default="", doc="Why the last run or link could not be shown, in words.")
    run_error = param.Dict(default=None, allow_None=True, doc="Error of a run whose graph was not kept.")
    runner = param.Callable(default=None, doc="source -> Timeline, or an awaitable of one (the static site's "
                                              "program worker); None: app.timeline.run.")
    running = param.String(default=None, allow_None=True, doc="The program being run, while its timeline is awaited.")
    failed = param.Parameter(default=None, doc="Timeline of that run: what it printed, and its error. The graph "
                             "shown stays the last good one, but it cannot be stepped until a program runs.")
    predicting = param.Boolean(default=False, doc="Predict, then reveal: stepping forward stops before a step "
                               "that asks (predict_model.asks) until the learner answers.")
    answers = param.Dict(default={}, doc="Step asked before -> the verdicts of its questions so far (the program's).")
    answered = param.Integer(default=None, allow_None=True, doc="The step whose verdicts were given last.")
    guess_problem = param.String(default="", doc="Why the last guess could not be read, in words.")
    wiped = param.String(default=None, allow_None=True, doc="The program a new canvas replaced, until another "
                         "program is loaded: Undo brings it back.")

    _views: GraphViews | None = None
    _backward_starts: list[int] = []
    _runs = 0  # programs started: only the last one's timeline is shown
    _stopper: threading.Event | None = None  # set: the program running under `panel serve` is stopped
    _asks: dict | None = None  # predict_model.asks of the timeline, made when first needed
    _ask_steps: list[int] = []

    @property
    def last(self) -> int:
        return len(self.timeline.events) - 1 if self.timeline is not None else -1

    @property
    def program(self) -> str:
        """The program being run, or else the one shown: what the next edit builds on."""
        return self.running if self.running is not None else self.source

    def load(self, source: str, step: int | str | None = None, example: str | None = None) -> None:
        """Run a program and show it; when the runner answers later, show it then (unless another program was
        started meanwhile)."""
        self._runs += 1
        if self.wiped is not None:
            self.wiped = None
        ran = self._start(source, example)
        if not inspect.isawaitable(ran):
            self.show(ran, source, step, example)
            return
        ticket = self._runs
        self.running = source

        def arrive(timeline) -> None:
            if ticket == self._runs:
                self.show(timeline, source, step, example)

        when_done(ran, arrive)

    def new_canvas(self, empty: str) -> None:
        """Start an empty program (the canvas builder's), keeping the one it replaces for undo_new_canvas."""
        before, example = self.program, self.example
        self.load(empty, step="end")
        if before.strip() and before != empty:
            self.wiped = before
            self._wiped_example = example

    def undo_new_canvas(self) -> None:
        if self.wiped is not None:
            self.load(self.wiped, example=self._wiped_example)

    _wiped_example: str | None = None

    def _start(self, source: str, example: str | None):
        """The program's timeline, or an awaitable of it. Under `panel serve` a program runs off the server's
        event loop (the session stays responsive, others are not held), except a session's first when it is one
        of the examples (a known program of milliseconds: the page is built with its graph)."""
        if self.runner is not None:
            return self.runner(source)
        if served() and not (self._runs == 1 and example is not None):
            if self._stopper is None:  # a session closed while its program runs ends that program
                pn.state.on_session_destroyed(lambda context: self.stop())
            self._stopper = threading.Event()
            return tl.run_off_loop(source, stop=self._stopper)
        return tl.run(source)

    def stop(self) -> None:
        """Ends the program running now: its timeline so far is shown (what ran before its last tick), and the
        app is ready for the next."""
        if self.running is None:
            return
        stop = getattr(self.runner, "stop", None) if self.runner is not None else self._stopper.set
        if stop is not None:
            stop()

    def show(self, timeline, source: str, step: int | str | None = None, example: str | None = None) -> None:
        """Show a program's timeline; keep the last good graph when the new one fails before making any node."""
        if not tl.has_graph(timeline) and tl.error_of(timeline) is not None and self.timeline is not None:
            self._apply(source=source, example=example, run_error=tl.error_of(timeline), running=None,
                        failed=timeline)
            return
        events = timeline.events
        final = tl.state_at(timeline, len(events) - 1)
        its = iterations.training_loop(events, timeline.loops)
        grows = self.graph is not None and bool(self.source) and source.startswith(self.source.rstrip("\n"))
        self._views = GraphViews(timeline, its, final["nodes"], previous=self.graph if grows else None,
                                 opened=self.opened)
        self._backward_starts = tl.backward_starts(events)
        self._asks = None
        k = self._initial_step(events, step)
        segment = its.segment(k)
        self._apply(
            source=source, example=example, timeline=timeline, iterations=its, segment=segment,
            graph=self._views.model(segment), history=history_model.history(events), selected=None,
            run_error=None, running=None, failed=None, k=k,
            state=final if k == len(events) - 1 else tl.state_at(timeline, k),
            answers={}, answered=None, guess_problem="",
        )

    def _initial_step(self, events: list[dict], step: int | str | None) -> int:
        last = len(events) - 1
        if step == "end":
            return last
        if isinstance(step, int):
            return max(-1, min(step, last))
        starts = self._backward_starts
        return starts[0] - 1 if starts else last

    def goto(self, k: int) -> None:
        k = max(-1, min(int(k), self.last))
        if self.predicting and self.timeline is not None and k > self.k:
            held = self._first_unanswered(self.k + 1, k)
            if held is not None:  # stop before the step the learner has to predict
                k = held - 1
        if self.timeline is None or self.failed is not None or (k == self.k and self.state is not None):
            return
        changes: dict = {"k": k, "state": tl.state_at(self.timeline, k)}
        segment = self.iterations.segment(k)
        if segment != self.segment:
            graph = self._views.model(segment)
            changes.update(segment=segment, graph=graph, selected=same_place(self.graph, graph, self.selected))
        self._apply(**changes)

    def step(self, delta: int) -> None:
        self.goto(self.k + delta)

    def goto_iteration(self, j: int) -> None:
        """Jump to iteration j of the training loop, at the same place in it as now when it has one."""
        its = self.iterations
        j = max(0, min(int(j), len(its) - 1))
        now = its.iteration(self.k)
        offset = self.k - its.starts[now] if now is not None else 0
        self.goto(its.starts[j] + max(0, min(offset, its.ends[j] - its.starts[j] - 1)))

    def next_call(self) -> None:
        """Jump to the start of the next backward call (or the end)."""
        self.goto(self.next_call_step(self.k))

    def prev_call(self) -> None:
        """Jump to the start of the current backward call, or of the one before when already there."""
        self.goto(self.prev_call_step(self.k))

    def next_call_step(self, k: int) -> int:
        starts = self._backward_starts
        i = bisect_right(starts, k)
        return starts[i] if i < len(starts) else self.last

    def prev_call_step(self, k: int) -> int:
        starts = self._backward_starts
        i = bisect_left(starts, k)
        return starts[i - 1] if i else -1

    def open_modules(self, opened: tuple[str, ...]) -> None:
        """Draw the modules named in `opened` as their ops, the others as boxes."""
        if self._views is None or tuple(opened) == self.opened:
            return
        self._views.reopen(tuple(opened))
        graph = self._views.model(self.segment)
        selected = self.selected if self.selected and int(self.selected[1:]) in (
            graph.sinks if self.selected.startswith("a") else graph.members) else None
        self._apply(opened=tuple(opened), graph=graph, selected=selected)

    def open_module(self, name: str) -> None:
        self.open_modules((*self.opened, name))

    # Predict, then reveal (predict/model.py)

    def predict(self, on: bool) -> None:
        self._apply(predicting=bool(on), guess_problem="")

    def _asked(self) -> dict:
        if self._asks is None:
            self._asks = pm.asks(self.timeline.events)
            self._ask_steps = sorted(self._asks)
        return self._asks

    def _first_unanswered(self, lo: int, hi: int) -> int | None:
        """The first step in lo..hi that asks questions not all answered yet."""
        asks = self._asked()
        for at in self._ask_steps[bisect_left(self._ask_steps, lo):bisect_right(self._ask_steps, hi)]:
            if len(self.answers.get(at, ())) < len(asks[at]):
                return at
        return None

    def pending(self) -> tuple[int, list[pm.Question], int] | None:
        """(step, its questions, how many are answered) when predicting and the next step waits for a guess."""
        if not self.predicting or self.timeline is None or self.failed is not None:
            return None
        at = self.k + 1
        questions = self.questions_at(at)
        done = len(self.answers.get(at, ()))
        return (at, questions, done) if done < len(questions) else None

    def questions_at(self, at: int) -> list[pm.Question]:
        specs = self._asked().get(at) if self.timeline is not None else None
        return pm.questions(self.timeline.events, at, specs, tl.introduced(self.timeline)) if specs else []

    def guess(self, text: str) -> None:
        """Judge a guess at the question waiting; once the step's questions are all answered, take the step."""
        waiting = self.pending()
        if waiting is None:
            return
        at, questions, done = waiting
        try:
            verdict = pm.verdict(text, questions[done])
        except pm.GuessError as error:
            self._apply(guess_problem=str(error))
            return
        self._answer(at, questions, (verdict,))

    def reveal(self) -> None:
        """Show the answers of the step waiting without a guess (not scored), and take the step."""
        waiting = self.pending()
        if waiting is not None:
            at, questions, done = waiting
            self._answer(at, questions, tuple(pm.Verdict(guess="", right=None) for _ in questions[done:]))

    def _answer(self, at: int, questions: list[pm.Question], verdicts: tuple) -> None:
        given = (*self.answers.get(at, ()), *verdicts)
        with batch():
            self._apply(answers={**self.answers, at: given}, answered=at, guess_problem="")
            if len(given) == len(questions):  # the step asked is taken (an AccumulateGrad's, before its .grad write)
                self.goto(at)

    def light(self, line: int | None) -> None:
        self._apply(lit=line)

    def select(self, key: str | None) -> None:
        self._apply(selected=key)

    def _apply(self, **changes) -> None:
        """Set params together; every view's Bokeh changes then reach the browser as one batch."""
        with batch():
            self.param.update(**changes)
