"""The nodes of the backward graph: grad_fn objects, AccumulateGrad, CopySlices, saved tensors, and the edges
between them."""
import itertools

from . import messages, observe
from .ops import OPS, region_grad

_sequence = itertools.count()


class SavedTensor:
    """A tensor a node keeps for its backward, with the version it had when saved."""

    __slots__ = ("tensor", "version", "producer")

    def __init__(self, tensor, producer):
        self.tensor = tensor
        self.version = tensor._version
        self.producer = producer  # a saved output names its own node when the version check fails

    def unpack(self):
        t = self.tensor
        if t._version != self.version:
            producer = ""
            fn = self.producer if self.producer is not None else t.grad_fn
            if fn is not None:
                producer = f", which is output 0 of {_short_name(fn)},"
            raise RuntimeError(
                messages.MODIFIED_SAVED.format(
                    desc=t._type_desc(), producer=producer, version=t._version, expected=self.version
                )
            )
        return t


def _short_name(node):
    """How PyTorch names a node in the modified-by-an-inplace-operation message."""
    name = type(node).__name__
    if not isinstance(node, (AccumulateGrad, CopySlices)) and "Backward" in name and not name.endswith("Backwards"):
        return name[:-len("Backward0")] if name.endswith("Backward0") else name.replace("Backward", "")
    return "torch::autograd::" + name


class Node:
    """A grad_fn: runs one op's vector-Jacobian product during backward."""

    __slots__ = (
        "next_functions", "_op", "attrs", "_saved", "_seq", "_pre_hooks", "_tensor_hooks", "_retain_hooks", "_hooks",
        "_freed", "_shapes", "_dtypes", "_need", "_out_shape", "_out_dtype", "__weakref__", "metadata",
    )

    def __init__(self, op, next_functions, attrs, shapes, out_shape, out_dtype):
        self._op = op
        self.next_functions = next_functions
        self.attrs = attrs
        self._saved = {}
        self._seq = next(_sequence)
        self._pre_hooks = None
        self._tensor_hooks = None
        self._retain_hooks = None
        self._hooks = None
        self._freed = False
        self._shapes = shapes
        self._dtypes = None
        self._need = tuple([fn is not None for fn, _ in next_functions])
        self._out_shape = out_shape
        self._out_dtype = out_dtype
        self.metadata = {}

    def name(self):
        return type(self).__name__

    def __getitem__(self, key):
        """A saved tensor, checked: freed by an earlier backward, or changed in place since saved."""
        if self._freed:
            raise RuntimeError(messages.BACKWARD_TWICE)
        return self._saved[key].unpack()

    def __getattr__(self, name):
        if name.startswith("_saved_"):
            key = name[len("_saved_"):]
            if key in self._saved or self._freed:
                return self[key]
            if key in self.attrs:
                return self.attrs[key]
            if key.endswith("_sym_sizes") and self._shapes:
                return tuple(self._shapes[0])
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def saved_tensors(self):
        return {k: v.tensor for k, v in self._saved.items()}

    def apply(self, grad):
        """The grads this node sends along next_functions, given the grad of its output."""
        op = self._op
        out = []
        for i, (fn, _) in enumerate(self.next_functions):
            if fn is None or grad is None:
                out.append(None)
                continue
            g = op.grads[0][1](self, grad, i) if op.variadic else op.grads[i][1](self, grad)
            if g is not None:
                if g.shape != self._shapes[i]:
                    g = g.sum_to_size(self._shapes[i])
                if self._dtypes is not None and g.dtype is not self._dtypes[i]:
                    g = g.to(self._dtypes[i])  # PyTorch casts each grad to its input's dtype
            out.append(g)
        return tuple(out)

    def formula(self):
        """The derivative sent along each of next_functions, in words."""
        grads = self._op.grads
        if self._op.variadic:
            return tuple(grads[0][0] for _ in self.next_functions)
        return tuple(text for text, _ in grads)

    def release(self):
        if self._saved and not self._freed:
            self._freed = True
            self._saved = {}
            if observe._observers:
                observe.emit("on_free", self)

    def register_prehook(self, fn):
        """fn(grad_outputs) -> None or new grad_outputs, before the node runs."""
        if self._pre_hooks is None:
            self._pre_hooks = []
        self._pre_hooks.append(fn)
        return Handle(self._pre_hooks, fn)

    def _register_tensor_hook(self, fn):
        if self._tensor_hooks is None:
            self._tensor_hooks = []
        self._tensor_hooks.append(fn)
        return Handle(self._tensor_hooks, fn)

    def register_hook(self, fn):
        """fn(grad_inputs, grad_outputs) -> None or new grad_inputs, after the node ran."""
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(fn)
        return Handle(self._hooks, fn)

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"


class AccumulateGrad(Node):
    """The sink of a leaf: adds the arriving grad into `variable.grad`."""

    __slots__ = ("variable", "_post_accumulate")

    def __init__(self, variable):
        Node.__init__(self, None, (), {}, (), variable.shape, variable.dtype)
        self._seq = float("inf")  # PyTorch gives AccumulateGrad the highest sequence number: runs once ready
        self.variable = variable
        self._post_accumulate = None

    def apply(self, grad):
        if grad is not None:
            self.variable._accumulate(grad)
            for hook in tuple(self._post_accumulate or ()):
                hook(self.variable)
        return ()

    def formula(self):
        return ()


class Handle:
    """What register_hook returns: .remove() unregisters the hook."""

    __slots__ = ("_list", "_fn")

    def __init__(self, lst, fn):
        self._list = lst
        self._fn = fn

    def remove(self):
        if self._fn in self._list:
            self._list.remove(self._fn)


_node_classes = {}


def node_class(name):
    """The Node subclass called `name` (`MulBackward0`), so that type(t.grad_fn).__name__ is PyTorch's."""
    cls = _node_classes.get(name)
    if cls is None:
        cls = _node_classes[name] = type(name, (Node,), {"__slots__": ()})
    return cls


class CopySlices(Node):
    """What an in-place op on a view leaves on the base: outside the view's region the grad flows to the
    base's old grad_fn; inside it flows through the inner op's node."""

    __slots__ = ("_inner", "_region")

    def __init__(self, base_edge, base_shape, region, inner):
        Node.__init__(self, None, (base_edge,) + inner.next_functions[1:], {}, (base_shape,) + inner._shapes[1:],
                      base_shape, inner._out_dtype)
        self._inner = inner
        self._region = region
        self._saved = inner._saved
        self._need = (base_edge[0] is not None,) + inner._need[1:]

    def apply(self, grad):
        return region_grad(self, grad)

    def release(self):
        if self._saved:
            self._inner._freed = True
            self._inner._saved = {}
        Node.release(self)

    def formula(self):
        return ("grad outside the written region",) + self._inner.formula()[1:]


_node_classes["CopySlices"] = CopySlices


def edge(t):
    """The (node, input number) a grad for tensor t goes to: its grad_fn, its AccumulateGrad, or nowhere."""
    if t.grad_fn is not None:
        return (t.grad_fn, 0)
    if t._requires_grad:
        return (t._accumulate_grad(), 0)
    return (None, 0)


def as_strided(view, base_edge):
    """The grad_fn PyTorch gives a view whose base was written in place: the view's region of the base."""
    return node_class("AsStridedBackward0")(
        OPS["as_strided"], (base_edge,), {"region": view._view_fn}, (view._base.shape,), view.shape, view.dtype)
