"""The figures a program drew with matplotlib: folded per step (pure) and drawn with Bokeh."""
