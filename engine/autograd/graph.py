"""torch.autograd.graph: the graph's nodes (Node), where a tensor's gradient is computed (get_gradient_edge),
hooks on saved tensors (saved_tensors_hooks) and on several tensors' grads (register_multi_grad_hook)."""
import collections
import contextlib

from .. import backward as _backward
from .. import graph as _graph
from ..graph import Node  # noqa: F401 - torch.autograd.graph.Node: every grad_fn is one
from ..tensor import Tensor

GradientEdge = collections.namedtuple("GradientEdge", ["node", "output_nr", "ownership_token"], defaults=[None])


def _grad_fn_or_grad_acc(t):
    if isinstance(t, GradientEdge):
        return t.node
    if t.requires_grad and t.grad_fn is None:
        return t._accumulate_grad()
    return t.grad_fn


def get_gradient_edge(tensor):
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require "
                           "gradients")
    return GradientEdge(_grad_fn_or_grad_acc(tensor), tensor.output_nr)


def increment_version(tensor):
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        if not t._inference:
            t._bump()


class saved_tensors_hooks:
    """Inside, every tensor a node saves is given to pack_hook, and what it returns is kept instead; the
    backward pass (and grad_fn._saved_*) gets unpack_hook(that) back."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _graph._hooks_disabled[0] is not None:
            raise RuntimeError(_graph._hooks_disabled[0])
        _graph._hooks_stack.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *args):
        _graph._hooks_stack.pop()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors kept on the CPU: the engine has only the CPU, so they are kept as they are."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(lambda t: t, lambda t: t)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Inside, saved_tensors_hooks raise RuntimeError(error_message), and hooks already set are not used."""
    prev = _graph._hooks_disabled[0]
    _graph._hooks_disabled[0] = error_message
    try:
        yield
    finally:
        _graph._hooks_disabled[0] = prev


class _MultiHandle(_graph.RemovableHandle):
    def __init__(self, handles):
        _graph.RemovableHandle.__init__(self, [], None)
        self._handles = handles

    def remove(self):
        for h in self._handles:
            h.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """fn(grads) once the grads of all `tensors` that this backward pass computes are known ("all"), or
    fn(grad) with the first of them ("any")."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    if mode == "all":
        count, buffer = {}, {}
        grad_fns = [_grad_fn_or_grad_acc(t) for t in tensors]
        n = len(tensors)
        calls = [None]

        def inner(i):
            def hook(grad):
                task = _backward.current_graph_task_id()
                seen = count.get(task, 0)
                count[task] = seen + 1
                slots = buffer.setdefault(task, [None] * n)
                if seen == 0:
                    calls[0] = sum(map(_backward.will_engine_execute_node, grad_fns))
                slots[i] = grad
                if seen == calls[0] - 1:
                    fn(slots)
                    del count[task], buffer[task]
            return hook

        handles = tuple(t.register_hook(inner(i)) for i, t in enumerate(tensors))
    else:
        ran = {}

        def wrapped(grad):
            task = _backward.current_graph_task_id()
            if ran.get(task):
                return
            ran[task] = True
            fn(grad)

        handles = tuple(t.register_hook(wrapped) for t in tensors if t.requires_grad)
    return _MultiHandle(handles)
