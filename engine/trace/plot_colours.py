"""matplotlib's colours as the explorer draws them: every colour matplotlib takes (names in any case, '#rgb[a]' and
'#rrggbb[aa]', greys as '0.5', 'C0'…, 'tab:…', RGB(A) tuples of 0–1, (colour, alpha) pairs, 'none') as the hex text
matplotlib's to_hex gives, and None for a value matplotlib refuses (the caller raises matplotlib's error for it)."""
from __future__ import annotations

import re

import numpy as np

# matplotlib's default colours, in its order: "C0".."C9" and "tab:blue".. name them.
CYCLE = {"blue": "#1f77b4", "orange": "#ff7f0e", "green": "#2ca02c", "red": "#d62728", "purple": "#9467bd",
         "brown": "#8c564b", "pink": "#e377c2", "gray": "#7f7f7f", "olive": "#bcbd22", "cyan": "#17becf"}
BASE = {"b": "#0000ff", "g": "#008000", "r": "#ff0000", "c": "#00bfbf", "m": "#bf00bf", "y": "#bfbf00",
        "k": "#000000", "w": "#ffffff"}
# The CSS colour names, as matplotlib's CSS4_COLORS has them.
CSS4 = {
    "aliceblue": "#f0f8ff", "antiquewhite": "#faebd7", "aqua": "#00ffff", "aquamarine": "#7fffd4",
    "azure": "#f0ffff", "beige": "#f5f5dc", "bisque": "#ffe4c4", "black": "#000000", "blanchedalmond": "#ffebcd",
    "blue": "#0000ff", "blueviolet": "#8a2be2", "brown": "#a52a2a", "burlywood": "#deb887", "cadetblue": "#5f9ea0",
    "chartreuse": "#7fff00", "chocolate": "#d2691e", "coral": "#ff7f50", "cornflowerblue": "#6495ed",
    "cornsilk": "#fff8dc", "crimson": "#dc143c", "cyan": "#00ffff", "darkblue": "#00008b", "darkcyan": "#008b8b",
    "darkgoldenrod": "#b8860b", "darkgray": "#a9a9a9", "darkgreen": "#006400", "darkgrey": "#a9a9a9",
    "darkkhaki": "#bdb76b", "darkmagenta": "#8b008b", "darkolivegreen": "#556b2f", "darkorange": "#ff8c00",
    "darkorchid": "#9932cc", "darkred": "#8b0000", "darksalmon": "#e9967a", "darkseagreen": "#8fbc8f",
    "darkslateblue": "#483d8b", "darkslategray": "#2f4f4f", "darkslategrey": "#2f4f4f", "darkturquoise": "#00ced1",
    "darkviolet": "#9400d3", "deeppink": "#ff1493", "deepskyblue": "#00bfff", "dimgray": "#696969",
    "dimgrey": "#696969", "dodgerblue": "#1e90ff", "firebrick": "#b22222", "floralwhite": "#fffaf0",
    "forestgreen": "#228b22", "fuchsia": "#ff00ff", "gainsboro": "#dcdcdc", "ghostwhite": "#f8f8ff",
    "gold": "#ffd700", "goldenrod": "#daa520", "gray": "#808080", "green": "#008000", "greenyellow": "#adff2f",
    "grey": "#808080", "honeydew": "#f0fff0", "hotpink": "#ff69b4", "indianred": "#cd5c5c", "indigo": "#4b0082",
    "ivory": "#fffff0", "khaki": "#f0e68c", "lavender": "#e6e6fa", "lavenderblush": "#fff0f5",
    "lawngreen": "#7cfc00", "lemonchiffon": "#fffacd", "lightblue": "#add8e6", "lightcoral": "#f08080",
    "lightcyan": "#e0ffff", "lightgoldenrodyellow": "#fafad2", "lightgray": "#d3d3d3", "lightgreen": "#90ee90",
    "lightgrey": "#d3d3d3", "lightpink": "#ffb6c1", "lightsalmon": "#ffa07a", "lightseagreen": "#20b2aa",
    "lightskyblue": "#87cefa", "lightslategray": "#778899", "lightslategrey": "#778899", "lightsteelblue": "#b0c4de",
    "lightyellow": "#ffffe0", "lime": "#00ff00", "limegreen": "#32cd32", "linen": "#faf0e6", "magenta": "#ff00ff",
    "maroon": "#800000", "mediumaquamarine": "#66cdaa", "mediumblue": "#0000cd", "mediumorchid": "#ba55d3",
    "mediumpurple": "#9370db", "mediumseagreen": "#3cb371", "mediumslateblue": "#7b68ee",
    "mediumspringgreen": "#00fa9a", "mediumturquoise": "#48d1cc", "mediumvioletred": "#c71585",
    "midnightblue": "#191970", "mintcream": "#f5fffa", "mistyrose": "#ffe4e1", "moccasin": "#ffe4b5",
    "navajowhite": "#ffdead", "navy": "#000080", "oldlace": "#fdf5e6", "olive": "#808000", "olivedrab": "#6b8e23",
    "orange": "#ffa500", "orangered": "#ff4500", "orchid": "#da70d6", "palegoldenrod": "#eee8aa",
    "palegreen": "#98fb98", "paleturquoise": "#afeeee", "palevioletred": "#db7093", "papayawhip": "#ffefd5",
    "peachpuff": "#ffdab9", "peru": "#cd853f", "pink": "#ffc0cb", "plum": "#dda0dd", "powderblue": "#b0e0e6",
    "purple": "#800080", "rebeccapurple": "#663399", "red": "#ff0000", "rosybrown": "#bc8f8f",
    "royalblue": "#4169e1", "saddlebrown": "#8b4513", "salmon": "#fa8072", "sandybrown": "#f4a460",
    "seagreen": "#2e8b57", "seashell": "#fff5ee", "sienna": "#a0522d", "silver": "#c0c0c0", "skyblue": "#87ceeb",
    "slateblue": "#6a5acd", "slategray": "#708090", "slategrey": "#708090", "snow": "#fffafa",
    "springgreen": "#00ff7f", "steelblue": "#4682b4", "tan": "#d2b48c", "teal": "#008080", "thistle": "#d8bfd8",
    "tomato": "#ff6347", "turquoise": "#40e0d0", "violet": "#ee82ee", "wheat": "#f5deb3", "white": "#ffffff",
    "whitesmoke": "#f5f5f5", "yellow": "#ffff00", "yellowgreen": "#9acd32",
}
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
_NUMBER = (int, float)
XKCD = "xkcd:"  # matplotlib's 949 colours of the xkcd survey: not drawn by the explorer


def to_hex(value) -> str | None:
    """'#rrggbb', or '#rrggbbaa' when the colour is not opaque; None for what matplotlib refuses."""
    rgba = _rgba(value)
    if rgba is None:
        return None
    channels = rgba if rgba[3] < 1 else rgba[:3]
    return "#" + "".join(format(round(v * 255), "02x") for v in channels)


def _rgba(value):
    if isinstance(value, str):
        return _named(value)
    if isinstance(value, (tuple, list)):
        if len(value) == 2 and isinstance(value[1], _NUMBER):
            rgba = _rgba(value[0])
            return None if rgba is None or not 0 <= value[1] <= 1 else (*rgba[:3], float(value[1]))
        if len(value) in (3, 4) and all(isinstance(v, _NUMBER) for v in value):
            rgba = tuple(float(v) for v in value) + (1.0,) * (4 - len(value))
            return rgba if all(0 <= v <= 1 for v in rgba) else None
    return None


def _named(text):
    lower = text.lower()
    if lower == "none":
        return (0.0, 0.0, 0.0, 0.0)
    if _HEX.fullmatch(text):
        digits = text[1:] if len(text) > 5 else "".join(d * 2 for d in text[1:])
        return tuple(int(digits[i:i + 2], 16) / 255 for i in range(0, len(digits), 2)) + (1.0,) * (len(digits) == 6)
    if re.fullmatch(r"C[0-9]+", text):
        return _named(list(CYCLE.values())[int(text[1:]) % len(CYCLE)])
    if lower.startswith("tab:"):
        name = lower[4:].replace("grey", "gray")
        return _named(CYCLE[name]) if name in CYCLE else None
    hex_text = BASE.get(text) or CSS4.get(lower)
    if hex_text:
        return _named(hex_text)
    try:
        grey = float(text)
    except ValueError:
        return None
    return (grey, grey, grey, 1.0) if 0 <= grey <= 1 else None


# matplotlib's jet: each channel linear between these (position, value) points
_JET = {"red": ((0, 0), (0.35, 0), (0.66, 1), (0.89, 1), (1, 0.5)),
        "green": ((0, 0), (0.125, 0), (0.375, 1), (0.64, 1), (0.91, 0), (1, 0)),
        "blue": ((0, 0.5), (0.11, 1), (0.34, 1), (0.65, 0), (1, 0))}


def jet(n=256) -> list[str]:
    """matplotlib's jet colormap as n colours, low values first: its lookup table of n entries, computed as
    matplotlib computes it (positions scaled to 0..n-1 first, so that the hex text rounds as matplotlib's does)."""
    channels = []
    for points in _JET.values():
        x, y = (np.array(v, dtype=float) for v in zip(*points))
        x = x * (n - 1)
        at = (n - 1) * np.linspace(0, 1, n)
        i = np.searchsorted(x, at)[1:-1]
        distance = (at[1:-1] - x[i - 1]) / (x[i] - x[i - 1])
        channels.append(np.concatenate([[y[0]], distance * (y[i] - y[i - 1]) + y[i - 1], [y[-1]]]))
    return [to_hex(tuple(float(v) for v in rgb)) for rgb in zip(*channels)]


class Colormap:
    """A colormap the explorer draws, named: `cmap=cm.viridis` draws as `cmap='viridis'`."""

    __slots__ = ("name",)

    def __init__(self, name):
        object.__setattr__(self, "name", name)

    def __setattr__(self, attr, value):
        raise AttributeError("a colormap is read-only here")

    def __repr__(self):
        return f"<matplotlib.colors.Colormap {self.name!r}>"

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(f"colours looked up in a colormap are not available in the explorer: give "
                                  f"cmap={self.name!r} and the values to scatter or imshow")


Colormap.__module__ = "matplotlib.colors"
