"""Byte-compiling for Pyodide's CPython 3.12: unchecked-hash .pyc files, as `pyodide py-compile` writes them
(imports are about 3x faster than from source). `.pyc` files are per minor version, so the compiler runs
in a CPython 3.12, whichever Python runs the build."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from sitebuild.base import BuildError

COMPILER = r"""
import json, py_compile, sys
jobs = json.load(sys.stdin)
failed = []
for src, dst, dfile in jobs:
    try:
        py_compile.compile(src, cfile=dst, dfile=dfile, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    except py_compile.PyCompileError:
        failed.append(src)
json.dump(failed, sys.stdout)
"""


@functools.lru_cache(maxsize=1)
def python312() -> str:
    """A CPython 3.12 interpreter: .pyc files must match Pyodide's Python (3.12.7)."""
    candidates = [sys.executable, shutil.which("python3.12") or ""]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates += [str(p / "bin" / "python3") for p in sorted(pyenv.glob("3.12*"), reverse=True)]
    candidates += ["/usr/bin/python3.12", "/usr/local/bin/python3.12"]
    for c in candidates:
        if not c or not Path(c).exists():
            continue
        try:
            out = subprocess.run([c, "-c", "import sys; print(sys.version_info[:2] == (3, 12))"],
                                 capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.stdout.strip() == "True":
            return c
    raise BuildError("byte-compiling for Pyodide needs CPython 3.12 (python3.12 on PATH or pyenv 3.12.x)")


def byte_compile(files: dict[str, bytes], keep_source: bool) -> dict[str, bytes]:
    """Compile every .py of a {path: data} tree for CPython 3.12: sourceless `x.pyc` beside the package, or
    `__pycache__/x.cpython-312.pyc` next to the kept source. Files that do not compile stay as source."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        jobs = []
        for name, data in files.items():
            if name.endswith(".py"):
                src = base / "src" / name
                src.parent.mkdir(parents=True, exist_ok=True)
                src.write_bytes(data)
                jobs.append([str(src), str(base / "out" / (name + "c")), name])
        if not jobs:
            return dict(files)
        proc = subprocess.run([python312(), "-c", COMPILER], input=json.dumps(jobs), capture_output=True,
                              text=True)
        if proc.returncode != 0:
            raise BuildError(f"byte-compiling failed: {proc.stderr.strip()[-2000:]}")
        failed = set(json.loads(proc.stdout))
        return _with_compiled(files, base, failed, keep_source)


def _with_compiled(files: dict[str, bytes], base: Path, failed: set[str], keep_source: bool) -> dict[str, bytes]:
    out = {}
    for name, data in files.items():
        src = str(base / "src" / name)
        if not name.endswith(".py") or src in failed:
            out[name] = data
            continue
        pyc = (base / "out" / (name + "c")).read_bytes()
        if keep_source:
            out[name] = data
            folder, _, stem = name.rpartition("/")
            cached = f"{folder}/__pycache__/{stem[:-3]}.cpython-312.pyc".lstrip("/")
            out[cached] = pyc
        else:
            out[name + "c"] = pyc
    return out
