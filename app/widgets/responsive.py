"""CSS for narrow windows, for a Panel layout's own `stylesheets` (each layout's styles live in its shadow root,
so a rule for the page as a whole has to be handed to every layout it concerns)."""

from __future__ import annotations

NARROW = 1099  # px: at this width and below the page is one column that scrolls
PHONE = 700  # px: rows of controls wrap
SIDEBAR_WIDTH = 400  # px: the editor's column in a wide window


def narrow(rules: str, width: int = NARROW) -> str:
    """`rules` for the layout itself (its :host) when the window is at most `width` px wide."""
    return f"@media (max-width: {width}px) {{ :host {{ {rules} }} }}\n"


WRAP = narrow("flex-wrap: wrap !important; min-width: 0 !important;", PHONE)  # a row of widgets that wraps
SHRINK = narrow("min-width: 0 !important;")  # a layout that may be narrower than its widest row


def wraps_below(row_width: int) -> str:
    """A media query for the windows in which a row that needs `row_width` px wraps: it spans the whole window
    when the page is one column, and the window less the sidebar when it is not."""
    return (f"@media (max-width: {row_width - 1}px), "
            f"(min-width: {NARROW + 1}px) and (max-width: {row_width + SIDEBAR_WIDTH - 1}px)")
