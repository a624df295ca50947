"""The nodes of the backward graph: grad_fn objects, AccumulateGrad, CopySlices, saved tensors, and the edges
between them.

Over 500 lines: the node classes share the saved-tensor and hook machinery they are made of."""
import inspect
import itertools
import math
from weakref import WeakValueDictionary
from weakref import ref as _weak

from . import dtypes, grad_mode, messages, observe
from .ops import OPS, kept, region_grad
from .ops.table import META
from .torch_names import TorchClass

SAMPLE_SHAPED = set()  # tensor types whose shape is not their array's (vmap's BatchedTensor: the sample's)

# Views made inside a custom autograd.Function (an input it returned as-is too, and what a module's full backward
# hook wraps), and the views of those: torch refuses to change them in place (dispatch.check_inplace). id -> tensor.
CUSTOM_VIEWS = WeakValueDictionary()

_MODE = grad_mode._state
_set_grad = grad_mode._set

_sequence = itertools.count()
_new_object = object.__new__


_hooks_stack = []  # saved_tensors_hooks: (pack, unpack) pairs, innermost last
_hooks_disabled = [None]  # disable_saved_tensors_hooks: the error a saved_tensors_hooks raises (None: enabled)
_handle_ids = itertools.count()


class SavedTensor:
    """What a node keeps of a tensor for its backward (torch._C._autograd.SavedTensor), with the version it had;
    torch/csrc/autograd/saved_variable.cpp is the model.

    Unpacked, an input is the input itself; an output (`producer` is its node) a new tensor of the same data
    whose grad_fn is that node; with pack/unpack hooks, what unpack returns, made a new tensor with the saved
    tensor's place in the graph. `tensor` stays for the explorer, which shows which tensor was saved.

    An output is kept as PyTorch keeps it, without a reference back: its data and version counter (an alias),
    the output itself and its node only weakly, so that output -> grad_fn -> saved -> output is no reference cycle
    (a graph dropped without a backward is freed at once, not by the garbage collector)."""

    __slots__ = ("_tensor", "_ref", "version", "_producer", "original", "freed", "packed", "unpack_hook", "meta",
                 "number", "__weakref__")

    def __init__(self, tensor, producer, hooks=True, number=None):
        self.number = number  # the Python number a saved input was made of
        self.freed = False
        self.unpack_hook = None
        if producer is None:
            self._tensor = tensor
            self._ref = self._producer = None
            if tensor is None:
                return
        else:  # a saved output names its own node when the version check fails
            alias = tensor._saved_alias()
            alias._output_nr = tensor._output_nr
            self._tensor = alias
            self._ref = _weak(tensor)
            self._producer = _weak(producer)
        if tensor._inference:
            raise RuntimeError(messages.INFERENCE_SAVED)
        self.version = tensor._vbox[0]
        self.original = producer is None  # PyTorch keeps inputs (and leaves) as they are
        if hooks and _hooks_stack and _hooks_disabled[0] is None:
            self.original = False
            self._pack(*_hooks_stack[-1], tensor)

    @property
    def tensor(self):
        """The tensor saved (an output while it lives; then the alias of its data the node keeps)."""
        ref = self._ref
        if ref is not None:
            t = ref()
            if t is not None:
                return t
        return self._tensor

    @property
    def producer(self):
        ref = self._producer
        return ref() if ref is not None else None

    def _pack(self, pack, unpack, arg):
        """Keep what pack(arg) returns (under no_grad), and the tensor's place in the graph to unpack it to."""
        t = self.tensor
        leaf = t.grad_fn is None and self.producer is None
        self.meta = (None if leaf or self.producer is not None else t.grad_fn,
                     t._output_nr, leaf and t._requires_grad, t._accumulate_grad() if leaf and t._requires_grad
                     else None)
        prev = _MODE["grad"]
        _set_grad(False)
        try:
            self.packed = pack(arg)
        finally:
            _set_grad(prev)
        if t._vbox[0] != self.version:
            raise RuntimeError(messages.PACK_HOOK_INPLACE)
        self.unpack_hook = unpack

    def register_hooks(self, pack_hook, unpack_hook):
        if self.unpack_hook is not None:
            raise RuntimeError(messages.HOOKS_ALREADY_SET)
        if self.freed:
            raise RuntimeError(messages.REGISTER_HOOKS_FREED)
        if self._tensor is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is forbidden")
        self.original = False
        self._pack(pack_hook, unpack_hook, self.tensor.detach())

    def unpack(self, bare=False):
        """bare: for a derivative computed without a graph, a saved output need not name its node."""
        t = self._tensor
        if t is None:
            return None
        if self.unpack_hook is not None:
            data = self.unpack_hook(self.packed)
            if not hasattr(data, "_vbox"):
                raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of "
                                f"type {type(data).__name__}")
            fn, nr, requires_grad, acc = self.meta
            if fn is None and self.producer is not None:
                fn = self.producer
            if fn is None and not requires_grad and not data.requires_grad:
                return data
            return _alias(data, fn, nr, requires_grad, acc)
        if t._vbox[0] != self.version:
            fn = t.grad_fn if self.original else self.producer
            producer = ""
            if fn is not None:
                nr = 0 if self.original else t._output_nr
                producer = f", which is output {nr} of {_short_name(fn)},"
            text = messages.MODIFIED_SAVED if not _MODE["anomaly"] else messages.MODIFIED_SAVED_ANOMALY
            raise RuntimeError(text.format(desc=t._type_desc(), producer=producer, version=t._vbox[0],
                                           expected=self.version))
        if self.original or bare:
            return t
        out = _alias(t, self.producer, t._output_nr, False, None)
        if grad_mode.TANGENTS:  # a saved dual output (forward AD through a backward) keeps its tangent, as torch's
            tangent = grad_mode.TANGENTS.get(id(self.tensor))
            if tangent is not None:
                grad_mode.TANGENTS[id(out)] = (out, tangent[1])
        return out

    def __repr__(self):
        return f"<torch._C._autograd.SavedTensor object at {id(self):#x}>"


def _wrapped_number(saved):
    """A Python number an op saved, as PyTorch keeps it: a 0-d tensor of the number's own type."""
    v = saved.number
    dtype = dtypes.bool if isinstance(v, bool) else dtypes.int64 if isinstance(v, int) else dtypes.float64
    return saved.tensor._new(v, dtype)


def _freed_saved_tensor():
    s = SavedTensor(None, None)
    s.freed = True
    return s


def _alias(t, fn, nr, requires_grad, acc):
    """A new tensor of t's data (sharing its version counter) that sends its grad along (fn, nr), or to the leaf
    whose AccumulateGrad is acc."""
    new = t._saved_alias()
    if fn is not None:
        new.grad_fn = fn
        new._output_nr = nr
    elif requires_grad:
        new._requires_grad = True
        new._acc = acc
    return new


def _short_name(node):
    """How PyTorch names a node in the modified-by-an-inplace-operation message."""
    name = type(node).__name__
    if not isinstance(node, (AccumulateGrad, CopySlices)) and "Backward" in name and not name.endswith("Backwards"):
        if name.endswith(("Backward0", "Backward")):  # a custom Function's node: its class's name, then Backward
            return name[:name.rindex("Backward")]
        return name.replace("Backward", "")
    return "torch::autograd::" + name


class Node(metaclass=TorchClass):
    """A grad_fn: runs one op's vector-Jacobian product during backward (its class prints as torch's:
    <class 'MulBackward0'>)."""

    __slots__ = (
        "next_functions", "_op", "attrs", "_saved", "_seq", "_pre_hooks", "_tensor_hooks", "_retain_hooks", "_hooks",
        "_freed", "_shapes", "_dtypes", "_need", "_out_shape", "_out_dtype", "__weakref__", "_metadata", "_meta",
    )
    _n_outputs = 1  # how many tensors this node is the grad_fn of (a custom Function's node may have several)

    def __init__(self, op, next_functions, attrs, shapes, out_shape, out_dtype, need=None):
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
        self._need = need if need is not None else tuple([fn is not None for fn, _ in next_functions])
        self._out_shape = out_shape
        self._out_dtype = out_dtype
        self._metadata = None
        self._meta = None  # the input strides PyTorch's node keeps (`self_sym_strides`), when it keeps them

    @classmethod
    def _fresh(cls, op, next_functions, attrs, shapes, out_shape, out_dtype, need):
        """cls(...) without __init__'s call, for the node of every recorded op: the same state as __init__ sets."""
        self = _new_object(cls)
        self._op = op
        self.next_functions = next_functions
        self.attrs = attrs
        self._saved = {}
        self._seq = next(_sequence)
        self._pre_hooks = self._tensor_hooks = self._retain_hooks = self._hooks = None
        self._freed = False
        self._shapes = shapes
        self._dtypes = None
        self._need = need
        self._out_shape = out_shape
        self._out_dtype = out_dtype
        self._metadata = self._meta = None
        return self

    def name(self):
        name = type(self).__name__
        return "torch::autograd::NotImplemented" if name == "NotImplemented" else name

    @property
    def metadata(self):
        """A dict of the program's own, made when first asked for."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def __getitem__(self, key):
        """A saved tensor, checked: freed by an earlier backward, or changed in place since saved."""
        if self._freed:
            raise RuntimeError(messages.BACKWARD_TWICE)
        return self._saved[key].unpack(not _MODE["enabled"])

    def _read_saved(self, name):
        """grad_fn._saved_<name> and _raw_saved_<name>, named as PyTorch names them (see saved_attributes): the
        properties expose_saved gives each node class (a __getattr__ would slow every attribute read of a node)."""
        if name.startswith(("_saved_", "_raw_saved_")):
            raw = name.startswith("_raw")
            key = name[len("_raw_saved_" if raw else "_saved_"):]
            kind = saved_attributes(self).get(key)
            if kind == "tensor":
                saved = self._saved.get(key)
                if raw:
                    if saved is None:
                        freed = self._freed and key in self._freed
                        return _freed_saved_tensor() if freed else SavedTensor(None, None)
                    return saved
                if saved is not None and saved.number is not None:
                    return _wrapped_number(saved)
                if saved is not None or self._freed and key in self._freed:
                    return self[key]
                return None
            if kind is not None and not raw:
                return kind(self)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):
        names = saved_attributes(self)
        extra = [f"_saved_{k}" for k in names] + [f"_raw_saved_{k}" for k, v in names.items() if v == "tensor"]
        return sorted(set(object.__dir__(self)) | set(extra))

    def _sequence_nr(self):
        return 2**64 - 1 if self._seq == float("inf") else self._seq

    def _apply(self, grad):
        """The grads this node sends along next_functions, given the grad of its output."""
        if grad is None:
            return (None,) * len(self.next_functions)
        op = self._op
        grads = op.grads
        variadic = op.variadic
        shapes = self._shapes
        out = []
        i = -1
        for fn, _ in self.next_functions:
            i += 1
            if fn is None:
                out.append(None)
                continue
            g = grads[0][1](self, grad, i) if variadic else grads[i][1](self, grad)
            if g is not None:
                if (g._data.shape if type(g) not in SAMPLE_SHAPED else tuple(g.shape)) != shapes[i]:
                    if not expandable(self._shapes[i], g.shape):
                        raise RuntimeError(f"Function {self.name()} returned an invalid gradient at index {i} - got "
                                           f"{list(g.shape)} but expected shape compatible with "
                                           f"{list(self._shapes[i])}")
                    if observe._observers:
                        observe.emit("on_unbroadcast", self, i, g)
                    g = g.sum_to_size(self._shapes[i])
                if self._dtypes is not None and g.dtype is not self._dtypes[i]:
                    if g.dtype.is_complex and not self._dtypes[i].is_complex:
                        g = g.real  # ATen's handle_r_to_c: a real input's grad is the real part
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
            self._freed = tuple(self._saved)  # the names freed: reading one now raises
            self._saved = {}
            if observe._observers:
                observe.emit("on_free", self)

    def register_prehook(self, fn):
        """fn(grad_outputs) -> None or new grad_outputs, before the node runs."""
        if self._pre_hooks is None:
            self._pre_hooks = []
        self._pre_hooks.append(fn)
        return RemovableHandle(self._pre_hooks, fn)

    def _register_tensor_hook(self, fn, output_nr=0):
        if self._tensor_hooks is None:
            self._tensor_hooks = []
        entry = (output_nr, fn)
        self._tensor_hooks.append(entry)
        return RemovableHandle(self._tensor_hooks, entry)

    def register_hook(self, fn):
        """fn(grad_inputs, grad_outputs) -> None or new grad_inputs, after the node ran."""
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(fn)
        return RemovableHandle(self._hooks, fn)

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"


class AccumulateGrad(Node):
    """The sink of a leaf: adds the arriving grad into `variable.grad`."""

    __slots__ = ("variable", "_post_accumulate")
    _torch_name = "AccumulateGrad"

    def __init__(self, variable):
        Node.__init__(self, None, (), {}, (), variable.shape, variable.dtype)
        self._seq = float("inf")  # PyTorch gives AccumulateGrad the highest sequence number: runs once ready
        self.variable = variable
        self._post_accumulate = None

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def _apply(self, grad):
        if grad is not None:
            self.variable._accumulate(grad)
            for hook in tuple(self._post_accumulate or ()):
                hook(self.variable)
        return ()

    def formula(self):
        return ()


class RemovableHandle:
    """What register_hook returns (torch.utils.hooks.RemovableHandle): .remove() unregisters the hook."""

    __slots__ = ("_list", "_fn", "id")

    def __init__(self, lst, fn):
        self._list = lst
        self._fn = fn
        self.id = next(_handle_ids)

    def remove(self):
        if isinstance(self._list, dict):  # a module's hooks, by id
            self._list.pop(self.id, None)
        elif self._fn in self._list:
            self._list.remove(self._fn)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()

    def __repr__(self):
        return f"<torch.utils.hooks.RemovableHandle object at {id(self):#x}>"


_node_classes = {}


def node_class(name, several=False):
    """The Node subclass called `name` (`MulBackward0`), so that type(t.grad_fn).__name__ is PyTorch's; several:
    its nodes have several outputs (UnbindBackward0), how many set per node."""
    key = (name, True) if several else name  # one name, one output or several (native_group_norm's and F's)
    cls = _node_classes.get(key)
    if cls is None:
        cls = _node_classes[key] = type(name, (Node,), {"__slots__": ("_n_outputs",) if several else (),
                                                         "_torch_name": name})
        for op in OPS.values():
            if op.node == name:
                expose_saved(cls, op)
    return cls


def expose_saved(cls, op):
    """`_saved_<name>` and `_raw_saved_<name>` of what op's node keeps, as properties of its node class (each
    reads what this node's own op keeps: another op of the same node name may keep other names)."""
    for key in kept(op):
        for name in (f"_saved_{key}", f"_raw_saved_{key}"):
            if name not in cls.__dict__:
                setattr(cls, name, property(lambda self, name=name: self._read_saved(name)))


class CopySlices(Node):
    """What an in-place op on a view leaves on the base: outside the view's region the grad flows to the
    base's old grad_fn; inside it flows through the inner op's node."""

    _torch_name = "CopySlices"

    __slots__ = ("_inner", "_region")

    def __init__(self, base_edge, base_shape, region, inner):
        Node.__init__(self, None, (base_edge,) + inner.next_functions[1:], {}, (base_shape,) + inner._shapes[1:],
                      base_shape, inner._out_dtype)
        self._inner = inner
        self._region = region
        self._saved = inner._saved
        self._need = (base_edge[0] is not None,) + inner._need[1:]

    def name(self):
        return "torch::autograd::CopySlices"

    def _apply(self, grad):
        return region_grad(self, grad)

    def release(self):
        if self._saved:
            self._inner._freed = tuple(self._saved)
            self._inner._saved = {}
        Node.release(self)

    def formula(self):
        return ("grad outside the written region",) + self._inner.formula()[1:]


_node_classes["CopySlices"] = CopySlices


def expandable(shape, to):
    """Whether a tensor of `shape` broadcasts to `to` (a grad of shape `to` can be summed back to `shape`)."""
    if len(shape) > len(to):
        return False
    return all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(to)))


def edge(t):
    """The (node, input number) a grad for tensor t goes to: its grad_fn, its AccumulateGrad, or nowhere."""
    fn = t.grad_fn
    if fn is not None:
        return (fn, t._output_nr)
    if t._requires_grad:
        return (t._accumulate_grad(), 0)
    return (None, 0)


def as_strided(view, base_edge):
    """The grad_fn PyTorch gives a view whose base was written in place: the view's region of the base, and its
    geometry in the base's memory (sizes, strides and offset in elements), as as_strided keeps them."""
    attrs = {"region": view._view_fn, "size": view._data.shape, "stride": view.stride(),
             "storage_offset": view.storage_offset()}
    return node_class("AsStridedBackward0")(
        OPS["as_strided"], (base_edge,), attrs, (view._base.shape,), view.shape, view.dtype)


def saved_attributes(node):
    """What `grad_fn._saved_<name>` reads, per name (ops.table.kept): "tensor" for a saved tensor (None when this
    node did not need it), else a function of the node giving the value kept."""
    op = node._op
    if op is None or isinstance(node, CopySlices):
        return {}
    getters = op.saved_cache.get("getters")
    if getters is None:
        defaults = _defaults(op.forward)
        getters = op.saved_cache["getters"] = {
            name: "tensor" if kind == "tensor" else _meta_getter(op, name) if kind == "meta"
            else _attr_getter(name, defaults.get(name), kind == "list", _groups(op, name))
            for name, kind in kept(op).items()}
    return getters


def attribute_tensors(node):
    """The tensors a node keeps among its attributes (max's indices, nll_loss's target, index's indices), as
    (name, tensor or None): a tuple of them (index's `indices`, None for a dim not indexed) as `name[i]`."""
    out = []
    attrs = node.attrs
    if not attrs or not any(hasattr(v, "_data") or type(v) in (tuple, list) for v in attrs.values()):
        return out  # only an attribute given as a tensor (or tensors) is one
    for name, kind in saved_attributes(node).items():
        if kind == "tensor":
            continue
        v = kind(node)
        if hasattr(v, "_data"):
            out.append((name, v))
        elif isinstance(v, tuple) and any(hasattr(x, "_data") for x in v):
            out += [(f"{name}[{i}]", x) for i, x in enumerate(v)]
    return out


def _defaults(forward):
    try:
        params = inspect.signature(forward).parameters.values()
    except (TypeError, ValueError):  # numpy's ufuncs
        return {}
    return {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}


# int64_t in ATen
_INT64 = frozenset("dim dim0 dim1 dim2 dims offset index start end step repeats ignore_index diagonal shifts k "
                   "dimension length".split())
_REDUCTION = {"none": 0, "mean": 1, "sum": 2}  # at::Reduction


def _groups(op, name):
    """The inputs whose derivatives read the attribute `name`."""
    return tuple(i for i, group in op.saves.items() if name in group or name + "[]" in group)


def _attr_getter(name, default, is_list, groups):
    """An attribute as PyTorch's node gives it: an int64 argument read as unsigned (-1 is 2**64 - 1), a list of
    ints as a tuple, a reduction as its enum value; a tensor (an index) is a saved tensor, None when no input
    whose derivative reads it needs grad."""
    def fix(v):
        if name in _INT64 and type(v) is int and v < 0:
            return v + 2**64
        return v

    def get(node):
        v = node.attrs.get(name, default)
        if hasattr(v, "_data") and not any(node._need[i] for i in groups):
            return None
        if name == "reduction" and isinstance(v, str):
            return _REDUCTION[v]
        if is_list and v is not None:
            return tuple(fix(x) for x in (v if isinstance(v, (tuple, list)) else (v,)))
        return fix(v)

    return get


def _meta_getter(op, name):
    """An input's sizes or element count (kept whatever needs grad) or strides (kept with the saved tensors)."""
    for suffix in META:
        if name.endswith(suffix):
            i = op.args.index(name[:-len(suffix)])
            break
    if suffix == "_sym_sizes":
        return lambda node: tuple(node._shapes[i])
    if suffix == "_sym_numel":
        return lambda node: math.prod(node._shapes[i])
    if suffix == "_sym_argsize_0":
        return lambda node: node._shapes[i][0]
    if suffix in ("_sym_argsize_minus_1", "_sym_argsize_minus_2"):
        return lambda node, at=-int(suffix[-1]): node._shapes[i][at]
    return lambda node: (node._meta or {}).get(name, ())
