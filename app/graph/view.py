"""GraphView: the Bokeh figure of the graph. Built once; each step only updates column data."""

from __future__ import annotations

import panel as pn
import param
from bokeh.models import (
    BoxZoomTool,
    ColumnDataSource,
    CustomJS,
    HoverTool,
    Label,
    Range1d,
    TapTool,
)
from bokeh.plotting import figure
from bokeh.transform import dodge
from panel.viewable import Viewer

from app.graph import camera_model
from app.graph import columns as gc
from app.graph import model as gm
from app.graph.camera import camera
from app.graph.paint import hover_after_paint, paint_in_view_only
from app.graph.teaching import TeachingLayer
from app.serving import batch, on_loop
from app.store import Store

# Zoomed out, every label shrinks with the boxes (so nothing that does not overlap at the default zoom
# overlaps), down to DETAIL px per unit; below it only node titles are drawn, at their own size, down to TITLES.
DETAIL = 0.55 * gm.SCALE
TITLES = 0.35 * gm.SCALE
FONT = f"{gm.FONT:g}px"

# Each text column of the boxes has its own source: Bokeh measures every label of a source again when any
# column of it changes, and a backward step changes only a grad or two and an outline.
LABELS = ("title", "value", "fn", "grad")

# Labels are thinned out as the view holds more nodes (hover still tells everything); those shown are sized
# with the zoom (at most their size at the default zoom).
_LABEL_TOGGLE = f"""
const scale = p.inner_width / (xr.end - xr.start);
if (!(scale > 0 && Number.isFinite(scale))) {{ return }}
const detail = scale >= {DETAIL}, titles = scale >= {TITLES};
if (title.visible !== (titles && !detail)) {{ title.visible = titles && !detail }}
const size = `${{(Math.min(1, scale / {gm.SCALE}) * {gm.FONT}).toFixed(1)}}px`;
for (const r of others) {{
  if (r.visible !== detail) {{ r.visible = detail }}
  if (detail && r._font !== size) {{ r._font = size; r.glyph.text_font_size = {{value: size}} }}
}}
"""


_NOTHING = "No tensor in this part of the program: its graph has nothing to draw."
_NOTHING_LOOP = ("No tensor here, after the training loop: step back (←) or pick an iteration above "
                 "to see its graph.")


class GraphView(Viewer):
    store = param.ClassSelector(class_=Store)

    def __init__(self, **params):
        super().__init__(**params)
        self.boxes = ColumnDataSource(data=self._empty_boxes())
        self.sinks = ColumnDataSource(data=self._empty_sinks())
        self.labels = {name: ColumnDataSource(data={"x": [], "y": [], name: []}) for name in LABELS}
        self.sink_labels = ColumnDataSource(data={"x": [], "y": [], "title": []})
        self.edges = ColumnDataSource(data={c: [] for c in (
            "x0", "y0", "x1", "y1", "cx0", "cy0", "cx1", "cy1", "edge", "colour", "width", "alpha")})
        self.badges = ColumnDataSource(data={"x": [], "y": [], "text": [], "fill": [], "tip": []})
        self.figure = self._figure()
        # A segment with no tensor in it (the code after a training loop) says where the graphs are
        self.nothing = Label(x=14, y=14, x_units="screen", y_units="screen", visible=False, text_font_size="13px",
                             text_color="#555", text="")
        self.figure.add_layout(self.nothing)
        self.camera = camera(self.figure)
        paint_in_view_only(self.figure)
        hover_after_paint(self.figure)
        self._fits = 0  # graphs framed so far: the camera frames a graph when this changes
        self._aimed = None  # what the camera was last told
        self._shape = None  # the shape of the graph shown (graph_model.GraphModel.shape)
        self._drawn: tuple = (None,)  # the graph, state, selected and lit drawn last
        self.pane = pn.pane.Bokeh(self.figure, sizing_mode="stretch_both", min_height=200)
        self.boxes.selected.on_change("indices", on_loop(self._on_tap_box))
        self.sinks.selected.on_change("indices", on_loop(self._on_tap_sink))
        self.store.param.watch(self._on_graph, "graph")
        self.store.param.watch(self._on_state, ["state", "selected", "lit"])
        if self.store.graph is not None:
            self._on_graph()

    @staticmethod
    def _empty_boxes() -> dict:
        cols = ("key", "x", "y", "h") + tuple(gc.box_columns(gm.GraphModel(), {"nodes": {}, "k": -1}).keys())
        return {c: [] for c in cols}

    @staticmethod
    def _empty_sinks() -> dict:
        cols = ("key", "x", "y") + tuple(gc.sink_columns(gm.GraphModel(), {"nodes": {}, "k": -1}).keys())
        return {c: [] for c in cols}

    def _figure(self):
        p = figure(
            x_range=Range1d(0, 10), y_range=Range1d(-5, 1), tools="pan,wheel_zoom,reset",
            active_scroll="wheel_zoom", toolbar_location="above", sizing_mode="stretch_both",
            output_backend="canvas", min_border=4,
        )
        p.axis.visible = False
        p.grid.visible = False
        p.outline_line_color = None
        p.toolbar.logo = None
        p.background_fill_color = "#fcfcfc"
        p.bezier("x0", "y0", "x1", "y1", "cx0", "cy0", "cx1", "cy1", source=self.edges,
                 line_color="colour", line_width="width", line_alpha="alpha")
        boxes = p.rect("x", "y", gm.BOX_W, "h", source=self.boxes, fill_color="fill", fill_alpha="alpha",
                       line_color="line", line_width="width", line_alpha="alpha", line_dash="dash",
                       border_radius=6)
        sinks = p.ellipse("x", "y", gm.SINK_W, gm.SINK_H, source=self.sinks, fill_color=gm.COLOURS["sink"],
                          fill_alpha="alpha", line_color="line", line_width="width", line_alpha="alpha")
        labels = [
            p.text("x", dodge("y", gm.LINE), text="title", source=self.labels["title"], text_align="center",
                   text_baseline="middle", text_font_size=FONT, text_font_style="bold", text_color="#222"),
            p.text("x", dodge("y", 0.0), text="value", source=self.labels["value"], text_align="center",
                   text_baseline="middle", text_font_size=FONT, text_color="#222"),
            p.text("x", dodge("y", -gm.LINE), text="fn", source=self.labels["fn"], text_align="center",
                   text_baseline="middle", text_font_size=FONT, text_font_style="italic", text_color="#444"),
            p.text("x", dodge("y", -gm.GRAD_DY), text="grad", source=self.labels["grad"], text_align="center",
                   text_baseline="middle", text_font_size=FONT, text_font_style="bold",
                   text_color="#7b2cbf"),
            p.text("x", "y", text="title", source=self.sink_labels, text_align="center", text_baseline="middle",
                   text_font_size=FONT, text_color="#333"),
        ]
        p.circle("x", "y", radius=gm.BADGE_R, source=self.badges, fill_color="fill", line_color="#555")
        labels.append(p.text("x", "y", text="text", source=self.badges, text_align="center",
                             text_baseline="middle", text_font_size=FONT, text_color="#222"))
        self.teaching = TeachingLayer(p, _patch)  # the chain rule on the edges, saved tensors, where backward fails
        labels.extend(self.teaching.labels)
        p.add_tools(
            BoxZoomTool(match_aspect=True),
            TapTool(renderers=[boxes, sinks]),
            HoverTool(renderers=[boxes], tooltips=[("node", "@title"), ("value", "@tip_value"),
                                                  ("grad", "@tip_grad"), ("grad_fn", "@fn")]),
            HoverTool(renderers=[sinks], tooltips=[("AccumulateGrad", "@tip_value"), ("grad", "@tip_grad")]),
        )
        for r in p.renderers:  # the store's `selected` draws the outline: Bokeh's selection look is not used
            r.selection_glyph = None
            r.nonselection_glyph = None
        title_only = p.text("x", "y", text="title", source=self.labels["title"], text_align="center",
                            text_baseline="middle", text_font_size=FONT, text_font_style="bold", text_color="#222")
        title_only.selection_glyph = title_only.nonselection_glyph = None
        toggle = CustomJS(args={"p": p, "xr": p.x_range, "title": title_only, "others": labels},
                          code=_LABEL_TOGGLE)
        p.x_range.js_on_change("start", toggle)
        p.x_range.js_on_change("end", toggle)
        self._labels = [title_only, *labels]
        return p

    def _on_tap_box(self, attr, old, new):
        self._tapped(self.boxes, new)

    def _on_tap_sink(self, attr, old, new):
        self._tapped(self.sinks, new)

    def _tapped(self, source: ColumnDataSource, indices: list[int]) -> None:
        if indices:
            key = source.data["key"][indices[0]]
            source.selected.indices = []  # so that tapping the same node again is seen again
            box = int(key[1:])
            if key.startswith("t") and box in self.store.graph.modules:
                self.store.open_module(self.store.graph.modules[box][0])
            elif gm.selectable(key, self.store.state):
                self.store.select(key)

    def _on_graph(self, *events):
        model = self.store.graph
        static = gc.static_columns(model)
        state = self.store.state
        same_shape = self._shape is not None and self._shape == model.shape
        self._shape = model.shape
        with batch():
            empty = not model.boxes
            if empty or self.nothing.visible:
                its = self.store.iterations
                after = bool(its and its.segment_of) and self.store.segment > max(its.segment_of.values())
                self.nothing.text = _NOTHING_LOOP if after else _NOTHING
                self.nothing.visible = empty
            self.boxes.selected.indices = []
            self.sinks.selected.indices = []
            boxes = gc.box_columns(model, state, self.store.selected, self.store.lit)
            sinks = gc.sink_columns(model, state, self.store.selected)
            edges = {**gc.edge_geometry(model), **gc.edge_columns(model, state)}
            # Another iteration of the loop has the same layout: only the values that differ are sent.
            put = _patch if same_shape else _replace
            put(self.boxes, {**static["boxes"], **boxes})
            put(self.sinks, {**static["sinks"], **sinks})
            at = {"x": static["boxes"]["x"], "y": static["boxes"]["y"]}
            for name, source in self.labels.items():
                put(source, {**at, name: boxes[name]})
            put(self.sink_labels, {"x": static["sinks"]["x"], "y": static["sinks"]["y"], "title": sinks["title"]})
            put(self.edges, edges)
            put(self.badges, gc.badge_columns(model, state))
            self.teaching.show(model, state, self.store.timeline)
            if not same_shape:  # another iteration of the loop keeps the view where it is
                self._fits += 1
            self._aim(model, state)
        self._drawn = self._now()

    def _now(self) -> tuple:
        s = self.store
        return s.graph, s.state, s.selected, s.lit

    def _on_state(self, *events):
        model, state = self.store.graph, self.store.state
        if model is None or state is None or self._drawn[0] is not model or self._drawn == self._now():
            return  # a new graph is drawn whole by _on_graph, with the state
        selected = self.store.selected
        with batch():
            boxes = gc.box_columns(model, state, selected, self.store.lit)
            sinks = gc.sink_columns(model, state, selected)
            _patch(self.boxes, boxes)
            _patch(self.sinks, sinks)
            for name, source in self.labels.items():
                _patch(source, {name: boxes[name]})
            _patch(self.sink_labels, {"title": sinks["title"]})
            _patch(self.edges, gc.edge_columns(model, state))
            _patch(self.badges, gc.badge_columns(model, state))
            self.teaching.show(model, state, self.store.timeline)
            self._aim(model, state)
        self._drawn = self._now()

    def _aim(self, model: gm.GraphModel, state: dict) -> None:
        """Tell the camera (camera.py) the graph's extent and the node step k acts on."""
        aim = (model.extent, self._fits, camera_model.focus(model, state))
        if aim == self._aimed:
            return
        self._aimed = aim
        (x0, x1, y0, y1), fits, (fx, fy) = aim[0], aim[1], aim[2] or (float("nan"), float("nan"))
        self.camera.data = {"x0": [x0], "x1": [x1], "y0": [y0], "y1": [y1], "fit": [fits], "fx": [fx], "fy": [fy]}

    def __panel__(self):
        return self.pane


def _replace(source: ColumnDataSource, columns: dict[str, list]) -> None:
    """All the data anew, in lists of the source's own: a patch changes a source's lists in place."""
    source.data = {name: list(new) for name, new in columns.items()}


def _patch(source: ColumnDataSource, columns: dict[str, list]) -> None:
    """Send only what changed: a patch of the changed rows, whole columns when many rows change, and the
    whole data when the number of rows changes (then `columns` must hold every column of the source)."""
    data = source.data
    if any(name not in data or len(data[name]) != len(new) for name, new in columns.items()):
        source.data = {name: list(new) for name, new in columns.items()}
        return
    patches: dict[str, list] = {}
    for name, new in columns.items():
        if data[name] == new:  # most columns do not change in a step: one comparison in C, not a loop
            continue
        changed = [(i, v) for i, (o, v) in enumerate(zip(data[name], new)) if o != v]
        if len(changed) > 50:
            data[name] = list(new)  # a list of its own: the next patch changes it in place
        elif changed:
            patches[name] = changed
    if patches:
        source.patch(patches)
