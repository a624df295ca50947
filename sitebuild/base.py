"""What every step of the build shares: its paths, its error, its log, hashing and running a tool."""

from __future__ import annotations

import hashlib
import os
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "site"
DIST = ROOT / "dist"
STATIC = ROOT / "static"

# The generation of what is cached under .cache/site/processed and .cache/site/snapshot: bump it when the
# rules of slimming.py or the byte-compiling of pyc.py change.
BUILD_VERSION = "12"


class BuildError(SystemExit):
    def __init__(self, message: str) -> None:
        super().__init__(f"build.py: error: {message}")


_T0 = time.time()


def log(message: str) -> None:
    print(f"[build {time.time() - _T0:5.1f}s] {message}", flush=True)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def check_hash(path: Path, expected: str) -> None:
    got = sha256_file(path)
    if got != expected:
        raise BuildError(f"sha256 mismatch for {path.name}: expected {expected}, got {got} ({path})")


def run(cmd: list[str], what: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **(env or {})}, cwd=cwd)
    except OSError as e:
        raise BuildError(f"{what} failed: cannot run {cmd[0]} ({e})") from None
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-15:]
        raise BuildError(f"{what} failed (exit {proc.returncode}): {' '.join(cmd)}\n  " + "\n  ".join(tail))
    return proc.stdout
