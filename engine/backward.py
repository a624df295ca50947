"""The backward pass as a generator of node steps, in PyTorch's execution order.

A node runs once every grad for it has arrived; among ready nodes the one created last runs first
(AccumulateGrad nodes count as newest, so a leaf's grad is written as soon as it is complete). A node with
several outputs (a custom Function's) gets a tuple of grads, one per output (None where none arrived).
`Tensor.backward()` and `autograd.grad()` drain this generator; the explorer's tracer watches the same
steps, so there is one backward pass, not two.
"""
import heapq
import itertools

import numpy as np

from . import grad_mode, observe
from .graph import AccumulateGrad, Node


class NodeStep:
    """What one node did: the grad that arrived (fan-in summed; a tuple for a node with several outputs) and
    what it sent along next_functions."""

    __slots__ = ("node", "grad_in", "grads_out", "captured")

    def __init__(self, node, grad_in, grads_out, captured=False):
        self.node = node
        self.grad_in = grad_in
        self.grads_out = grads_out
        self.captured = captured

    def __repr__(self):
        return f"NodeStep({type(self.node).__name__})"


def _dependencies(roots):
    deps = {}
    seen = set(roots)
    stack = list(seen)  # a node met twice among the roots (two outputs of one split) is walked once
    while stack:
        node = stack.pop()
        for fn, _ in node.next_functions:
            if fn is not None:
                if fn in deps:
                    deps[fn] += 1
                else:
                    deps[fn] = 1
                    if fn not in seen:
                        seen.add(fn)
                        stack.append(fn)
    return deps, seen


def _needed(nodes, targets):
    """The nodes from which some target can be reached (the only ones autograd.grad runs)."""
    needed = set()
    order = []
    seen = set()
    for start in nodes:
        if start in seen:
            continue
        stack = [(start, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
                continue
            if node in seen:
                continue
            seen.add(node)
            stack.append((node, True))
            for fn, _ in node.next_functions:
                if fn is not None and fn not in seen:
                    stack.append((fn, False))
    for node in order:  # children before parents
        if node in targets or any(fn in needed for fn, _ in node.next_functions if fn is not None):
            needed.add(node)
    return needed


_tasks = []  # the backward passes running now, innermost last: (id, reachable nodes, needed ones or None, grad())
_task_ids = itertools.count()


def current_graph_task_id():
    """The id of the backward pass running now (-1 outside one), as torch._C._current_graph_task_id."""
    return _tasks[-1][0] if _tasks else -1


def will_engine_execute_node(node):
    """Whether the backward pass running now runs `node` (torch._C._will_engine_execute_node)."""
    if not _tasks:
        raise RuntimeError("_will_engine_execute_node should only be called during the backward pass")
    _, reachable, needed, capture_only = _tasks[-1]
    if capture_only and isinstance(node, AccumulateGrad):
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are currently running "
                           "autograd.grad(). This is currently not supported.")
    return node in reachable and (needed is None or node in needed)


def _add(buffers, fn, nr, g):
    """Adds grad g for output nr of node fn to what has arrived there."""
    if fn._n_outputs == 1:
        prev = buffers.get(fn)
        buffers[fn] = g if prev is None else prev + g
    else:
        slots = buffers.get(fn)
        if slots is None:
            slots = buffers[fn] = [None] * fn._n_outputs
        slots[nr] = g if slots[nr] is None else slots[nr] + g


def _plus(a, b):
    """Two grads meeting at one place of a backward pass that records no graph (InputBuffer::accumulate): the
    arrays added, when they are alike and row-major (else the op, which lays out its result as torch does)."""
    x, y = a._data, b._data
    if a.dtype is b.dtype and type(a) is type(b) and x.shape == y.shape and x.flags.c_contiguous \
            and y.flags.c_contiguous:
        if observe._observers:
            observe.emit("on_alloc", x.size)
        return type(a)._make(x + y, a.dtype)
    return a + b


def steps(edges, seeds, *, retain_graph=False, create_graph=False, targets=None, capture_only=False):
    """Run the backward pass from the root `edges` ((node, output number) pairs) seeded with `seeds`, yielding
    a NodeStep per node (None for a node that is no target while no observer listens: nothing reads it).

    targets: nodes whose incoming grad is wanted (autograd.grad's inputs, backward's inputs=); with
    capture_only the grads are captured (step.captured) instead of accumulated into .grad.
    """
    roots = [node for node, _ in edges]
    deps, reachable = _dependencies(roots)
    needed = _needed(reachable, targets) if targets is not None else None
    buffers = {}
    ready = []
    for (node, nr), seed in zip(edges, seeds):
        _add(buffers, node, nr, seed)
    for node in dict.fromkeys(roots):
        if deps.get(node, 0) == 0:
            heapq.heappush(ready, _entry(node))
    prev_mode = bool(grad_mode.is_grad_enabled())
    state = grad_mode._state
    create_graph = bool(create_graph)
    _tasks.append((next(_task_ids), reachable, needed, capture_only))
    pop, push = heapq.heappop, heapq.heappush
    try:
        while ready:
            node = pop(ready)[1]
            if type(node) is _Ready:
                node = node.node
            state["grad"] = create_graph  # grad_mode._set(create_graph), inlined: once per node
            state["enabled"] = create_graph and not state["inference"]
            grad = buffers.pop(node, None)
            single = node._n_outputs == 1
            if not single:
                grad = tuple(grad) if grad is not None else (None,) * node._n_outputs
            is_target = targets is not None and node in targets
            if needed is not None:
                run = any(fn in needed for fn, _ in node.next_functions if fn is not None)
                if is_target and not capture_only and isinstance(node, AccumulateGrad):
                    run = True
                if not run:
                    if is_target:
                        grad = _tensor_hooks(node, grad)
                        grad_mode._set(prev_mode)
                        yield NodeStep(node, grad, (), captured=True)
                    continue
            if not single or node._tensor_hooks or node._retain_hooks:
                grad = _tensor_hooks(node, grad)
            if node._pre_hooks:
                grad = _node_pre_hooks(node, grad)
            state["formula"] = create_graph
            try:
                out = node._apply(grad)
            except RuntimeError as e:
                if observe._observers:
                    observe.emit("on_step_failed", node, e)
                raise
            finally:
                state["formula"] = False
            if node._hooks:
                out = _node_hooks(node, out, grad)
            if state["anomaly"] and state["anomaly_nan"]:
                _check_nan(node, out)
            for (fn, nr), g in zip(node.next_functions, out):
                if fn is None:
                    continue
                if g is not None:
                    if fn._n_outputs == 1:
                        prev = buffers.get(fn)
                        buffers[fn] = g if prev is None else prev + g if create_graph else _plus(prev, g)
                    else:
                        _add(buffers, fn, nr, g)
                left = deps[fn] - 1
                deps[fn] = left
                if left == 0:
                    seq = fn._seq
                    push(ready, (-seq, fn) if seq != _LAST else (-seq, _Ready(fn)))  # _entry, inlined
            state["grad"] = prev_mode  # grad_mode._set(prev_mode), inlined
            state["enabled"] = prev_mode and not state["inference"]
            # what drains this generator looks at a step only when an observer listens or the node is a target
            yield NodeStep(node, grad, out, is_target) if is_target or observe._observers else None
            if not retain_graph and (node._saved or type(node).release is not _NOTHING_SAVED):
                node.release()  # (a Node with nothing saved has nothing to release)
    finally:
        grad_mode._set(prev_mode)
        _tasks.pop()


_NOTHING_SAVED = Node.release
_LAST = float("inf")  # AccumulateGrad's sequence number, shared by every one of them


def _entry(node):
    """A ready node's entry in the queue, (-sequence number, node): the newest first. Only AccumulateGrad nodes
    share a number; theirs hold the node in a _Ready, compared by number alone, so that their ties resolve
    exactly as PyTorch's binary-heap priority queue resolves them (a tuple compares its second item only on a
    tie of the first)."""
    seq = node._seq
    return (-seq, node) if seq != _LAST else (-seq, _Ready(node))


class _Ready:
    """An AccumulateGrad node in the queue, compared by sequence number alone (see _entry)."""

    __slots__ = ("key", "node")

    def __init__(self, node):
        self.key = -node._seq
        self.node = node

    def __lt__(self, other):
        return self.key < other.key


def _tensor_hooks(node, grad):
    """Hooks registered with Tensor.register_hook ((output number, hook) pairs), then retain_grad's, which
    always runs last."""
    if node._n_outputs != 1:
        grads = list(grad)
        for nr, hook in tuple(node._tensor_hooks or ()):
            if grads[nr] is not None:
                r = hook(grads[nr])
                if r is not None:
                    grads[nr] = r
        for t in node._retain_hooks or ():
            if t.grad_fn is node and grads[t._output_nr] is not None:
                _retain(t, grads[t._output_nr])
        return tuple(grads)
    if grad is None:
        return grad
    if node._tensor_hooks:
        for _, hook in tuple(node._tensor_hooks):
            r = hook(grad)
            if r is not None:
                grad = r
    if node._retain_hooks:
        for t in node._retain_hooks:
            if t.grad_fn is node:
                _retain(t, grad)
    return grad


def _retain(t, grad):
    t._grad = grad.clone() if t._grad is None else t._grad + grad
    t._grad._grad_of = t
    if observe._observers:
        observe.emit("on_grad", t, None, grad)


def _node_pre_hooks(node, grad):
    """grad_fn.register_prehook's hooks: hook(grad_outputs) -> None or new grad_outputs."""
    if node._pre_hooks:
        single = node._n_outputs == 1
        grads = (grad,) if single else grad
        for hook in tuple(node._pre_hooks):
            r = hook(grads)
            if r is not None:
                grads = _checked(hook, grads, r, replace_none=True)
        grad = grads[0] if single else grads
    return grad


def _node_hooks(node, out, grad):
    """grad_fn.register_hook's hooks: hook(grad_inputs, grad_outputs) -> None or new grad_inputs."""
    grads = (grad,) if node._n_outputs == 1 else grad
    for hook in tuple(node._hooks):
        r = hook(out, grads)
        if r is not None:
            out = _checked(hook, out, r, replace_none=False)
    return out


def _checked(hook, old, new, replace_none):
    """A hook's replacement for a tuple of grads, checked as PyTorch checks it."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if not isinstance(new, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(new).__name__}'")
    if len(new) != len(old):
        raise RuntimeError(f"hook '{name}' has returned an incorrect number of values (got {len(new)}, but "
                           f"expected {len(old)})")
    for a, b in zip(old, new):
        if a is None:
            if b is not None and not replace_none:
                raise RuntimeError("can't replace a None gradient with a non-None value")
        elif b is not None:
            if b.dtype is not a.dtype:
                raise RuntimeError(f"hook '{name}' has changed the type of value (was torch.{a.dtype.type_name}"
                                   f"Tensor got torch.{b.dtype.type_name}Tensor)")
            if b.shape != a.shape:
                raise RuntimeError(f"hook '{name}' has changed the size of value")
    return new


def _check_nan(node, out):
    """set_detect_anomaly(True): a node that sends nan stops the backward pass."""
    for i, g in enumerate(out):
        if g is not None and np.isnan(g._data).any():
            raise RuntimeError(f"Function '{type(node).__name__}' returned nan values in its {i}th output.")
