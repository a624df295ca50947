"""Layered left-to-right DAG layout (Sugiyama style), as a pure function.

Layers: longest path from the sources, then every node pulled right as far as its successors allow, so
a leaf sits next to the op that first uses it. An edge that spans several layers gets a bend point in
each layer it crosses (a small dummy node), so it runs between nodes instead of through them. Order in a
layer: barycentric sweeps, alternating directions. Coordinates: each layer is placed as near the
barycentres as possible while keeping nodes apart (isotonic regression), so nodes never overlap.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

SWEEPS = 4
BEND = 0.4  # room a bend point takes in its layer; a node takes 1


@dataclass
class Layout:
    places: dict[Hashable, tuple[int, float]] = field(default_factory=dict)  # node -> (layer, row)
    routes: dict[int, list[tuple[int, float]]] = field(default_factory=dict)  # edge index -> bend points
    edges: list[tuple[Hashable, Hashable]] = field(default_factory=list)


def layered_layout(
    nodes: Sequence[Hashable],
    edges: Sequence[tuple[Hashable, Hashable]],
    previous: Layout | None = None,
) -> Layout:
    """Place every node at (layer, row): layer 0 is leftmost; within a layer, nodes are at least 1 apart.

    Edges point left to right; duplicate edges are allowed; edges that would close a cycle are ignored.
    With `previous` (the layout of a graph this one extends by appending nodes and edges), the old nodes
    and bends stay exactly where they were and only the new ones are placed, when that is possible.
    """
    edges = list(edges)
    if previous is not None and previous.places:
        grown = _grow(nodes, edges, previous)
        if grown is not None:
            return grown
    index = {n: i for i, n in enumerate(nodes)}
    n = len(nodes)
    preds: list[list[int]] = [[] for _ in nodes]
    succs: list[list[int]] = [[] for _ in nodes]
    for u, v in edges:
        if u in index and v in index and u != v:
            preds[index[v]].append(index[u])
            succs[index[u]].append(index[v])
    order = _topological(n, preds, succs)
    layer = _layers(order, preds, succs)
    size = [1.0] * n
    chains: dict[int, list[int]] = {}
    g_preds = [[] for _ in range(n)]
    g_succs = [[] for _ in range(n)]
    for e, (u, v) in enumerate(edges):
        if u not in index or v not in index:
            continue
        a, b = index[u], index[v]
        if layer[a] >= layer[b]:
            continue
        chain = []
        prev = a
        for lay in range(layer[a] + 1, layer[b]):
            d = len(layer)
            layer.append(lay)
            size.append(BEND)
            g_preds.append([prev])
            g_succs.append([])
            g_succs[prev].append(d)
            chain.append(d)
            order.append(d)
            prev = d
        g_succs[prev].append(b)
        g_preds[b].append(prev)
        if chain:
            chains[e] = chain
    rows = _rows(order, layer, size, g_preds, g_succs)
    return Layout(
        places={nodes[i]: (layer[i], rows[i]) for i in range(n)},
        routes={e: [(layer[d], rows[d]) for d in chain] for e, chain in chains.items()},
        edges=edges,
    )


def _topological(n: int, preds: list[list[int]], succs: list[list[int]]) -> list[int]:
    indegree = [len(p) for p in preds]
    ready = [i for i in range(n) if indegree[i] == 0]
    ready.reverse()
    order: list[int] = []
    seen = [False] * n
    while len(order) < n:
        if not ready:  # a cycle: break it at the earliest unplaced node
            i = next(i for i in range(n) if not seen[i])
            preds[i] = [p for p in preds[i] if seen[p]]
            ready.append(i)
        i = ready.pop()
        if seen[i]:
            continue
        seen[i] = True
        order.append(i)
        for s in succs[i]:
            indegree[s] -= 1
            if indegree[s] == 0:
                ready.append(s)
    placed = {i: k for k, i in enumerate(order)}
    for i in range(n):
        succs[i] = [s for s in succs[i] if placed[s] > placed[i]]
        preds[i] = [p for p in preds[i] if placed[p] < placed[i]]
    return order


def _layers(order: list[int], preds: list[list[int]], succs: list[list[int]]) -> list[int]:
    layer = [0] * len(order)
    for i in order:
        if preds[i]:
            layer[i] = max(layer[p] for p in preds[i]) + 1
    for i in reversed(order):
        if succs[i]:
            layer[i] = max(layer[i], min(layer[s] for s in succs[i]) - 1)
    low = min(layer, default=0)
    return [v - low for v in layer]


def _rows(order, layer, size, preds, succs) -> list[float]:
    depth = max(layer, default=-1) + 1
    layers: list[list[int]] = [[] for _ in range(depth)]
    for i in order:
        layers[layer[i]].append(i)
    row = [0.0] * len(layer)
    for members in layers:
        at = 0.0
        for i in members:
            row[i] = at
            at += 1.0
    for sweep in range(SWEEPS):
        forward = sweep % 2 == 0
        for members in layers if forward else layers[::-1]:
            _place(members, row, size, preds if forward else succs)
    both = [p + s for p, s in zip(preds, succs)]
    for members in layers:  # a last pass pulls sources and sinks next to their neighbours
        _place(members, row, size, both)
    top = min(row, default=0.0)
    return [r - top for r in row]


def _place(members: list[int], row: list[float], size: list[float], neighbours: list[list[int]]) -> None:
    desired = {}
    for i in members:
        near = neighbours[i]
        desired[i] = sum(row[j] for j in near) / len(near) if near else row[i]
    members.sort(key=lambda i: (desired[i], row[i]))
    offsets = [0.0]
    for a, b in zip(members, members[1:]):
        offsets.append(offsets[-1] + (size[a] + size[b]) / 2)
    placed = _isotonic([desired[i] - off for i, off in zip(members, offsets)])
    for i, p, off in zip(members, placed, offsets):
        row[i] = p + off


def _isotonic(values: list[float]) -> list[float]:
    """Nearest non-decreasing sequence in least squares (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, count]
    for v in values:
        blocks.append([v, 1.0])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, c2 = blocks.pop()
            m1, c1 = blocks.pop()
            blocks.append([(m1 * c1 + m2 * c2) / (c1 + c2), c1 + c2])
    out: list[float] = []
    for mean, count in blocks:
        out.extend([mean] * int(count))
    return out


def _grow(nodes, edges, previous: Layout) -> Layout | None:
    """Place only what `previous` lacks; None when the old places no longer fit the new graph."""
    old_edges = previous.edges
    if edges[: len(old_edges)] != old_edges or not set(previous.places) <= set(nodes):
        return None
    preds: dict = {n: [] for n in nodes}
    succs: dict = {n: [] for n in nodes}
    for u, v in edges:
        if u in preds and v in preds and u != v:
            preds[v].append(u)
            succs[u].append(v)
    pos = dict(previous.places)
    taken: dict[int, list[tuple[float, float]]] = {}
    for lay, r in pos.values():
        taken.setdefault(lay, []).append((r, 1.0))
    for bends in previous.routes.values():
        for lay, r in bends:
            taken.setdefault(lay, []).append((r, BEND))

    def put(n, layer: int, desired: float) -> None:
        pos[n] = (layer, _free_row(taken.setdefault(layer, []), desired, 1.0))
        taken[layer].append((pos[n][1], 1.0))

    fresh = [n for n in nodes if n not in previous.places]
    for n in fresh:  # creation order is topological for the graphs drawn here
        placed_preds = [pos[p][0] for p in preds[n] if p in pos]
        placed_succs = [pos[s][0] for s in succs[n] if s in pos]
        layer = max(placed_preds) + 1 if placed_preds else (min(placed_succs) - 1 if placed_succs else 0)
        if placed_succs and layer >= min(placed_succs):
            return None
        near = [pos[m][1] for m in preds[n] + succs[n] if m in pos]
        put(n, layer, sum(near) / len(near) if near else 0.0)
    if any(pos[u][0] >= pos[v][0] for u, v in edges if u in pos and v in pos and u != v):
        return None
    routes = dict(previous.routes)
    for e in range(len(old_edges), len(edges)):
        u, v = edges[e]
        if u not in pos or v not in pos or pos[v][0] - pos[u][0] < 2:
            continue
        (lu, ru), (lv, rv) = pos[u], pos[v]
        bends = []
        for lay in range(lu + 1, lv):
            desired = ru + (rv - ru) * (lay - lu) / (lv - lu)
            r = _free_row(taken.setdefault(lay, []), desired, BEND)
            taken[lay].append((r, BEND))
            bends.append((lay, r))
        routes[e] = bends
    low = min(layer for layer, _ in pos.values())
    return Layout(
        places={n: (layer - low, row) for n, (layer, row) in pos.items()},
        routes={e: [(lay - low, r) for lay, r in bends] for e, bends in routes.items()},
        edges=edges,
    )


def _free_row(taken: list[tuple[float, float]], desired: float, size: float) -> float:
    """The row nearest `desired` where an item of `size` keeps clear of everything already in the layer."""
    def clear(row: float) -> bool:
        return all(abs(row - r) >= (size + s) / 2 - 1e-9 for r, s in taken)

    for step in range(0, 8 * len(taken) + 8):
        for row in (desired + step / 4, desired - step / 4):
            if clear(row):
                return row
    return max((r for r, _ in taken), default=desired) + 1
