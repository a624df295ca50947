"""A Jupyter notebook (nbformat 4) as a lesson: markdown cells are prose (a ```predict block in one asks a
question), code cells run; each code cell's stored text output is kept, to be compared with what the engine
prints.

Read with the `nbformat` library where it imports (served; it converts nbformat 3 and validates). In the
static site's Pyodide it cannot: nbformat imports jsonschema, which needs the compiled rpds-py, and no
registry here serves a Pyodide build of it. There the notebook's JSON is read with `json` and checked for
the nbformat 4 fields a lesson reads (tests/app/test_lessons_model.py reads the same notebooks both ways)."""

from __future__ import annotations

import json

from app.lessons.model import Cell, Lesson, questions_in, title_of


class NotebookError(ValueError):
    """The text is not a notebook a lesson can read; the message says why."""


def _nbformat():
    try:
        import nbformat
    except ImportError:  # Pyodide (see the module's docstring)
        return None
    return nbformat


def load(text: str) -> dict:
    """The notebook as plain dicts in nbformat 4."""
    nbformat = _nbformat()
    if nbformat is not None:
        try:
            nb = nbformat.reads(text, as_version=4)
            nbformat.validate(nb)
        except Exception as e:  # noqa: BLE001 - nbformat's reader raises many kinds; all mean "not a notebook"
            raise NotebookError(f"not a notebook nbformat can read: {type(e).__name__}: {str(e)[:300]}") from e
        return _joined(json.loads(nbformat.writes(nb)))
    return _load_plain(text)


def _load_plain(text: str) -> dict:
    try:
        nb = json.loads(text)
    except ValueError as e:
        raise NotebookError(f"not a notebook: its JSON does not parse ({e})") from e
    if not isinstance(nb, dict) or nb.get("nbformat") != 4 or not isinstance(nb.get("cells"), list):
        raise NotebookError("not a notebook in nbformat 4 (a JSON object with \"nbformat\": 4 and \"cells\")")
    for i, c in enumerate(nb["cells"]):
        if not isinstance(c, dict) or c.get("cell_type") not in ("markdown", "code", "raw"):
            raise NotebookError(f"cell {i + 1} is not a markdown, code or raw cell")
        if not isinstance(c.get("source"), (str, list)):
            raise NotebookError(f"cell {i + 1} has no source")
    return _joined(nb)


def _joined(nb: dict) -> dict:
    """Sources and texts that nbformat 4 may store as lists of lines, as one text each."""
    for c in nb["cells"]:
        if isinstance(c["source"], list):
            c["source"] = "".join(c["source"])
        for out in c.get("outputs", []):
            if isinstance(out.get("text"), list):
                out["text"] = "".join(out["text"])
            for mime, v in (out.get("data") or {}).items():
                if isinstance(v, list):
                    out["data"][mime] = "".join(v)
    return nb


def stored_text(outputs: list) -> tuple[str | None, str]:
    """(the cell's stored stdout and shown values as one text, or None when it stored none; a note on the rest)."""
    parts, notes = [], []
    for out in outputs:
        kind = out.get("output_type")
        if kind == "stream" and out.get("name") == "stdout":
            parts.append(out.get("text", ""))
        elif kind in ("execute_result", "display_data"):
            data = out.get("data") or {}
            if "text/plain" in data and kind == "execute_result":
                parts.append(data["text/plain"] + "\n")
            elif any(m.startswith("image/") for m in data):
                notes.append("a picture")
        elif kind == "error":
            notes.append(f"the error {out.get('ename', '')}: {out.get('evalue', '')}")
    return ("".join(parts) if parts else None), ("it also stored " + " and ".join(notes) if notes else "")


def from_notebook(text: str, slug: str) -> Lesson:
    nb = load(text)
    cells: list[Cell] = []
    notes: list[str] = []
    for i, c in enumerate(nb["cells"], start=1):
        source = c["source"]
        if c["cell_type"] == "markdown":
            prose, asked = questions_in(source)  # its ```predict blocks are questions, its ```python blocks prose
            cells.append(Cell("prose", prose, i, questions=asked))
        elif c["cell_type"] == "code":
            stored, note = stored_text(c.get("outputs", []))
            cells.append(Cell("code", source.rstrip("\n"), i, stored=stored, stored_note=note))
        else:
            notes.append(f"cell {i} is a raw cell: shown as text, not run")
            cells.append(Cell("prose", "```\n" + source + "\n```", i))
    title = (nb.get("metadata") or {}).get("title") or title_of(cells) or slug
    return Lesson(slug=slug, title=title, kind="notebook", cells=tuple(cells), notes=tuple(notes))

