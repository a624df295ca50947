"""The graph: its model and layout (pure), what it shows at step k, and its Bokeh view, camera and teaching glyphs."""
