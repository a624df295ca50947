"""The backward pass as a generator of node steps, in PyTorch's execution order.

A node runs once every grad for it has arrived; among ready nodes the one created last runs first
(AccumulateGrad nodes count as newest, so a leaf's grad is written as soon as it is complete).
`Tensor.backward()` and `autograd.grad()` drain this generator; the explorer's tracer watches the same
steps, so there is one backward pass, not two.
"""
import heapq

from . import grad_mode, observe
from .graph import AccumulateGrad


class NodeStep:
    """What one node did: the grad that arrived (fan-in summed) and what it sent along next_functions."""

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
    stack = list(roots)
    while stack:
        node = stack.pop()
        for fn, _ in node.next_functions:
            if fn is None:
                continue
            deps[fn] = deps.get(fn, 0) + 1
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


def steps(roots, seeds, *, retain_graph=False, create_graph=False, targets=None, capture_only=False):
    """Run the backward pass from `roots` (nodes) seeded with `seeds`, yielding a NodeStep per node.

    targets: nodes whose incoming grad is wanted (autograd.grad's inputs, backward's inputs=); with
    capture_only the grads are captured (step.captured) instead of accumulated into .grad.
    """
    deps, reachable = _dependencies(roots)
    needed = _needed(reachable, targets) if targets is not None else None
    buffers = {}
    ready = []
    for node, seed in zip(roots, seeds):
        buffers[node] = buffers[node] + seed if node in buffers else seed
    for node in dict.fromkeys(roots):
        if deps.get(node, 0) == 0:
            heapq.heappush(ready, _Ready(node))
    prev_mode = grad_mode.is_grad_enabled()
    try:
        while ready:
            node = heapq.heappop(ready).node
            grad_mode._set(create_graph)
            grad = buffers.pop(node, None)
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
            grad = _node_pre_hooks(node, _tensor_hooks(node, grad))
            grad_mode._state["formula"] = create_graph
            try:
                out = node.apply(grad)
            finally:
                grad_mode._state["formula"] = False
            if node._hooks:
                for hook in tuple(node._hooks):
                    r = hook(out, (grad,))
                    if r is not None:
                        out = tuple(r)
            for (fn, _), g in zip(node.next_functions, out):
                if fn is None:
                    continue
                if g is not None:
                    prev = buffers.get(fn)
                    buffers[fn] = g if prev is None else prev + g
                deps[fn] -= 1
                if deps[fn] == 0:
                    heapq.heappush(ready, _Ready(fn))
            grad_mode._set(prev_mode)
            yield NodeStep(node, grad, out, captured=is_target)
            if not retain_graph:
                node.release()
    finally:
        grad_mode._set(prev_mode)


class _Ready:
    """A ready node in the queue. Compared by sequence number alone, so that ties between AccumulateGrad
    nodes resolve exactly as PyTorch's binary-heap priority queue resolves them."""

    __slots__ = ("key", "node")

    def __init__(self, node):
        self.key = -node._seq
        self.node = node

    def __lt__(self, other):
        return self.key < other.key


def _tensor_hooks(node, grad):
    """Hooks registered with Tensor.register_hook, then retain_grad's, which always runs last."""
    if grad is None:
        return grad
    if node._tensor_hooks:
        for hook in tuple(node._tensor_hooks):
            r = hook(grad)
            if r is not None:
                grad = r
    if node._retain_hooks:
        for t in node._retain_hooks:
            if t.grad_fn is not node:
                continue
            t._grad = grad.clone() if t._grad is None else t._grad + grad
            t._grad._grad_of = t
            if observe._observers:
                observe.emit("on_grad", t, None, grad)
    return grad


def _node_pre_hooks(node, grad):
    if node._pre_hooks:
        for hook in tuple(node._pre_hooks):
            r = hook((grad,))
            if r is not None:
                grad = r[0]
    return grad
