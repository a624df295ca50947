"""docs/security.md names the tests behind its claims: every test and corpus entry it names exists, and its
figures of the corpus are the corpus's."""

from __future__ import annotations

import re
from pathlib import Path

from tests.trace.escapes import CATEGORIES, CORPUS, REFUSED_DUNDERS

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "security.md").read_text()


def _tests_defined():
    names = set()
    for path in (ROOT / "tests" / "trace").glob("test_*.py"):
        names.update(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    return names


def test_every_test_the_doc_names_exists():
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", DOC)) - {"test_escape_is_refused"}
    assert named and named <= _tests_defined(), named - _tests_defined()


def test_every_corpus_entry_the_doc_names_exists():
    named = set(re.findall(r"`(?:test_escape_is_refused)?\[(\w+)\]", DOC))
    assert named and named <= set(CORPUS), named - set(CORPUS)


def test_the_doc_has_the_corpus_figures():
    sizes = ", ".join(f"{name.replace('_', ' ')} {len(entries)}" for name, entries in CATEGORIES.items())
    text = " ".join(DOC.split())
    assert f"({len(CORPUS)} programs: {sizes})" in text
    assert f"the other {len(REFUSED_DUNDERS) - 1} `class_defines__*`" in text
