"""Downloads: every pinned file fetched once from npm or PyPI into .cache/site/, checked against its sha256
(a cached file is checked again before it is used)."""

from __future__ import annotations

import concurrent.futures
import json
import shutil
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from sitebuild import pins
from sitebuild.base import CACHE, BuildError, check_hash, log, run, sha256_bytes, sha256_file


def fetch_npm(spec: str, filename: str, sha: str) -> Path:
    dest = CACHE / "dl" / filename
    if dest.exists() and sha256_file(dest) == sha:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    log(f"npm pack {spec}")
    with tempfile.TemporaryDirectory() as tmp:
        run(["npm", "pack", spec, "--silent", "--pack-destination", tmp], f"downloading {filename} from npm")
        got = Path(tmp) / filename
        if not got.exists():
            raise BuildError(f"npm pack {spec} did not produce {filename}")
        check_hash(got, sha)
        shutil.move(got, dest)
    return dest


def fetch_pypi(requirement: str, filename: str, sha: str) -> Path:
    dest = CACHE / "dl" / filename
    if dest.exists() and sha256_file(dest) == sha:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    log(f"pip download {requirement}")
    if filename.endswith(".whl"):
        how = ["--only-binary=:all:", "--python-version", "3.12", "--implementation", "py", "--abi", "none",
               "--platform", "any"]
    else:
        how = ["--no-binary", requirement.split("==")[0]]
    with tempfile.TemporaryDirectory() as tmp:
        run([sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", *how,
             "-d", tmp, requirement], f"downloading {filename} from PyPI")
        got = Path(tmp) / filename
        if not got.exists():
            raise BuildError(f"pip download {requirement} did not produce {filename} (got "
                             f"{', '.join(p.name for p in Path(tmp).iterdir()) or 'nothing'})")
        check_hash(got, sha)
        shutil.move(got, dest)
    return dest


def prefetch_all(test_wheels: bool) -> None:
    """Download every pinned file that is not cached yet, several at a time (a cold build)."""
    wanted = [*pins.PURE_WHEELS, *(pin[:3] for pin in pins.SDISTS), pins.OFFICIAL_SOURCE]
    wanted += pins.TEST_WHEELS if test_wheels else []
    todo = [pin for pin in wanted if not (CACHE / "dl" / pin[1]).exists()]
    if not todo:
        return
    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
        jobs = [pool.submit(fetch_npm, *pins.PYODIDE_NPM)] + [pool.submit(fetch_pypi, *pin) for pin in todo]
        for job in jobs:
            job.result()


def pyodide_core() -> tuple[dict[str, Path], dict]:
    """The Pyodide core files ({name: cached path}) and the official lock, from the npm package."""
    tgz = fetch_npm(*pins.PYODIDE_NPM)
    out = CACHE / f"pyodide-{pins.PYODIDE_VERSION}"
    stamp = out / ".from"
    if not stamp.exists() or stamp.read_text() != pins.PYODIDE_NPM.sha256:
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        with tarfile.open(tgz) as tar:
            for name in pins.PYODIDE_CORE:
                member = tar.extractfile(f"package/{name}")
                if member is None:
                    raise BuildError(f"{tgz.name} has no package/{name}")
                (out / name).write_bytes(member.read())
        stamp.write_text(pins.PYODIDE_NPM.sha256)
    lock = json.loads((out / "pyodide-lock.json").read_text())
    if lock["info"]["version"] != pins.PYODIDE_VERSION:
        raise BuildError(f"pyodide-lock.json is for {lock['info']['version']}, not {pins.PYODIDE_VERSION}")
    return {name: out / name for name in pins.PYODIDE_CORE}, lock


def official_wheels(lock: dict, names: list[str]) -> dict[str, Path]:
    """The official compiled wheels, each verified against the official lock's sha256."""
    out: dict[str, Path] = {}
    missing = []
    for name in names:
        entry = lock["packages"][name]
        dest = CACHE / "official" / entry["file_name"]
        if dest.exists() and sha256_file(dest) == entry["sha256"]:
            out[name] = dest
        else:
            missing.append(name)
    if missing:
        source = fetch_pypi(*pins.OFFICIAL_SOURCE)
        with zipfile.ZipFile(source) as z:
            for name in missing:
                out[name] = _extract_official(z, source.name, lock["packages"][name])
    return out


def _extract_official(z: zipfile.ZipFile, source: str, entry: dict) -> Path:
    member = pins.OFFICIAL_PREFIX + entry["file_name"]
    try:
        data = z.read(member)
    except KeyError:
        raise BuildError(f"{source} has no {member}") from None
    if sha256_bytes(data) != entry["sha256"]:
        raise BuildError(f"sha256 mismatch for {entry['file_name']} (from {source}): "
                         f"not the official Pyodide {pins.PYODIDE_VERSION} build")
    dest = CACHE / "official" / entry["file_name"]
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(data)
    return dest
