"""The figures a program drew with matplotlib's pyplot, as they stand at step k (the `plot` events of
engine/trace/plot_view.py folded in order)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

_LABELS = ("title", "xlabel", "ylabel", "xscale", "yscale", "xlim", "ylim", "grid", "aspect", "xticks", "yticks",
           "cell", "grid", "suptitle")


@dataclass
class Figure:
    number: int
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    xscale: str = "linear"
    yscale: str = "linear"
    xlim: list | None = None
    ylim: list | None = None
    grid: bool = False
    xticks: dict | None = None  # {"at": [...], "labels": [...] or None, "rotation": degrees}
    yticks: dict | None = None
    aspect: float | None = None
    cell: list | None = None  # [rows, columns, index] of a grid of subplots
    grid: int | None = None  # the grid's number in the run
    suptitle: str = ""
    legend: bool = False
    series: list = field(default_factory=list)
    shown: bool = False


class Plotted:
    """Where a timeline drew, found again for any step by bisection."""

    def __init__(self, events: list[dict]):
        self.steps = [i for i, e in enumerate(events) if e["kind"] == "plot"]
        self.events = [events[i] for i in self.steps]

    def count(self, k: int) -> int:
        """How many drawing calls had run by step k: the figures change only when this does."""
        return bisect_right(self.steps, k)

    def figures(self, k: int) -> list[Figure]:
        return figures_of(self.events[: self.count(k)])


def figures_of(events: list[dict]) -> list[Figure]:
    """The figures these drawing calls leave, in the order they were opened (closed ones gone)."""
    figures: dict[int, Figure] = {}
    for e in events:
        number = e["figure"]
        figure = figures.get(number)
        if figure is None or e.get("cleared"):
            figure = figures[number] = Figure(number, aspect=figure.aspect if figure else None,
                                              cell=figure.cell if figure else None,
                                              grid=figure.grid if figure else None)
        if e.get("closed"):
            del figures[number]
            continue
        if "series" in e:
            figure.series.append(e["series"])
        if "legend" in e:
            legend = e["legend"]
            figure.legend = True
            if isinstance(legend, list):  # labels for the series in order
                figure.series = [{**s, "label": label} for s, label in zip(figure.series, legend)] \
                    + figure.series[len(legend):]
        for key in _LABELS:
            if key in e:
                setattr(figure, key, e[key])
        figure.shown = figure.shown or bool(e.get("shown"))
    return [f for f in figures.values() if f.series or f.title]


_DRAWN = {"line": "a line through {n} points", "scatter": "{n} points", "hist": "a histogram of {bins} bins",
          "bar": "{n} bars", "hline": "a horizontal line", "vline": "a vertical line",
          "hlines": "{lines} horizontal lines", "vlines": "{lines} vertical lines"}


def describe(e: dict) -> str:
    """A drawing call in words, for the caption."""
    where = f"plot {e['figure']}"
    if e.get("shown"):
        return f"plt.show() shows {where} under Plots and closes its figure: what is drawn next starts a new one."
    if e.get("closed"):
        return f"{where}'s figure is closed without being shown."
    if e.get("cleared"):
        return f"{where} is cleared."
    if "series" in e:
        s = e["series"]
        what = _DRAWN[s["kind"]].format(n=len(s.get("y") or ()), bins=len(s.get("y") or ()),
                                        lines=len(s.get("at") or ()))
        label = f" ({s['label']})" if s.get("label") else ""
        return f"matplotlib draws {what}{label} in {where} (see Plots)."
    if e.get("opened"):
        if e.get("cell"):
            rows, columns, index = e["cell"]
            return f"A new plot: {where}, subplot {index} of a {rows}×{columns} grid."
        return f"A new plot: {where}."
    said = [f"{key} {e[key]!r}" for key in ("suptitle", "title", "xlabel", "ylabel") if key in e]
    said += [f"{key} {e[key]}" for key in ("xscale", "yscale", "xlim", "ylim") if key in e]
    said += [f"{key[0]} ticks at {e[key]['at']}" for key in ("xticks", "yticks") if key in e]
    if "legend" in e:
        said.append("a legend")
    if "grid" in e:
        said.append("a grid" if e["grid"] else "no grid")
    return f"{where} gets {', '.join(said)}." if said else where


def grouped(figures: list[Figure]) -> list[list[Figure]]:
    """The figures to draw, a grid's subplots together (in grid order: a grid has as many columns as its cells
    say), each other figure alone."""
    groups: dict = {}
    for f in figures:
        groups.setdefault(("grid", f.grid) if f.grid is not None else ("alone", f.number), []).append(f)
    return [sorted(group, key=lambda f: f.cell[2] if f.cell else 0) for group in groups.values()]
