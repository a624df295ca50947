"""A lesson as cells: prose (Markdown text) and code (the Python a block or a notebook cell holds), read from a
Markdown file (CommonMark, fenced ```python blocks, read with markdown-it-py) or a notebook (notebook.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

from app.lessons import questions as q

RUN_LANGUAGES = {"python", "py", "python3", "ipython", "ipython3"}  # fences whose code runs; others are prose


@dataclass(frozen=True)
class Cell:
    kind: str  # "prose" or "code"
    text: str  # the Markdown of a prose cell, the Python of a code cell
    number: int  # its place among the file's cells (a notebook's cell index; a Markdown block's order), from 1
    stored: str | None = None  # a notebook code cell's stored text output (stdout, then the value shown), if any
    stored_note: str = ""  # what of the stored output is not text (a picture), or an error it stored
    questions: tuple = ()  # the questions a prose cell asks about the code after it (questions.Question)


@dataclass(frozen=True)
class Lesson:
    slug: str
    title: str
    kind: str  # "markdown" or "notebook"
    cells: tuple[Cell, ...]
    notes: tuple[str, ...] = field(default=())  # what reading the file noticed (cells left out, …)

    @property
    def code(self) -> list[Cell]:
        return [c for c in self.cells if c.kind == "code"]

    def questions(self) -> list[tuple[int, q.Question]]:
        """(index among the code blocks of the block each question is about, the question): a question asks
        about the first code block after it (or, after the last one, about the last)."""
        out, block = [], 0
        n = len(self.code)
        for c in self.cells:
            if c.kind == "code":
                block += 1
            for question in c.questions:
                out.append((min(block, max(n - 1, 0)), question))
        return out


_MD = MarkdownIt("commonmark")


def slug_of(name: str) -> str:
    stem = re.sub(r"\.(md|markdown|ipynb)$", "", name.rsplit("/", 1)[-1], flags=re.I)
    return re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "lesson"


def from_markdown(text: str, slug: str) -> Lesson:
    """Prose between the fenced python blocks (each block a code cell); ```predict blocks are questions."""
    lines = text.splitlines(keepends=True)
    cells: list[Cell] = []
    prose: list[str] = []
    asked: list[q.Question] = []
    at = 0

    def flush():
        body = "".join(prose).strip("\n")
        if body or asked:
            cells.append(Cell("prose", body, len(cells) + 1, questions=tuple(asked)))
        prose.clear()
        asked.clear()

    for token in _MD.parse(text):
        if token.type != "fence" or token.map is None:
            continue
        start, end = token.map
        info = token.info.strip().split(maxsplit=1)[0].lower() if token.info.strip() else ""
        if info == "predict":
            prose.extend(lines[at:start])
            asked.append(q.parse(token.content, line=start + 1))
        elif info in RUN_LANGUAGES:
            prose.extend(lines[at:start])
            flush()
            cells.append(Cell("code", token.content.rstrip("\n"), len(cells) + 1))
        else:
            continue
        at = end
    prose.extend(lines[at:])
    flush()
    return Lesson(slug=slug, title=_title(text) or slug, kind="markdown", cells=tuple(cells))


def questions_in(markdown: str) -> tuple[str, tuple]:
    """A notebook's markdown cell: (its text without its ```predict blocks, the questions they ask)."""
    lines = markdown.splitlines(keepends=True)
    kept, asked, at = [], [], 0
    for token in _MD.parse(markdown):
        if token.type == "fence" and token.map is not None and token.info.strip().lower().startswith("predict"):
            kept.extend(lines[at:token.map[0]])
            asked.append(q.parse(token.content))
            at = token.map[1]
    kept.extend(lines[at:])
    return "".join(kept).strip("\n"), tuple(asked)


def _title(markdown: str) -> str:
    tokens = _MD.parse(markdown)
    for i, t in enumerate(tokens):
        if t.type == "heading_open" and t.tag in ("h1", "h2") and i + 1 < len(tokens):
            return tokens[i + 1].content.strip()
    return ""


def title_of(cells) -> str:
    for c in cells:
        if c.kind == "prose":
            found = _title(c.text)
            if found:
                return found
    return ""

