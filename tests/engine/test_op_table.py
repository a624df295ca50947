"""One test walks every op of the table (engine/ops): each op is exercised by a case of test_gradcheck.CASES
(there: finite differences in float64, and first- and second-order grads against torch), every case builds the
same graph as torch (node names and next_functions, node for node), so each op's node carries PyTorch's name,
every input has a derivative formula, and the tracer's label of each op's result is PyTorch code that gives the
same value when torch runs it.

Adding an op means adding its declaration and a case to test_gradcheck.CASES; this test fails until both exist.
"""
from __future__ import annotations

import functools
import sys
import zlib

import numpy as np
import pytest
from difftest import ENGINE_NAME, GraphMap, load_engine, to_numpy, torch, with_known_gaps
from test_gradcheck import CASES, _inputs, _second_order

from engine import observe
from engine.ops import OPS
from engine.trace.labels import op_label, template

pytestmark = pytest.mark.skipif(ENGINE_NAME != "engine", reason="walks the engine's own op table")

# Known disagreements (strict xfails: drop an entry once the engine is fixed).
GRAPH_GAPS = {
    "weight_norm_composite": "norm_except_dim inside ATen calls at::norm (NormBackward0/1); the engine's norm is "
                             "linalg.vector_norm's (LinalgVectorNormBackward0)",
}
NAME_GAPS = {
    op: "double backward through a write into a region: PyTorch takes and zeroes the region with as_strided views "
        "and index/index_put (AsStridedBackward0, CopySlices, IndexBackward0, IndexPutBackward0); the engine's "
        "region ops are named AsStridedBackward1, CopySlicesBackward0, AsStridedScatterBackward0"
    for op in ("take_region", "zero_region", "put_region")
}


class _Ops:
    """Which ops ran (forward, in place, or inside a derivative), with the attrs of one run each."""

    def __init__(self):
        self.ran = {}
        self.recorded = set()

    def on_op(self, out, op, inputs, attrs):
        self.ran.setdefault(op.name, (len(inputs), attrs))
        if out.grad_fn is not None:
            self.recorded.add(op.name)

    def on_inplace(self, t, op, inputs, attrs):
        self.ran.setdefault(op.name, (len(inputs), attrs))
        if t.grad_fn is not None:
            self.recorded.add(op.name)


def _nodes(fns):
    out, todo, seen = [], list(fns), set()
    while todo:
        fn = todo.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        out.append(fn)
        todo.extend(f for f, _ in fn.next_functions)
    return out


def _node_names(fns):
    return {type(fn).__name__ for fn in _nodes(fns)}


@functools.cache
def _torch_graph(name):
    return _graphs(torch, name)


def _graphs(T, name):
    """The node names in the case's forward graph and in the graphs of its grads taken with create_graph."""
    fn, specs = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    leaves = [T.tensor(a.tolist(), dtype=T.float64, requires_grad=True) for a in _inputs(rng, specs)]
    out = fn(T, *leaves)
    grads = T.autograd.grad(out.sum(), leaves, create_graph=True, allow_unused=True)
    return _node_names([out.grad_fn] + [g.grad_fn for g in grads if g is not None])


@functools.lru_cache(maxsize=1)
def coverage():
    """op name -> [(case, (number of inputs, attrs), recorded a node)] over all cases."""
    engine = load_engine()
    out = {}
    for name in sorted(CASES):
        watch = _Ops()
        observe.add(watch)
        try:
            _second_order(engine, name)
        except (NotImplementedError, RuntimeError) as e:  # no second derivative, as in torch (cdist,
            if "not implemented" not in str(e):  # hardsigmoid): the ops up to it were seen
                raise
        finally:
            observe.remove(watch)
        for op, seen in watch.ran.items():
            out.setdefault(op, []).append((name, seen, op in watch.recorded))
        for op in _built_directly(engine, name) - set(watch.ran):
            out.setdefault(op, []).append((name, (len(OPS[op].args), {}), True))
    return out


def _built_directly(engine, name):
    """Ops whose nodes appear in the case's graphs without running forward (AsStridedBackward0 of a view whose
    base was written in place, IndexPutBackward0 of an index assignment)."""
    fn, specs = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    leaves = [engine.tensor(a.tolist(), dtype=engine.float64, requires_grad=True) for a in _inputs(rng, specs)]
    out = fn(engine, *leaves)
    return {node._op.name for node in _nodes([out.grad_fn]) if getattr(node, "_op", None) is not None}


@pytest.mark.parametrize("op", sorted(OPS))
def test_op_is_exercised_by_a_gradcheck_case(op):
    assert op in coverage(), f"no case of test_gradcheck.CASES runs the op {op!r}: add one there"


@functools.cache
def _forward_nodes():
    """op name -> cases whose forward graph holds a node of that op (those graphs are torch's, node for node:
    test_case_builds_torchs_graph)."""
    engine = load_engine()
    out = {}
    for name in sorted(set(CASES) - set(GRAPH_GAPS)):
        fn, leaves = _leaves(engine, name)
        for node in _nodes([fn(engine, *leaves).grad_fn]):
            op = getattr(node, "_op", None)
            if op is not None:
                out.setdefault(op.name, []).append(name)
    return out


@pytest.mark.skipif(sys.platform == "emscripten", reason="needs real PyTorch")
@pytest.mark.parametrize("op", with_known_gaps(sorted(OPS), NAME_GAPS))
def test_node_is_named_as_pytorch_names_it(op):
    """In a forward graph the node sits where torch's does (the graphs are compared node for node); an op met
    only inside derivatives (create_graph) must at least appear in torch's graphs of the same case."""
    if op in _forward_nodes():
        return
    cases = [case for case, _, recorded in coverage().get(op, ()) if recorded]
    if not cases:
        pytest.skip(f"{op} records no node in any case")
    node = OPS[op].node
    assert any(node in _torch_graph(case) for case in cases), f"{op}'s node {node} is in no torch graph of {cases}"


@pytest.mark.parametrize("op", sorted(OPS))
def test_every_input_has_a_derivative_formula(op):
    entry = OPS[op]
    assert len(entry.grads) == (1 if entry.variadic else len(entry.args)), f"{op}: one formula per input"
    for text, vjp in entry.grads:
        assert isinstance(text, str) and text.strip() and callable(vjp), f"{op}: {text!r}"


@pytest.mark.parametrize("op", sorted(OPS))
def test_tracer_names_the_result(op):
    for _, (n, attrs), _ in coverage().get(op, ())[:3]:
        names = ["a", "b", "c", "d"][:n] if not OPS[op].variadic else ["a"] * n
        label = op_label(OPS[op], names, attrs)
        assert label and "{" not in label and "}" not in label, f"{op}: {label!r}"


def _leaves(T, name):
    fn, specs = CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return fn, [T.tensor(a.tolist(), dtype=T.float64, requires_grad=True) for a in _inputs(rng, specs)]


@pytest.mark.skipif(sys.platform == "emscripten", reason="needs real PyTorch")
@pytest.mark.parametrize("name", with_known_gaps(sorted(CASES), GRAPH_GAPS))
def test_case_builds_torchs_graph(name):
    engine = load_engine()
    fn, leaves = _leaves(engine, name)
    tfn, tleaves = _leaves(torch, name)
    graphs = GraphMap(list(zip(tleaves, leaves)))
    graphs.match(tfn(torch, *tleaves).grad_fn, fn(engine, *leaves).grad_fn, "out.grad_fn")


class _Calls:
    """Every op run while a case builds its output: (op, inputs, attrs, output value, the random generator's state
    before it ran)."""

    def __init__(self, engine):
        self.calls = []
        self.engine = engine
        self.state = None

    def on_alloc(self, numel):
        self.state = self.engine.get_rng_state()

    def on_op(self, out, op, inputs, attrs):
        values = [to_numpy(x) if hasattr(x, "_data") else x for x in inputs]  # as they were, before any in-place
        self.calls.append((op, values, attrs, to_numpy(out), self.state))


def _torch_names():
    names = {}
    for op in OPS.values():
        if op.spelling is not None:
            names.update({n: getattr(torch, n) for n in op.spelling.function if hasattr(torch, n)})
            names.update({n: getattr(torch.nn.functional, n) for n in op.spelling.functional})
    return names


@pytest.mark.skipif(sys.platform == "emscripten", reason="needs real PyTorch")
@pytest.mark.parametrize("name", sorted(CASES))
def test_labels_are_pytorch_code(name):
    """The template of each op a case runs, with the inputs' names put in, evaluates in PyTorch to the value the
    engine computed (labels with `…` stand for what cannot be written out, and are skipped)."""
    engine = load_engine()
    fn, leaves = _leaves(engine, name)
    calls = _Calls(engine)
    observe.add(calls)
    try:
        fn(engine, *leaves)
    finally:
        observe.remove(calls)
    env = _torch_names()
    for op, inputs, attrs, want, state in calls.calls:
        text = template(op, len(inputs), attrs)
        if "…" in text or op.spelling is None:
            continue
        if attrs.get("generator") is not None:  # a draw from a Generator object the label does not show
            continue
        if "generator" in attrs:  # a draw: from the state the engine's generator had (it is torch's, byte for byte)
            torch.set_rng_state(torch.tensor(to_numpy(state), dtype=torch.uint8))
        names = []
        for i, x in enumerate(inputs):
            env[f"v{i}"] = torch.tensor(x) if isinstance(x, np.ndarray) else x
            names.append(f"v{i}")
        got = eval(text.format(*names), {"torch": torch, **env})  # noqa: S307 - our own labels, in a test
        np.testing.assert_allclose(to_numpy(got), want, rtol=1e-6, atol=1e-7, err_msg=f"{op.name}: {text}")
