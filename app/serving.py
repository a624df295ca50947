"""What only `panel serve` needs: websocket replies sent at once.

Bokeh writes each message as several websocket frames. With Nagle's algorithm on, the second frame waits
for the browser's delayed ACK, about 40 ms on Linux, so every step would pay it. Tornado's documented fix is
`set_nodelay(True)` once the connection is open.
"""

from __future__ import annotations


def send_without_delay() -> None:
    from panel.io.server import WSHandler

    if getattr(WSHandler.open, "sends_without_delay", False):
        return
    panel_open = WSHandler.open

    def open(self, *args, **kwargs):
        self.set_nodelay(True)
        return panel_open(self, *args, **kwargs)

    open.sends_without_delay = True
    WSHandler.open = open
