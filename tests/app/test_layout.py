"""The layered DAG layout: left to right, no overlaps, fast on 1,000 nodes, stable as nodes are added."""

import random
import time

from app.layout import BEND, layered_layout


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
    start = time.perf_counter()
    layout = layered_layout(nodes, edges)
    assert time.perf_counter() - start < 1.0
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
