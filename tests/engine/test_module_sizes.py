"""No module of the product (engine, app, the site build and its boot script) is over 500 lines unless its
docstring says why, in a paragraph that starts "Over 500 lines:"."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 500
MODULES = sorted([*ROOT.glob("engine/**/*.py"), *ROOT.glob("app/**/*.py"), *ROOT.glob("sitebuild/**/*.py"),
                  *ROOT.glob("static/*.py"), ROOT / "build.py"])


def long_without_reason(path: Path) -> bool:
    text = path.read_text()
    if text.count("\n") <= LIMIT:
        return False
    doc = ast.get_docstring(ast.parse(text)) or ""
    return not any(paragraph.startswith("Over 500 lines:") for paragraph in doc.split("\n\n"))


def test_the_walk_finds_the_product():
    assert len(MODULES) > 100 and ROOT / "engine" / "trace" / "recorder.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_long_modules_say_why(path):
    assert not long_without_reason(path), f"{path.relative_to(ROOT)}: over {LIMIT} lines with no reason at its top"


def test_a_long_module_without_a_reason_is_caught(tmp_path):
    long = tmp_path / "long.py"
    long.write_text('"""A module."""\n' + "x = 1\n" * LIMIT)
    assert long_without_reason(long)
    long.write_text('"""A module.\n\nOver 500 lines: one table."""\n' + "x = 1\n" * LIMIT)
    assert not long_without_reason(long)
