"""GradHistory: one compact row per leaf, its `.grad` at step k beside a sparkline of it after every backward call
(zero_/None marked); the loss per call too, when no iteration bar above the graph already draws it."""

from __future__ import annotations

from html import escape

import param
from panel.viewable import Viewer

from app import timeline as tl
from app.grad_history.model import History
from app.grad_history.sparkline import sparkline
from app.store import Store
from app.widgets.html_box import HtmlBox
from app.widgets.responsive import narrow
from engine.trace.text import short

ROW_PX = 24  # px: a line of a row (its border included: a row of two lines is less)
LINE_CHARS = 56  # a row's text wraps past this many characters in a wide window (its card beside the console)


class GradHistory(Viewer):
    store = param.ClassSelector(class_=Store)
    lines = param.Integer(default=0, doc="How many lines its rows take at the program's end, about (its card's "
                                        "height is set before the page is laid out: the graph keeps its size)")

    def __init__(self, **params):
        super().__init__(**params)
        # the box scrolls itself (then it is a stop for Tab), not its card; in a narrow window it is as tall as its
        # rows, up to a screenful
        self.box = HtmlBox(css=_CSS + narrow("height: auto !important; max-height: 300px; flex: none !important;"),
                           margin=(0, 8), sizing_mode="stretch_both")
        self.store.param.watch(self._on_history, "history")
        self.store.param.watch(self._on_state, "state")
        if self.store.history is not None:
            self._on_history()

    def _on_history(self, *events):
        h = self.store.history
        if h is None:
            return
        t = self.store.timeline
        last = tl.state_at(t, len(t.events) - 1) if t is not None and t.events else None
        texts = [f"{name}.grad = {short(v, limit=8)}" for name, v in ((last or {}).get("grads") or {}).items()]
        self.lines = sum(-(-len(text) // LINE_CHARS) for text in texts) + (1 if self._loss_row(h) else 0)
        self._on_state()

    def _loss_row(self, h: History) -> bool:
        its = self.store.iterations
        return len(h.loss["x"]) > 2 and not (its and len(its) > 1)

    def _on_state(self, *events):
        h, k = self.store.history, self.store.k
        if h is None:
            return
        self.box.text = history_html(h, self.store.state, k, loss=self._loss_row(h))

    def __panel__(self):
        return self.box


def history_html(h: History, state: dict | None, k: int, loss: bool = False) -> str:
    """A row per leaf that requires grad (`x.grad = 4.0` and its sparkline), and one for the loss when `loss`."""
    now = h.now[k] if 0 <= k < len(h.now) else 0.0
    calls = max(h.calls, 1)
    by_leaf: dict[str, list[dict]] = {}
    for s in h.series:
        by_leaf.setdefault(s["leaf"], []).append(s)
    rows = []
    for name, v in ((state or {}).get("grads") or {}).items():
        spark = sparkline(by_leaf.get(name, []), calls, now, k)
        rows.append(f'<div class="g" data-name="{escape(name)}"><span class="v">{escape(name)}.grad = '
                    f'<b>{escape(short(v, limit=8))}</b></span>{spark}</div>')
    if loss:
        reached = [i for i, at in enumerate(h.loss["k"]) if at <= k]
        text = h.loss["text"][reached[-1]] if reached else "–"
        series = [{**{c: h.loss[c] for c in ("x", "y", "k", "text")}, "marker": ["circle"] * len(h.loss["x"]),
                   "colour": "#2ca02c"}]
        rows.append(f'<div class="loss"><span class="v">loss = <b>{escape(text)}</b></span>'
                    f'{sparkline(series, calls, now, k)}</div>')
    hint = "" if h.points["x"] else ('<div class="hint">No backward call yet: the history fills in as backward() '
                                     "runs.</div>")
    return f'<div class="now">{"".join(rows)}{hint}</div>'


_CSS = f"""
.now {{ font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 11.5px; line-height: 1.35; }}
.now .g, .now .loss {{ display: flex; align-items: center; gap: 8px; min-height: {ROW_PX}px;
  border-bottom: 1px solid #f0f0f0; }}
.now .v {{ flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }}
.now .loss .v {{ color: #1e6b1e; }}
.spark {{ flex: none; fill: none; stroke-width: 1.5; }}
.spark .zero {{ stroke: #ccc; stroke-width: 1; }}
.spark .now-line {{ stroke: #d62728; stroke-width: 1; stroke-dasharray: 3 2; }}
.hint {{ color: #666; font-size: 12.5px; font-family: system-ui, sans-serif; margin-top: 4px; }}
"""
