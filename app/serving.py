"""What only `panel serve` needs: websocket replies sent at once, and a click's changes sent as one message.

Bokeh writes each message as several websocket frames. With Nagle's algorithm on, the second frame waits
for the browser's delayed ACK, about 40 ms on Linux, so every step would pay it. Tornado's documented fix is
`set_nodelay(True)` once the connection is open.

Bokeh runs the handlers of a browser event (a button's click, a tap on a figure, a selection) on a worker
thread under the session's lock, and then sends every change they made as a message of its own, which the
browser applies one task at a time, painting in between (24 messages for "next iteration"). `on_loop` runs
a handler as Panel runs an async callback: on the server's event loop, outside Bokeh's lock, where Panel
sends all the changes made under `pn.io.hold()` as one message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps

import panel as pn
from panel.io.state import set_curdoc


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


_tasks: set[asyncio.Task] = set()  # the tasks on_loop started, kept until done (the loop keeps weak references)


def on_loop(handler: Callable[..., None]) -> Callable[..., None]:
    """The handler of a browser event, run on the server's event loop (at once where there is no server)."""

    @wraps(handler)  # Bokeh checks a handler's signature
    def run(*args) -> None:
        doc = _served()
        if doc is None:
            handler(*args)
            return

        async def soon() -> None:
            with set_curdoc(doc), pn.io.hold():  # outside Bokeh's lock, every change is held for Panel to send
                handler(*args)

        try:
            loop = asyncio.get_running_loop()  # a widget's change (a key) runs on the loop; a click, on a thread
        except RuntimeError:
            loop = None
        if loop is not None:  # a task of its own, without a hop through Bokeh's threads
            _tasks.add(task := loop.create_task(soon()))
            task.add_done_callback(_tasks.discard)
            return
        soon.nolock = True  # as panel.io.server.async_execute marks it
        doc.add_next_tick_callback(soon)

    return run


def served() -> bool:
    """Whether a server runs this session (its changes go out over a websocket)."""
    return _served() is not None


def when_done(awaitable, then: Callable[[object], None]) -> None:
    """Calls then(result of awaitable) once it is ready. Under `panel serve` it is awaited on the event loop and
    `then` runs as a next-tick callback of the session, under its document's lock, as Bokeh runs a click's
    handler: its changes are sent after the lock is released, never while another handler's are being sent (two
    messages written to the websocket at once reach the page as one broken message)."""
    doc = _served()
    if doc is None:
        async def arrive() -> None:
            then(await awaitable)
    else:
        async def arrive() -> None:
            result = await awaitable
            doc.add_next_tick_callback(lambda: then(result))

        arrive.nolock = True  # it only awaits
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # on one of Bokeh's threads (a click)
            doc.add_next_tick_callback(arrive)
            return
    _tasks.add(task := asyncio.ensure_future(arrive()))
    task.add_done_callback(_tasks.discard)


@contextmanager
def batch() -> Iterator[None]:
    """`pn.io.hold()` where a server sends the changes (they go as one message), nothing where none does.

    Without a server (the static site's worker, which sends what a change from the page made as one patch of its
    own), a hold only defers Bokeh's change callbacks past the moment Panel forgets which properties it set
    itself: each one then comes back to Panel as if the page had changed it (the player's value, every text
    set), and is processed again as a change from the page."""
    if _served() is None:
        yield
        return
    with pn.io.hold():
        yield


def _served():
    """The document of the session a server runs, or None (no document, or none served: the static site)."""
    doc = pn.state.curdoc
    return doc if doc is not None and doc.session_context is not None else None
