"""Running an op of the table: compute forward on numpy, and when grad is recorded, make its node."""
import functools
import math

import numpy as np

from . import grad_mode, graph, messages, observe
from .graph import edge
from .ops import result_dtype
from .tensor import Tensor

_quiet = functools.partial(np.errstate, all="ignore")  # PyTorch makes inf and nan without warnings


_MATRIX_PRODUCTS = frozenset(("mm", "addmm", "bmm"))


def _out_numel(op, arrays, attrs):
    """The size of op's result, known before it is computed (so a budget can refuse it). Called for every op
    while a program is traced: the common case (inputs of one shape, or with numbers) is decided first."""
    if "shape" in attrs:
        return math.prod(map(int, attrs["shape"]))
    first = None
    for a in arrays:
        if isinstance(a, np.ndarray):
            if first is None:
                first = a
            elif a.shape != first.shape:
                break
    else:
        if op.name not in _MATRIX_PRODUCTS:
            return first.size if first is not None else 1
    shapes = [a.shape for a in arrays if isinstance(a, np.ndarray)]
    if op.name in _MATRIX_PRODUCTS and len(shapes) >= 2:
        a, b = shapes[-2], shapes[-1]
        return math.prod(a[:-1]) * b[-1]
    if all(s == shapes[0] for s in shapes[1:]):
        return math.prod(shapes[0]) if shapes else 1
    try:
        return math.prod(np.broadcast_shapes(*shapes))
    except ValueError:
        return sum(map(math.prod, shapes))


def _same_float(inputs):
    """The common case, decided fast: float tensors of one dtype, maybe with Python numbers."""
    first = inputs[0]
    if type(first) is not Tensor:
        return None
    d = first.dtype
    if not d.is_floating_point:
        return None
    for x in inputs[1:]:
        t = type(x)
        if t is float or t is int:
            continue
        if (t is Tensor or isinstance(x, Tensor)) and x.dtype is d:
            continue
        return None
    return d


def as_tensor(x, dtype):
    if isinstance(x, Tensor):
        return x
    return Tensor._make(np.asarray(x, dtype=dtype.np), dtype)


def apply(op, inputs, attrs=None, dtype=None):
    """Run `op` on `inputs` (Tensors, or Python numbers in tensor positions) and return the output."""
    if attrs is None:
        attrs = {}
    arrays = []
    wants_grad = False
    for x in inputs:
        if isinstance(x, Tensor):
            arrays.append(x._data)
            if not wants_grad and (x._grad_fn is not None or x._requires_grad or x._base is not None):
                wants_grad = x.requires_grad
        else:
            arrays.append(x)
    if dtype is None:
        dtype = _same_float(inputs) or result_dtype(inputs)
    if observe._observers:
        observe.emit("on_alloc", _out_numel(op, arrays, attrs))
    out_data = _forward(op, arrays, attrs)
    if not op.view and (type(out_data) is not np.ndarray or out_data.dtype != dtype.np):
        out_data = np.asarray(out_data, dtype=dtype.np)
    out = Tensor._make(out_data, dtype)
    if op.view:
        out._make_view_of(inputs[0], op, attrs)
    if wants_grad and grad_mode._state["enabled"]:
        _record(op, inputs, attrs, out, dtype)
    if observe._observers:
        observe.emit("on_op", out, op, inputs, attrs)
    return out


def _forward(op, arrays, attrs):
    try:
        if op.quiet:
            with _quiet():
                return op.forward(*arrays, **attrs)
        return op.forward(*arrays, **attrs)
    except ValueError as e:
        raise shape_error(e, arrays) from None


def _record(op, inputs, attrs, out, dtype):
    tensors = [x if isinstance(x, Tensor) else as_tensor(x, dtype) for x in inputs]
    out.grad_fn = make_node(op, tensors, attrs, out, dtype)


def make_node(op, tensors, attrs, out, dtype, originals=None, save_result=True):
    """The node for op(tensors) -> out. `originals` (in-place ops) are the tensors whose edges it takes
    when `tensors` holds a copy of a value saved from before the op overwrote it."""
    nexts = tuple([edge(x) for x in originals or tensors])
    cls = op.node_cls
    if cls is None:
        cls = op.node_cls = graph.node_class(op.node)
    node = cls(op, nexts, attrs, tuple([x._data.shape for x in tensors]), out._data.shape, dtype)
    for x in tensors:
        if x.dtype is not dtype:
            node._dtypes = tuple([x.dtype for x in tensors])
            break
    if op.saves:
        saved = node._saved
        for name in _saved_names(op, node._need):
            if name != "result":
                saved[name] = graph.SavedTensor(tensors[op.args.index(name)], None)
            elif save_result:
                saved[name] = graph.SavedTensor(out, node)
    return node


def _saved_names(op, need):
    """What a node keeps: what the derivatives of its inputs that need grad read (cached per op)."""
    cache = op.saved_cache
    names = cache.get(need)
    if names is None:
        names = {}
        for i, flag in enumerate(need):
            if flag:
                for name in op.saves.get(i, ()):
                    names[name] = True
        names = cache[need] = tuple(names)
    return names


def shape_error(e, arrays):
    shapes = [a.shape for a in arrays if isinstance(a, np.ndarray)]
    if len(shapes) >= 2 and "broadcast" in str(e):
        a, b = shapes[0], shapes[1]
        for dim in range(1, max(len(a), len(b)) + 1):
            sa = a[-dim] if dim <= len(a) else 1
            sb = b[-dim] if dim <= len(b) else 1
            if sa != sb and sa != 1 and sb != 1:
                return RuntimeError(messages.BROADCAST.format(a=sa, b=sb, dim=max(len(a), len(b)) - dim))
    return RuntimeError(str(e))


def check_inplace(t):
    if not grad_mode._state["enabled"]:
        return
    if t.grad_fn is None and t._requires_grad:
        raise RuntimeError(messages.LEAF_INPLACE)
    base = t._base
    if base is not None and base.grad_fn is None and base._requires_grad:
        raise RuntimeError(messages.VIEW_OF_LEAF_INPLACE)


def inplace(op, t, others, attrs=None, result=None):
    """`t.<op>_(*others)`: write op(t, *others) into t's memory, bump its version, rewire its grad_fn.
    result: the dtype the out-of-place op would give (default: the inputs promoted)."""
    attrs = attrs or {}
    check_inplace(t)
    inputs = (t, *others)
    dtype = t.dtype
    promoted = result or result_dtype(inputs)
    if promoted._rank > dtype._rank and promoted.is_floating_point != dtype.is_floating_point:
        raise RuntimeError(
            f"result type {promoted.type_name} can't be cast to the desired output type {dtype.type_name}")
    recording = grad_mode._state["enabled"] and any(isinstance(x, Tensor) and x.requires_grad for x in inputs)
    node = None
    if recording:
        # Saved inputs keep their version from before the write; a saved `self` is a copy of the old value.
        tensors = [x if isinstance(x, Tensor) else as_tensor(x, dtype) for x in inputs]
        originals = list(tensors)
        need = tuple(edge(x)[0] is not None for x in tensors)
        if "self" in _saved_names(op, need):
            tensors[0] = Tensor._make(t._data.copy(), dtype)
        node = make_node(op, tensors, attrs, t, dtype, originals=originals, save_result=False)
    arrays = [x._data if isinstance(x, Tensor) else x for x in inputs]
    value = _forward(op, arrays, attrs)
    if np.shape(value) != t.shape:
        raise RuntimeError(
            f"output with shape {list(t.shape)} doesn't match the broadcast shape {list(np.shape(value))}"
        )
    np.copyto(t._data, value, casting="unsafe")
    t._bump()
    if node is not None:
        if "result" in _saved_names(op, node._need):
            node._saved["result"] = graph.SavedTensor(t, node)
        if t._base is None:
            t.grad_fn = node
        else:
            rewire_view(t, node)
    if observe._observers:
        observe.emit("on_inplace", t, op, inputs, attrs)
    return t


def rewire_view(view, inner):
    """An in-place op `inner` on a view: its base gets a CopySlices over the view's region, and the view
    becomes an AsStridedBackward0 of the base, as in PyTorch."""
    base = view._base
    node = graph.CopySlices(edge(base), base.shape, view._view_fn, inner)
    base.grad_fn = node
    view.grad_fn = graph.as_strided(view, (node, 0))
