"""The lessons a page offers, opened by `?lesson=<slug>` and the menu: the built-in ones (files in
app/lessons/builtin/) and a site's own, added by `build.py --lessons DIR` (`add`; docs/lessons.md)."""

from __future__ import annotations

from pathlib import Path

from app.lessons.model import Lesson, from_markdown, slug_of
from app.lessons.notebook import from_notebook

FOLDER = Path(__file__).parent / "builtin"
SLUGS = ("autograd-tour", "grad-accumulates", "autograd-pitfalls", "autograd-blitz")  # in the menu's order
FILES = {"autograd-tour": "autograd-tour.md", "grad-accumulates": "grad-accumulates.md",
         "autograd-pitfalls": "autograd-pitfalls.md", "autograd-blitz": "autograd-blitz.ipynb"}
TITLES = {"autograd-tour": "A first tour of autograd: from requires_grad to gradient descent",
          "grad-accumulates": ".grad adds up: what \"accumulates\" means",
          "autograd-pitfalls": "Autograd how-to, and the common pitfalls",
          "autograd-blitz": "Autograd: automatic differentiation (the 60-minute blitz, as a lesson)"}

# A site's own lessons (build.py --lessons), after the built-in ones: slug -> (file name, text, title)
_ADDED: dict[str, tuple[str, str, str]] = {}


def read(name: str, text: str) -> Lesson:
    """A lesson from a file's name and text: a notebook if it ends in .ipynb (or is JSON), else Markdown."""
    slug = slug_of(name)
    if name.lower().endswith(".ipynb") or text.lstrip().startswith("{"):
        return from_notebook(text, slug)
    return from_markdown(text, slug)


def add(name: str, text: str) -> Lesson:
    """Offer the lesson of file `name` beside the built-in ones (its slug is its name's: `slug_of`). Raises
    what `read` raises for a file that is no lesson, and ValueError for a slug taken or a lesson with no code."""
    lesson = read(name, text)
    if lesson.slug in FILES or lesson.slug in _ADDED:
        raise ValueError(f"a lesson called {lesson.slug!r} is there already")
    if not lesson.code:
        raise ValueError("it has no ```python block (or code cell) to run")
    _ADDED[lesson.slug] = (name, text, lesson.title)
    return lesson


def remove(slug: str) -> None:
    """Offer a lesson `add` added no more (the site's build leaves out one the runner refuses)."""
    _ADDED.pop(slug, None)


def slugs() -> tuple[str, ...]:
    """Every lesson offered, in the menu's order."""
    return (*SLUGS, *_ADDED)


def known(slug: str) -> bool:
    return slug in FILES or slug in _ADDED


def title(slug: str) -> str:
    return TITLES[slug] if slug in TITLES else _ADDED[slug][2]


def text(slug: str) -> tuple[str, str]:
    """(file name, text) of an offered lesson; KeyError for an unknown slug."""
    if slug in _ADDED:
        return _ADDED[slug][:2]
    name = FILES[slug]
    return name, (FOLDER / name).read_text(encoding="utf-8")


def builtin(slug: str) -> Lesson:
    """An offered lesson (built-in or a site's own), read."""
    return read(*text(slug))
