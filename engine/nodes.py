"""The node of an op's result: its edges, what it saves for backward (inputs, the result, strides), as PyTorch's
node keeps them."""
import numpy as np

from . import graph
from .ops import kept
from .tensor import Tensor


def as_tensor(x, dtype):
    if isinstance(x, Tensor):
        return x
    return Tensor._make(np.asarray(x, dtype=dtype.np), dtype)



def _record(op, inputs, attrs, out, dtype):
    """make_node for apply's result, its common inputs (plain tensors, Python numbers) in one pass; any other
    input (a subclass's tensor) takes make_node's general one."""
    numbers = None
    nexts = []
    shapes = []
    need = []
    mixed = False
    i = 0
    for x in inputs:
        if type(x) is Tensor:
            shapes.append(x._data.shape)
            if x.dtype is not dtype:
                mixed = True
            if x._base is not None:
                e = _edge(x)
            else:
                fn = x._grad_fn
                e = (fn, x._output_nr) if fn is not None else _NOWHERE if not x._requires_grad \
                    else (x._acc, 0) if x._acc is not None else (x._accumulate_grad(), 0)
            nexts.append(e)
            need.append(e[0] is not None)
        elif isinstance(x, Tensor):
            break
        else:  # a number, or None for an optional tensor not given (clamp's max)
            if numbers is None:
                numbers = {}
            numbers[i] = x
            shapes.append(())
            nexts.append(_NOWHERE)
            need.append(False)
        i += 1
    else:
        node = _node(op, inputs, attrs, out, dtype, nexts, shapes, mixed, True, numbers, tuple(need))
        if type(out) is Tensor:  # the grad_fn setter's work, of which a fresh result needs only this
            out._grad_fn = node
        else:
            out.grad_fn = node
        return
    numbers = {i: x for i, x in enumerate(inputs) if not isinstance(x, Tensor)} or None
    out.grad_fn = make_node(op, inputs, attrs, out, dtype, numbers=numbers)


def _edge(x):
    """graph.edge, inlined for make_node: a view's grad_fn may need regenerating, a plain tensor's is stored (x may
    also stand for a tensor, as indexing's _EdgeOf does)."""
    fn = x._grad_fn if type(x) is Tensor and x._base is None else x.grad_fn
    if fn is not None:
        return (fn, x._output_nr)
    if x._requires_grad:
        return (x._accumulate_grad(), 0)
    return _NOWHERE


_NOWHERE = (None, 0)
_fresh = graph.Node._fresh.__func__
_NO_PLAN = (None, None, None)


def make_node(op, tensors, attrs, out, dtype, originals=None, save_result=True, numbers=None):
    """The node for op(tensors) -> out. `originals` (in-place ops) are the tensors whose edges it takes
    when `tensors` holds a copy of a value saved from before the op overwrote it; `numbers`: position -> the
    Python number given there (saved_tensors_hooks do not see those; grad_fn._saved_other shows it as PyTorch's
    wrapped number, an int64, float64 or bool tensor); `tensors` may hold the number itself at its position,
    which stands for a 0-d tensor of `dtype` that is made only if the node saves it."""
    nexts = []
    shapes = []
    mixed = False
    for x in tensors:  # _edge inlined for the common inputs: plain tensors that are not views, and numbers
        if type(x) is Tensor:
            shapes.append(x._data.shape)
            mixed = mixed or x.dtype is not dtype
            if originals is None and x._base is None:
                fn = x._grad_fn
                nexts.append((fn, x._output_nr) if fn is not None else (x._accumulate_grad(), 0)
                             if x._requires_grad else _NOWHERE)
                continue
        elif numbers is None or isinstance(x, Tensor):
            shapes.append(tuple(x.shape))  # a subclass's (vmap's BatchedTensor: its sample's shape)
            mixed = mixed or isinstance(x, Tensor) and x.dtype is not dtype
        else:
            shapes.append(())
            if originals is None:
                nexts.append(_NOWHERE)
                continue
        if originals is None:
            nexts.append(_edge(x))
    if originals is not None:
        nexts = [_edge(x) if numbers is None or isinstance(x, Tensor) else _NOWHERE for x in originals]
    return _node(op, tensors, attrs, out, dtype, nexts, shapes, mixed, save_result, numbers)


def _node(op, tensors, attrs, out, dtype, nexts, shapes, mixed, save_result, numbers, need=None):
    cls = op.node_cls
    if cls is None:
        cls = op.node_cls = graph.node_class(op.node, op.several)
        graph.expose_saved(cls, op)
    if op.node == "NotImplemented":  # torch's node of an op without a derivative has edges only where grad flows
        nexts = [e for e in nexts if e[0] is not None]
        need = None
    out_shape = out._data.shape if type(out) is Tensor else tuple(out.shape)
    if need is None:
        node = cls(op, tuple(nexts), attrs, tuple(shapes), out_shape, dtype)
    else:
        node = _fresh(cls, op, tuple(nexts), attrs, tuple(shapes), out_shape, dtype, need)
    if mixed or dtype.fit is not None:  # (a bfloat16 node's vjp may compute in float32: its grads are cast back)
        node._dtypes = tuple([x.dtype if isinstance(x, Tensor) else dtype for x in tensors])
    if op.saves:
        saved = node._saved
        need = node._need
        plan = op.saved_cache.get(need)
        inputs, result, strides = plan[2] if plan is not None and plan[2] is not None else _plan(op, need)
        for name, i in inputs:
            if numbers and i in numbers:
                if numbers[i] is None:  # an optional tensor not given: nothing saved, `_saved_<name>` is None
                    continue
                x = tensors[i]
                if not isinstance(x, Tensor):
                    x = as_tensor(x, dtype)
                saved[name] = graph.SavedTensor(x, None, hooks=False, number=numbers[i])
            else:
                saved[name] = graph.SavedTensor(tensors[i], None)
        if result and save_result:  # saved once it is the node's output (last), as PyTorch saves outputs
            out.grad_fn = node
            saved["result"] = graph.SavedTensor(out, node)
        if strides:
            node._meta = {name: _stride(tensors[i]) for name, i in strides}
    return node


def _plan(op, need):
    """_saved_names as make_node uses it: the saved inputs as (name, position), whether the result is saved,
    the strides kept as (name, position); cached per op and need."""
    cache = op.saved_cache
    plan = cache.get(need, _NO_PLAN)[2]
    if plan is None:
        names, strides = _saved_names(op, need)
        plan = cache[need][2] = (
            tuple((name, op.args.index(name)) for name in names if name != "result"), "result" in names,
            tuple((name, op.args.index(name[:-len("_sym_strides")])) for name in strides))
    return plan


def _stride(x):
    return x.stride() if isinstance(x, Tensor) else ()


def _saved_names(op, need):
    """What a node saves: the tensors that the derivatives of its inputs that need grad read (the result always),
    and the strides they read (see ops.table.kept); cached per op."""
    cache = op.saved_cache
    names = cache.get(need)
    if names is None:  # [saved tensor names, strides kept, make_node's plan of them (made by _plan)]
        kinds = kept(op)
        found = {}
        for i, flag in enumerate(need):
            if flag:
                for decl in op.saves.get(i, ()):
                    if kinds.get(decl) == "tensor" and decl != "result" or decl.endswith("_sym_strides"):
                        found[decl] = True
        if "result" in kinds:
            found["result"] = True
        names = cache[need] = [tuple(n for n in found if kinds[n] == "tensor"),
                               tuple(n for n in found if kinds[n] == "meta"), None]
    return names[0], names[1]
