"""What a figure's axes draw, for the program's pyplot (plot_view.py): each drawing call checked and sized as
matplotlib takes it, and told as a `plot` event (docs/timeline.md) with what it drew as numbers and words; the
artists it returns print as matplotlib's."""
from __future__ import annotations

import numpy as np

from .plot_colours import BASE, CYCLE, Colormap, to_hex

# matplotlib's errors for a colour it does not take, as each call words it
_NOT_A_COLOUR_VALUE = "{!r} is not a valid color value."
_LINE_COLOUR = ("{!r} is not a valid value for color: supported inputs are (r, g, b) and (r, g, b, a) 0-1 float "
                "tuples; '#rrggbb', '#rrggbbaa', '#rgb', '#rgba' strings; named color strings; string reprs of 0-1 "
                "floats for grayscale values; 'C0', 'C1', ... strings for colors of the color cycle; and pairs "
                "combining one of the above with an alpha value")
_BAR_COLOUR = "'facecolor' or 'color' argument must be a valid color or sequence of colors."
_C_ARGUMENT = "'c' argument must be a color, a sequence of colors, or a sequence of numbers, not {!r}"
_COLOR_KWARG = ("'color' kwarg must be a color or sequence of color specs.  For a sequence of values to be "
                "color-mapped, use the 'c' argument instead.")
_MARKERS = set("o.,x+*sd^v<>phD|_")
LINESTYLES = ("--", "-.", "-", ":")
_TEXT_STYLES = frozenset("fontsize size fontweight weight ha horizontalalignment va verticalalignment".split())
# The colormaps the explorer draws images with (Bokeh's palettes of the same name); matplotlib's default first.
CMAPS = ("viridis", "gray", "Greys", "binary", "magma", "inferno", "plasma", "cividis", "turbo", "jet")


class Axes:
    """One figure's axes: what `plt.subplots()` returns as `ax`, and what `plt.<call>` draws on."""

    DRAWING = ("plot", "scatter", "hist", "bar", "axhline", "axvline", "hlines", "vlines", "imshow", "text",
               "legend", "grid")
    SETTERS = ("title", "xlabel", "ylabel", "xscale", "yscale", "xlim", "ylim")

    def __init__(self, pyplot, number, position):
        self._pyplot, self._number, self._position = pyplot, number, position
        self._cycles = {"lines": 0, "fills": 0}  # plot, hist | scatter, bar
        self._words = {}  # its title and axis labels, which its repr shows

    def _next_colour(self, style, cycle):
        """The colour given, or the next of matplotlib's colours in `cycle`."""
        if "color" not in style and "colors" not in style and "values" not in style:
            n = self._cycles[cycle]
            self._cycles[cycle] += 1
            style["color"] = list(CYCLE.values())[n % len(CYCLE)]
        return style

    def _tell(self, **fields):
        self._pyplot.tell(self._number, fields)

    def plot(self, *args, scalex=True, scaley=True, **kwargs):
        style = self._pyplot.style(kwargs, "Line2D")
        groups = _plot_groups(args)
        drawn = []
        for x, y, fmt in groups:
            y = self._pyplot.numbers(y)
            x = self._pyplot.numbers(x) if x is not None else np.arange(len(y), dtype=float)
            if len(x) != len(y):
                raise ValueError(f"x and y must have same first dimension, but have shapes {x.shape} and {y.shape}")
            if x.ndim > 2 or y.ndim > 2:
                raise ValueError(f"x and y can be no greater than 2D, but have shapes {x.shape} and {y.shape}")
            xs, ys = (x.T if x.ndim == 2 else [x]), (y.T if y.ndim == 2 else [y])
            if len(xs) != len(ys) and 1 not in (len(xs), len(ys)):
                raise ValueError(f"x has {len(xs)} columns but y has {len(ys)} columns")
            for i in range(max(len(xs), len(ys))):
                column_x, column_y = xs[i if len(xs) > 1 else 0], ys[i if len(ys) > 1 else 0]
                drawn.append({"kind": "line", "x": _listed(column_x), "y": _listed(column_y),
                              **self._next_colour({**_format(fmt), **style}, "lines")})
        for series in drawn:
            self._tell(series=series)
        return [Line2D(self._pyplot, series) for series in drawn]

    def scatter(self, x, y, s=None, c=None, marker=None, cmap=None, norm=None, vmin=None, vmax=None, alpha=None,
                linewidths=None, *, label=None, color=None, **kwargs):
        if norm is not None:
            self._pyplot.runtime.refuse("scatter(norm=) is not drawn in the explorer: it maps c linearly "
                                        "from vmin to vmax")
        style = self._pyplot.style({"label": label, "alpha": alpha, "marker": marker, "s": s, **kwargs},
                                   "PathCollection")
        x, y = self._pyplot.numbers(x).ravel(), self._pyplot.numbers(y).ravel()
        if x.size != y.size:
            raise ValueError("x and y must be the same size")
        if c is not None and color is not None:
            raise ValueError("Supply a 'c' argument or a 'color' kwarg but not both; they differ but their "
                             "functionalities overlap.")
        if color is not None:
            paint = self._colours(color, x.size, _COLOR_KWARG)
        elif c is not None:
            paint = self._mapped(c, x.size, cmap, vmin, vmax)
        else:
            paint = {}
        self._tell(series={"kind": "scatter", "x": _listed(x), "y": _listed(y),
                           **self._next_colour({**style, **paint}, "fills")})
        return Drawn("collections.PathCollection", style.get("label"))

    def _mapped(self, c, n, cmap, vmin, vmax):
        """scatter's c: numbers to colour through cmap (one per point), or a colour, or a colour per point."""
        invalid = _C_ARGUMENT.format(c).replace("{", "{{").replace("}", "}}")  # (formatted again with each colour)
        if isinstance(c, str) or not _numeric(c):
            return self._colours(c, n, invalid)
        values = self._pyplot.numbers(c)
        if values.size == n and values.ndim <= 1 or values.shape == (n, 1):
            values = values.ravel()
            cmap = "viridis" if cmap is None else self._pyplot.words(cmap.name if isinstance(cmap, Colormap) else cmap)
            if cmap not in CMAPS:
                self._pyplot.runtime.refuse(f"the colormap {cmap!r} is not drawn in the explorer: it draws "
                                            f"{', '.join(CMAPS)}")
            finite = values[np.isfinite(values)]
            low = vmin if vmin is not None else finite.min() if finite.size else 0.0
            high = vmax if vmax is not None else finite.max() if finite.size else 1.0
            return {"values": _listed(values), "cmap": cmap, "vmin": float(low), "vmax": float(high)}
        if values.ndim == 2 and values.shape[1] in (3, 4) and values.shape[0] in (n, 1):
            return self._colours([tuple(row) for row in values.tolist()], n, invalid)
        if values.ndim == 1 and values.size in (3, 4):
            return self._colours(tuple(values.tolist()), n, invalid)
        raise ValueError(f"'c' argument has {values.size} elements, which is inconsistent with 'x' and 'y' with "
                         f"size {n}.")

    def _colours(self, given, n, invalid):
        """One colour ({"color"}) or one per item, repeated as matplotlib cycles them ({"colors"})."""
        if isinstance(given, str) or _is_colour(given):
            return {"color": self._pyplot.colour(given, invalid)}
        given = list(given)
        self._pyplot._at_most(len(given))
        if not given:
            raise ValueError(invalid.format(given))
        colours = [self._pyplot.colour(one, invalid) for one in given]
        return {"colors": [colours[i % len(colours)] for i in range(n)]}

    def hist(self, x, bins=10, range=None, density=False, *, label=None, alpha=None, color=None, **kwargs):
        style = self._pyplot.style({"label": label, "alpha": alpha, "color": color, **kwargs}, "Rectangle",
                                   invalid=_NOT_A_COLOUR_VALUE)
        values = self._pyplot.numbers(x, exact=True).ravel()
        if not isinstance(bins, int):
            bins = self._pyplot.numbers(bins)
        counts, edges = np.histogram(values[np.isfinite(values)], bins=bins, range=range, density=density)
        self._tell(series={"kind": "hist", "x": _listed(edges), "y": _listed(counts),
                           **self._next_colour(style, "lines")})
        return counts.astype(float), edges, Bars(len(counts), style.get("label"))

    def bar(self, x, height, width=0.8, *, label=None, color=None, alpha=None, **kwargs):
        style = self._pyplot.style({"label": label, "alpha": alpha, **kwargs}, "Rectangle")
        x, height = self._pyplot.numbers(x).ravel(), self._pyplot.numbers(height).ravel()
        x, height = np.broadcast_arrays(x, height)
        paint = {} if color is None else self._colours(color, len(x), _BAR_COLOUR)
        self._tell(series={"kind": "bar", "x": _listed(x), "y": _listed(height), "width": float(width),
                           **self._next_colour({**style, **paint}, "fills")})
        return Bars(len(x), style.get("label"))

    def axhline(self, y=0, *, label=None, color=None, linestyle=None, **kwargs):
        style = self._pyplot.style({"label": label, "color": color, "linestyle": linestyle, **kwargs}, "Line2D")
        self._tell(series={"kind": "hline", "y": [float(y)], "color": CYCLE["blue"], **style})
        return Drawn("lines.Line2D", style.get("label"))

    def axvline(self, x=0, *, label=None, color=None, linestyle=None, **kwargs):
        style = self._pyplot.style({"label": label, "color": color, "linestyle": linestyle, **kwargs}, "Line2D")
        self._tell(series={"kind": "vline", "x": [float(x)], "color": CYCLE["blue"], **style})
        return Drawn("lines.Line2D", style.get("label"))

    def hlines(self, y, xmin, xmax, colors=None, linestyles="solid", *, label=None, color=None, **kwargs):
        return self._lines("hlines", y, xmin, xmax, colors or color, linestyles, label, kwargs)

    def vlines(self, x, ymin, ymax, colors=None, linestyles="solid", *, label=None, color=None, **kwargs):
        return self._lines("vlines", x, ymin, ymax, colors or color, linestyles, label, kwargs)

    def _lines(self, kind, at, low, high, colour, linestyle, label, kwargs):
        style = self._pyplot.style({"label": label, "linestyle": linestyle, **kwargs}, "LineCollection")
        at, low, high = np.broadcast_arrays(*(self._pyplot.numbers(v).ravel() for v in (at, low, high)))
        paint = {"color": CYCLE["blue"]} if colour is None else self._colours(colour, len(at), _NOT_A_COLOUR_VALUE)
        self._tell(series={"kind": kind, "at": _listed(at), "low": _listed(low), "high": _listed(high),
                           **paint, **style})
        return Drawn("collections.LineCollection", style.get("label"))

    def imshow(self, X, cmap=None, norm=None, *, aspect=None, interpolation=None, alpha=None, vmin=None,
               vmax=None, origin=None, extent=None, **kwargs):
        if norm is not None or extent is not None or origin not in (None, "upper"):
            self._pyplot.runtime.refuse("imshow(norm=, extent=, origin=) is not drawn in the explorer: it draws "
                                        "the image as given, row 0 at the top")
        self._pyplot.style({k: v for k, v in kwargs.items() if k not in ("filternorm", "filterrad", "resample")},
                           "AxesImage")
        image = self._pyplot.numbers(X, exact=True)
        if not (image.ndim == 2 or (image.ndim == 3 and image.shape[-1] in (3, 4))):
            raise TypeError(f"Invalid shape {image.shape} for image data")
        cmap = "viridis" if cmap is None else self._pyplot.words(cmap.name if isinstance(cmap, Colormap) else cmap)
        if cmap not in CMAPS:
            self._pyplot.runtime.refuse(f"the colormap {cmap!r} is not drawn in the explorer: it draws "
                                        f"{', '.join(CMAPS)}")
        series = {"kind": "image", "shape": list(image.shape[:2]), "z": [_listed(row) for row in image]
                  if image.ndim == 2 else [[_listed(pixel) for pixel in row] for row in image]}
        if image.ndim == 2:
            finite = image[np.isfinite(image)]
            low = float(finite.min()) if vmin is None and finite.size else vmin
            high = float(finite.max()) if vmax is None and finite.size else vmax
            series.update(cmap=cmap, vmin=None if low is None else float(low),
                          vmax=None if high is None else float(high))
        if alpha is not None:
            series["alpha"] = float(alpha)
        self._tell(series=series)
        return Image(image.shape)

    def text(self, x, y, s, fontdict=None, **kwargs):
        kwargs = {**(fontdict or {}), **kwargs}
        style = {"color": kwargs.pop("color", kwargs.pop("c", "black"))}
        size = kwargs.pop("fontsize", kwargs.pop("size", None))
        align = {"ha": kwargs.pop("ha", kwargs.pop("horizontalalignment", "left")),
                 "va": kwargs.pop("va", kwargs.pop("verticalalignment", "baseline"))}
        self._pyplot.style({k: v for k, v in kwargs.items() if k not in _TEXT_STYLES | {"rotation"}}, "Text")
        words = self._pyplot.words(s)
        given = tuple(v if type(v) in (int, float) else float(self._pyplot.numbers(v).ravel()[0]) for v in (x, y))
        x, y = (float(v) for v in given)
        self._tell(series={"kind": "text", "x": [x], "y": [y], "text": [words], **self._pyplot.style(style, "Text"),
                           **({"size": float(size)} if isinstance(size, (int, float)) else {}),
                           **{k: self._pyplot.words(v) for k, v in align.items()}})
        return Text(given, words, None)

    def set_xticks(self, ticks, labels=None, *, minor=False, **kwargs):
        return self._ticks("x", ticks, labels, kwargs)

    def set_yticks(self, ticks, labels=None, *, minor=False, **kwargs):
        return self._ticks("y", ticks, labels, kwargs)

    def _ticks(self, axis, ticks, labels, kwargs):
        at = _listed(self._pyplot.numbers(ticks).ravel())
        whole = np.asarray(ticks).dtype.kind in "iu"
        if labels is not None:
            labels = [self._pyplot.words(label) for label in labels]
            if len(labels) != len(at):
                raise ValueError(f"The number of FixedLocator locations ({len(at)}), usually from a call to "
                                 f"set_ticks, does not match the number of labels ({len(labels)}).")
        rotation = kwargs.pop("rotation", 0)
        rotation = {"vertical": 90.0, "horizontal": 0.0}.get(rotation, rotation)
        self._pyplot.style({k: v for k, v in kwargs.items() if k not in _TEXT_STYLES}, "Text")
        self._tell(**{f"{axis}ticks": {"at": at, "labels": labels, "rotation": float(rotation)}})
        return [Drawn(f"axis.{axis.upper()}Tick", None) for _ in at], [
            Text(int(v) if whole else v, label, axis) for v, label in zip(at, labels or _tick_texts(at))]

    def legend(self, *args, **kwargs):
        if args:
            labels = args[-1]
            if not isinstance(labels, (list, tuple)):
                raise TypeError("legend() takes a list of labels")
            self._tell(legend=[self._pyplot.words(label) for label in labels])
        else:
            self._tell(legend=True)

    def grid(self, visible=None, which="major", axis="both", **kwargs):
        self._tell(grid=True if visible is None else bool(visible))

    def set_title(self, label, **kwargs):
        self._label("title", label)

    def set_xlabel(self, label, **kwargs):
        self._label("xlabel", label)

    def set_ylabel(self, label, **kwargs):
        self._label("ylabel", label)

    def _label(self, key, label):
        self._words[key] = self._pyplot.words(label)
        self._tell(**{key: self._words[key]})

    def set_xscale(self, value, **kwargs):
        self._tell(xscale=_scale(value))

    def set_yscale(self, value, **kwargs):
        self._tell(yscale=_scale(value))

    def set_xlim(self, left=None, right=None, *, emit=True, auto=False, xmin=None, xmax=None):
        self._tell(xlim=_limits(xmin if left is None else left, xmax if right is None else right))

    def set_ylim(self, bottom=None, top=None, *, emit=True, auto=False, ymin=None, ymax=None):
        self._tell(ylim=_limits(ymin if bottom is None else bottom, ymax if top is None else top))

    def __str__(self):
        left, bottom, width, height = self._position
        return f"Axes({left:g},{bottom:g};{width:g}x{height:g})"

    def __repr__(self):
        words = self._words
        shown = ([f"title={{'center': {words['title']!r}}}"] if words.get("title") else []) + [
            f"{key}={words[key]!r}" for key in ("xlabel", "ylabel") if words.get(key)]
        return f"<Axes: {', '.join(shown)}>"


class Drawn:
    """What a drawing call returns (matplotlib's artist), for a program that keeps or prints it."""

    def __init__(self, kind, label):
        self.kind, self.label = kind, label

    def get_label(self):
        return self.label if self.label is not None else ""

    def __repr__(self):
        return f"<matplotlib.{self.kind} object at {id(self):#x}>"


class Line2D(Drawn):
    """A line plot() drew: `line.set_color("red")` recolours it as matplotlib does before the figure is shown."""

    def __init__(self, pyplot, series):
        super().__init__("lines.Line2D", series.get("label"))
        self._pyplot, self._series = pyplot, series

    def set_color(self, color):
        self._series["color"] = self._pyplot.colour(color, _LINE_COLOUR)


class Text(Drawn):
    """A text on the plot (`plt.text`) or a tick's label (`plt.xticks(...)` returns them)."""

    def __init__(self, at, text, axis):
        super().__init__("text.Text", text)
        self.position = (at, 0) if axis == "x" else (0, at) if axis == "y" else at

    def get_text(self):
        return self.label

    def __repr__(self):
        return f"Text({self.position[0]}, {self.position[1]}, {self.label!r})"


class Image(Drawn):
    """What imshow returns: matplotlib's AxesImage."""

    def __init__(self, shape):
        super().__init__("image.AxesImage", None)
        self.shape = tuple(int(n) for n in shape)

    def __repr__(self):
        return f"AxesImage(shape={self.shape})"


class Bars(Drawn):
    """What hist and bar return: matplotlib's BarContainer of one rectangle per bar."""

    def __init__(self, n, label):
        super().__init__("container.BarContainer", label)
        self.n = n

    def __len__(self):
        return self.n

    def __repr__(self):
        return f"<BarContainer object of {self.n} artists>"


def _plot_groups(args):
    """plot's positional arguments as (x or None, y, fmt) groups: `plot(y)`, `plot(x, y)`, `plot(x, y, 'r--')`,
    `plot(x1, y1, x2, y2)`."""
    groups, args = [], list(args)
    if not args:
        return groups
    while args:
        if len(args) >= 2 and not isinstance(args[1], str):
            x, y, args = args[0], args[1], args[2:]
        else:
            x, y, args = None, args[0], args[1:]
        fmt = args.pop(0) if args and isinstance(args[0], str) else ""
        groups.append((x, y, fmt))
    return groups


def _numeric(values):
    """Whether values are numbers (a tensor, an array, a list of numbers or of rows of them), not colour names."""
    if isinstance(values, (list, tuple)):
        return all(_numeric(v) for v in values)
    return not isinstance(values, str)


def _is_colour(value):
    """One colour, not a sequence of them: a name, or a tuple of 3 or 4 numbers, or a (colour, alpha) pair."""
    if isinstance(value, str):
        return True
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], (int, float)):
        return _is_colour(value[0])
    return isinstance(value, (tuple, list)) and len(value) in (3, 4) and all(isinstance(v, (int, float))
                                                                               for v in value)


def _format(fmt):
    """A format string ('r--', 'o', 'C1-.', or a colour alone: 'tab:red', '#ff0000', '0.5') as color, marker and
    linestyle, parsed as matplotlib parses it."""
    alone = to_hex(fmt)
    if alone is not None and not fmt.isdigit():  # ('1' is the tri_down marker, not the grey 1.0)
        return {"color": alone}
    out, rest = {}, fmt
    for style in LINESTYLES:
        if style in rest:
            out["linestyle"] = style
            rest = rest.replace(style, "", 1)
            break
    chars = iter(rest)
    for char in chars:
        if char in BASE:
            out["color"] = BASE[char]
        elif char == "C":
            digit = next(chars, "")
            if not digit.isdigit():
                raise ValueError(f"{fmt!r} is not a valid format string ('C' must be followed by a number)")
            out["color"] = to_hex("C" + digit)
        elif char in _MARKERS:
            out["marker"] = char
        else:
            raise ValueError(f"{fmt!r} is not a valid format string (unrecognized character {char!r})")
    if "marker" in out and "linestyle" not in out:
        out["linestyle"] = "none"
    return out


def _tick_texts(values):
    """Tick labels as matplotlib's ScalarFormatter writes the numbers of a learner's range (no offset, no powers of
    ten): as many decimals as the most precise needs, and a Unicode minus."""
    decimals = max((len(repr(round(v, 10)).partition(".")[2].rstrip("0")) for v in values if v is not None),
                   default=0)
    return [f"{v:.{decimals}f}".replace("-", "\u2212") for v in values]


def _scale(value):
    if value not in ("linear", "log", "symlog", "logit"):
        raise ValueError(f"{value!r} is not a valid value for scale.")
    return "log" if value == "log" else "linear"


def _limits(low, high):
    if isinstance(low, (tuple, list)):
        low, high = low
    return [None if low is None else float(low), None if high is None else float(high)]


def _listed(array):
    """Numbers for JSON: not-a-number and the infinities (which JSON cannot hold) as None."""
    return [float(v) if np.isfinite(v) else None for v in np.asarray(array, dtype=np.float64).tolist()]
