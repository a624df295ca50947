"""Controls: step ±1, jump between backward calls, play/pause with speed, the slider (over the iteration shown,
or the whole program), ← → and the caption."""

from __future__ import annotations

from html import escape

import panel as pn
import param
from panel.viewable import Viewer

from app.caption import caption, formula
from app.html_box import HtmlBox
from app.keys import ArrowKeys
from app.store import Store


class _Player(pn.widgets.Player):
    _debounce = 0  # a step is handled at once, not after Panel's 50 ms debounce


class Controls(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        s = self.store
        self.player = _Player(
            start=-1, end=max(s.last, 0), value=s.k, interval=700, loop_policy="once", show_loop_controls=False,
            visible_buttons=["slower", "first", "previous", "pause", "play", "next", "last", "faster"],
            show_value=False, sizing_mode="stretch_width", height=76, scale_buttons=0.85,
            css_classes=["stepper"],
        )
        self.prev_call = pn.widgets.Button(label="⇤ backward call", description="Jump to the previous backward call",
                                           color="light", width=140, css_classes=["prev-call"])
        self.next_call = pn.widgets.Button(label="backward call ⇥", description="Jump to the next backward call",
                                           color="light", width=140, css_classes=["next-call"])
        self.counter = HtmlBox(css=_CSS, width=120, height=24, margin=(18, 5, 0, 5))
        self.caption = HtmlBox(css=_CSS, sizing_mode="stretch_width", height=54, margin=(0, 10, 4, 10))
        self.keys = ArrowKeys(width=0, height=0, margin=0)
        self.prev_call.on_click(lambda e: s.prev_call())
        self.next_call.on_click(lambda e: s.next_call())
        self.player.param.watch(self._on_player, "value")
        # Presses made while Python was busy arrive together: step by how many there were.
        self.keys.param.watch(lambda e: s.step(e.old - e.new), "left")
        self.keys.param.watch(lambda e: s.step(e.new - e.old), "right")
        s.param.watch(self._on_state, ["state", "timeline"])
        self._on_state()

    def _on_player(self, event):
        self.store.goto(event.new)

    def _on_state(self, *events):
        s = self.store
        if s.timeline is None:
            return
        total = len(s.timeline.events)
        first, last = s.span()  # the player steps through the iteration shown (or the whole program)
        last = max(last, first + 1)
        if (self.player.start, self.player.end, self.player.value) != (first, last, s.k):
            self.player.param.update(start=first, end=last, value=s.k)
        self.counter.text = f'<span class="counter">step <b>{s.k + 1}</b> / {total}</span>'
        text, local = escape(caption(s.state, total)), escape(formula(s.state))
        self.caption.text = (f'<div class="caption-text" title="{text}">{text}'
                             f'<div class="formula" title="{local}">{local or "&nbsp;"}</div></div>')

    def __panel__(self):
        return pn.Column(
            pn.Row(self.prev_call, self.player, self.next_call, self.counter, self.keys,
                   sizing_mode="stretch_width", align="center"),
            self.caption,
            sizing_mode="stretch_width",
        )


_CSS = """
.caption-text { display: block; box-sizing: border-box; width: 100%; font-size: 15px; padding: 6px 10px;
  background: #fff8e6; border-left: 4px solid #f0a500; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; border-radius: 3px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
  min-height: 20px; }
.caption-text .formula { font-size: 12.5px; color: #6b4e00; margin-top: 2px; overflow: hidden;
  text-overflow: ellipsis; }
"""
