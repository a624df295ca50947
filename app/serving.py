"""What only `panel serve` needs: websocket replies sent at once, and a step's changes in one message.

Bokeh writes each message as several websocket frames. With Nagle's algorithm on, the second frame waits
for the browser's delayed ACK, about 40 ms on Linux, so every step would pay it. Tornado's documented fix is
`set_nodelay(True)` once the connection is open.

A step made from the browser (a key, a click) runs under the session's document lock, and Bokeh then sends
each change it made as a message of its own: twenty-odd per step, which the browser applies one task at a
time, painting the graph in between (two or three times per step). Consecutive changes bound for the same
connections go as one message instead, as Panel itself sends them outside the lock.
"""

from __future__ import annotations


def send_without_delay() -> None:
    """Replies sent at once, and a step's changes in one message (both told above)."""
    _no_nagle()
    _one_message_per_step()


def _no_nagle() -> None:
    from panel.io.server import WSHandler

    if getattr(WSHandler.open, "sends_without_delay", False):
        return
    panel_open = WSHandler.open

    def open(self, *args, **kwargs):
        self.set_nodelay(True)
        return panel_open(self, *args, **kwargs)

    open.sends_without_delay = True
    WSHandler.open = open


def _one_message_per_step() -> None:
    from bokeh.server import session

    if getattr(session._serialize_patches, "one_message", False):
        return
    with_patch_curdoc = session.patch_curdoc

    def serialize_patches(pending):
        groups: list = []  # [first patch, its events], consecutive patches for the same connections
        for patch in pending:
            last = groups[-1][0] if groups else None
            if last is not None and (last.connections, last.protocol, last.event.document) == (
                    patch.connections, patch.protocol, patch.event.document):
                groups[-1][1].append(patch.event)
            else:
                groups.append((patch, [patch.event]))
        messages = []
        for first, events in groups:
            with with_patch_curdoc(first.event.document):
                message = first.protocol.create("PATCH-DOC", events)
                message.prepare()
            messages.append((message, first.connections))
        return messages

    serialize_patches.one_message = True
    session._serialize_patches = serialize_patches
