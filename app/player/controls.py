"""Controls: step ±1, jump between backward calls, play/pause with speed, the slider over the whole timeline (a
training loop's iterations too: "last" is the program's end), ← → and the caption."""

from __future__ import annotations

from html import escape

import panel as pn
import param
from panel.viewable import Viewer

from app.player import caption as words
from app.player.keys import ArrowKeys
from app.player.knob import PlayerKnob
from app.serving import batch, on_loop
from app.store import Store
from app.widgets.accessibility import Accessibility
from app.widgets.html_box import HtmlBox
from app.widgets.responsive import PHONE, WIDE, narrow, wraps_below

CAPTION_PX = 75  # px: two lines of the caption's words and one of its formula


class _Player(pn.widgets.Player):
    _debounce = 0  # a step is handled at once, not after Panel's 50 ms debounce
    # value_throttled is the page's (set while the slider is dragged) and nothing here watches it: a step set
    # from Python does not send it again beside `value`.
    _auto_sync_value_throttled = False


class Controls(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        s = self.store
        self.player = _Player(
            start=-1, end=max(s.last, 0), value=s.k, interval=700, loop_policy="once", show_loop_controls=False,
            visible_buttons=["slower", "first", "previous", "pause", "play", "next", "last", "faster"],
            show_value=False, sizing_mode="stretch_width", height=62, scale_buttons=0.85,
            css_classes=["stepper"], stylesheets=[_PLAYER_CSS], min_width=280,
        )
        self.prev_call = pn.widgets.Button(label="⇤ backward call", description="Jump to the previous backward call",
                                           color="light", width=130, css_classes=["prev-call"])
        self.next_call = pn.widgets.Button(label="backward call ⇥", description="Jump to the next backward call",
                                           color="light", width=130, css_classes=["next-call"])
        self.counter = HtmlBox(css=_CSS, width=110, height=24, margin=(18, 5, 0, 5))
        self.caption = HtmlBox(css=_CSS + _GROW, sizing_mode="stretch_width", min_height=CAPTION_PX,
                               margin=(0, 10, 4, 10), fit_px=CAPTION_PX)
        self.predict = pn.widgets.Checkbox(label="Predict, then reveal", value=s.predicting, width=150,
                                           margin=(20, 4, 0, 4), css_classes=["predict-toggle"])
        row = (self.prev_call, self.player, self.next_call, self.counter, self.predict)
        self.predict.stylesheets = [_under_the_player(sum(_room(w) for w in row))]
        self.keys = ArrowKeys(width=0, height=0, margin=0)
        self.knob = PlayerKnob(width=0, height=0, margin=0)
        self.access = Accessibility(width=0, height=0, margin=0)
        self.prev_call.on_click(on_loop(lambda e: s.prev_call()))
        self.next_call.on_click(on_loop(lambda e: s.next_call()))
        self.player.param.watch(self._on_player, "value")
        self.predict.param.watch(lambda e: s.predict(e.new), "value")
        # Presses made while Python was busy arrive together: step by how many there were.
        self.keys.param.watch(on_loop(lambda e: s.step(e.old - e.new)), "left")
        self.keys.param.watch(on_loop(lambda e: s.step(e.new - e.old)), "right")
        self.keys.param.watch(lambda e: s.stop(), "stops")
        s.param.watch(self._on_state, ["state", "timeline", "failed"])
        s.param.watch(lambda e: setattr(self.predict, "value", e.new), "predicting")
        self._on_state()

    def _on_player(self, event):
        s = self.store
        s.goto(event.new)
        if s.timeline is not None and s.failed is None and s.k != event.new:  # held before a prediction
            self.player.pause()
            self.player.value = s.k

    def _on_state(self, *events):
        s = self.store
        if s.timeline is None:
            return
        if any(e.name == "timeline" for e in events):
            self.access.refresh += 1
        if s.failed is not None:  # the controls tell of the run that failed, not of the graph kept on screen
            total = len(s.failed.events)
            first, last, k = -1, max(total - 1, 0), total - 1
            text, local = words.failed(s.run_error or {})
        else:
            total = len(s.timeline.events)
            first, last, k = -1, max(total - 1, 0), s.k
            text, local = words.caption(s.state, total), words.formula(s.state)
        stuck = s.failed is not None
        with batch():
            if (self.player.start, self.player.end, self.player.value, self.player.disabled) != (first, last, k, stuck):
                self.player.param.update(start=first, end=last, value=k, disabled=stuck)
            self.prev_call.disabled = self.next_call.disabled = stuck
            self.counter.text = f'<span class="counter">step <b>{k + 1}</b> / {total}</span>'
            text, local = escape(text), escape(local)
            self.caption.text = (f'<div class="caption-text{" failed" if stuck else ""}" role="status">{text}'
                                 + (f'<div class="formula">{local}</div>' if local else "") + '</div>')

    def __panel__(self):
        return pn.Column(
            pn.Row(self.prev_call, self.player, self.next_call, self.counter, self.predict, self.keys, self.knob,
                   self.access, sizing_mode="stretch_width", align="center", css_classes=["control-row"],
                   stylesheets=[WRAP_ROW]),
            self.caption,
            sizing_mode="stretch_width", stylesheets=[_FIT],
        )


def _room(widget) -> int:
    """The px a widget needs in a row: its width (its least width if it stretches) and its side margins."""
    m = widget.margin
    m = (m, m, m, m) if isinstance(m, int) else (m * 2 if len(m) == 2 else m)
    stretches = (widget.sizing_mode or "").startswith(("stretch", "scale"))
    return (widget.min_width if stretches else widget.width) + m[1] + m[3]


def _under_the_player(row_width: int) -> str:
    """Where the row is too narrow for the toggle it goes to a line of its own, right under the player's buttons
    (the player's box is taller than they are; its tooltips overlap what is below). In a phone's window the
    player has a line of its own and the toggle sits beside the backward-call buttons."""
    return (f"{wraps_below(row_width)} {{ :host {{ margin-top: -10px !important; margin-bottom: 6px !important; }} }}\n"
            + narrow("margin-top: 12px !important; margin-bottom: 0 !important;", PHONE))


_CSS = """
.caption-text { display: block; box-sizing: border-box; width: 100%; font-size: calc(15px * var(--fit, 1));
  padding: 6px 10px;
  background: #fff8e6; border-left: 4px solid #f0a500; white-space: normal; overflow-wrap: anywhere;
  border-radius: 3px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; min-height: 20px; }
.caption-text .formula { font-size: calc(12.5px * var(--fit, 1)); color: #6b4e00; margin-top: 2px; }
.caption-text.failed { background: #fdecee; border-left-color: #b00020; color: #7a0016; }
.caption-text.failed .formula { color: #7a0016; font-family: system-ui, sans-serif; }
.counter { color: #1f2d3d; }
"""

# The caption's box holds two lines of words and one of formula: the graph under it stays put as it steps. Longer
# words are set smaller (html_box.FIT_LEAST), and only then does the box grow as tall as its words (a backward
# step's sentence and its chain-rule formula wrap onto several lines in a narrow window; a fixed height cut them
# off). In a wide window the page does not scroll, so a very long caption (an error) scrolls inside its box past
# 40% of the window's height.
_GROW = (f":host {{ height: auto !important; min-height: {CAPTION_PX}px; flex: none !important; "
         "overflow: visible; }\n"
         ".html-box { height: auto; }\n"
         f"{WIDE} {{ :host {{ max-height: 40vh; overflow: auto; }} }}\n")

# Only the button that is pressed (Play while playing, Pause while paused) looks pressed; every button shows its
# name on hover and on keyboard focus.
_PLAYER_CSS = """
button { position: relative; border: 1px solid #8a94a3 !important; border-radius: 4px; background: white;
  color: #1f2d3d; }
button[aria-pressed=true] { background: #3b5b92; color: white; border-color: #3b5b92 !important; }
button:focus-visible { outline: 3px solid #d9480f; outline-offset: 1px; }
button:disabled { opacity: .55; }
button[aria-label]:hover::after, button[aria-label]:focus-visible::after { content: attr(aria-label);
  position: absolute; top: calc(100% + 4px); left: 50%; transform: translateX(-50%); background: #1f2d3d;
  color: white; font: 12px system-ui, sans-serif; padding: 2px 6px; border-radius: 3px; white-space: nowrap;
  z-index: 20; pointer-events: none; }
input[type=range]:focus-visible { outline: 3px solid #d9480f; outline-offset: 2px; }
:host { overflow: visible !important; }
""" + narrow("flex: 1 1 100% !important; order: -1;", PHONE)

# The row wraps when it does not fit (a narrow window; the middle column at 1100–1280 px): the prediction toggle
# goes under the player rather than past the edge.
_FIT = ":host { min-width: 0 !important; }"
WRAP_ROW = ":host { flex-wrap: wrap !important; min-width: 0 !important; }"
