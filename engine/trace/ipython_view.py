"""`from IPython.display import display, clear_output`, as notebooks show values and redraw a live plot in a
training loop: `display(x)` shows what a notebook shows of it (a figure is drawn, anything else printed as its
repr), and `clear_output()` keeps the console as it is (the explorer's console is the run's whole output, which
the player steps through). Rich objects (HTML, images, audio) are refused at their call: the console shows text."""
from __future__ import annotations

from .module_views import SafeModule
from .plot_view import Figure


def ipython_views(runtime, package):
    def display(*objs, **kwargs):
        for obj in objs:
            if isinstance(obj, Figure):
                obj.show()
            else:
                runtime.print(repr(obj))

    def clear_output(wait=False):
        return None

    def rich(name):
        def refused(*args, **kwargs):
            runtime.refuse(f"IPython.display.{name}: the explorer's console shows text, not {name} objects")

        return refused

    names = {"display": display, "clear_output": clear_output,
             **{name: rich(name) for name in ("HTML", "Markdown", "Image", "Audio", "Video", "SVG", "Latex",
                                              "Math", "JSON", "IFrame")}}
    shown = SafeModule("IPython.display", names)
    return {"IPython": SafeModule("IPython", {"display": shown}), "IPython.display": shown}
