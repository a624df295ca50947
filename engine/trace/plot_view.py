"""`matplotlib.pyplot` as tutorials use it beside torch: a loss curve, data points, a histogram of gradients.

Nothing of matplotlib is imported. Each drawing call (`plt.plot`, `plt.scatter`, `ax.set_title`, ...) is checked
and sized as matplotlib would take it, and told to the recorder as a `plot` event holding what it drew as numbers
and words (docs/timeline.md); the explorer draws the figures with Bokeh as they stand at each step. As in a script,
`plt.show()` closes the figures shown: the next drawing call starts a new one; each subplot of a grid is drawn as a
plot of its own. What the explorer cannot draw (3-D, contours, ...) and what writes files (`savefig`) is refused by
name, at its line.
"""
from __future__ import annotations

import numpy as np

from .module_views import SafeModule
from .plot_axes import LINESTYLES, Axes
from .plot_colours import XKCD, to_hex
from .plot_modules import plot_modules
from .plot_style import RcParams, style_views

MAX_POINTS = 100_000  # drawn in one call
# The keywords a drawing call may give besides its data, by the name the event keeps.
_STYLE_KEYWORDS = {"label": "label", "color": "color", "c": "color", "alpha": "alpha", "linestyle": "linestyle",
                   "ls": "linestyle", "linewidth": "width", "lw": "width", "marker": "marker",
                   "markersize": "size", "ms": "size", "s": "size"}
# Styles matplotlib takes that change how a series looks, not what it shows: taken, and not drawn.
_STYLES_NOT_DRAWN = frozenset("""zorder markerfacecolor mfc markeredgecolor mec markeredgewidth mew edgecolor ec
    edgecolors facecolor fc linewidths antialiased aa drawstyle ds solid_capstyle dash_capstyle solid_joinstyle
    clip_on rasterized fill histtype align rwidth cmap""".split())
# What changes what a histogram or bar shows, which the explorer does not draw.
_NOT_DRAWN = frozenset("weights cumulative bottom orientation log stacked data xerr yerr".split())
# matplotlib's error for a colour it does not know, as Line2D and Text word it (each other call words its own)
NOT_A_COLOUR = ("{!r} is not a valid value for color: supported inputs are (r, g, b) and (r, g, b, a) 0-1 float "
                "tuples; '#rrggbb', '#rrggbbaa', '#rgb', '#rgba' strings; named color strings; string reprs of 0-1 "
                "floats for grayscale values; 'C0', 'C1', ... strings for colors of the color cycle; and pairs "
                "combining one of the above with an alpha value")
_REFUSED = ("matshow", "contour", "contourf", "pcolormesh", "subplot2grid", "savefig",
            "imsave", "pie", "boxplot", "violinplot", "errorbar", "fill_between", "quiver", "stem", "step",
            "annotate", "colorbar", "axis", "twinx", "ion", "ioff", "pause", "draw")


def plot_views(runtime, package):
    """`import matplotlib.pyplot as plt` (or `from matplotlib import pyplot`): the run's own pyplot."""
    params = RcParams()
    styles = style_views(params)
    pyplot = Pyplot(runtime, params)
    names = {name: getattr(pyplot, name) for name in Pyplot.OWN}
    names.update({name: _on_current(pyplot, name) for name in Axes.DRAWING})
    names.update({name: _on_current(pyplot, f"set_{name}") for name in Axes.SETTERS})
    names.update(xticks=_ticks(pyplot, "set_xticks"), yticks=_ticks(pyplot, "set_yticks"))
    for name in _REFUSED:
        names[name] = _refusal(runtime, name)
    others = plot_modules(runtime)
    use = others.pop("use")
    view = SafeModule("matplotlib.pyplot", {**names, "cm": others["matplotlib.cm"], **styles})
    top = {name.rpartition(".")[2]: value for name, value in others.items()}
    return {"matplotlib": SafeModule("matplotlib", {"pyplot": view, "use": use, **top, **styles}),
            "matplotlib.pyplot": view, "matplotlib.style": styles["style"], **others}


def _on_current(pyplot, method):
    """`plt.<name>(...)`: the method of the current figure's axes (a new figure if none is open)."""
    def call(*args, **kwargs):
        return getattr(pyplot.axes_now(), method)(*args, **kwargs)
    call.__name__ = method.removeprefix("set_")
    return call


def _ticks(pyplot, method):
    """`plt.xticks(ticks, labels, rotation=...)`: sets them (reading the ticks matplotlib would pick is not
    available: the explorer does not lay figures out as matplotlib does)."""
    def ticks(ticks=None, labels=None, *, minor=False, **kwargs):
        if ticks is None:
            pyplot.runtime.refuse(f"plt.{method[4:]}() without ticks reads matplotlib's layout, which the "
                                  "explorer does not have: give the ticks")
        return getattr(pyplot.axes_now(), method)(ticks, labels, **kwargs)
    ticks.__name__ = method[4:]
    return ticks


def _refusal(runtime, name):
    drawn = ", ".join(call for call in Axes.DRAWING if call not in ("legend", "grid"))

    def refused(*args, **kwargs):
        runtime.refuse(f"plt.{name}() is not drawn in the explorer: it draws {drawn}, with titles, labels, "
                       "legends, ticks, scales and limits")
    refused.__name__ = name
    return refused


class Figure:
    """A figure: its axes (one, or a grid of subplots, each drawn as a plot of its own), its size, and show.
    What `plt.figure()` and `plt.subplots()` return."""

    def __init__(self, pyplot, num, size):
        self._pyplot, self._num, self._size = pyplot, num, size
        pyplot.grids += 1
        self._serial = pyplot.grids  # (the run's count of figures: their subplots drawn together)
        self._cells = {}  # (rows, columns, index) -> Axes, in the order they were made
        self._current = None

    def _axes_at(self, rows, columns, index):
        """The axes of a grid cell (made on first use), now the figure's current axes."""
        for n, name in ((rows, "rows"), (columns, "columns")):
            if not isinstance(n, int) or n < 1:
                raise ValueError(f"Number of {name} must be a positive integer, not {n!r}")
        if not isinstance(index, int) or not 1 <= index <= rows * columns:
            raise ValueError(f"num must be an integer with 1 <= num <= {rows * columns}, not {index!r}")
        cell = (rows, columns, index)
        if cell not in self._cells:
            self._cells[cell] = self._pyplot.new_axes(self, cell)
        self._current = self._cells[cell]
        return self._current

    def gca(self):
        return self._current if self._current is not None else self._axes_at(1, 1, 1)

    def add_subplot(self, *args, projection=None, **kwargs):
        if projection not in (None, "rectilinear"):
            self._pyplot.runtime.refuse(f"a {projection!r} projection is not drawn in the explorer: it draws "
                                        "flat x-y plots")
        if len(args) == 1 and isinstance(args[0], int) and 111 <= args[0] <= 999:
            args = tuple(int(digit) for digit in str(args[0]))
        return self._axes_at(*(args or (1, 1, 1)))

    def subplots(self, nrows=1, ncols=1, *, squeeze=True, **kwargs):
        grid = AxesGrid([[self._axes_at(nrows, ncols, row * ncols + column + 1) for column in range(ncols)]
                         for row in range(nrows)])
        return grid.squeezed() if squeeze else grid

    def get_axes(self):
        return list(self._cells.values())

    @property
    def axes(self):
        return self.get_axes()

    def suptitle(self, t, **kwargs):
        self._pyplot.tell_figure(self, {"suptitle": self._pyplot.words(t)})

    def tight_layout(self, **kwargs):
        """The explorer lays out its figures itself."""

    def show(self, *args, **kwargs):
        self._pyplot.show()

    def __str__(self):
        width, height = self._size
        return f"Figure({width * 100:g}x{height * 100:g})"

    def __repr__(self):
        width, height = self._size
        return f"<Figure size {width * 100:g}x{height * 100:g} with {len(self._cells)} Axes>"


class AxesGrid:
    """A grid of subplots as `plt.subplots(rows, columns)` returns it (numpy's array of axes, for the uses a
    program makes of it: `axes[0, 1]`, `axes[1]`, `for ax in axes.flat`, `axes.ravel()`, `axes.shape`)."""

    def __init__(self, rows):
        self._rows = rows

    def squeezed(self):
        """One Axes for a 1x1 grid, a row for 1xn or nx1, else the grid (matplotlib's `squeeze=True`)."""
        if len(self._rows) == 1 and len(self._rows[0]) == 1:
            return self._rows[0][0]
        if len(self._rows) == 1 or len(self._rows[0]) == 1:
            return AxesGrid([ax for row in self._rows for ax in row])
        return self

    @property
    def shape(self):
        first = self._rows[0]
        return (len(self._rows), len(first)) if isinstance(first, list) else (len(self._rows),)

    @property
    def flat(self):
        return iter(self.ravel()._rows)

    def ravel(self):
        return AxesGrid([ax for row in self._rows for ax in (row if isinstance(row, list) else [row])])

    flatten = ravel

    def __len__(self):
        return len(self._rows)

    def __iter__(self):
        return (AxesGrid(row) if isinstance(row, list) else row for row in self._rows)

    def __getitem__(self, key):
        if isinstance(key, tuple):
            if len(key) != 2 or len(self.shape) != 2:
                raise IndexError(f"too many indices for array: array is {len(self.shape)}-dimensional, but "
                                 f"{len(key)} were indexed")
            row = self._rows[key[0]]
            if isinstance(key[0], slice):
                return AxesGrid([r[key[1]] for r in row])
            picked = row[key[1]]
            return AxesGrid(picked) if isinstance(picked, list) else picked
        picked = self._rows[key]
        return AxesGrid(picked) if isinstance(picked, list) else picked

    def __repr__(self):
        """As numpy prints an array of axes."""
        if len(self.shape) == 1:
            return f"[{' '.join(repr(ax) for ax in self._rows)}]"
        return "[" + "\n ".join(f"[{' '.join(repr(ax) for ax in row)}]" for row in self._rows) + "]"


class Pyplot:
    """The run's pyplot: its open figures by matplotlib's numbers, the current one, and the recorder it tells."""

    OWN = ("figure", "subplots", "subplot", "gca", "gcf", "show", "close", "clf", "cla", "tight_layout",
           "suptitle")

    def __init__(self, runtime, params):
        self.runtime = runtime
        self.params = params  # the run's rcParams
        self.figures = {}  # matplotlib's number -> Figure, the open ones
        self.current = None
        self.made = 0  # axes made in the run: each is a figure of the events
        self.grids = 0  # figures made in the run

    def tell(self, number, fields):
        """(The recorder charges each event and its size to the run's budgets.)"""
        self.runtime.plot_fn({"figure": number, **fields})

    def tell_figure(self, figure, fields):
        for axes in figure._cells.values():
            axes._tell(**fields)

    def figure_now(self):
        return self.current if self.current is not None else self.new_figure(None)

    def axes_now(self):
        return self.figure_now().gca()

    def new_figure(self, figsize, num=None):
        """A new figure with matplotlib's number `num` (by default one more than the highest open)."""
        num = num if num is not None else max(self.figures, default=0) + 1
        size = tuple(float(v) for v in (self.params["figure.figsize"] if figsize is None else figsize))
        self.current = self.figures[num] = Figure(self, num, size)
        return self.current

    def new_axes(self, figure, cell):
        """The axes of one cell of `figure`: in the events, a figure the run never numbers again."""
        self.made += 1
        rows, columns, index = cell
        axes = Axes(self, self.made, _position(rows, columns, index))
        fields = {"opened": True}
        width, height = figure._size
        if (width, height) != (6.4, 4.8) or cell != (1, 1, 1):
            fields["aspect"] = (width / columns) / (height / rows) if height > 0 else 1.0
        if cell != (1, 1, 1):
            fields.update(cell=list(cell), grid=figure._serial)
        self.tell(self.made, fields)
        return axes

    def numbers(self, values, exact=False):
        """values as float64 numbers (`exact`: floats as they are, as matplotlib's hist bins them), as
        matplotlib takes them (a tensor that requires grad refuses, as torch's `__array__` does); sized before
        they are made."""
        n = _count(values)
        self._at_most(n)  # before the array is made
        self.runtime.budget.charge_elements(n)
        array = np.asarray(values)
        self._at_most(array.size)  # (a list of lists: its length was not all)
        if not (exact and array.dtype.kind == "f"):
            array = array.astype(np.float64)
        if array.ndim == 0:
            array = array.reshape(1)
        return array

    def _at_most(self, points):
        if points > MAX_POINTS:
            self.runtime.refuse(f"{points:,} points in one drawing call are more than the explorer draws "
                                f"({MAX_POINTS:,})")

    def words(self, label):
        text = label if isinstance(label, str) else str(label)
        if len(text) > 500:
            self.runtime.refuse("a plot's label or title longer than 500 characters is not drawn")
        return text

    def colour(self, value, invalid=NOT_A_COLOUR):
        """A colour as '#rrggbb[aa]', or matplotlib's ValueError (its text: `invalid`, formatted with the value)."""
        if isinstance(value, str) and value.lower().startswith(XKCD):
            self.runtime.refuse(f"the xkcd colour {value!r} is not drawn in the explorer: name a CSS colour "
                                "('skyblue'), a hex one ('#75bbfd') or one of matplotlib's ('C0', 'tab:blue')")
        if not isinstance(value, (str, tuple, list, int, float)):  # an array or a tensor of 3 or 4 numbers
            value = tuple(self.numbers(value).ravel().tolist())
        hex_text = to_hex(value)
        if hex_text is None:
            raise ValueError(invalid.format(value))
        return hex_text

    def style(self, kwargs, artist, invalid=NOT_A_COLOUR):
        style = {}
        for key, value in kwargs.items():
            if value is None or key in _STYLES_NOT_DRAWN:
                continue
            if key in _NOT_DRAWN:
                self.runtime.refuse(f"the explorer does not draw {key}=: it draws the data as given")
            if key not in _STYLE_KEYWORDS:
                raise AttributeError(f"{artist}.set() got an unexpected keyword argument {key!r}")
            name = _STYLE_KEYWORDS[key]
            if name in ("alpha", "width", "size"):
                style[name] = float(value)
            elif name == "color":
                style[name] = self.colour(value, invalid)
            else:
                style[name] = self.words(value)
        if "linestyle" in style and style["linestyle"] not in (*LINESTYLES, "solid", "dashed", "dashdot", "dotted",
                                                                "none", "None", ""):
            raise ValueError(f"{style['linestyle']!r} is not a valid value for ls.")
        return style

    # --- pyplot's own functions ----------------------------------------------------------------------
    def figure(self, num=None, figsize=None, **kwargs):
        if num is not None and num in self.figures:
            self.current = self.figures[num]
            return self.current
        return self.new_figure(figsize, num if isinstance(num, int) else None)

    def subplots(self, nrows=1, ncols=1, *, figsize=None, subplot_kw=None, squeeze=True, **kwargs):
        figure = self.new_figure(figsize)
        if subplot_kw and subplot_kw.get("projection") not in (None, "rectilinear"):
            figure.add_subplot(projection=subplot_kw["projection"])
        return figure, figure.subplots(nrows, ncols, squeeze=squeeze)

    def subplot(self, *args, **kwargs):
        return self.figure_now().add_subplot(*args, **kwargs)

    def gca(self):
        return self.axes_now()

    def gcf(self):
        return self.figure_now()

    def show(self, *args, **kwargs):
        for figure in self.figures.values():
            self.tell_figure(figure, {"shown": True})
        self.figures.clear()
        self.current = None

    def close(self, fig=None):
        if isinstance(fig, str):
            closing = list(self.figures.values()) if fig == "all" else []
        elif fig is None:
            closing = [self.current] if self.current is not None else []
        else:
            closing = [fig] if isinstance(fig, Figure) else [self.figures.get(fig)]
        for figure in closing:
            if figure is not None and self.figures.get(figure._num) is figure:
                del self.figures[figure._num]
                self.tell_figure(figure, {"closed": True})
        if self.current is not None and self.current not in self.figures.values():
            self.current = None

    def clf(self):
        if self.current is not None:
            self.tell_figure(self.current, {"cleared": True})

    def cla(self):
        if self.current is not None:
            self.axes_now()._tell(cleared=True)

    def tight_layout(self, **kwargs):
        """The explorer lays out its figures itself."""

    def suptitle(self, t, **kwargs):
        self.figure_now().suptitle(t)


def _position(rows, columns, index):
    """Where matplotlib puts a grid's cell in its figure (left, bottom, width, height, as fractions), with its
    default margins and spacing: what `str(ax)` prints."""
    left, right, bottom, top, space = 0.125, 0.9, 0.11, 0.88, 0.2
    width = (right - left) / (columns + space * (columns - 1))
    height = (top - bottom) / (rows + space * (rows - 1))
    row, column = divmod(index - 1, columns)
    return (left + column * width * (1 + space), top - row * height * (1 + space) - height, width, height)


def _count(values):
    size = getattr(values, "size", None)
    if size is not None and not callable(size):
        return int(size)
    if hasattr(values, "numel"):
        return values.numel()
    return len(values) if isinstance(values, (list, tuple, range)) else 1
