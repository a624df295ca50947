"""Deep links: `?example=<slug>` or `?code=<base64url of the UTF-8 program>`, plus `&step=<n|end>`.

`step=n` is the step the counter shows ("step n / total"): n events have happened, so the store's k is n - 1
(`step=0` is before the program runs)."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from urllib.parse import urlencode

from app.program.examples import BY_SLUG, DEFAULT

MAX_CODE = 100_000


@dataclass(frozen=True)
class Link:
    source: str
    example: str | None  # slug when the program is a built-in example
    step: int | str | None  # the store's k (an event index, -1 before the first), "end", or None for the default
    problem: str | None  # what was wrong with the link, shown to the user


def _first(value: object) -> str | None:
    """Query values arrive as str, bytes, or lists of them (pn.state.session_args)."""
    if isinstance(value, list | tuple):
        value = value[0] if value else None
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return value if isinstance(value, str) else None


def encode_code(source: str) -> str:
    return base64.urlsafe_b64encode(source.encode("utf-8")).decode("ascii").rstrip("=")


def decode_code(text: str) -> str:
    text = text.strip()
    if len(text) > MAX_CODE * 2:
        raise ValueError("the program in the link is too long")
    padded = text + "=" * (-len(text) % 4)
    try:
        raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        return raw.decode("utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError) as exc:
        raise ValueError("the code= part is not valid base64url-encoded UTF-8") from exc


def _step(text: str | None) -> tuple[int | str | None, str | None]:
    if text is None or text == "":
        return None, None
    if text == "end":
        return "end", None
    try:
        n = int(text)
    except ValueError:
        return None, f"step={text!r} is not a number or 'end'"
    if n < 0:
        return None, f"step={n} is before the start"
    return n - 1, None


def parse(query: dict) -> Link:
    """Read a query dict; a malformed link falls back to the default example with a clear problem text."""
    query = query or {}
    step, step_problem = _step(_first(query.get("step")))
    code = _first(query.get("code"))
    slug = _first(query.get("example"))
    if code is not None:
        try:
            source = decode_code(code)
        except ValueError as exc:
            return Link(BY_SLUG[DEFAULT].source, DEFAULT, None, f"This link is broken: {exc}. "
                        "Showing the default example instead.")
        return Link(source, None, step, step_problem)
    if slug is not None:
        if slug not in BY_SLUG:
            return Link(BY_SLUG[DEFAULT].source, DEFAULT, None,
                        f"This link names an unknown example {slug!r}. Showing the default example instead.")
        return Link(BY_SLUG[slug].source, slug, step, step_problem)
    return Link(BY_SLUG[DEFAULT].source, DEFAULT, step, step_problem)


def query_string(source: str, k: int | str | None, example: str | None = None) -> str:
    """The query part of a share link to step k: by slug when the program is an unchanged example."""
    params: dict[str, str] = {}
    if example and example in BY_SLUG and BY_SLUG[example].source == source:
        params["example"] = example
    else:
        params["code"] = encode_code(source)
    if k is not None:
        params["step"] = "end" if k == "end" else str(k + 1)
    return urlencode(params)
