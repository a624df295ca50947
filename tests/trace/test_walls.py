"""The runaway corpus (runaways.py) in both modes: each program ends within its time limit plus 1 s (CPU time:
a loaded machine does not count), under its memory cap, with a clear message, and the next program runs as
in a fresh process. In run(), programs the guard cannot stop (`wall=True`) are not run: that is the wall's job.
"""

from __future__ import annotations

import functools

import pytest

from tests.trace.runaways import CATEGORIES, CORPUS

pytest.importorskip("resource", reason="measures children through fork and /proc (not in Pyodide)")
from tests.trace.walls import ISOLATED, LIMITS, PROBE, SAFETY_SECONDS, in_child, isolated  # noqa: E402

MEMORY_SLACK_MB = 120  # the guard checks memory every 10 ms and between allocations of up to 1,000,000 elements


@functools.cache
def fresh_probe():
    """The probe's timeline after a program that does nothing: what every program after a runaway must see."""
    outcome, _, _, signal = in_child("x = 1")
    assert signal == 0 and outcome["error"] is None, outcome
    return outcome["probe"]


def _check_error(error, words):
    if words is None:
        assert error is None, error
    else:
        assert error is not None, f"no error, expected {words!r}"
        assert any(w in error["message"] for w in words.split("|")), error
        assert error["type"] and error["message"].strip()


@pytest.mark.parametrize("name", sorted(n for n, e in CORPUS.items() if not e.wall))
def test_run_stops_it(name):
    entry = CORPUS[name]
    outcome, cpu, growth, signal = in_child(entry.source, {**LIMITS, **entry.limits})
    assert signal == 0, f"the child died of signal {signal}"
    _check_error(outcome["error"], entry.words)
    assert cpu < {**LIMITS, **entry.limits}["max_seconds"] + 1, f"{cpu:.2f} s of CPU"
    assert growth < LIMITS["max_memory_mb"] + MEMORY_SLACK_MB, f"grew {growth:.0f} MB"
    assert outcome["probe"] == fresh_probe()


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_run_isolated_stops_it(name):
    entry = CORPUS[name]
    # (an entry that gives the guard more time than the wall's default gets a wall just past it: its own budget,
    # not a loaded machine's clock, is what it tests)
    seconds = max(ISOLATED["seconds"], entry.limits.get("max_seconds", 0) + 1)
    walled = {"seconds": seconds, **entry.isolated}
    timeline, wall, cpu = isolated(entry.source, **entry.limits, **walled)
    _check_error(timeline.error, entry.wall_words or entry.words)
    seconds = max(walled["seconds"], entry.limits.get("max_seconds", 0))
    assert cpu < seconds + 1, f"{cpu:.2f} s of CPU"
    assert wall < seconds + 4, f"{wall:.2f} s"  # (the wall's own clock is the wall clock: a loaded machine adds)
    # (the probe's time is not what is tested here: its guard and wall get the safety net's, for on a busy machine
    # its child, at nice 10, can wait longer than the corpus's 0.5 s of wall-clock budget for the CPU)
    next_timeline, _, _ = isolated(PROBE, seconds=SAFETY_SECONDS, max_seconds=SAFETY_SECONDS)
    assert next_timeline.to_json() == fresh_probe()


def test_corpus_is_large_enough():
    sizes = {category: len(entries) for category, entries in CATEGORIES.items()}
    assert all(n >= 20 for n in sizes.values()), sizes
    assert len(CORPUS) >= 200
