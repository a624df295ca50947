"""The layered DAG layout: left to right, no overlaps, fast on 1,000 nodes, stable as nodes are added."""

import random
import time

from app.graph.layout import BEND, layered_layout


def random_dag(n, fan=2, window=60, seed=0):
    rng = random.Random(seed)
    edges = []
    for v in range(n):
        for _ in range(fan if v >= 10 else 0):
            edges.append((rng.randrange(max(0, v - window), v), v))
    return list(range(n)), edges


def assert_clean(layout, edges):
    pos = layout.places
    for u, v in edges:
        assert pos[u][0] < pos[v][0], "every edge points right"
    by_layer = {}
    for layer, row in pos.values():
        by_layer.setdefault(layer, []).append((row, 1.0))
    for e, bends in layout.routes.items():
        u, v = edges[e]
        assert [lay for lay, _ in bends] == list(range(pos[u][0] + 1, pos[v][0])), "a bend in every layer crossed"
        for layer, row in bends:
            by_layer.setdefault(layer, []).append((row, BEND))
    for items in by_layer.values():
        items.sort()
        for (a, sa), (b, sb) in zip(items, items[1:]):
            assert b - a >= (sa + sb) / 2 - 1e-9, "nodes and bends of a layer never overlap"


def test_small_graph_reads_left_to_right():
    layout = layered_layout(["x", "y", "mul", "add"], [("x", "mul"), ("y", "mul"), ("mul", "add"), ("x", "add")])
    pos = layout.places
    assert pos["x"][0] == pos["y"][0] == 0
    assert pos["mul"][0] == 1 and pos["add"][0] == 2
    assert list(layout.routes) == [3], "x -> add crosses the layer of mul: it bends around it"
    assert_clean(layout, [("x", "mul"), ("y", "mul"), ("mul", "add"), ("x", "add")])


def test_fan_in_duplicates_and_leaves_pulled_next_to_their_user():
    edges = [("a", "b"), ("b", "c"), ("c", "d"), ("w", "d"), ("a", "a2"), ("a", "a2")]
    layout = layered_layout(["a", "b", "c", "w", "d", "a2"], edges)
    assert layout.places["w"][0] == layout.places["d"][0] - 1
    assert_clean(layout, edges)


def test_thousand_nodes_fast_and_clean():
    nodes, edges = random_dag(1000)
    start = time.process_time()  # CPU time: a loaded machine does not make it fail
    layout = layered_layout(nodes, edges)
    assert time.process_time() - start < 1.0
    assert_clean(layout, edges)


def test_cycles_do_not_hang():
    assert set(layered_layout([1, 2, 3], [(1, 2), (2, 3), (3, 1)]).places) == {1, 2, 3}


def test_adding_a_node_keeps_layers_and_order():
    nodes, edges = random_dag(200, seed=3)
    before = layered_layout(nodes, edges)
    grown_edges = edges + [(199, 200), (150, 200), (201, 200)]
    after = layered_layout(nodes + [200, 201], grown_edges, previous=before)
    assert all(before.places[n] == after.places[n] for n in nodes)
    assert all(after.routes[e] == bends for e, bends in before.routes.items())
    assert_clean(after, grown_edges)


def test_previous_that_no_longer_fits_is_ignored():
    before = layered_layout(["a", "b"], [("a", "b")])
    after = layered_layout(["a", "b"], [("b", "a")], previous=before)
    assert after.places["b"][0] < after.places["a"][0]


def test_long_edges_run_clear_of_the_boxes_they_pass():
    """The thinned polyline of a long edge stays within 0.2 of each of its bend points, so it never crosses
    a box of a layer it passes through (boxes are 0.8 high on rows 1.3 apart)."""
    from app import timeline as tl
    from app.graph import columns as gc
    from app.graph import model as gm
    from app.program.examples import BY_SLUG

    for slug in ("chain-100", "mlp-step", "scalar-mlp"):
        timeline = tl.run(BY_SLUG[slug].source)
        model = gm.build(timeline.events, tl.state_at(timeline, len(timeline.events) - 1)["nodes"])
        geometry = gc.edge_geometry(model)
        boxes = [model.pos[gm.key(n)] for n in model.boxes]
        for row in range(len(geometry["edge"])):
            (x0, y0), (x1, y1) = (geometry["x0"][row], geometry["y0"][row]), (geometry["x1"][row], geometry["y1"][row])
            if model.layout.routes.get(geometry["edge"][row]) is None or x1 - x0 < 1e-9:
                continue  # an edge between neighbouring layers, or a curve into a node
            for bx, by in boxes:
                left, right = max(x0, bx - gm.BOX_W / 2), min(x1, bx + gm.BOX_W / 2)
                if left >= right:
                    continue
                ys = [y0 + (y1 - y0) * (x - x0) / (x1 - x0) for x in (left, right)]
                assert min(ys) >= by + gm.BOX_H / 2 or max(ys) <= by - gm.BOX_H / 2, f"{slug}: an edge crosses a box"


def test_thinning_keeps_the_ends_and_stays_within_tolerance():
    from app.graph.columns import _thin

    rng = random.Random(1)
    points = [(i * 1.0, rng.choice([0.0, 0.05, -0.05, 1.3])) for i in range(60)]
    kept = _thin(points, 0.2)
    assert kept[0] == points[0] and kept[-1] == points[-1] and len(kept) < len(points)
    for px, py in points:
        for (ax, ay), (bx, by) in zip(kept, kept[1:]):
            if ax <= px <= bx:
                assert abs(ay + (by - ay) * (px - ax) / (bx - ax) - py) <= 0.2 + 1e-9
