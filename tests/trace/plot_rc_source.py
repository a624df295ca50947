"""matplotlib's rc parameters and style sheets, read from matplotlib itself: the data engine/trace/plot_rc_data.py
holds (`python -m tests.trace.plot_rc_source` writes it; tests/trace/test_plot_style.py checks it is current)."""
from __future__ import annotations

import enum
import pprint
from pathlib import Path

TARGET = Path(__file__).resolve().parents[2] / "engine" / "trace" / "plot_rc_data.py"


def plain(value):
    """A parameter's value as the data holds it: numbers, text, lists and tuples as they are; a colour cycle as
    ('cycler', {key: values}); matplotlib's enums and objects by their text."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    if type(value).__name__ == "Cycler":
        return ("cycler", {k: [plain(v) for v in vs] for k, vs in value.by_key().items()})
    raise TypeError(f"no plain form for {value!r}")


def read():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    defaults = {k: plain(v) for k, v in matplotlib.rcParamsDefault.items() if not k.startswith("_") and k != "backend"}
    styles = {}
    for name in plt.style.available:
        with plt.style.context(name, after_reset=True):
            now = {k: plain(v) for k, v in plt.rcParams.items() if k in defaults}
        styles[name] = {k: v for k, v in now.items() if v != defaults[k]}
    return defaults, styles


def source():
    defaults, styles = read()
    return ('"""matplotlib 3.11\'s rc parameters (their defaults) and its style sheets (what each changes), as\n'
            "tests/trace/plot_rc_source.py reads them from matplotlib: plt.rcParams and plt.style "
            "(plot_style.py).\"\"\"\n"
            f"DEFAULTS = {pprint.pformat(defaults, width=118, sort_dicts=True)}\n\n"
            f"STYLES = {pprint.pformat(styles, width=118, sort_dicts=True)}\n")


if __name__ == "__main__":
    TARGET.write_text(source())
