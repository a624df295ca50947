"""The views send only what changed between steps (patches, rows of the same layout across iterations, the
history's rows): whatever path led to a step, they hold what a page opened at that step holds."""

from app.graph import model as gm
from app.page import Explorer
from app.program.links import encode_code

# Odd iterations make one more op: the iterations have two shapes.
TWO_SHAPES = """import torch

w = torch.tensor(1.0, requires_grad=True)
for t in range(5):
    y = w * 2.0
    if t % 2:
        y = y * y
    loss = (y - 3.0) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        w.grad = None
"""

SAME_SHAPE = TWO_SHAPES.replace("    if t % 2:\n        y = y * y\n", "")


def drawn(explorer: Explorer) -> dict:
    view, history = explorer.graph, explorer.history
    sources = {"boxes": view.boxes, "sinks": view.sinks, "sink_labels": view.sink_labels, "edges": view.edges,
               "badges": view.badges, **{f"label {name}": s for name, s in view.labels.items()}}
    out = {name: {c: list(v) for c, v in s.data.items()} for name, s in sources.items()}
    out["camera"] = {c: list(v) for c, v in view.camera.data.items() if c != "fit"}
    out["history"] = history.box.text  # its rows: values and sparklines, the past solid and the future faint
    return out


def test_views_after_any_path_hold_what_a_fresh_page_holds():
    for source in (TWO_SHAPES, SAME_SHAPE):
        code = encode_code(source)
        moving = Explorer({"code": code, "step": "1"})
        s = moving.store
        its = s.iterations
        assert len(its) == 5
        shapes = {s._views.model(its.segment_of[j]).shape for j in range(5)}
        assert len(shapes) == (2 if source is TWO_SHAPES else 1)
        s.goto(its.starts[0] + 2)
        w = next(e["id"] for e in s.timeline.events if e.get("name") == "w" and e["kind"] == "leaf")
        s.select(gm.key(w))
        path = []
        for j in (1, 2, 4, 3, 0):
            s.goto_iteration(j)
            path.append(s.k)
            s.step(+1)
            path.append(s.k)
            s.goto(next(k for k in range(its.starts[j], its.ends[j]) if s.timeline.events[k]["kind"] == "backward"))
            path.append(s.k)  # the grad of this call not written yet: faint at x = now
        s.goto(its.ends[4] - 1)
        path.append(s.k)
        for k in path:
            s.goto(k)
            fresh = Explorer({"code": code, "step": str(k + 1)})  # the counter: k + 1 events happened
            assert fresh.store.k == k
            fresh.store.select(s.selected)
            now, then = drawn(moving), drawn(fresh)
            assert now == then, (k, {name: {c: (v, then[name][c]) for c, v in cols.items() if v != then[name][c]}
                                     if isinstance(cols, dict) else (cols, then[name])
                                     for name, cols in now.items() if cols != then[name]})
