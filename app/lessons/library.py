"""The built-in lessons (files in app/lessons/builtin/), opened by `?lesson=<slug>`."""

from __future__ import annotations

from pathlib import Path

from app.lessons.model import Lesson, from_markdown, slug_of
from app.lessons.notebook import from_notebook

FOLDER = Path(__file__).parent / "builtin"
SLUGS = ("autograd-tour", "grad-accumulates", "autograd-pitfalls", "autograd-blitz")  # in the menu's order
FILES = {"autograd-tour": "autograd-tour.md", "grad-accumulates": "grad-accumulates.md",
         "autograd-pitfalls": "autograd-pitfalls.md", "autograd-blitz": "autograd-blitz.ipynb"}


def read(name: str, text: str) -> Lesson:
    """A lesson from a file's name and text: a notebook if it ends in .ipynb (or is JSON), else Markdown."""
    slug = slug_of(name)
    if name.lower().endswith(".ipynb") or text.lstrip().startswith("{"):
        return from_notebook(text, slug)
    return from_markdown(text, slug)


def text(slug: str) -> tuple[str, str]:
    """(file name, text) of a built-in lesson; KeyError for an unknown slug."""
    name = FILES[slug]
    return name, (FOLDER / name).read_text(encoding="utf-8")


def builtin(slug: str) -> Lesson:
    return read(*text(slug))


TITLES = {"autograd-tour": "A first tour of autograd: from requires_grad to gradient descent",
          "grad-accumulates": ".grad adds up: what \"accumulates\" means",
          "autograd-pitfalls": "Autograd how-to, and the common pitfalls",
          "autograd-blitz": "Autograd: automatic differentiation (the 60-minute blitz, as a lesson)"}
