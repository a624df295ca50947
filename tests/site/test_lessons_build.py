"""`build.py --lessons DIR` (sitebuild/lessons.py) without building the site: a file that is no lesson and a
lesson whose cell the runner refuses are each named, with the cell, and left out; the lessons after them are still
offered. (The site built with tests/site/lessons: tests/site/test_lessons_site.py.)"""

from __future__ import annotations

import shutil

from app.lessons import library
from app.site.hooks import site_hooks
from sitebuild.lessons import Lessons, add_teachers, record
from tests.site.sitekit import TEST_LESSONS


def test_a_lesson_that_cannot_be_built_is_named_with_its_cell_and_left_out(tmp_path):
    for name in ("bad-question.md", "refused.md", "squares.md"):
        shutil.copy(TEST_LESSONS / name, tmp_path / name)
    (tmp_path / "notes.txt").write_text("not a lesson file: not read")
    lessons = Lessons()
    try:
        add_teachers(tmp_path, lessons)
        assert list(lessons.files) == ["refused", "squares"]
        assert lessons.problems == [f"{tmp_path / 'bad-question.md'}: not built: line 3: `what is the answer` is not "
                                    "`NAME.grad`, `NAME.grad after backward N` or `steps`"]
        assert library.slugs()[-2:] == ("refused", "squares")
        record(site_hooks(), lessons, {"refused": str(tmp_path / "refused.md")})
        assert lessons.problems[1].startswith(f"{tmp_path / 'refused.md'}: not built: the runner refuses "
                                              "```python block 1: GuardError: imports other than torch")
        assert list(lessons.files) == ["squares"] and library.slugs()[-1] == "squares"
        assert "refused" not in library.slugs() and lessons.preludes == {}
    finally:
        for slug in ("refused", "squares"):
            library.remove(slug)
