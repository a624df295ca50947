"""The questions a lesson asks, written in its Markdown as fenced ```predict blocks (docs/lessons.md):

    ```predict
    x.grad after backward 2
    why
    ```

The first line says what is asked: `NAME.grad after backward N` (what NAME.grad is once the N-th backward call
of the code block after the question, counted from 1, wrote it), `NAME.grad` (each write of NAME.grad in that
block) or `steps`
(every step of that block predict mode asks: each gradient a backward step sends, each `.grad` write). A line
`why` asks the learner, after a wrong guess, to say in their words why; `prompt: TEXT` words the question."""

from __future__ import annotations

import re
from dataclasses import dataclass

_GRAD = re.compile(r"^(?P<name>[A-Za-z_][\w.\[\]]*)\.grad(?:\s+after\s+backward\s+(?P<call>\d+))?$")


class QuestionError(ValueError):
    """A ```predict block that says nothing this syntax reads; the message names its line."""


@dataclass(frozen=True)
class Question:
    what: str  # "grad" or "steps"
    name: str = ""  # the tensor whose .grad is asked ("grad")
    call: int | None = None  # the backward call, from 1 ("grad ... after backward N"); None: every write
    why: bool = False
    prompt: str = ""
    line: int = 0  # the line of the ```predict fence in the file (0 in a notebook)

    @property
    def about(self) -> str:
        if self.what == "steps":
            return "each step"
        return f"{self.name}.grad" + (f" after backward {self.call}" if self.call else "")


def parse(text: str, line: int = 0) -> Question:
    rows = [r.strip() for r in text.splitlines() if r.strip() and not r.strip().startswith("#")]
    if not rows:
        raise QuestionError(f"line {line}: a ```predict block says what is asked, e.g. `x.grad after backward 2`")
    head, why, prompt = rows[0], False, ""
    for row in rows[1:]:
        if row.lower() == "why":
            why = True
        elif row.lower().startswith("prompt:"):
            prompt = row.split(":", 1)[1].strip()
        else:
            raise QuestionError(f"line {line}: `{row}` is neither `why` nor `prompt: …`")
    if head.lower() == "steps":
        return Question("steps", why=why, prompt=prompt, line=line)
    m = _GRAD.match(re.sub(r"\s+", " ", head))
    if m is None:
        raise QuestionError(f"line {line}: `{head}` is not `NAME.grad`, `NAME.grad after backward N` or `steps`")
    call = int(m["call"]) if m["call"] else None
    if call == 0:
        raise QuestionError(f"line {line}: backward calls are counted from 1")
    return Question("grad", name=m["name"], call=call, why=why, prompt=prompt, line=line)
