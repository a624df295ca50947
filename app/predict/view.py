"""Predict: while the learner predicts (the toggle in Controls), the question the next step asks, a field for
the guess, the verdicts with the value and the formula that reveal it, and the score."""

from __future__ import annotations

from html import escape

import panel as pn
import param
from panel.viewable import Viewer

from app.predict import model as pm
from app.serving import batch, on_loop
from app.store import Store
from app.widgets.html_box import HtmlBox
from app.widgets.responsive import PHONE, WRAP, narrow


class Predict(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        s = self.store
        self.field = pn.widgets.TextInput(label="Your prediction", placeholder="e.g. 6.0 or [1, 2]", width=150,
                                          css_classes=["predict-guess"], margin=(0, 8, 4, 8),
                                          description="A number (6, 1/3) or a tensor ([1, 2]); Enter checks it")
        self.check = pn.widgets.Button(label="Check", color="primary", width=70, margin=(22, 4, 4, 4),
                                       css_classes=["predict-check"], description="Check your prediction")
        self.show = pn.widgets.Button(label="Show answer", color="light", width=110, margin=(22, 4, 4, 4),
                                      css_classes=["predict-show"], description="Take the step without a guess")
        self.text = HtmlBox(css=_CSS, sizing_mode="stretch_width", min_height=60, margin=(0, 10, 4, 10))
        self.field.param.watch(lambda e: self._guess(), "enter_pressed")
        self.check.on_click(on_loop(lambda e: self._guess()))
        self.show.on_click(on_loop(lambda e: s.reveal()))
        s.param.watch(self._render, ["predicting", "state", "answers", "guess_problem", "timeline", "failed"])
        # The row gets its parts the first time the learner predicts: most pages never build them.
        self.row = pn.Row(sizing_mode="stretch_width",
                          css_classes=["predict-row"], stylesheets=[WRAP + _ROW_CSS], visible=s.predicting,
                          margin=(4, 10, 4, 10))
        self._render()

    def _guess(self) -> None:
        text = self.field.value_input if self.field.value_input is not None else self.field.value
        self.store.guess(text or "")
        if not self.store.guess_problem:  # read: the field is empty for the next one (→ then steps on)
            self.field.param.update(value="", value_input="")

    def _render(self, *events) -> None:
        s = self.store
        with batch():
            self.row.visible = s.predicting
            if s.predicting and not self.row.objects:
                self.row.objects = [self.text, self.field, self.check, self.show]
            if not s.predicting or s.timeline is None:
                return
            waiting = s.pending()
            self.field.disabled = self.check.disabled = self.show.disabled = waiting is None
            self.text.text = _html(s, waiting)

    def __panel__(self):
        return self.row


def _html(s: Store, waiting) -> str:
    score = pm.score(s.answers)
    parts = [f'<div class="predict-score">Score <b>{score.right}</b> / {score.asked} right'
             + (f' <span class="shown">({score.revealed} shown without a guess)</span>' if score.revealed else "")
             + "</div>"]
    # The verdicts of the step shown, just taken (labelled with it, before the next question), or of the questions
    # of the step waiting answered so far; stepping on clears them.
    told = waiting[0] if waiting is not None and waiting[2] else s.answered if s.answered == s.k else None
    if told is not None and told in s.answers and told != (waiting[0] if waiting is not None else None):
        parts.extend(_verdicts(s.questions_at(told), s.answers[told], f"Step {told + 1}: "))
    if waiting is not None:
        at, questions, done = waiting
        count = f" ({done + 1} of {len(questions)})" if len(questions) > 1 else ""
        parts.append(f'<div class="predict-question"><b>Predict step {at + 1}{count}:</b> '
                     f"{escape(questions[done].prompt)}</div>")
    else:
        first = not s.answers
        parts.append('<div class="predict-question">' + (
            "Step on (→): each backward step that sends a gradient, and each <code>.grad</code> write, waits "
            "for your prediction." if first else "Step on (→) to the next prediction.") + "</div>")
    if s.guess_problem:
        parts.append(f'<div class="predict-problem" role="alert">{escape(s.guess_problem)}</div>')
    if told is not None and waiting is not None and told == waiting[0]:
        parts.extend(_verdicts(s.questions_at(told), s.answers[told]))
    return '<div class="predict" role="status">' + "".join(parts) + "</div>"


def _verdicts(questions: list[pm.Question], verdicts, step: str = "") -> list[str]:
    out = []
    for q, v in zip(questions, verdicts):
        value = escape(pm.answer_text(q))
        if v.right is None:
            head = f'<span class="mark shown">shown</span> {escape(q.about)} = <b>{value}</b>'
        elif v.right:
            head = f'<span class="mark right">✓ right</span> {escape(q.about)} = <b>{value}</b>'
        else:
            note = f" ({escape(v.note)})" if v.note else ""
            head = (f'<span class="mark wrong">✗ not quite</span> {escape(q.about)} = <b>{value}</b>, '
                    f"you said {escape(v.guess)}{note}")
        formula = " — ".join(escape(line) for line in q.formula)
        out.append(f'<div class="verdict">{escape(step)}{head} <span class="formula">{formula}</span></div>')
    return out


_CSS = """
.predict { font-size: 13.5px; color: #1f2d3d; line-height: 1.45; }
.predict-score { float: right; margin-left: 12px; padding: 1px 8px; border-radius: 10px; background: #eef2f8;
  border: 1px solid #3b5b92; }
.predict-score .shown { color: #555; font-size: 12px; }
.predict-question { font-family: system-ui, sans-serif; }
.predict-problem { color: #8b0000; background: #fff0f0; border-left: 3px solid #b00020; padding: 2px 6px;
  margin-top: 2px; }
.verdict { margin-top: 2px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
.verdict .formula { color: #6b4e00; }
.mark { font-family: system-ui, sans-serif; font-weight: 700; padding: 0 5px; border-radius: 3px; }
.mark.right { background: #e3f5e1; color: #1b5e20; }
.mark.wrong { background: #fdecee; color: #8b0000; }
.mark.shown { background: #eee; color: #333; }
"""

_ROW_CSS = """
:host { background: #f4f7fc; border: 1px solid #c9d3e6; border-radius: 4px; }
""" + narrow("flex-wrap: wrap !important;", PHONE)
