"""CSS for narrow rooms, for a Panel layout's own `stylesheets` (each layout's styles live in its shadow root,
so a rule for the page as a whole has to be handed to every layout it concerns).

The rules ask the width of the explorer's room, not the window's: the page's root (or, in a notebook, the box
`%%explore` shows) is a CSS container named `explorer` (ROOM), and the rules are container queries. Served, the room
is the window; in a notebook it is the output area, which a narrow column or open side panels make narrower."""

from __future__ import annotations

NARROW = 1099  # px: at this width and below the page is one column that scrolls
PHONE = 700  # px: rows of controls wrap
SIDEBAR_WIDTH = 400  # px: the editor's column in a wide window
CONTAINER = "explorer"

ROOM = f":host {{ container: {CONTAINER} / inline-size; }}\n"  # for the explorer's outermost layout
MAIN_CONTAINER = "main"
MAIN = f":host {{ container: {MAIN_CONTAINER} / inline-size; }}\n"  # for the main column: the player, the graph...
WIDE = f"@container {CONTAINER} (min-width: {NARROW + 1}px)"  # the start of a rule for a room wider than NARROW


def narrow(rules: str, width: int = NARROW) -> str:
    """`rules` for the layout itself (its :host) when the explorer's room is at most `width` px wide."""
    return f"@container {CONTAINER} (max-width: {width}px) {{ :host {{ {rules} }} }}\n"


WRAP = narrow("flex-wrap: wrap !important; min-width: 0 !important;", PHONE)  # a row of widgets that wraps
SHRINK = narrow("min-width: 0 !important;")  # a layout that may be narrower than its widest row


def wraps_below(row_width: int) -> str:
    """The start of a container query for a row of the main column (the player's) that needs `row_width` px: the
    main column is a container too (MAIN), beside the editor's column on a wide page, the whole room in a notebook."""
    return f"@container {MAIN_CONTAINER} (max-width: {row_width - 1}px)"
