"""Every way the wall or the guard ends a program says why, and at which line: the memory cap with its limit, a
program nested too deeply or too complex to parse, a lone surrogate in its text."""

import sys

import pytest

from engine.trace import run
from engine.trace.isolated import _name_the_cap, run_isolated, stopped


@pytest.mark.skipif(sys.platform == "emscripten", reason="no processes in Pyodide")
def test_the_memory_cap_says_it_was_the_cap_its_limit_and_the_line():
    # (it ends at the cap; the time budget is there only for a loaded machine)
    timeline = run_isolated("x = 1\ny = list(zip(*[[0] * 10 ** 6] * 1000))\n", memory_mb=300, max_seconds=60)
    error = timeline.error
    assert (error["type"], error["line"]) == ("MemoryError", 2)
    assert error["message"].startswith("the program needed more memory than its limit of 300 MB")


def test_numpys_memory_error_is_named_as_the_cap():
    timeline = stopped("x = 1", "Unable to allocate 8 GiB for an array", 1, kind="_ArrayMemoryError")
    error = _name_the_cap(timeline, 1024).error
    assert error["type"] == "MemoryError"
    assert error["message"] == ("the program needed more memory than its limit of 1,024 MB (Unable to allocate 8 GiB "
                                "for an array)")


@pytest.mark.parametrize("source, line, words", [
    ("x = 1\ny = " + "[" * 200 + "]" * 200 + "\n", 2, "nested too deeply"),
    ("x = 1\nf = " + "lambda: " * 3000 + "1\n", 2, "too complex to parse"),
    ("x = 1\ny = (\n" + "(" * 300 + "1" + ")" * 300 + ")\n", 3, "too many nested parentheses"),
    ("x = 1\ns = '\udc80'\n", 2, "surrogates not allowed"),
])
def test_every_refusal_has_a_line(source, line, words):
    error = run(source).error
    assert words in error["message"], error
    assert error["line"] == line, error


def test_what_fails_after_the_last_line_is_named_at_the_last_line(monkeypatch):
    # (a cycle through a module tree nested 40 deep met the memory cap here, with no line: the recorder was naming
    # what the program left)
    from engine.trace import recorder

    def exhausted(self):
        raise MemoryError

    monkeypatch.setattr(recorder.Recorder, "finish", exhausted)
    error = run("x = 1\ny = 2\n").error
    assert (error["type"], error["line"]) == ("MemoryError", 2)
    assert error["message"] == "after its last line had run, while what it left was named"
    named = _name_the_cap(run("x = 1\ny = 2\n"), 1024).error
    assert named["message"] == ("the program needed more memory than its limit of 1,024 MB (after its last line had "
                                "run, while what it left was named)")
