"""What a learner trips over (issue 26), in the store and the views' words: captions that repeat themselves or
say a `.grad` changed before it did, a prediction that skips the AccumulateGrad step, verdicts that linger."""

from app.player import caption as words
from app.predict import model as pm
from app.predict.view import Predict
from app.program.examples import BY_SLUG
from app.store import Store

SUM = "import torch\na = torch.tensor([1.0, 2.0], requires_grad=True)\nb = a * 2\nb.sum().backward()\n"


def _steps(store: Store):
    for k in range(store.last + 1):
        store.goto(k)
        yield store.timeline.events[k], words.caption(store.state, store.last + 1), words.formula(store.state)


def test_a_temporary_is_named_once_and_accumulate_grad_says_the_grad_is_written_next():
    s = Store()
    s.load(SUM)
    said = {e["kind"] + e.get("name", ""): (text, formula) for e, text, formula in _steps(s)}
    assert said["opb.sum()"][0] == "Line 4: b.sum() = 6.0; grad_fn = SumBackward0."
    text, formula = said["nodeAccumulateGrad"]
    assert formula == "[2.0, 2.0] goes into a.grad at the next step" and "+=" not in formula
    assert said["grada"][0] == "Line 4: a.grad was None, now [2.0, 2.0]."


def test_a_grad_question_takes_the_accumulate_grad_step_and_its_verdict_clears_on_the_next_question():
    s = Store()
    s.load(BY_SLUG["accumulate"].source, example="accumulate")
    view = Predict(store=s)
    s.predict(True)
    asks = sorted(pm.asks(s.timeline.events))
    s.goto(s.last)
    for q in s.pending()[1]:
        s.guess(pm.answer_text(q))
    assert s.k == asks[0] and "Step" in view.text.text and "✓ right" in view.text.text  # the step just taken
    s.step(1)
    at, questions, _ = s.pending()
    assert at == asks[1] and questions[0].about == "x.grad"
    assert "✓" not in view.text.text and "What will x.grad be" in view.text.text  # the last verdict is gone
    s.guess("5")
    assert s.k == at and s.timeline.events[s.k]["name"] == "AccumulateGrad"  # shown, not skipped
    assert "✗ not quite" in view.text.text
    s.step(1)
    assert s.timeline.events[s.k]["kind"] == "grad" and "✗" not in view.text.text


def test_a_syntax_error_says_its_line_and_column():
    s = Store()
    s.load("import torch\nx = torch.tensor(1.0)\ny = (x + * 2)\n")
    assert words.caption(s.state, s.last + 1) == "Line 3: SyntaxError: invalid syntax (column 10)"
