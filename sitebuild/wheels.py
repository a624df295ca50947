"""Wheels as the site ships them: slimmed (slimming.py), byte-compiled (pyc.py) and repacked uncompressed
with fixed dates (the wire gets a gzipped copy), cached by their source's hash; the same for Pyodide's
standard library."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import zipfile
from pathlib import Path

from sitebuild.base import BUILD_VERSION, CACHE, BuildError, sha256_file
from sitebuild.pyc import byte_compile
from sitebuild.slimming import STDLIB_DROP, slimmed

ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def process_wheel(src: Path, keep_source: bool = False) -> tuple[str, str, bytes, list[str]]:
    """(name, version, wheel bytes, top-level imports): slimmed, byte-compiled, stored uncompressed."""
    key = hashlib.sha256(f"{BUILD_VERSION}:{keep_source}:{sha256_file(src)}".encode()).hexdigest()[:20]
    cached = CACHE / "processed" / f"{key}.whl"
    meta_file = cached.with_suffix(".json")
    if cached.exists() and meta_file.exists():
        meta = json.loads(meta_file.read_text())
        return meta["name"], meta["version"], cached.read_bytes(), meta["imports"]
    with zipfile.ZipFile(src) as z:
        files = {i.filename: z.read(i) for i in z.infolist() if not i.is_dir()}
    name, version = wheel_metadata(files)
    pkg = normalize(name)
    info = dist_info_dir(list(files))
    kept = byte_compile(slimmed(files, pkg, info), keep_source)
    kept[f"{info}/WHEEL"] = _retagged(kept[f"{info}/WHEEL"].decode(), files[f"{info}/WHEEL"].decode())
    kept[f"{info}/RECORD"] = _record(kept, info)
    imports = sorted({p.split("/")[0].removesuffix(".pyc").removesuffix(".py") for p in kept
                      if "/" in p and not p.split("/")[0].endswith((".dist-info", ".data"))
                      or p.endswith((".py", ".pyc")) and "/" not in p})
    data = write_zip(kept)
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    meta_file.write_text(json.dumps({"name": pkg, "version": version, "imports": imports}))
    return pkg, version, data, imports


def _retagged(wheel_text: str, original: str) -> bytes:
    """WHEEL: the files are now for CPython 3.12 only (a compiled wheel keeps its wasm32 tag)."""
    tag_lines = [ln for ln in wheel_text.splitlines() if not ln.startswith("Tag:")]
    tags = re.findall(r"^Tag: (.+)$", original, re.M)
    compiled_tag = [t for t in tags if "wasm32" in t or "emscripten" in t] or ["cp312-none-any"]
    return ("\n".join(tag_lines + [f"Tag: {compiled_tag[0]}"]) + "\n").encode()


def _record(files: dict[str, bytes], info: str) -> bytes:
    """RECORD: what is really in the archive."""
    record = []
    for path in sorted(files):
        digest = base64.urlsafe_b64encode(hashlib.sha256(files[path]).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(files[path])}")
    record.append(f"{info}/RECORD,,")
    return ("\n".join(record) + "\n").encode()


def process_stdlib(path: Path) -> bytes:
    """Pyodide's python_stdlib.zip without what a browser tab never imports, byte-compiled."""
    key = hashlib.sha256(f"{BUILD_VERSION}:{sha256_file(path)}".encode()).hexdigest()[:20]
    cached = CACHE / "processed" / f"stdlib-{key}.zip"
    if cached.exists():
        return cached.read_bytes()
    with zipfile.ZipFile(path) as z:
        files = {i.filename: z.read(i) for i in z.infolist() if not i.is_dir() and not STDLIB_DROP.search(i.filename)}
    data = write_zip(byte_compile(files, keep_source=False))
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    return data


def write_zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_STORED
            z.writestr(info, files[name])
    return buf.getvalue()


def wheel_tree(wheel: Path, prefix: str) -> dict[str, bytes]:
    """The files of a wheel under `prefix`, by their path below it."""
    with zipfile.ZipFile(wheel) as z:
        return {n[len(prefix):]: z.read(n) for n in z.namelist() if n.startswith(prefix) and not n.endswith("/")}


def dist_info_dir(names: list[str]) -> str:
    found = {n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info")}
    if len(found) != 1:
        raise BuildError(f"expected one .dist-info folder, found {sorted(found)}")
    return found.pop()


def wheel_metadata(files: dict[str, bytes]) -> tuple[str, str]:
    info = dist_info_dir(list(files))
    meta = files[f"{info}/METADATA"].decode()
    name = re.search(r"^Name: (.+)$", meta, re.M).group(1).strip()
    version = re.search(r"^Version: (.+)$", meta, re.M).group(1).strip()
    return name, version


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
