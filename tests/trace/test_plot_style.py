"""plt.rcParams, plt.rc, plt.style and matplotlib.rc_context in a program (engine/trace/plot_style.py): what a program
reads back and the errors it gets are real matplotlib's (the oracle's); the data they come from is matplotlib's
(plot_rc_data.py, checked current here); and IPython.display's display / clear_output in a run."""
from __future__ import annotations

import contextlib
import io

import pytest

from engine.trace import run as trace
from tests.trace import plot_rc_source

PROGRAM = """import matplotlib
import matplotlib.pyplot as plt
from matplotlib import style
print(len(plt.style.available), 'ggplot' in style.available)
print(plt.rcParams['figure.figsize'], plt.rcParams['font.size'], plt.rcParams['axes.grid'])
plt.style.use('ggplot')
print(plt.rcParams['axes.facecolor'], plt.rcParams['axes.prop_cycle'].by_key()['color'][:3])
with plt.style.context(['dark_background', {'lines.linewidth': 4}]):
    print(plt.rcParams['axes.facecolor'], plt.rcParams['lines.linewidth'])
print(plt.rcParams['axes.facecolor'], plt.rcParams['lines.linewidth'])
plt.style.use('default')
colors = plt.rcParams['axes.prop_cycle'].by_key()['color']
print(len(colors), colors[0], len(plt.rcParams['axes.prop_cycle']), list(plt.rcParams['axes.prop_cycle'])[1])
plt.rcParams['figure.figsize'] = (10, 5)
plt.rcParams.update({'font.size': '14', 'axes.grid': 'on', 'figure.dpi': 120})
print(plt.rcParams['figure.figsize'], plt.rcParams['font.size'], plt.rcParams['axes.grid'], plt.rcParams['figure.dpi'])
plt.rc('lines', lw=3, c='r')
plt.rc(('xtick', 'ytick'), labelsize=8)
print(plt.rcParams['lines.linewidth'], plt.rcParams['lines.color'], plt.rcParams['ytick.labelsize'])
with matplotlib.rc_context({'axes.grid': False}):
    print(plt.rcParams['axes.grid'])
print(plt.rcParams['axes.grid'], matplotlib.rcParams['font.size'], plt.rcParamsDefault['font.size'])
plt.rcdefaults()
print(plt.rcParams['font.size'], plt.rcParams['lines.linestyle'])
def setting(key, value):
    plt.rcParams[key] = value
for bad in (lambda: plt.style.use('seaborn'), lambda: setting('nope', 1), lambda: plt.rcParams['nope'],
            lambda: plt.rc('nope', x=1), lambda: setting('axes.grid', 'x'), lambda: setting('font.size', 'big')):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
"""


def _real(source):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcdefaults()
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(source, {})
    finally:
        plt.rcdefaults()
    return out.getvalue()


def test_styles_and_parameters_read_as_matplotlibs():
    timeline = trace(PROGRAM)
    assert timeline.error is None
    assert timeline.output == _real(PROGRAM)


def test_the_data_is_matplotlibs_own():
    pytest.importorskip("matplotlib")
    from engine.trace import plot_rc_data

    defaults, styles = plot_rc_source.read()
    assert (plot_rc_data.DEFAULTS, plot_rc_data.STYLES) == (defaults, styles)


def test_the_default_figure_size_is_drawn():
    timeline = trace("import matplotlib.pyplot as plt\nplt.rcParams['figure.figsize'] = [9.6, 4.8]\nplt.plot([1, 2])\n")
    opened = [e for e in timeline.events if e["kind"] == "plot" and e.get("opened")]
    assert opened[0]["aspect"] == 2.0


def test_ipython_display_shows_values_and_figures():
    timeline = trace("""import torch
import matplotlib.pyplot as plt
from IPython.display import display, clear_output
from IPython import display as ipd
for step in range(2):
    clear_output(wait=True)
    display(torch.ones(2) * step, 'text')
fig = plt.figure()
plt.plot([1, 2])
ipd.display(fig)
ipd.HTML('<b>x</b>')
""")
    assert timeline.output == "tensor([0., 0.])\n'text'\ntensor([1., 1.])\n'text'\n"
    assert any(e["kind"] == "plot" and e.get("shown") for e in timeline.events)
    assert (timeline.error["line"], timeline.error["message"]) == (
        11, "IPython.display.HTML: the explorer's console shows text, not HTML objects")
