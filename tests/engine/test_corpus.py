"""The conformance corpus (tests/corpus/programs: public PyTorch teaching programs, each naming its source) on
real PyTorch and on the engine, with only `import torch` bound differently: the engine must print what PyTorch
prints (difftest.printed_alike: byte for byte but for the last bits of full-precision numbers), raise the same
warnings and end with the same uncaught exception, if any.

Programs that fail today are strict xfails whose reason names the missing family (tests/corpus/gaps.py): when a
family lands, XPASS names the entries to remove. benchmarks/corpus.py reports the counts.
"""
from __future__ import annotations

import pytest
import torch
from difftest import ENGINE_NAME, load_engine, printed_alike, run_both, run_fresh, run_source, with_known_gaps

from tests.corpus.corpus import (
    BENCHMARK_ONLY,
    CATEGORIES,
    PROGRAMS,
    TESTED,
    header,
    program_warnings,
    reset_globals,
)
from tests.corpus.gaps import CPU_DEPENDENT, DRIFT_ULPS, ENGINE_GAPS, GUARD_REFUSES, RUNNER_GAPS


@pytest.fixture(autouse=True)
def _globals_reset():
    yield
    reset_globals(torch, load_engine())


@pytest.mark.parametrize("slug", with_known_gaps(sorted(TESTED), ENGINE_GAPS, cpu_dependent=CPU_DEPENDENT))
def test_engine_runs_the_program_as_pytorch_does(slug):
    want, got = run_both(PROGRAMS[slug])
    assert printed_alike(got.stdout, want.stdout, DRIFT_ULPS.get(slug, 4)), \
        f"engine:\n{got.stdout}\n\ntorch:\n{want.stdout}"
    if program_warnings(got.warnings) != program_warnings(want.warnings):
        # PyTorch raises some warnings once per process (TORCH_WARN_ONCE), so an earlier test may have used them
        # up: compare a fresh interpreter's run of each side.
        (want,), (got,) = run_fresh((PROGRAMS[slug],), "torch"), run_fresh((PROGRAMS[slug],), ENGINE_NAME)
    assert program_warnings(got.warnings) == program_warnings(want.warnings)
    assert got.exc == want.exc


@pytest.mark.parametrize("slug", sorted(TESTED))
def test_program_runs_on_pytorch_as_its_header_says(slug):
    """Every program runs unchanged on PyTorch 2.13, ends with the uncaught exception its header names (if any),
    and prints the same twice in a row: its randomness is seeded."""
    first = run_source(PROGRAMS[slug], "torch").masked()
    ends_with = header(PROGRAMS[slug]).get("Ends with")
    if ends_with is None:
        assert first.exc is None
    else:
        assert first.exc is not None and first.exc[0] in ends_with, (first.exc, ends_with)
    reset_globals(torch)  # as a new process starts (the first run may have set print options)
    torch.manual_seed(12345)  # a different global generator state: an unseeded draw would now print differently
    again = run_source(PROGRAMS[slug], "torch").masked()
    assert again.stdout == first.stdout, "the program's output depends on the state of torch's generator"


@pytest.mark.parametrize("slug", sorted(PROGRAMS))
def test_program_header_names_source_category_and_adaptations(slug):
    fields = header(PROGRAMS[slug])
    assert fields.get("Source"), "the header must name the program's source"
    assert fields.get("Adaptations"), "the header must list the adaptations (or say none)"
    assert fields.get("Category", "").split(" — ")[0] in CATEGORIES


def test_gap_tables_name_only_corpus_programs():
    for table in (ENGINE_GAPS, GUARD_REFUSES, RUNNER_GAPS):
        assert set(table) <= set(PROGRAMS), sorted(set(table) - set(PROGRAMS))


def test_the_benchmark_only_programs_are_corpus_programs():
    assert BENCHMARK_ONLY <= set(PROGRAMS), sorted(BENCHMARK_ONLY - set(PROGRAMS))
