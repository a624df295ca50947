"""A sparkline: a leaf's `.grad` (or the loss) over the backward calls, as a small inline SVG beside its value.
What step k has not reached yet is drawn faint; a dashed line marks where step k is; zero_() is a square at 0,
a hover on a point tells its call and value."""

from __future__ import annotations

import math
from html import escape

from app.grad_history.model import FUTURE_ALPHA

WIDTH, HEIGHT, PAD = 112, 22, 3
MAX_POINTS = 150  # a longer series is drawn from every n-th point (and its last)
MAX_MARKERS = 40  # more points than this are drawn as a line alone


def sparkline(series: list[dict], calls: int, now: float, k: int) -> str:
    """`series`: dicts of x, y, k, text, marker (and colour); `now`: the x of step k."""
    ys = [y for s in series for y in s["y"] if not math.isnan(y)]
    if not ys:
        return ""
    lo, hi = min(ys), max(ys)
    if hi - lo < 1e-12 * max(1.0, abs(hi)):
        lo, hi = lo - 1.0, hi + 1.0
    x0, x1 = 0.5, max(calls, 1) + 0.5

    def px(x: float) -> float:
        return round(PAD + (x - x0) / (x1 - x0) * (WIDTH - 2 * PAD), 1)

    def py(y: float) -> float:
        return round(HEIGHT - PAD - (y - lo) / (hi - lo) * (HEIGHT - 2 * PAD), 1)

    parts = []
    if lo < 0 < hi:
        parts.append(f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{py(0.0)}" y2="{py(0.0)}" class="zero"/>')
    for s in series:
        colour = escape(s.get("colour", "#2ca02c"))
        rows = _sample(len(s["x"]))
        for run in _runs(s, rows):
            done = [i for i in run if s["k"][i] <= k]
            for chosen, alpha in ((run, FUTURE_ALPHA), (done, 1.0)):
                if len(chosen) > 1:
                    points = " ".join(f"{px(s['x'][i])},{py(s['y'][i])}" for i in chosen)
                    parts.append(f'<polyline points="{points}" stroke="{colour}" opacity="{alpha}"/>')
        marked = [i for i in rows if s["marker"][i] != "x"] if len(rows) <= MAX_MARKERS else []
        last = max((i for i in range(len(s["x"])) if s["k"][i] <= k and s["marker"][i] != "x"), default=None)
        for i in marked + ([last] if last is not None and last not in marked else []):
            parts.append(_marker(s, i, px(s["x"][i]), py(s["y"][i]), colour, i == last,
                                 1.0 if s["k"][i] <= k else FUTURE_ALPHA))
    if now > 0:
        parts.append(f'<line x1="{px(now)}" x2="{px(now)}" y1="1" y2="{HEIGHT - 1}" class="now-line"/>')
    return (f'<svg class="spark" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
            f'aria-hidden="true">{"".join(parts)}</svg>')


def _sample(n: int) -> list[int]:
    every = max(1, math.ceil(n / MAX_POINTS))
    rows = list(range(0, n, every))
    return rows if not n or rows[-1] == n - 1 else [*rows, n - 1]


def _runs(s: dict, rows: list[int]) -> list[list[int]]:
    """The rows to join with a line: a .grad set to None (zero_grad's default) is skipped, so that a training
    loop's grads read as one line over its calls."""
    return [[i for i in rows if s["marker"][i] != "x"]]


def _marker(s: dict, i: int, x: float, y: float, colour: str, last: bool, alpha: float) -> str:
    title = f'<title>call {_call(s["x"][i])}: {escape(s["text"][i])}</title>'
    if s["marker"][i] == "square":
        return (f'<rect x="{x - 2}" y="{y - 2}" width="4" height="4" fill="white" stroke="{colour}" '
                f'opacity="{alpha}">{title}</rect>')
    r = 2.8 if last else 1.6
    return f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}" opacity="{alpha}">{title}</circle>'


def _call(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{int(x)}–{int(x) + 1}"
