"""Inspector: everything about the clicked node at step k."""

from __future__ import annotations

from html import escape

from app.inspector import model as inspector_model
from app.widgets.html_box import HtmlView

_CSS = """
.inspector h3 { margin: 0 0 6px 0; font-size: 15px; font-family: ui-monospace, monospace; }
.inspector table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
.inspector th { text-align: left; color: #555; font-weight: 600; padding: 2px 10px 2px 0; vertical-align: top;
  white-space: nowrap; }
.inspector td { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; padding: 2px 0; word-break: break-word; }
.inspector td.hint { font-family: inherit; color: #666; }
"""


class Inspector(HtmlView):
    watches = ["state", "selected", "graph"]
    css = _CSS

    def _html(self) -> str:
        store = self.store
        if store.state is None:
            return ""
        heading, rows = inspector_model.rows(store.timeline, store.state, store.selected, store.graph)
        body = "".join(
            f'<tr><th>{escape(label)}</th><td class="v-{escape(label.replace(" ", "-").replace(".", "-"))}">'
            f"{escape(text)}</td></tr>" if label else f'<tr><td colspan="2" class="hint">{escape(text)}</td></tr>'
            for label, text in rows
        )
        head = f"<h3>{escape(heading)}</h3>" if store.selected else ""
        return f'<div class="inspector">{head}<table>{body}</table></div>'
