"""docs/security.md names the tests behind its claims: every test and corpus entry it names exists, and its
figures of the corpus are the corpus's."""

from __future__ import annotations

import re
from pathlib import Path

from tests.trace import runaways
from tests.trace.escapes import CATEGORIES, CORPUS, REFUSED_DUNDERS

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "security.md").read_text()


RUNAWAY_TESTS = {"test_run_stops_it", "test_run_isolated_stops_it"}


def _tests_defined():
    names = set()
    for folder in ("trace", "engine", "app", "site"):
        for path in (ROOT / "tests" / folder).glob("test_*.py"):
            names.update(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    return names


def test_every_test_the_doc_names_exists():
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", DOC)) - {"test_escape_is_refused"}
    assert named and named <= _tests_defined(), named - _tests_defined()


def _entries_named(doc):
    """The corpus entries a line of the doc names ([name] after a test name, or after `[other]` on that line),
    by the corpus of the test it names last."""
    found = {"escapes": set(), "runaways": set()}
    for line in doc.splitlines():
        corpus = "runaways" if line.startswith("  `[") else "escapes"  # a list item's wrapped `[more]`
        for match in re.finditer(r"`(test_\w+)?\[(\w+)\]|\b(test_\w+)\b", line):
            test, entry, other = match.groups()
            if test or other:
                corpus = "runaways" if (test or other) in RUNAWAY_TESTS else "escapes"
            if entry:
                found[corpus].add(entry)
    return found


def test_every_corpus_entry_the_doc_names_exists():
    named = _entries_named(DOC)
    assert named["escapes"] and named["escapes"] <= set(CORPUS), named["escapes"] - set(CORPUS)
    assert named["runaways"] and named["runaways"] <= set(runaways.CORPUS), named["runaways"] - set(runaways.CORPUS)


def test_the_runaway_entries_the_doc_names_as_wall_only_are():
    section = DOC[DOC.index("## What the guard does not stop"):DOC.index("## Where it lives")]
    named = _entries_named(section)["runaways"]
    assert named == {name for name, entry in runaways.CORPUS.items() if entry.wall}


def test_the_doc_has_the_corpus_figures():
    sizes = ", ".join(f"{name.replace('_', ' ')} {len(entries)}" for name, entries in CATEGORIES.items())
    text = " ".join(DOC.split())
    assert f"({len(CORPUS)} programs: {sizes})" in text
    assert f"the other {len(REFUSED_DUNDERS) - 1} `class_defines__*`" in text
    sizes = ", ".join(f"{name} {len(entries)}" for name, entries in runaways.CATEGORIES.items())
    walled = sum(entry.wall for entry in runaways.CORPUS.values())
    assert f"The corpus has {len(runaways.CORPUS)} programs: {sizes}; the {walled} marked `wall=True`" in text
