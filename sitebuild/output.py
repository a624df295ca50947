"""The files of dist/, kept in memory until the build writes them all at once."""

from __future__ import annotations

from pathlib import Path


class Site:
    def __init__(self, dist: Path) -> None:
        self.dist = dist
        self.files: dict[str, bytes] = {}

    def add(self, rel: str, data: bytes) -> None:
        self.files[rel] = data

    def write(self) -> None:
        """Write the files that changed and remove the ones no longer built (unchanged files keep their
        modification time, so a rebuild touches only what it must)."""
        if self.dist.exists():
            for path in sorted(self.dist.rglob("*"), reverse=True):
                rel = path.relative_to(self.dist).as_posix()
                if path.is_file() and rel not in self.files:
                    path.unlink()
                elif path.is_dir() and not any(path.iterdir()):
                    path.rmdir()
        for rel, data in sorted(self.files.items()):
            path = self.dist / rel
            if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
