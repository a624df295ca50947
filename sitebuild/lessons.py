"""Lessons on the site: a teacher's own (`build.py --lessons DIR`: every .md and .ipynb file in DIR) offered beside
the built-in ones, and every lesson's steps recorded as an example's are (its prelude), for the page to step its
blocks before Python has started. A lesson that cannot be built (a file that is no lesson, a cell the runner
refuses) is left out with a message naming the file and the cell; the rest of the site is built."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from app.lessons import library
from app.site.hooks import SiteHooks
from sitebuild.base import BuildError, log
from sitebuild.ids import stabilize
from sitebuild.preludes import prelude_json

SUFFIXES = (".md", ".markdown", ".ipynb")
MAX_FILE = 2_000_000  # bytes, as a lesson dropped on the page
# Errors that are the runner's, not the lesson's Python: a refused statement, a budget, a crash. A cell that
# raises an ordinary error (a lesson showing a pitfall) is built, its error shown under it.
REFUSALS = ("GuardError", "GuardSyntaxError", "BudgetExceeded", "OutputLimit", "MemoryError", "Crash", "Stopped",
            "MalformedTimeline")


@dataclass
class Lessons:
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # slug: (its file's name, its bytes)
    preludes: dict[str, str] = field(default_factory=dict)  # slug: its recorded steps (JSON)
    problems: list[str] = field(default_factory=list)  # what was left out and why


def add_teachers(folder: Path | None, lessons: Lessons) -> None:
    """Offer every lesson file of `folder` (sorted by name) beside the built-in ones (library.add)."""
    if folder is None:
        return
    if not folder.is_dir():
        raise BuildError(f"--lessons {folder}: no such folder")
    paths = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES)
    if not paths:
        log(f"lessons: {folder} has no .md or .ipynb file")
    for path in paths:
        try:
            data = path.read_bytes()
            if len(data) > MAX_FILE:
                raise ValueError(f"it is larger than {MAX_FILE // 1_000_000} MB")
            lesson = library.add(path.name, data.decode("utf-8"))
        except UnicodeDecodeError:
            lessons.problems.append(f"{path}: not built: it is not UTF-8 text")
            continue
        except ValueError as e:  # NotebookError, QuestionError and library.add's own are ValueErrors
            lessons.problems.append(f"{path}: not built: {e}")
            continue
        lessons.files[lesson.slug] = (path.name, data)
        log(f"lessons: {path.name} is the lesson {lesson.slug!r}: {lesson.title}")


def record(hooks: SiteHooks, lessons: Lessons, where: dict[str, str]) -> None:
    """Record the lessons of `where` (slug -> the file to name in a message); a teacher's lesson whose run the
    runner refuses is taken out of the menu again."""
    for slug in where:
        try:
            explorer, document = hooks.document({"lesson": slug})
        except Exception as e:  # noqa: BLE001 - any failure of one lesson must not stop the build of the rest
            _leave_out(slug, lessons, f"{where[slug]}: not built: opening it failed ({type(e).__name__}: {e})")
            continue
        view = explorer.lessons
        if view.run is None:
            _leave_out(slug, lessons, f"{where[slug]}: not built: {view.problem or 'it did not open'}")
            continue
        refused = [b for b in view.run.blocks if b.error.split(":", 1)[0] in REFUSALS]
        if refused:
            said = "; ".join(f"{_cell(view.lesson, b)}: {b.error}" for b in refused)
            _leave_out(slug, lessons, f"{where[slug]}: not built: the runner refuses {said}")
            continue
        for b in view.run.blocks:
            if b.error:
                log(f"lessons: {where[slug]}, {_cell(view.lesson, b)}: raises {b.error.split(':', 1)[0]} "
                    "(shown under it, as a notebook shows a failing cell)")
        text = prelude_json(hooks, explorer, document)
        if text:
            lessons.preludes[slug] = stabilize([text])[0]
        else:
            log(f"lessons: {where[slug]} has more steps than a prelude records: it steps once Python has started")


def _cell(lesson, block) -> str:
    """A block as its file names it: a notebook's cell by its number among the cells, a Markdown block by its
    number among the ```python blocks."""
    return f"cell {block.cell}" if lesson.kind == "notebook" else f"```python block {block.number + 1}"


def _leave_out(slug: str, lessons: Lessons, problem: str) -> None:
    lessons.problems.append(problem)
    lessons.files.pop(slug, None)
    if slug in library.FILES:  # a built-in lesson is the project's own: it must build
        raise BuildError(problem)
    library.remove(slug)


def lesson_file(slug: str, name: str) -> str:
    """Where a teacher's lesson file is on the site."""
    return f"static/lessons/{slug}{Path(name).suffix.lower()}"


def lesson_prelude_file(slug: str) -> str:
    return f"static/prelude/lesson/{slug}.json"


def build_lessons(hooks: SiteHooks, folder: Path | None) -> Lessons:
    """A teacher's lessons from `folder` (None: none), and every lesson's prelude; each problem is logged."""
    lessons = Lessons()
    add_teachers(folder, lessons)
    where = {slug: f"app/lessons/builtin/{library.FILES[slug]}" for slug in library.SLUGS}
    where.update({slug: str(folder / name) for slug, (name, _) in lessons.files.items()})
    record(hooks, lessons, where)
    for problem in lessons.problems:
        log(f"lessons: {problem}")
    return lessons
