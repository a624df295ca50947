"""`%%explore [--budget SECONDS] [--step N|end] [--height PX]`: the cell, run as the served explorer runs a
program (the runner's guard in a child process behind its wall, `run_isolated`), shown as the explorer's
player, graph and panels under the cell, to step through and inspect as on the site.

The program is the cell with its first line (the magic's) kept as a comment, so the explorer's line numbers
are the cell's. It runs in a process of its own: its names do not reach the notebook, nor the notebook's it.
"""

from __future__ import annotations

from functools import partial

import panel as pn
from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from app import timeline as tl
from app.page import Explorer
from app.program import links
from app.widgets.responsive import ROOM, narrow

_ANY_WIDTH = ":host { min-width: 0 !important; }\n"
HEIGHT = 760  # px: the player, a graph with room for a few layers, and the .grad history and console under it


@magics_class
class ExploreMagics(Magics):
    @magic_arguments()
    @argument("--budget", type=float, default=None, metavar="SECONDS",
              help="how long the cell may run (default: the served explorer's 30 s)")
    @argument("--step", default=None, metavar="N|end",
              help="the step to open at, as the counter shows it (default: before the first backward call)")
    @argument("--height", type=int, default=HEIGHT, metavar="PX", help=f"the explorer's height (default {HEIGHT})")
    @cell_magic
    def explore(self, line: str, cell: str):
        """Run the cell through the explorer's runner and show the explorer for it."""
        args = parse_argstring(self.explore, line)
        if args.budget is not None and not args.budget > 0:
            raise UsageError(f"--budget must be a number of seconds above 0, not {args.budget:g}")
        return explorer(program(line, cell), step=args.step, budget=args.budget, height=args.height)


def program(line: str, cell: str) -> str:
    """The program run: the cell, its magic line a comment (line n of the program is line n of the cell)."""
    return f"# %%explore {line}".rstrip() + "\n" + cell


def explorer(source: str, step: str | None = None, budget: float | None = None, height: int = HEIGHT):
    """The explorer's main view (player, graph, inspector, .grad history, console, plots) for `source`, run
    with a time budget of `budget` seconds (None: the served default), as a Panel object a notebook shows."""
    query = {"code": links.encode_code(source)}
    if step is not None:
        query["step"] = step
    runner = None if budget is None else partial(tl.run, max_seconds=budget)
    return Explored(Explorer(query, runner=runner, extension=False), height)  # %load_ext loaded it


class Explored:
    """What `%%explore` gives back: the explorer (`.explorer.store` holds its program, timeline and step),
    shown by the notebook as the explorer's main view."""

    def __init__(self, explorer, height: int):
        self.explorer = explorer
        explorer.controls.keys.scoped = True  # ← → step the explorer last clicked, not every one in the notebook
        # The room the explorer's rules ask about is the output area, not the window: in a narrow one the explorer
        # is one column as tall as its parts (as the page in a narrow window), in a wide one `height` px tall.
        # (Panel sets their least width to that of their widest row: the room would be as wide as it.)
        tall = pn.Column(explorer.main(), height=height, sizing_mode="stretch_width", margin=0,
                         stylesheets=[_ANY_WIDTH + narrow("height: auto !important;")])
        self.view = pn.Column(tall, sizing_mode="stretch_width", margin=0, css_classes=["autograd-explorer"],
                              stylesheets=[_ANY_WIDTH + ROOM])

    @property
    def store(self):
        return self.explorer.store

    def _repr_mimebundle_(self, include=None, exclude=None):
        return self.view._repr_mimebundle_(include, exclude)
