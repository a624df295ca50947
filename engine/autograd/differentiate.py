"""torch.autograd.backward() and torch.autograd.grad(), both draining backward.steps()."""
import warnings

import numpy as np

from .. import messages, observe
from ..backward import steps
from ..factories import tensor, zeros_like
from ..graph import edge
from ..methods import FUNCTIONS
from ..tensor import Size, Tensor


def _as_list(x):
    if x is None:
        return []
    if isinstance(x, Tensor):
        return [x]
    return list(x)


def _seeds(outputs, grad_outputs):
    seeds = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if g is None:
            if out.requires_grad and out.numel() != 1:
                raise RuntimeError(messages.NOT_SCALAR)
            if not out.dtype.is_floating_point and out.requires_grad:
                raise RuntimeError(
                    f"grad can be implicitly created only for real scalar outputs but got {out.dtype}"
                )
            g = Tensor._make(np.ones(out.shape, dtype=out.dtype.np), out.dtype)
        else:
            if not isinstance(g, Tensor):
                g = tensor(g, dtype=out.dtype)
            if g.dtype is not out.dtype:
                g = g.to(out.dtype)
            if g.shape != out.shape:
                if g.numel() == out.numel() and g.numel() == 1:
                    g = g.reshape(out.shape)
                else:
                    raise RuntimeError(
                        messages.GRAD_SHAPE_MISMATCH.format(i=i, got=g.shape, want=out.shape)
                    )
        seeds.append(g)
    return seeds


def _root_edges(outputs):
    edges = []
    for i, out in enumerate(outputs):
        e = edge(out)
        if e[0] is None:
            raise RuntimeError(messages.NO_GRAD_FN.format(i=i))
        edges.append(e)
    return edges


def _captured(captured, t):
    """The grad captured for tensor t (an output of a node with several outputs gets its own)."""
    fn, nr = edge(t)
    g = captured.get(fn)
    return g[nr] if fn._n_outputs != 1 and g is not None else g


def _run(outputs, seeds, nodes, *, retain_graph, create_graph, targets=None, capture_only=False, api):
    options = {"retain_graph": retain_graph, "create_graph": create_graph, "api": api}
    if observe._observers:
        observe.emit("on_backward", outputs, seeds, options)
    captured = {}
    ok = False
    try:
        with np.errstate(all="ignore"):  # PyTorch makes inf and nan silently (sqrt'(0), 1/0, …)
            for step in steps(nodes, seeds, retain_graph=retain_graph, create_graph=create_graph,
                              targets=targets, capture_only=capture_only):
                if step is None:
                    continue
                if observe._observers:
                    observe.emit("on_step", step)
                if step.captured:
                    captured[step.node] = step.grad_in
        ok = True
    finally:
        if observe._observers:
            observe.emit("on_backward_end", outputs, ok)
    return captured


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    outputs = _as_list(tensors)
    grads = _as_list(grad_tensors) if grad_tensors is not None else [None] * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    nodes = _root_edges(outputs)
    seeds = _seeds(outputs, grads)
    if create_graph:
        warnings.warn(messages.CREATE_GRAPH_CYCLE, UserWarning, stacklevel=3)
    targets = None
    if inputs is not None:
        inputs = _as_list(inputs)
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        targets = {}
        for t in inputs:
            if not t.requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            node = t.grad_fn if t.grad_fn is not None else t._accumulate_grad()
            targets[node] = t
    captured = _run(outputs, seeds, nodes, retain_graph=retain_graph, create_graph=create_graph,
                    targets=targets, api="backward")
    if targets:
        for t in dict.fromkeys(inputs):
            g = _captured(captured, t)
            if t.grad_fn is not None and g is not None:  # a non-leaf named in inputs= gets its .grad
                t._grad = g.clone() if t._grad is None else t._grad + g


def _batched_grad(outputs, inputs, grads, retain_graph, create_graph, allow_unused, materialize_grads):
    """is_grads_batched: each grad_output's first dimension is a batch of grad_outputs. torch vmaps one backward
    over it; here the backward runs once per batch entry (the graph kept until the last) and the results are
    stacked: the same values, each pass recorded for the learner."""
    for i, (o, g) in enumerate(zip(outputs, grads)):
        first = g[0]
        if tuple(first.shape) != tuple(o.shape):
            raise RuntimeError("If `is_grads_batched=True`, we interpret the first dimension of each grad_output as "
                               "the batch dimension. The sizes of the remaining dimensions are expected to match the "
                               f"shape of corresponding output, but a mismatch was detected: grad_output[{i}] has a "
                               f"shape of {Size(first.shape[1:])} and output[{i}] has a shape of {Size(o.shape)}. "
                               "If you only want some tensors in `grad_output` to be considered batched, consider "
                               "using vmap.")
    n = grads[0].shape[0]
    rows = [grad(outputs, inputs, [g[k] for g in grads], retain_graph=retain_graph or k < n - 1,
                 create_graph=create_graph, allow_unused=allow_unused, materialize_grads=materialize_grads)
            for k in range(n)]
    return tuple(None if rows[0][j] is None else FUNCTIONS["stack"]([r[j] for r in rows]) for j in range(len(inputs)))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use torch.autograd.backward.", FutureWarning,
                      stacklevel=2)
    outputs = _as_list(outputs)
    inputs = _as_list(inputs)
    grads = _as_list(grad_outputs) if grad_outputs is not None else [None] * len(outputs)
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grads, retain_graph, create_graph, allow_unused, materialize_grads)
    nodes = _root_edges(outputs)
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    seeds = _seeds(outputs, grads)
    targets = {}
    for t in inputs:
        targets[t.grad_fn if t.grad_fn is not None else t._accumulate_grad()] = t
    captured = _run(outputs, seeds, nodes, retain_graph=retain_graph, create_graph=create_graph,
                    targets=targets, capture_only=True, api="autograd.grad")
    result = []
    for i, t in enumerate(inputs):
        g = _captured(captured, t)
        if g is None:
            if materialize_grads:
                g = zeros_like(t)
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
        elif not create_graph:
            g = g.detach()
        result.append(g)
    return tuple(result)


def _tensor_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Tensor.backward: torch.autograd.backward of this one tensor."""
    backward(self, gradient, retain_graph, create_graph, inputs=inputs)


Tensor.backward = _tensor_backward
