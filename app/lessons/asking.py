"""The steps a lesson's questions ask before (the predict feature's asks, app/predict/model.py, kept to what the
lesson asks), and the lesson's score as the browser keeps it."""

from __future__ import annotations

from app.lessons.model import Lesson
from app.lessons.run import LessonRun
from app.predict import model as pm


def lesson_asks(lesson: Lesson, run: LessonRun) -> tuple[dict[int, list], set[int], dict[tuple, list[int]]]:
    """(step -> the predict asks there, as predict.model.asks gives them; the steps whose questions ask why;
    (block, question.about) -> the steps that question asks before)."""
    events = run.timeline.events
    every = pm.asks(events)
    kept: dict[int, list] = {}
    why: set[int] = set()
    steps_of: dict[tuple, list[int]] = {}
    for block, question in lesson.questions():
        b = run.blocks[block] if block < len(run.blocks) else None
        if b is None or b.start is None:
            continue
        for at, specs in _asked(events, every, b.start, b.end, question).items():
            have = kept.setdefault(at, [])
            have.extend(s for s in specs if s not in have)
            steps_of.setdefault((block, question.about), []).append(at)
            if question.why:
                why.add(at)
    return {at: specs for at, specs in sorted(kept.items())}, why, steps_of


def marks(steps_of: dict[tuple, list[int]], answers: dict) -> dict[tuple, str]:
    """(block, about) -> "right", "wrong" or "shown" for each question whose steps are all answered."""
    out = {}
    for key, steps in steps_of.items():
        verdicts = [v for at in steps for v in answers.get(at, ())]
        if not steps or any(at not in answers for at in steps):
            continue
        if any(v.right is False for v in verdicts):
            out[key] = "wrong"
        elif verdicts and all(v.right for v in verdicts):
            out[key] = "right"
        else:
            out[key] = "shown"
    return out


def _asked(events, every, lo, hi, question) -> dict[int, list]:
    out: dict[int, list] = {}
    if question.what == "steps":
        return {at: list(specs) for at, specs in every.items() if lo <= at < hi}
    calls = [ev["call"] for ev in events[lo:hi] if ev["kind"] == "backward"]
    wanted = None
    if question.call is not None:
        if question.call > len(calls):
            return out
        wanted = calls[question.call - 1]
    writes = {}  # (call) -> the last (step, spec) that writes NAME.grad in it
    for at, specs in every.items():
        if not lo <= at < hi:
            continue
        for spec in specs:
            kind, i, _ = spec
            ev = events[i]
            if kind == "grad" and ev.get("name") == question.name and (wanted is None or ev.get("call") == wanted):
                writes[ev.get("call"), i if wanted is None else 0] = (at, spec)
    for at, spec in writes.values():
        out.setdefault(at, []).append(spec)
    return out


def score_text(answers: dict) -> str:
    s = pm.score(answers)
    return f"{s.right} of {s.asked} right" + (f" ({s.revealed} shown without a guess)" if s.revealed else "")
