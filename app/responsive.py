"""CSS for narrow windows, for a Panel layout's own `stylesheets` (each layout's styles live in its shadow root,
so a rule for the page as a whole has to be handed to every layout it concerns)."""

from __future__ import annotations

NARROW = 1099  # px: at this width and below the page is one column that scrolls
PHONE = 700  # px: rows of controls wrap


def narrow(rules: str, width: int = NARROW) -> str:
    """`rules` for the layout itself (its :host) when the window is at most `width` px wide."""
    return f"@media (max-width: {width}px) {{ :host {{ {rules} }} }}\n"


WRAP = narrow("flex-wrap: wrap !important; min-width: 0 !important;", PHONE)  # a row of widgets that wraps
SHRINK = narrow("min-width: 0 !important;")  # a layout that may be narrower than its widest row
