"""Console: what the program printed up to step k, then warnings and the error, as PyTorch words them."""

from __future__ import annotations

from html import escape

from app.html_box import HtmlView


def console_parts(events: list[dict], k: int, run_error: dict | None = None) -> tuple[str, str]:
    """(stdout, stderr) shown at step k; a failed rerun's error is appended to stderr."""
    out: list[str] = []
    err: list[str] = []
    for e in events[: k + 1]:
        kind = e["kind"]
        if kind == "print":
            out.append(e["text"])
        elif kind == "warning":
            err.append(f"{e.get('category', 'UserWarning')}: {e.get('message', '')}\n")
        elif kind == "error":
            err.append(_error_text(e))
    if run_error is not None:
        err.append(_error_text(run_error) + "(the graph shown is from the last program that ran)\n")
    return "".join(out), "".join(err)


def _error_text(e: dict) -> str:
    where = f"line {e['line']}: " if e.get("line") else ""
    return f"{where}{e.get('type', 'Error')}: {e.get('message', '')}\n"


_CSS = """
.console { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
.console pre { margin: 0; white-space: pre; overflow-x: auto; }
.console pre.stdout { color: #1b1b1b; }
.console pre.stderr { color: #b00020; margin-top: 4px; white-space: pre-wrap; word-break: break-word; }
.console .note { color: #888; font-family: system-ui, sans-serif; font-size: 11.5px; margin-top: 6px; }
"""


class Console(HtmlView):
    watches = ["state", "run_error"]
    css = _CSS

    def _html(self) -> str:
        store = self.store
        if store.timeline is None:
            return ""
        out, err = console_parts(store.timeline.events, store.k, store.run_error)
        total = sum(1 for e in store.timeline.events if e["kind"] == "print")
        shown = sum(1 for e in store.timeline.events[: store.k + 1] if e["kind"] == "print")
        note = f"{shown} of {total} prints so far" if shown < total else ""
        return (
            f'<div class="console"><pre class="stdout">{escape(out)}</pre>'
            + (f'<pre class="stderr">{escape(err)}</pre>' if err else "")
            + (f'<div class="note">{note}</div>' if note else "")
            + "</div>"
        )
