"""The same ids on every build: Bokeh's random element/document ids and the Python object ids Panel puts in
model tags and names are renumbered in order of appearance."""

from __future__ import annotations

import re

UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
PY_IDS = re.compile(r"(?<=[-\[])()(\d{12,16})(?=\D)")  # id(obj) in tags and in names like "main-<id>"


def stabilize(texts: list[str]) -> list[str]:
    """`texts` with their ids renumbered (consistently across them)."""
    uuids: dict[str, str] = {}
    numbers: dict[str, str] = {}

    def uuid(m: re.Match) -> str:
        n = uuids.setdefault(m.group(0), str(len(uuids) + 1))
        return f"{int(n):08x}-0000-4000-8000-{int(n):012x}"

    def pyid(m: re.Match) -> str:
        return m.group(1) + numbers.setdefault(m.group(2), str(100_000_000_000 + len(numbers)))

    return [PY_IDS.sub(pyid, UUID.sub(uuid, text)) for text in texts]
