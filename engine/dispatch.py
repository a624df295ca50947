"""Running an op of the table: compute forward on numpy, and when grad is recorded, make its node."""
import math

import numpy as np

from . import dtypes, grad_mode, graph, memory, messages, observe
from .graph import edge
from .nodes import _record, _saved_names, as_tensor, make_node
from .ops import OPS, result_dtype
from .ops.regions import view_region
from .sizes import broadcast_shape, index_numel, nested_numel
from .tensor import Tensor

_MODE = grad_mode._state

_PRODUCTS = frozenset(["mm", "addmm", "bmm", "mv", "dot"])
_BLAS = frozenset([np.dtype(np.float32), np.dtype(np.float64)])


_MATRIX_PRODUCTS = frozenset(("mm", "addmm", "bmm"))
_DISTANCES = frozenset(("cdist", "euclidean_dist"))
_OWN_SIZE = _MATRIX_PRODUCTS | _DISTANCES | {"repeat", "index"}  # results not sized as their inputs' broadcast


def _out_numel(op, arrays, attrs):
    """The size of op's result, known before it is computed (so a budget can refuse it); a Python list given
    as an operand counts too (numpy makes an array of it first)."""
    n = _result_numel(op, arrays, attrs)
    for a in arrays:
        if isinstance(a, (list, tuple)):
            n = max(n, nested_numel(a))
    return n


def _result_numel(op, arrays, attrs):
    if op.numel is not None:
        return op.numel(arrays, attrs)
    if "shape" in attrs:
        return math.prod(map(int, attrs["shape"]))
    if not op.variadic and op.name not in _OWN_SIZE:  # called for every traced op: the common case first
        first = None
        for a in arrays:
            if isinstance(a, np.ndarray):
                if first is None:
                    first = a
                elif a.shape != first.shape:
                    break
        else:
            return first.size if first is not None else 1
    shapes = [a.shape for a in arrays if isinstance(a, np.ndarray)]
    if op.name in _MATRIX_PRODUCTS and len(shapes) >= 2:
        a, b = shapes[-2], shapes[-1]
        return math.prod(a[:-1]) * b[-1]
    if op.name in _DISTANCES and len(shapes) >= 2:  # every row of x1 against every row of x2, batches broadcast
        a, b = shapes[0], shapes[1]
        return math.prod(broadcast_shape([a[:-2], b[:-2]])) * a[-2] * b[-2]
    if op.variadic:  # cat, stack: every input is copied in
        return sum(map(math.prod, shapes))
    if op.name == "repeat":
        return math.prod(shapes[0]) * math.prod(map(int, attrs["repeats"]))
    if op.name == "index":
        return index_numel(shapes[0], attrs["key"])
    if all(s == shapes[0] for s in shapes[1:]):
        return math.prod(shapes[0]) if shapes else 1
    try:
        return math.prod(broadcast_shape(shapes))
    except ValueError:
        return sum(map(math.prod, shapes))


def _work(op, arrays, dtype):
    """Multiply-adds of a matrix product that numpy computes without BLAS (integer and bool dtypes): they cost
    about a nanosecond each, so one product can run for seconds; 0 for every other op."""
    if op.name not in _PRODUCTS or dtype.np in _BLAS:
        return 0
    shapes = [a.shape for a in arrays if isinstance(a, np.ndarray)]
    if len(shapes) < 2:
        return 0
    a, b = shapes[-2], shapes[-1]
    return math.prod(a) * (b[-1] if len(b) > 1 else 1)


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


# (apply, inplace) hooks that run an op given tensors of their kind, else return NotImplemented, the last first: while
# torch.func.vmap runs, its batching rules (engine/func/batching.py); from a program's first meta tensor on, the
# meta device's (engine/meta.py)
HOOKS = []


def apply(op, inputs, attrs=None, dtype=None):
    """Run `op` on `inputs` (Tensors, or Python numbers in tensor positions) and return the output."""
    if HOOKS:
        for hook, _ in reversed(HOOKS):
            out = hook(op, inputs, attrs, dtype)
            if out is not NotImplemented:
                return out
    # the common case first, fused: plain tensors of one float dtype (and Python numbers), an op of one output that
    # is no view, nothing listening, no denormals flushed
    first = inputs[0] if inputs else None
    if type(first) is Tensor and not observe._observers and not op.several and not op.view \
            and not memory.FLUSH_DENORMAL[0]:
        d = first.dtype
        if d.is_floating_point and (dtype is None or dtype is d):
            enabled = _MODE["enabled"]
            wants_grad = False
            arrays = []
            for x in inputs:
                t = type(x)
                if t is Tensor:
                    if x.dtype is not d or x._base is not None:
                        break
                    arrays.append(x._data)
                    if enabled and not wants_grad and (x._grad_fn is not None or x._requires_grad):
                        wants_grad = True
                elif t is not float and t is not int:
                    break
                else:
                    arrays.append(x)
            else:
                dtypes.COMPUTING[0] = d
                try:
                    out_data = op.forward(*arrays, **attrs) if attrs else op.forward(*arrays)
                except ValueError as e:
                    raise shape_error(e, arrays) from None
                if type(out_data) is not np.ndarray or out_data.dtype != d.np or not out_data.size:
                    return _finish(op, inputs, attrs, out_data, d, wants_grad)
                if op.pointwise and out_data.ndim > 1 and _iterator_lays_out(out_data, arrays):
                    out_data = memory.iterated(out_data, arrays, attrs or {})
                out = Tensor._make(out_data, d)
                if wants_grad:
                    _record(op, inputs, attrs or {}, out, d)
                return out
    if attrs is None:
        attrs = {}
    enabled = _MODE["enabled"]
    arrays = []
    wants_grad = False
    same = None  # _same_float, inlined: the first input a float tensor, the others of its dtype or Python numbers
    if dtype is None:
        first = inputs[0]
        if type(first) is Tensor and first.dtype.is_floating_point:
            same = first.dtype
    for x in inputs:
        if type(x) is Tensor or isinstance(x, Tensor):
            arrays.append(x._data)
            if same is not None and x.dtype is not same:
                same = None
            # with grad off nothing is recorded, and a view's grad_fn is not looked at (PyTorch's neither)
            if enabled and not wants_grad and (x._grad_fn is not None or x._requires_grad or x._base is not None):
                wants_grad = x._base is None or x.requires_grad  # not a view: requires_grad is the test just made
        else:
            arrays.append(x)
            if same is not None and type(x) is not float and type(x) is not int:
                same = None
    if dtype is None:
        dtype = same or result_dtype(inputs)
    observed = observe._observers
    if observed and not op.several:  # several outputs: each is sized as it is handed out (_several)
        observe.emit("on_alloc", _out_numel(op, arrays, attrs))
        work = _work(op, arrays, dtype)
        if work:
            observe.emit("on_work", work)
    flush = memory.FLUSH_DENORMAL[0]
    if flush:
        arrays = [memory.without_denormals(a) for a in arrays]
    dtypes.COMPUTING[0] = dtype
    try:
        out_data = op.forward(*arrays, **attrs) if attrs else op.forward(*arrays)
    except ValueError as e:
        raise shape_error(e, arrays) from None
    if flush and not op.view:
        out_data = tuple(map(memory.without_denormals, out_data)) if op.several else memory.without_denormals(out_data)
    if op.several:
        return _several(op, inputs, attrs, out_data, dtype, wants_grad)
    if not op.view:
        if type(out_data) is not np.ndarray:
            out_data = np.asarray(out_data, dtype=dtype.np)
        else:
            have = out_data.dtype
            if have is not dtype.np and have != dtype.np:
                out_data = np.asarray(out_data, dtype=dtype.np)
    if op.pointwise and out_data.ndim > 1 and _iterator_lays_out(out_data, arrays):
        out_data = memory.iterated(out_data, arrays, attrs)
    elif not op.view and not out_data.size and 0 in out_data.strides:  # numpy's; a new tensor of torch has none
        out_data = memory.with_strides(out_data, memory.contiguous_strides(out_data.shape))
    out = Tensor._make(out_data, dtype)
    if op.view:
        out._make_view_of(inputs[0], op, attrs)
    if wants_grad and dtype._grads:  # integers are not differentiable
        _record(op, inputs, attrs, out, dtype)
    if observed:
        observe.emit("on_op", out, op, inputs, attrs)
    return out


def _finish(op, inputs, attrs, out_data, dtype, wants_grad):
    """The result of apply's common case that is not already an array of its dtype with elements: apply's general
    handling of it."""
    arrays = [x._data if type(x) is Tensor else x for x in inputs]
    if type(out_data) is not np.ndarray or out_data.dtype != dtype.np:
        out_data = np.asarray(out_data, dtype=dtype.np)
    if op.pointwise and out_data.ndim > 1 and _iterator_lays_out(out_data, arrays):
        out_data = memory.iterated(out_data, arrays, attrs or {})
    elif not out_data.size and 0 in out_data.strides:
        out_data = memory.with_strides(out_data, memory.contiguous_strides(out_data.shape))
    out = Tensor._make(out_data, dtype)
    if wants_grad:
        _record(op, inputs, attrs or {}, out, dtype)
    return out


def _iterator_lays_out(out, arrays):
    """Whether an elementwise result needs TensorIterator's layout, not numpy's: an operand not row-major, or an
    empty result that some operand (a scalar too) is not the shape of (ATen's fast setup does not apply). An
    array that does not broadcast to the result is no operand of the iterator (glu's input: it iterates halves)."""
    if not out.size:
        return any(getattr(a, "shape", None) != out.shape for a in memory.operands(out.shape, arrays))
    return any(type(a) is np.ndarray and not a.flags.c_contiguous and memory.broadcasts_to(a.shape, out.shape)
               for a in arrays)  # numpy's ufuncs go otherwise


def _several(op, inputs, attrs, pieces, dtype, wants_grad):
    """The outputs of an op with several (split, unbind): one node, each output its own output number; as
    views of the input (op.view), each output's view function takes its piece of the base."""
    src = inputs[0]
    arrays = [x._data for x in inputs if isinstance(x, Tensor)]
    outs = tuple(Tensor._make(p if op.view else _own_copy(p, arrays),
                              dtype if (p.dtype.kind == "c") == dtype.is_complex else dtypes.from_numpy(p.dtype))
                 for p in pieces)  # a complex op's real output (the spread of var_mean) is of its own dtype
    if op.view:
        for i, out in enumerate(outs):
            out._make_view_of(src, _Piece(op, i), attrs)
    if outs and wants_grad and grad_mode._state["enabled"] and dtype._grads:
        node = make_node(op, list(inputs), attrs, outs[0], dtype)
        node._n_outputs = len(outs)
        for i, out in enumerate(outs):
            out.grad_fn = node
            out._output_nr = i
    if observe._observers:
        for i, out in enumerate(outs):
            observe.emit("on_alloc", out._data.size)
            observe.emit("on_op", out, op, inputs, {**attrs, "output": i})
    return outs


def _own_copy(a, arrays):
    """A forward's output as the op's own, its strides (a LAPACK result's column-major layout, or a narrowed
    LAPACK buffer's) kept exactly."""
    have = memory.strides(a)
    if a.size and a.flags.c_contiguous and have == memory.contiguous_strides(a.shape):
        return a.copy()
    if a.size == 0 or memory.is_dense(a):
        return memory.with_strides(a, have)
    if not any(np.may_share_memory(a, x) for x in arrays):  # a part of a buffer of the forward's own
        return a
    return a.copy(order="K")


class _Piece:
    """Output i of an op with several outputs, as the view function of that output."""

    __slots__ = ("forward",)

    def __init__(self, op, i):
        self.forward = lambda a, **attrs: op.forward(a, **attrs)[i]


def _forward(op, arrays, attrs):  # (apply inlines it)
    try:
        return op.forward(*arrays, **attrs)
    except ValueError as e:
        raise shape_error(e, arrays) from None


def shape_error(e, arrays):
    shapes = [a.shape for a in arrays if isinstance(a, np.ndarray)]
    if len(shapes) >= 2 and "broadcast" in str(e):
        error = messages.broadcast_error(shapes[0], shapes[1])
        if error is not None:
            return error
    return RuntimeError(str(e))


def check_inplace(t):
    if not grad_mode._state["enabled"]:
        return
    if t.grad_fn is None and t._requires_grad:
        raise RuntimeError(messages.LEAF_INPLACE)
    base = t._base
    fn = t._grad_fn
    if base is not None and fn is not None and fn._n_outputs != 1 and fn._op is not None and fn._op.view:
        raise RuntimeError(messages.MULTI_OUTPUT_VIEW_INPLACE.format(nr=t._output_nr, name=graph._short_name(fn)))
    if base is not None and fn is not None and graph.CUSTOM_VIEWS and graph.CUSTOM_VIEWS.get(id(t)) is t:
        raise RuntimeError(messages.CUSTOM_FUNCTION_VIEW_INPLACE.format(
            nr=t._output_nr, name=graph._short_name(fn), what="is being modified"))
    if base is not None and base.grad_fn is None and base._requires_grad:
        raise RuntimeError(messages.VIEW_OF_LEAF_INPLACE)


def check_inference_write(t):
    """An inference tensor written outside inference_mode: PyTorch writes it, then raises."""
    if t._inference and not grad_mode._state["inference"]:
        raise RuntimeError(messages.INFERENCE_INPLACE)


def inplace(op, t, others, attrs=None, result=None):
    """`t.<op>_(*others)`: write op(t, *others) into t's memory, bump its version, rewire its grad_fn.
    result: the dtype the out-of-place op would give (default: the inputs promoted)."""
    attrs = attrs or {}
    if HOOKS:
        for _, hook in reversed(HOOKS):
            out = hook(op, t, others, attrs, result)
            if out is not NotImplemented:
                return out
    if op.name == "abs" and t.dtype.is_complex:  # ATen's abs_ refuses before it writes (abs is real)
        raise RuntimeError("In-place abs is not supported for complex tensors.")
    check_inplace(t)
    inputs = (t, *others)
    dtype = t.dtype
    promoted = result or _same_float(inputs) or result_dtype(inputs)
    rule = op.spelling.out_dtype if op.spelling is not None else None
    if rule is not None:
        text = rule(dtype, promoted, dtype)
        if text:
            raise RuntimeError(text)
    elif not _can_cast(promoted, dtype):
        if op.pointwise:  # TensorIterator sizes the output before it checks the cast
            _check_broadcast_into(t, inputs)
        raise RuntimeError(
            f"result type {promoted.type_name} can't be cast to the desired output type {dtype.type_name}")
    recording = grad_mode._state["enabled"] and any(isinstance(x, Tensor) and x.requires_grad for x in inputs)
    node = None
    if recording:
        # Saved inputs keep their version from before the write; a saved `self` is a copy of the old value.
        tensors = [x if isinstance(x, Tensor) else as_tensor(x, dtype) for x in inputs]
        originals = list(tensors)
        need = tuple(edge(x)[0] is not None for x in tensors)
        if "self" in _saved_names(op, need)[0]:  # ATen's original_self: a clone, so create_graph reaches t's past
            with observe.muted():
                tensors[0] = apply(OPS["clone"], (t,)) if t.requires_grad else Tensor._make(t._data.copy(), dtype)
        numbers = {i: x for i, x in enumerate(inputs) if not isinstance(x, Tensor)}
        node = make_node(op, tensors, attrs, t, dtype, originals=originals, save_result=False, numbers=numbers)
        if op.node == "NotImplemented":  # its backward's error names the in-place function (aten::scatter_)
            node.attrs = {**attrs, "inplace": True}
    arrays = [x._data if isinstance(x, Tensor) else x for x in inputs]
    if observe._observers:
        observe.emit("on_alloc", 0)  # writes into t's memory; a chance to stop a long loop of them
    dtypes.COMPUTING[0] = dtype
    value = _forward(op, arrays, attrs)
    resize = op.spelling.inplace_resize if op.spelling is not None else None
    if resize is not None and np.shape(value) != t.shape:
        if t._base is not None:
            raise NotImplementedError(f"{op.spelling.inplace[0]} resizing a view: the engine cannot grow the storage "
                                      "its base shares")
        value = _forward(op, [resize(t._data, np.shape(value)), *arrays[1:]], attrs)
        t._data = np.empty(np.shape(value), t._data.dtype)
    if np.shape(value) != t.shape:
        sizes = op.spelling.inplace_sizes if op.spelling is not None else False
        if sizes is True:
            raise RuntimeError(f"Bad in-place call: input tensor size {list(t.shape)} and output tensor size "
                               f"{list(np.shape(value))} should match")
        if sizes:
            raise RuntimeError(sizes(t, inputs, attrs))
        raise RuntimeError(
            f"output with shape {list(t.shape)} doesn't match the broadcast shape {list(np.shape(value))}"
        )
    np.copyto(t._data, dtypes.stored(dtype, value), casting="unsafe")
    check_inference_write(t)
    t._bump()
    if node is not None:
        if "result" in _saved_names(op, node._need)[0]:
            node._saved["result"] = graph.SavedTensor(t, node)
        if t._base is None:
            t.grad_fn = node
        else:
            rewire_view(t, node)
    if observe._observers:
        observe.emit("on_inplace", t, op, inputs, attrs)
    return t


def inplace_view(op, t, attrs):
    """`t.unsqueeze_(…)`, `t.t_()`, …: t takes the view op's shape and strides over the same memory, its version is
    bumped, and its grad_fn becomes op's node (a view stays a view of its base, through op)."""
    check_inplace(t)
    value = op.forward(t._data, **attrs)
    node = None
    if grad_mode._state["enabled"] and t.requires_grad and t.dtype._grads:
        node = make_node(op, (t,), attrs, Tensor._make(value, t.dtype), t.dtype)
    t._data = value
    if t._base is not None:
        t._view_fn = view_region(t._view_fn, op.forward, attrs)
    t._bump()
    if node is not None:
        t.grad_fn = node
    if observe._observers:
        observe.emit("on_inplace", t, op, (t,), attrs)
    return t


def _check_broadcast_into(t, inputs):
    try:
        shape = np.broadcast_shapes(*(x.shape for x in inputs if isinstance(x, Tensor)))
    except ValueError:
        return
    if shape != t.shape:
        raise RuntimeError(f"output with shape {list(t.shape)} doesn't match the broadcast shape {list(shape)}")


def _can_cast(src, dst):
    """PyTorch's canCast for writing a result in place: no float into an integer, no number into a bool."""
    if src._grads and not dst._grads or src.is_complex and not dst.is_complex:
        return False
    return src is dst or dst is not dtypes.bool


def rewire_view(view, inner):
    """An in-place op `inner` on a view: its base gets a CopySlices over the view's region, and the view
    becomes an AsStridedBackward0 of the base, as in PyTorch."""
    base = view._base
    node = graph.CopySlices(edge(base), base.shape, view._view_fn, inner)
    base.grad_fn = node
    view.grad_fn = graph.as_strided(view, (node, 0))
