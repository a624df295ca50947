"""The first import cycle of a module graph, for the layer tests of the engine and of the app."""
from __future__ import annotations


def first_cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """A cycle (its modules, the first repeated at the end) in `graph` (module -> modules it imports), or None."""
    state: dict[str, str] = {}

    def visit(m, path):
        state[m] = "open"
        for t in graph[m]:
            if state.get(t) == "open":
                return path[path.index(t):] + [t]
            if t not in state and (cycle := visit(t, path + [t])) is not None:
                return cycle
        state[m] = "done"
        return None

    for m in graph:
        if m not in state and (cycle := visit(m, [m])) is not None:
            return cycle
    return None
