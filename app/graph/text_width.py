"""How wide a label is drawn, in px, without a browser: Helvetica's bold advance widths (Liberation Sans, which
Chromium draws for Bokeh's `helvetica`, has the same metrics), so an estimate is never narrower than the text
(tests/app/test_legibility.py measures it in Chromium)."""

from __future__ import annotations

_BOLD = {  # advance widths in 1/1000 em
    **dict.fromkeys("0123456789", 556),
    **dict(zip("abcdefghijklmnopqrstuvwxyz", (556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611,
                                                611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500))),
    **dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722,
                                                778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611))),
    **dict.fromkeys(" .,:;|!'[]/\\", 333), **dict.fromkeys("()-*\"`", 389), **dict.fromkeys("_#$", 556),
    **dict.fromkeys("+=<>×·~^−", 584), **dict.fromkeys("%&@", 889), **dict.fromkeys("{}", 389),
    **dict.fromkeys("²³¹⁰⁻", 333),
}
_WIDE = 1000  # anything else (arrows, ellipsis, letters of other scripts) drawn from a fallback font


def width(text: str, size: float = 11.0) -> float:
    """The width in px of `text` at font size `size` px, bold or not (bold is the wider)."""
    return sum(_BOLD.get(c, _WIDE) for c in text) * size / 1000 * 1.02  # the fonts' rounding, and hinting


def fit(text: str, room: float, size: float = 11.0) -> str:
    """`text`, cut with an ellipsis so that it is at most `room` px wide."""
    if width(text, size) <= room:
        return text
    while text and width(text + "…", size) > room:
        text = text[:-1]
    return text + "…"
