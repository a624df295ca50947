"""Console: what the program printed up to step k, then warnings and the error, as PyTorch words them."""

from __future__ import annotations

from bisect import bisect_right
from html import escape

from app.widgets.html_box import HtmlView


def console_parts(events: list[dict], k: int) -> tuple[str, str]:
    """(stdout, stderr) shown at step k."""
    printed = Printed(events)
    return printed.stdout(k), printed.stderr(k)


class Printed:
    """What a timeline printed, found again for any step by bisection (a training loop has a hundred thousand
    steps and a handful of prints)."""

    def __init__(self, events: list[dict]):
        self.prints: list[int] = []  # indices of print events
        self.lengths: list[int] = []  # length of stdout after each print
        self.problems: list[int] = []  # indices of warnings and errors
        self.lines: list[str] = []
        texts = []
        length = 0
        for i, e in enumerate(events):
            kind = e["kind"]
            if kind == "print":
                texts.append(e["text"])
                length += len(e["text"])
                self.prints.append(i)
                self.lengths.append(length)
            elif kind == "warning":
                self.problems.append(i)
                self.lines.append(f"{e.get('category', 'UserWarning')}: {e.get('message', '')}\n")
            elif kind == "error":
                self.problems.append(i)
                self.lines.append(_error_text(e))
        self.out = "".join(texts)

    def stdout(self, k: int) -> str:
        n = bisect_right(self.prints, k)
        return self.out[: self.lengths[n - 1]] if n else ""

    def stderr(self, k: int) -> str:
        return "".join(self.lines[: bisect_right(self.problems, k)])

    def shown(self, k: int) -> tuple[int, int]:
        """(prints so far, prints in all)."""
        return bisect_right(self.prints, k), len(self.prints)


def _error_text(e: dict) -> str:
    where = f"line {e['line']}: " if e.get("line") else ""
    return f"{where}{e.get('type', 'Error')}: {e.get('message', '')}\n"


_CSS = """
.console { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
.console pre { margin: 0; white-space: pre; overflow-x: auto; }
.console pre.stdout { color: #1b1b1b; }
.console pre.stderr { color: #b00020; margin-top: 4px; white-space: pre-wrap; word-break: break-word; }
.console .note { color: #5f6368; font-family: system-ui, sans-serif; font-size: 11.5px; margin-top: 6px; }
"""


class Console(HtmlView):
    watches = ["state", "failed"]
    css = _CSS
    _printed = None  # (timeline, its Printed)

    def _html(self) -> str:
        store = self.store
        timeline = store.failed or store.timeline  # a failed run's output, not the output of the graph kept
        if timeline is None:
            return ""
        if self._printed is None or self._printed[0] is not timeline:
            self._printed = (timeline, Printed(timeline.events))
        printed = self._printed[1]
        k = len(timeline.events) - 1 if store.failed else store.k
        out, err = printed.stdout(k), printed.stderr(k)
        shown, total = printed.shown(k)
        note = f"{shown} of {total} prints so far" if shown < total else ""
        if not total and not err:
            note = "What the program prints shows here; this one prints nothing."
        if store.failed:
            note = "This program stopped before it made a graph: the graph shown is from the last program that ran."
        return (
            f'<div class="console"><pre class="stdout">{escape(out)}</pre>'
            + (f'<pre class="stderr">{escape(err)}</pre>' if err else "")
            + (f'<div class="note">{note}</div>' if note else "")
            + "</div>"
        )
