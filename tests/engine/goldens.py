"""What Python + real PyTorch 2.13 print for the learner programs of tests/programs.py, recorded in
golden_programs.json, so the engine can be checked where PyTorch cannot run (inside Pyodide).

Regenerate (test_goldens checks they are current whenever real PyTorch is there):
    .venv-torch/bin/python tests/engine/goldens.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATH = HERE / "golden_programs.json"


def record() -> dict:
    from difftest import run_source

    from tests.programs import PROGRAMS

    out = {}
    for slug in sorted(PROGRAMS):
        o = run_source(PROGRAMS[slug], "torch").masked()
        out[slug] = {"stdout": o.stdout, "warnings": [list(w) for w in o.warnings],
                     "exc": list(o.exc) if o.exc else None}
    return out


def load() -> dict:
    return json.loads(PATH.read_text())


if __name__ == "__main__":
    sys.path[:0] = [str(HERE.parents[1]), str(HERE)]
    PATH.write_text(json.dumps(record(), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {PATH}")
