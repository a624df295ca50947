"""Predict, then reveal, in the store: stepping forward stops before a step that asks until it is answered (a
jump too), a guess is judged and takes the step once the step's questions are answered, an unreadable guess
changes nothing but the message, and a new program starts a new score."""

from __future__ import annotations

import pytest

from app.predict import model as pm
from app.program.examples import BY_SLUG, EXAMPLES
from app.store import Store


def _store(slug: str = "accumulate") -> Store:
    store = Store()
    store.load(BY_SLUG[slug].source, example=slug)
    return store


def test_stepping_stops_before_a_step_that_asks_and_a_guess_takes_it():
    s = _store()
    s.predict(True)
    asks = sorted(pm.asks(s.timeline.events))
    s.goto(s.last)  # a jump stops too
    assert s.k == asks[0] - 1
    at, questions, done = s.pending()
    assert (at, done, len(questions)) == (asks[0], 0, 2)
    s.step(1)
    assert s.k == asks[0] - 1
    s.guess("three")
    assert s.k == asks[0] - 1 and s.answers == {} and "Cannot read “three”" in s.guess_problem
    s.guess("2")
    assert s.k == asks[0] - 1 and s.guess_problem == "" and s.pending()[2] == 1
    s.guess("3")
    assert s.k == asks[0] and s.pending() is None
    assert pm.score(s.answers) == pm.Score(right=1, asked=2, revealed=0)
    s.step(-1)  # going back is free, and answered steps do not ask again
    s.step(1)
    assert s.k == asks[0]
    s.step(1)
    s.reveal()  # x.grad, shown without a guess: the step asked is taken (AccumulateGrad's), not scored
    assert s.k == asks[1] and s.timeline.events[s.k]["kind"] == "node"
    s.step(1)  # then its .grad write, which asks nothing more
    assert s.timeline.events[s.k]["kind"] == "grad"
    assert pm.score(s.answers) == pm.Score(right=1, asked=2, revealed=1)


def test_without_the_mode_stepping_is_free_and_a_new_program_starts_a_new_score():
    s = _store()
    s.goto(s.last)
    assert s.k == s.last and s.pending() is None
    s.goto(-1)
    s.predict(True)
    s.goto(s.last)
    s.guess("6")
    assert s.answers
    s.load(BY_SLUG["broadcast"].source, example="broadcast")
    assert s.answers == {} and s.answered is None and s.predicting
    s.predict(False)
    s.goto(s.last)
    assert s.k == s.last


def _walk_with_right_answers(s: Store) -> tuple[int, int]:
    """Step to the end in the mode, typing each question's right answer as its reveal writes it; returns how
    many steps asked and how many guesses were made."""
    steps = guesses = 0
    s.predict(True)
    s.goto(-1)
    while True:
        s.goto(s.last)
        waiting = s.pending()
        if waiting is None:
            break
        at, questions, done = waiting
        steps += 1
        for q in questions[done:]:
            s.guess(pm.answer_text(q))
            guesses += 1
        assert s.k >= at and s.guess_problem == "", (at, s.k, s.guess_problem)
    assert s.k == s.last
    return steps, guesses


@pytest.mark.parametrize("slug", [e.slug for e in EXAMPLES])
def test_every_example_asks_before_its_backward_steps_and_its_right_answers_score(slug):
    s = _store(slug)
    asked = pm.asks(s.timeline.events)
    steps, guesses = _walk_with_right_answers(s)
    assert steps == len(asked)
    assert pm.score(s.answers) == pm.Score(right=guesses, asked=guesses, revealed=0)
    backward = [e for e in s.timeline.events if e["kind"] == "backward"] if steps == 0 else []
    assert not backward, f"{slug} calls backward but asks nothing"


def test_a_learners_own_program_asks_and_scores():
    s = Store()
    s.load("import torch\nx = torch.tensor([1.0, -2.0], requires_grad=True)\ny = (x.exp() * x).sum()\n"
           "y.backward()\nz = (x ** 2).mean()\nz.backward()\n")
    steps, guesses = _walk_with_right_answers(s)
    assert steps >= 4 and pm.score(s.answers).right == guesses
