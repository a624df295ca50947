"""The engine's test suite inside Pyodide (Node), with the Pyodide and numpy that dist/ ships: the pure-Python
engine behaves the same in the browser. Only the tests that need no real PyTorch run there (TORCH_FREE)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tests.engine.conftest import TORCH_FREE
from tests.site import sitekit


def test_pyodide_runs_the_files_of_every_torch_free_test():
    """run_tests.mjs collects only these files by default: a torch-free test elsewhere would not run there."""
    script = (sitekit.ROOT / "tests" / "pyodide" / "run_tests.mjs").read_text()
    default = re.search(r"^const DEFAULT = \[(.*)\];$", script, re.M).group(1)
    files = {f"tests/engine/{key.split('::')[0]}" for key in TORCH_FREE}
    assert sorted(re.findall(r"'([^']+)'", default)) == sorted(files)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_engine_suite_passes_inside_pyodide():
    sitekit.ensure_built()
    with sitekit.dist_lock(shared=True):  # no build rewrites dist/ or the test wheels under it
        proc = subprocess.run(["node", str(sitekit.ROOT / "tests" / "pyodide" / "run_tests.mjs")], cwd=sitekit.ROOT,
                              capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    sitekit.ARTIFACTS.mkdir(exist_ok=True)
    (sitekit.ARTIFACTS / "pyodide-engine-tests.log").write_text(out)
    summary = [line for line in out.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    print("\n" + "\n".join(out.splitlines()[:2] + summary[-1:]))
    assert proc.returncode == 0, out[-5000:]
    passed = re.search(r"(\d+) passed", summary[-1] if summary else "")
    assert passed and int(passed.group(1)) > 0, out[-3000:]
