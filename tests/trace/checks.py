"""Checks every traced timeline must pass, shared by the timeline tests and the fuzzer."""

from __future__ import annotations

import json
import math

from engine.trace import Timeline, state_at

NODE_KINDS = ("leaf", "op", "inplace")
# The fields docs/timeline.md promises for each kind (besides "kind" and "line"; `call` inside backward).
FIELDS = {
    "leaf": {"id", "tensor", "name", "grad_fn", "value", "shape", "dtype", "requires_grad", "version"},
    "op": {"id", "tensor", "name", "op", "expr", "grad_fn", "inputs", "value", "shape", "dtype", "requires_grad",
           "version", "saved", "formula"},
    "inplace": {"id", "tensor", "name", "op", "grad_fn", "inputs", "version", "value", "shape", "dtype",
                "requires_grad", "saved", "formula"},
    "backward": {"root", "seed", "retain_graph", "create_graph", "call", "api"},
    "node": {"call", "name", "node", "grad_in", "grads_out", "ran", "captured"},
    "grad": {"node", "tensor", "name", "before", "contribution", "after"},
    "zero_grad": {"node", "tensor", "name", "how"},
    "free": {"node"},
    "print": {"text"},
    "warning": {"category", "message"},
    "error": {"type", "message"},
}
# scalars: op and inplace; expr or update: inplace; op, formula: a computed leaf; grads_in: a node with several
# outputs (a custom Function's); detached_from: a program's x.detach(); node: an error a backward node raised
OPTIONAL = {"call", "how", "scalars", "op", "formula", "expr", "update", "grads_in", "detached_from", "node"}
STATE_KEYS = {"k", "event", "nodes", "active", "sent", "grads", "call", "output", "formula"}
NODE_KEYS = {"id", "tensor", "name", "kind", "op", "grad_fn", "inputs", "value", "shape", "dtype", "requires_grad",
             "version", "grad", "freed", "saved", "formula", "grad_in"}


def same(a, b) -> bool:
    """Equality of nested lists of numbers where NaN equals NaN."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def check_events(timeline: Timeline) -> None:
    events = timeline.events
    assert isinstance(events, list)
    for i, ev in enumerate(events):
        assert ev["kind"] in FIELDS, ev
        assert ev["line"] is None or isinstance(ev["line"], int), ev
        fields = FIELDS[ev["kind"]]
        assert set(ev) - {"kind", "line"} - (OPTIONAL - fields) == fields, ev
        if ev["kind"] == "error":
            assert i == len(events) - 1, "an error event is always the last"
            assert isinstance(ev["message"], str) and isinstance(ev["type"], str)
        if ev["kind"] in NODE_KINDS:
            assert isinstance(ev["id"], int)
        if ev["kind"] == "node":
            assert isinstance(ev["name"], str)
        if ev["kind"] == "print":
            assert isinstance(ev["text"], str)
    ids = [ev["id"] for ev in events if ev["kind"] in NODE_KINDS]
    assert ids == list(range(len(ids))), "graph nodes are numbered in order of appearance"
    assert timeline.output == "".join(ev["text"] for ev in events if ev["kind"] == "print")


def check_json(timeline: Timeline) -> None:
    text = timeline.to_json()
    back = Timeline.from_json(text)
    assert back.to_json() == text
    assert same(json.loads(text)["events"], json.loads(back.to_json())["events"])
    assert back.source == timeline.source and back.output == timeline.output


def check_state(timeline: Timeline, k: int) -> dict:
    """state_at(k) agrees with the events up to k: nothing shown before the event that makes it."""
    events = timeline.events[: k + 1]
    state = state_at(timeline, k)
    assert set(state) == STATE_KEYS
    assert state["k"] == k
    assert state["event"] is (events[-1] if events else None)
    assert state["output"] == "".join(ev["text"] for ev in events if ev["kind"] == "print")
    introduced = [ev["id"] for ev in events if ev["kind"] in NODE_KINDS]
    assert sorted(state["nodes"]) == introduced
    graded = {ev["tensor"] for ev in events if ev["kind"] == "grad"}
    graded_names = {ev["name"] for ev in events if ev["kind"] == "grad"}
    freed = {ev["node"] for ev in events if ev["kind"] == "free"}
    for nid, node in state["nodes"].items():
        assert set(node) == NODE_KEYS
        assert node["id"] == nid
        if node["grad"] is not None:
            assert node["tensor"] in graded, f"node {nid} shows a grad before any grad event for its tensor"
        assert node["freed"] == (nid in freed)
    for name, grad in state["grads"].items():
        if grad is not None:
            assert name in graded_names, f"{name}.grad shown before its grad event"
    if state["active"] is not None:
        assert any(ev["kind"] == "node" and ev["node"] == state["active"] for ev in events)
    return state


def check_timeline(timeline: Timeline, every_k: bool = True) -> None:
    check_events(timeline)
    check_json(timeline)
    n = len(timeline.events)
    for k in range(-1, n) if every_k else sorted({-1, (n - 1) // 2, n - 1}):
        check_state(timeline, k)
