"""vmap's batched tensors and the batching rules of the ops, as functorch has them.

Inside vmap a mapped input is a BatchedTensor: a tensor of the sample's (logical) shape whose value is the
whole batch, with the batch dim in front (at level n of nested vmaps, the value is itself batched at the levels
outside). An op of the table given a BatchedTensor runs once, on the values, by the rule its declaration implies
(elementwise ops pad the batched operands to one rank, ops with dims shift them past the batch dim, views take
the batch dim in their shape, matrix products fold or batch it); the ops on the values record the graph, as
torch's batching rules do on the physical tensors. An op with no rule runs once per sample and the results are
stacked (torch's slow fallback). Code that reads a BatchedTensor's numbers (`x._data`: a bind that looks at the
values, `.item()`, factories `*_like`) raises DataRead, and vmap then runs the whole function per sample.
"""
import numpy as np

from .. import dispatch, graph, methods
from ..ops import OPS
from ..tensor import Size, Tensor

LEVELS = []  # the batch size of each vmap running, outermost first (its level is its index + 1)
_STACK = methods.FUNCTIONS["stack"]


class DataRead(Exception):  # noqa: N818 (a signal to vmap, not an error a learner sees)
    """A BatchedTensor's numbers were asked for: vmap runs the function per sample instead."""


class BatchedTensor(Tensor):
    """A tensor of the sample's shape inside vmap; `_value` holds the batch (batch dim 0) at vmap level `_level`."""

    @classmethod
    def wrap(cls, value, level, bdim=0):
        t = Tensor._make(np.empty((0,), dtype=value.dtype.np), value.dtype)
        t.__class__ = cls
        t.__dict__["_value"] = value
        t.__dict__["_level"] = level
        t.__dict__["_bdim"] = bdim
        return t

    @property
    def _data(self):
        raise DataRead

    @_data.setter
    def _data(self, value):  # Tensor._make sets it once; a program's writes into a batched tensor are refused
        if "_value" in self.__dict__:
            raise DataRead

    @property
    def shape(self):
        shape = self._value.shape
        return Size(shape[:self._bdim] + shape[self._bdim + 1:])

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[self._dim(dim)]

    def dim(self):
        return self._value.dim() - 1

    ndim = property(dim)

    def numel(self):
        return int(np.prod(self.shape, dtype=np.int64))

    nelement = numel

    def _dim(self, dim, ndim=None):
        return Tensor._dim(_Shape(self.dim()), dim, ndim)

    def __len__(self):
        if not self.dim():
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    # A batched tensor's own graph is the one grad records inside vmap (torch's grad level above the vmap level):
    # the op on the samples, its derivative run on batched grads. Its value's graph is the physical ops'.
    @property
    def requires_grad(self):
        return self._grad_fn is not None or self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        self._value.requires_grad = value

    def requires_grad_(self, requires_grad=True):
        self._value.requires_grad_(requires_grad)
        return self

    @property
    def grad_fn(self):
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, fn):
        self._grad_fn = fn
        self._output_nr = 0

    @property
    def is_leaf(self):
        return self._grad_fn is None

    def detach(self):
        return BatchedTensor.wrap(self._value.detach(), self._level, self._bdim)

    def untracked(self):
        """This batched tensor without grad's graph of the samples (its value keeps its own)."""
        return BatchedTensor.wrap(self._value, self._level, self._bdim)

    _saved_alias = untracked  # a saved output of grad's graph of the samples: torch's levels keep the value's graph

    def is_contiguous(self, memory_format=None):
        return True

    def __repr__(self, *, tensor_contents=None):
        inner = repr(self._value).replace("\n", "\n    ")
        return f"BatchedTensor(lvl={self._level}, bdim={self._bdim}, value=\n    {inner}\n)"

    __str__ = __repr__

    def __format__(self, spec):
        return repr(self) if not spec else format(str(self), spec)

    def __deepcopy__(self, memo):
        raise DataRead


graph.SAMPLE_SHAPED.add(BatchedTensor)


class _Shape:
    def __init__(self, n):
        self._data = np.empty((0,) * n)


def level_of(x):
    return x._level if type(x) is BatchedTensor else 0


def unwrap(x, level):
    """The value of x at this level with its batch dim first, or None where x is not batched there."""
    return front(x) if type(x) is BatchedTensor and x._level == level else None


def front(x):
    """A batched tensor's value with the batch dim first (moved there, as torch's rules move it)."""
    return x._value if x._bdim == 0 else x._value.movedim(x._bdim, 0)


def physical(x):
    """x with every level's batch dim (outermost first) as a plain tensor, and the levels it is batched at."""
    levels = []
    while type(x) is BatchedTensor:
        levels.append(x._level)
        x = front(x)
    return x, levels[::-1]


def full_batch(x):
    """x batched at every running vmap level (expanded where it is not): grad inside vmap differentiates each
    sample's function, so an input the same for every sample needs its own copy per sample."""
    base, levels = physical(x)
    for depth, size in enumerate(LEVELS):
        if depth + 1 not in levels:
            base = base.unsqueeze(depth)
            base = base.expand(*base.shape[:depth], size, *base.shape[depth + 1:])
    return rewrap(base)


def rewrap(base):
    for level in range(1, len(LEVELS) + 1):
        base = BatchedTensor.wrap(base, level)
    return base


def hook(op, inputs, attrs, dtype):
    """dispatch.apply's hook while vmap runs: the op by its batching rule when an input is batched."""
    level = 0
    for x in inputs:
        if type(x) is BatchedTensor and x._level > level:
            level = x._level
        elif isinstance(x, (list, tuple)):
            for y in x:
                if type(y) is BatchedTensor and y._level > level:
                    level = y._level
    if not level:
        return NotImplemented
    rule = _RULES.get(op.name)
    if rule is None:
        rule = _pointwise if op.pointwise and not op.several and "dim" not in (attrs or {}) else _loop
    out = rule(op, inputs, dict(attrs or {}), dtype, level)
    if out is NotImplemented:
        out = _loop(op, inputs, dict(attrs or {}), dtype, level)
    if dispatch._MODE["enabled"] and any(x.requires_grad for x in _tensors(inputs)):
        _record(op, inputs, attrs, out, dtype)
    return out


def _record(op, inputs, attrs, out, dtype):
    """grad's node of the op on the samples (inputs and output batched tensors), as torch's grad level records it."""
    dtype = dtype or (out[0] if isinstance(out, tuple) else out).dtype
    if not dtype.is_floating_point:
        return
    if not isinstance(out, tuple):
        dispatch._record(op, inputs, attrs or {}, out, dtype)
        return
    node = dispatch.make_node(op, list(inputs), attrs or {}, out[0], dtype)
    node._n_outputs = len(out)
    for i, o in enumerate(out):
        o.grad_fn = node
        o._output_nr = i


def inplace_hook(op, t, others, attrs, result):
    """dispatch.inplace's hook: `x.add_(y)` on a batched x writes into its value; into an unbatched x from a
    batched y is refused as torch does."""
    level = max([level_of(t), *(level_of(o) for o in others)])
    if not level:
        return NotImplemented
    if any(type(x) is BatchedTensor and x.requires_grad for x in (t, *others)):
        raise DataRead  # grad's graph of the samples does not follow in-place writes: per sample instead
    value = unwrap(t, level)
    if value is None:  # torch's in-place kernel meets the batch: the same sizes' error
        size = LEVELS[level - 1]
        shapes = [tuple(x.shape) for x in (t, *others) if isinstance(x, Tensor)]
        broadcast = list(np.broadcast_shapes(*shapes))
        raise RuntimeError(f"output with shape {list(t.shape)} doesn't match the broadcast shape {[size, *broadcast]}")
    rank = max(x.dim() for x in (t, *others) if isinstance(x, Tensor))
    args = [_pad(unwrap(o, level), o.dim(), rank) if level_of(o) == level else o for o in others]
    dispatch.inplace(op, value, args, attrs, result)
    return t


def _wrap(out, level):
    if isinstance(out, tuple):
        return tuple(BatchedTensor.wrap(o, level) for o in out)
    return BatchedTensor.wrap(out, level)


def _pad(value, rank, to):
    """A batched value (batch dim 0, logical rank `rank`) viewed with size-1 dims after the batch dim up to `to`."""
    if rank >= to:
        return value
    return value.view(value.shape[0], *([1] * (to - rank)), *value.shape[1:])


def _pointwise(op, inputs, attrs, dtype, level):
    if len(op.args) == 1:  # a unary op: the batch dim stays where it is
        x = inputs[0]
        return BatchedTensor.wrap(dispatch.apply(op, [x._value], attrs, dtype), level, x._bdim)
    rank = max(x.dim() for x in inputs if isinstance(x, Tensor))
    args = [_pad(front(x), x.dim(), rank) if level_of(x) == level else x for x in inputs]
    return _wrap(dispatch.apply(op, args, attrs, dtype), level)


def _loop(op, inputs, attrs, dtype, level):
    """torch's slow fallback: the op on each sample, the results stacked."""
    size = next(front(x).shape[x._bdim] for x in _tensors(inputs) if level_of(x) == level)

    def sample(x, b):
        if isinstance(x, (list, tuple)):
            return type(x)(sample(y, b) for y in x)
        return front(x).select(0, b) if level_of(x) == level else x

    results = [dispatch.apply(op, [sample(x, b) for x in inputs], attrs, dtype) for b in range(size)]
    if isinstance(results[0], tuple):
        return tuple(BatchedTensor.wrap(_STACK(list(col)), level) for col in zip(*results))
    return BatchedTensor.wrap(_STACK(results), level)


def _tensors(inputs):
    for x in inputs:
        if isinstance(x, (list, tuple)):
            yield from _tensors(x)
        elif isinstance(x, Tensor):
            yield x


def _shift(dim):
    if dim is None:
        return None
    if isinstance(dim, (list, tuple)):
        return type(dim)(_shift(d) for d in dim)
    return dim + 1 if dim >= 0 else dim


def _dims(*names):
    """The rule of an op of one input whose attrs `names` are dims of it: each counted past the batch dim."""
    def rule(op, inputs, attrs, dtype, level):
        if len(inputs) != 1 or level_of(inputs[0]) != level:
            return NotImplemented
        for name in names:
            if name in attrs:
                if attrs[name] is None:
                    return NotImplemented
                attrs[name] = _shift(attrs[name])
        return _wrap(dispatch.apply(op, [front(inputs[0])], attrs, dtype), level)

    return rule


def _squeeze_(op, inputs, attrs, dtype, level):
    """The squeeze_ of matmul's 1-d @ 2-d: squeeze_(dims) past the batch dim (SqueezeBackward5)."""
    x = inputs[0]
    if level_of(x) != level:
        return NotImplemented
    dims = attrs["dim"] if isinstance(attrs["dim"], (list, tuple)) else (attrs["dim"],)
    return _wrap(dispatch.apply(OPS["squeeze_dims_"], [front(x)], {"dim": _shift(tuple(dims))}, dtype), level)


def _full_minmax(op, inputs, attrs, dtype, level):
    """max() and min(): the batch's samples flattened, then max(dim=1) (MaxBackward0)."""
    value = front(inputs[0])
    flat = value.view(value.shape[0], -1)
    return _wrap(getattr(flat, op.name)(1)[0], level)


def _mse(op, inputs, attrs, dtype, level):
    """mse_loss as functorch's rule: each sample's elements flattened, the loss of each (reduction none), then
    reduced over them."""
    x, y = inputs
    reduction = attrs["reduction"]
    size = LEVELS[level - 1]
    shape = np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
    args = []
    for t in (x, y):
        v = front(t) if level_of(t) == level else t.unsqueeze(0)
        if tuple(v.shape) != (size, *shape):
            v = v.expand(size, *shape)
        args.append(v.flatten(1) if shape else v)
    none = {**attrs, "reduction": _NONE.get(type(reduction), "none")}
    if reduction in ("none", 0):
        return _wrap(dispatch.apply(op, [front(x) if level_of(x) == level else x, front(y) if level_of(y) == level else
                                         y], none, dtype), level) if x.dim() == y.dim() else NotImplemented
    loss = dispatch.apply(op, args, none, dtype)
    if not shape:
        return _wrap(loss, level)
    return _wrap(loss.mean(-1) if reduction in ("mean", 1) else loss.sum(-1), level)


_NONE = {int: 0, str: "none"}


def _full_reduction(into):
    """sum() and mean() of a batched tensor: the dim form over every dim but the batch dim (SumBackward1)."""
    def rule(op, inputs, attrs, dtype, level):
        x = inputs[0]
        if len(inputs) != 1 or level_of(x) != level:
            return NotImplemented
        value = front(x) if x.dim() else front(x).unsqueeze(-1)  # a 0-d sample: its one element's dim
        attrs["dim"] = tuple(range(1, max(x.dim(), 1) + 1))
        attrs.setdefault("keepdim", False)
        return _wrap(dispatch.apply(OPS[into], [value], attrs, dtype), level)

    return rule


def _shaped(op, inputs, attrs, dtype, level):
    """view, reshape, expand: the batch dim leads the new shape."""
    x = inputs[0]
    if len(inputs) != 1 or level_of(x) != level:
        return NotImplemented
    value = front(x)
    if op.name == "expand":  # new dims lead each sample's: after the batch dim
        value = _pad(value, x.dim(), len(attrs["shape"]))
    attrs["shape"] = (value.shape[0], *attrs["shape"])
    return _wrap(dispatch.apply(op, [value], attrs, dtype), level)


def _permute(op, inputs, attrs, dtype, level):
    x = inputs[0]
    if level_of(x) != level:
        return NotImplemented
    attrs["dims"] = (0, *(d % max(x.dim(), 1) + 1 for d in attrs["dims"]))
    return _wrap(dispatch.apply(op, [front(x)], attrs, dtype), level)


def _t(op, inputs, attrs, dtype, level):
    x = inputs[0]
    if level_of(x) != level or x.dim() < 2:
        return NotImplemented
    return _wrap(front(x).transpose(1, 2), level)


def _index(op, inputs, attrs, dtype, level):
    """x[key] with a key of ints and slices: the key after a full slice of the batch dim."""
    x = inputs[0]
    key = attrs.get("key")
    if len(inputs) != 1 or level_of(x) != level or not isinstance(key, tuple) or \
            not all(isinstance(k, (int, slice)) or k is None or k is Ellipsis for k in key):
        return NotImplemented
    return _wrap(front(x)[(slice(None), *key)], level)


def _products(op, inputs, attrs, dtype, level):
    """mm, mv, dot, bmm: by matmul on the values (which folds the batch dim into the rows or batches it), as
    functorch's rules do."""
    a, b = inputs
    va, vb = unwrap(a, level), unwrap(b, level)
    if op.name == "dot":
        if va is not None and vb is not None:
            return _wrap(va.unsqueeze(-2).matmul(vb.unsqueeze(-1)).squeeze(-1).squeeze(-1), level)
        if va is not None:
            return _wrap(va.matmul(b.t()), level)
        return _wrap(vb.matmul(a.t()), level)
    if op.name == "mv" and va is None:
        return _wrap(a.mm(vb.t()).movedim(1, 0), level)
    if op.name == "mv" and vb is not None:
        return _wrap(va.matmul(vb.unsqueeze(-1)).squeeze(-1), level)
    if op.name == "mm" and va is None:
        return _wrap(a.matmul(vb), level)
    return _wrap((a if va is None else va).matmul(b if vb is None else vb), level)


def _addmm(op, inputs, attrs, dtype, level):
    """addmm(bias, x, w) (nn.Linear on a batch): beta * bias, plus the product of the values."""
    bias, m1, m2 = inputs
    product = dispatch.apply(OPS["mm"], [m1, m2], None, None)
    alpha, beta = attrs.get("alpha", 1), attrs.get("beta", 1)
    scaled = dispatch.apply(OPS["mul_scalar"], [bias], {"other": beta}, None)
    return scaled + (product if alpha == 1 else product * alpha)


def _convolution(op, inputs, attrs, dtype, level):
    """A batch of inputs (N, C, …) per sample against one weight: the batch folded into N, then unfolded."""
    x, weight, *rest = inputs
    if level_of(x) != level or level_of(weight) == level or any(level_of(r) == level for r in rest):
        return NotImplemented
    v = front(x)
    folded = v.reshape(v.shape[0] * v.shape[1], *v.shape[2:])
    out = dispatch.apply(op, [folded, weight, *rest], attrs, dtype)
    return _wrap(out.view(v.shape[0], v.shape[1], *out.shape[1:]), level)


def _stack_cat(op, inputs, attrs, dtype, level):
    tensors = inputs
    dim = attrs.get("dim", 0)
    rank = max(t.dim() for t in tensors) + (1 if op.name == "stack" else 0)
    size = next(t._value.shape[t._bdim] for t in tensors if level_of(t) == level)
    values = []
    for t in tensors:
        v = unwrap(t, level)
        values.append(v if v is not None else t.unsqueeze(0).expand(size, *t.shape))
    attrs["dim"] = dim % max(rank, 1) + 1 if dim >= 0 else dim
    return _wrap(dispatch.apply(op, values, attrs, dtype), level)


_RULES = {
    **dict.fromkeys(("softmax", "log_softmax", "sum_dim", "mean_dim", "max_dim", "min_dim", "logsumexp", "cumsum",
                     "cumprod", "amax", "amin", "nansum", "unsqueeze", "squeeze_dim", "squeeze_dims", "select",
                     "slice", "unbind", "split", "split_with_sizes", "glu", "narrow_copy", "prod_dim", "flip",
                     "var", "vector_norm", "norm", "cummax", "var_mean", "std_mean", "index_select"), _dims("dim")),
    "transpose": _dims("dim0", "dim1"),
    "diagonal": _dims("dim1", "dim2"),
    "unfold": _dims("dimension"),
    "roll": _dims("dims"),
    "sum": _full_reduction("sum_dim"),
    "squeeze_": _squeeze_,
    "max": _full_minmax,
    "min": _full_minmax,
    "mse_loss": _mse,
    "mean": _full_reduction("mean_dim"),
    **dict.fromkeys(("view", "reshape_alias", "unsafe_view", "expand"), _shaped),
    "permute": _permute,
    "t": _t,
    "index": _index,
    **dict.fromkeys(("mm", "mv", "dot", "bmm"), _products),
    "addmm": _addmm,
    "convolution": _convolution,
    **dict.fromkeys(("stack", "cat"), _stack_cat),
}

