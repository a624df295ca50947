"""Wheels built here with pip: pure wheels from the pinned sdists, and the project's own wheel (engine +
app), each cached (by the sdist's hash, by the project's sources)."""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

from sitebuild.base import CACHE, ROOT, BuildError, log, run
from sitebuild.fetch import fetch_pypi


def sdist_wheel(requirement: str, filename: str, sha: str, env: dict[str, str]) -> Path:
    """A pure wheel rebuilt from the sdist (cached by the sdist's hash)."""
    out_dir = CACHE / "built" / sha[:16]
    wheels = sorted(out_dir.glob("*.whl")) if out_dir.exists() else []
    if wheels:
        return wheels[0]
    sdist = fetch_pypi(requirement, filename, sha)
    log(f"building a pure wheel from {filename}")
    with tempfile.TemporaryDirectory() as tmp:
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", "-w", tmp,
             str(sdist)], f"building {filename}", env=env)
        built = sorted(Path(tmp).glob("*.whl"))
        if len(built) != 1:
            raise BuildError(f"building {filename} produced {len(built)} wheels")
        with zipfile.ZipFile(built[0]) as z:
            compiled = [n for n in z.namelist() if n.endswith((".so", ".pyd"))]
        if compiled:
            raise BuildError(f"the wheel built from {filename} is not pure: {compiled}")
        out_dir.mkdir(parents=True, exist_ok=True)
        shutil.move(built[0], out_dir / built[0].name)
    return next(out_dir.glob("*.whl"))


def project_sources() -> list[Path]:
    """What the project's wheel is built from (pyproject.toml names README.md as its long description)."""
    files = [ROOT / "pyproject.toml", ROOT / "README.md"]
    for pkg in ("engine", "app"):
        files += sorted(p for p in (ROOT / pkg).rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return files


def project_wheel() -> Path:
    """The project's own wheel (engine + app), rebuilt only when its sources change. It is built from a
    copy of exactly those sources, so nothing left in the checkout (setuptools' build/, a module deleted
    since) can get into it."""
    sources = project_sources()
    h = hashlib.sha256()
    for f in sources:
        h.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes())
    out_dir = CACHE / "project" / h.hexdigest()[:16]
    wheels = sorted(out_dir.glob("*.whl")) if out_dir.exists() else []
    if wheels:
        return wheels[0]
    log("pip wheel --no-deps (the project)")
    # With setuptools at hand (it is the project's build backend) pip needs no throwaway build environment.
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    with tempfile.TemporaryDirectory() as tmp:
        tree, out = Path(tmp) / "src", Path(tmp) / "out"
        for f in sources:
            (tree / f.relative_to(ROOT)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, tree / f.relative_to(ROOT))
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check", *isolation,
             "-w", str(out), str(tree)], "building the project wheel", cwd=tree)
        built = sorted(out.glob("*.whl"))
        if len(built) != 1:
            raise BuildError(f"pip wheel of the project produced {len(built)} wheels")
        shutil.rmtree(CACHE / "project", ignore_errors=True)
        out_dir.mkdir(parents=True)
        shutil.move(built[0], out_dir / built[0].name)
    return next(out_dir.glob("*.whl"))
