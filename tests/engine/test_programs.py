"""Learner programs (tests/programs.py) print what Python + real PyTorch print: byte for byte, but for the last
bits of numbers printed at full precision, which vary with the CPU torch runs on (difftest.printed_alike).

Also compared: warnings (category and text) and the uncaught exception, if any.
"""

from __future__ import annotations

import pytest
from difftest import printed_alike, run_both

from tests.programs import PROGRAMS


@pytest.mark.parametrize("slug", sorted(PROGRAMS))
def test_program_output_matches_torch(slug):
    want, got = run_both(PROGRAMS[slug])
    assert want.exc is None or slug.endswith("_uncaught"), f"program {slug} is broken on torch: {want.exc}"
    assert printed_alike(got.stdout, want.stdout), f"engine:\n{got.stdout}\ntorch:\n{want.stdout}"
    assert got.warnings == want.warnings
    assert got.exc == want.exc


@pytest.mark.parametrize("slug", sorted(s for s in PROGRAMS if "warning" in s))
def test_program_warnings_as_plain_python_shows_them(slug):
    """Under Python's default filter a UserWarning shows once per source line; the engine must warn from
    the learner's line (stacklevel) so that the same warnings, at the same lines, show."""
    want, got = run_both(PROGRAMS[slug], python_filters=True)
    assert want.warnings, "program should warn on torch"
    assert got.warnings == want.warnings
